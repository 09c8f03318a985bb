"""The build cache: per page, the key of its last successful run, its outputs and the files it wrote.

It lives in ``.cache/`` (git-ignored): a fresh clone runs every page once. An entry is written only after a
page ran and its files were written, so a failed or interrupted run can never be mistaken for a good one.
"""
from __future__ import annotations

import hashlib
import json
import pathlib
import sys

from ._files import write_if_changed

# Bump when the meaning of cached outputs changes; every page then runs again.
FORMAT = 1
# Build modules whose code shapes what a page's run produces.
_RUNNER_FILES = ("_child.py", "_execute.py", "_warm.py", "figures.mplstyle")
_SKIP_DIRS = {"__pycache__", "code", "figures"}


def _hash_tree(digest, root, folder, keep):
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(root)
        if path.is_file() and keep(path) and not _SKIP_DIRS.intersection(relative.parts[:-1]):
            digest.update(relative.as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())


def dependencies_digest(config) -> str:
    """Hash of everything every page depends on: faircode's source, the audit data, the pinned versions,
    the Python version, the runner's code and the figure settings."""
    root = config.root
    digest = hashlib.sha256(f"format {FORMAT}; python {sys.version_info[:2]}; dpi {config.dpi}".encode())
    faircode = root / "faircode"
    if faircode.is_dir():
        _hash_tree(digest, root, faircode, lambda p: p.suffix not in (".pyc", ".pyo"))
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and (p / config.audit_manifest).is_file()):
        _hash_tree(digest, root, folder, lambda p: p.suffix != ".md" and not p.name.startswith("."))
    lock = root / "requirements.lock"
    if lock.is_file():
        digest.update(lock.read_bytes())
    here = pathlib.Path(__file__).parent
    for name in _RUNNER_FILES:
        digest.update((here / name).read_bytes())
    return digest.hexdigest()


def page_key(page, dependencies: str, timeout: float) -> str:
    """Key of a page's run: its runnable code and output names, its time limit and the dependencies.

    Prose and line numbers are left out, so editing prose never makes a page run again.
    """
    blocks = [[block.source, block.output] for block in page.runnable]
    payload = json.dumps({"blocks": blocks, "timeout": timeout, "deps": dependencies}, sort_keys=True)
    return hashlib.sha256(payload.encode()).hexdigest()


class Cache:
    """The cache file, read once and rewritten (atomically) after every page that built."""

    def __init__(self, path):
        self.path = pathlib.Path(path)
        self.pages = {}
        if self.path.is_file():
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = {}  # an unreadable cache only costs a re-run
            if data.get("format") == FORMAT:
                self.pages = data.get("pages", {})

    def get(self, path):
        return self.pages.get(path)

    def put(self, path, entry):
        self.pages[path] = entry
        payload = json.dumps({"format": FORMAT, "pages": self.pages}, indent=1, sort_keys=True)
        write_if_changed(self.path, payload.encode())
