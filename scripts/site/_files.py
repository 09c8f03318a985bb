"""Writing the site's staged files: atomically, and only when their content changes (rebuilds stay cheap)."""
from __future__ import annotations

import os
import pathlib
import tempfile

__all__ = ["write_bytes_if_changed", "write_text_if_changed"]


def write_bytes_if_changed(path: pathlib.Path, data: bytes) -> bool:
    """Replace ``path`` with ``data`` through a temporary file, unless it already holds exactly that."""
    if path.is_file() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    with os.fdopen(handle, "wb") as out:
        out.write(data)
    os.replace(tmp, path)
    return True


def write_text_if_changed(path: pathlib.Path, text: str) -> bool:
    """:func:`write_bytes_if_changed` for UTF-8 text."""
    return write_bytes_if_changed(path, text.encode("utf-8"))
