"""Atomic file writes that leave a file alone when its content is already right."""
from __future__ import annotations

import hashlib
import os
import pathlib
import tempfile


def sha256(data: bytes) -> str:
    """Hex SHA-256 of ``data``."""
    return hashlib.sha256(data).hexdigest()


def file_sha256(path) -> str | None:
    """Hex SHA-256 of a file's bytes, or None when it does not exist."""
    try:
        return sha256(pathlib.Path(path).read_bytes())
    except FileNotFoundError:
        return None


class ChangedOnDisk(Exception):
    """The file is no longer what the caller read, so writing would lose what someone else wrote."""


def write_if_changed(path, data: bytes, *, expected: bytes | None = None) -> bool:
    """Write ``data`` to ``path`` through a temporary file and ``os.replace``; return whether it changed.

    A reader (or a build killed half-way) sees either the old file or the new one, never a partial file.
    With ``expected`` (the bytes the caller read earlier), raise :class:`ChangedOnDisk` instead of writing
    when the file now holds something else, so an edit made meanwhile is never overwritten.
    """
    path = pathlib.Path(path)
    try:
        current = path.read_bytes()
    except FileNotFoundError:
        current = None
    if expected is not None and current != expected:
        raise ChangedOnDisk(path)
    if current == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        if path.exists():
            os.chmod(temp, path.stat().st_mode & 0o777)
        else:
            os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        pathlib.Path(temp).unlink(missing_ok=True)
        raise
    return True
