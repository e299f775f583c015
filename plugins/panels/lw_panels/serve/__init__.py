"""``lw serve``: a small local web table for one room (needs ``loreweaver[serve]``).

:mod:`lw_panels.serve.table` plays and reads the room; :mod:`lw_panels.serve.app` is its
HTTP side (Starlette); :mod:`lw_panels.serve.command` the ``lw serve`` command (uvicorn).
"""
