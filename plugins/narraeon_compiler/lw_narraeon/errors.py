"""The errors this plugin raises; both are :class:`lwcore.errors.LwError` (one-line CLI output)."""

from __future__ import annotations

from lwcore.api import LwError


class PromptCompilationError(LwError):
    """Compilation failed; ``code`` is the stable machine-readable reason.

    Codes: ``prompt_role_order_unsupported``, ``invalid_logical_messages``,
    ``invalid_request``, ``unsupported_provider``, ``unsupported_cache_strategy``,
    ``no_instruction_messages``.
    """

    code: str

    def __init__(self, code: str, message: str, details: list[str] | None = None) -> None:
        super().__init__(message, code=code)
        self.details = list(details or [])

    def reference_json(self) -> dict[str, object]:
        """``{"code", "message"}``: the error as the reference's batch response carries it
        (:func:`lw_narraeon.compiler.compile_request`). ``lw prompt compile --batch`` answers
        with the kernel's located error instead (:meth:`LwError.to_json` plus the line)."""
        return {"code": self.code, "message": self.message}


class DirHandleError(LwError, ValueError):
    """A directory cannot be encoded as a handle, or a string is not a canonical handle.

    The only exception :func:`lw_narraeon.dirhandles.parse_dir_handle` ever raises.
    """
