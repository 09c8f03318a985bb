"""The one error of a bad audit input, and the "did you mean" of a misspelt name.

Every check of ``faircode.audit`` raises ``AuditInputError`` (a ``ValueError``), whose message says what arrived,
what was expected and, for a name, the closest valid one; the command line turns it into exit code 2 and a message
on stderr, before any output file is written.
"""
from __future__ import annotations

import difflib

EXIT_OK, EXIT_GATE, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3
"""Exit codes of ``python -m faircode audit``: 0 every condition passed, 1 a --fail-on condition failed, 2 bad input,
3 an internal error (a bug: never 1, so that a crash is not read as a failed gate)."""


class AuditWarning(UserWarning):
    """An input ``faircode.audit`` can audit but that is probably not what was meant (group names that differ only
    in case or spaces, a group column with very many values); the command line prints it as a warning line."""


class AuditInputError(ValueError):
    """An input ``faircode.audit`` cannot audit: a missing column, a label that is not binary, a file it cannot
    read. The message names what arrived and what was expected."""


def closest(name, valid) -> str:
    """`` (closest: 'x')`` for the valid name most like ``name``, or an empty string when none is close."""
    valid = [str(v) for v in valid]
    match = difflib.get_close_matches(str(name), valid, n=1, cutoff=0.5)
    if not match:  # a difference of letter case only ("Race" for "race") still deserves a hint
        lowered = {v.lower(): v for v in valid}
        match = [lowered[str(name).lower()]] if str(name).lower() in lowered else []
    return f" (closest: {match[0]!r})" if match else ""


def listed(values, limit: int = 12) -> str:
    """Up to ``limit`` values as ``'a', 'b', ... (N in all)``."""
    values = [repr(v) for v in values]
    shown = ", ".join(values[:limit])
    return shown + (f", ... ({len(values)} in all)" if len(values) > limit else "")
