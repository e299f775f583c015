"""narraeon-compatible prompt compiler for Loreweaver.

Public API (import from the submodules; this package stays import-light):

- :mod:`lw_narraeon.compiler` -- ``compile_prompt``, ``compile_call_chain``, the three
  per-protocol entry points registered with the kernel, ``compile_request`` (batch form).
- :mod:`lw_narraeon.dirhandles` -- ``encode_dir_handle`` / ``parse_dir_handle``.
- :mod:`lw_narraeon.canonical` -- ``js_json`` (``JSON.stringify``-compatible output).
- :mod:`lw_narraeon.codec` -- validators for saved compiler output.
- :mod:`lw_narraeon.tools` -- the runtime tool catalogue (pydantic argument models).
"""

__version__ = "0.5.2"
