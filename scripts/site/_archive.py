"""The project's source archive, built into the site so that a reader of the website can run any page.

It holds what running a page needs (``faircode``, the audit folders with their data, the explainers with their
scripts and figures, the notebooks, ``pyproject.toml``, ``requirements.lock``, the ``Makefile``, the build and the
site's sources, README and CONTRIBUTING) under one top folder, ``fair-code-project/``. It is deterministic: entries
in sorted order, a fixed timestamp and fixed permissions, so two builds of the same sources give the same bytes.
The standard library's ``zipfile`` writes it; only the entries' metadata needs fixing, which it allows.
"""
from __future__ import annotations

import io
import pathlib
import zipfile

from scripts import layout

__all__ = ["FOLDER", "archive_members", "build_archive"]

FOLDER = "fair-code-project"
# Top-level files and folders of the repository the archive carries, besides every audit folder.
TOP_FILES = ("README.md", "CONTRIBUTING.md", "LICENSE", "Makefile", "pyproject.toml", "requirements.lock",
             "mkdocs.yml")
TOP_FOLDERS = ("faircode", layout.EXPLAINERS, "scripts", "site_src", "site_theme")
_SKIP_PARTS = {"__pycache__", ".ipynb_checkpoints"}
_SKIP_SUFFIXES = (".pyc", ".pyo", ".tmp")
_EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip entry can carry


def _kept(path: pathlib.Path, root: pathlib.Path) -> bool:
    parts = path.relative_to(root).parts
    return (path.is_file() and not _SKIP_PARTS.intersection(parts) and not path.name.startswith(".")
            and not path.name.endswith(_SKIP_SUFFIXES))


def archive_members(root: pathlib.Path) -> dict[str, pathlib.Path]:
    """Archive path (under the repository root, slash-separated) to file, for every file the archive holds."""
    members = {}
    for name in TOP_FILES:
        if (root / name).is_file():
            members[name] = root / name
    folders = [root / name for name in TOP_FOLDERS]
    folders += layout.audit_folders(root)
    for folder in folders:
        for path in sorted(folder.rglob("*")) if folder.is_dir() else ():
            if _kept(path, root):
                members[path.relative_to(root).as_posix()] = path
    return members


def build_archive(root: pathlib.Path, extra: dict[str, bytes] | None = None) -> bytes:
    """The zip archive of the project's sources, as bytes.

    Parameters
    ----------
    root : pathlib.Path
        The repository root.
    extra : dict of str to bytes, optional
        Further files by archive path (the notebooks the site stages, which live outside the repository).

    Returns
    -------
    bytes
        A zip file whose entries all sit under ``fair-code-project/``, sorted, dated 1980-01-01.
    """
    contents = {path: file.read_bytes() for path, file in archive_members(root).items()}
    contents.update(extra or {})
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for path in sorted(contents):
            info = zipfile.ZipInfo(f"{FOLDER}/{path}", date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o100644 << 16  # a regular file, rw-r--r--
            info.create_system = 3  # Unix, so the permissions above are read
            archive.writestr(info, contents[path], compresslevel=9)
    return buffer.getvalue()
