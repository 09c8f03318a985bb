"""The build cache: per page, the key of its last successful run, its outputs and the files it wrote.

It lives in ``.cache/`` (git-ignored): a fresh clone runs every page once. An entry is written only after a
page ran and its files were written, so a failed or interrupted run can never be mistaken for a good one. A
cache file or entry of another shape (an older build, a hand edit, a truncated write) only costs a re-run.
"""
from __future__ import annotations

import hashlib
import json
import pathlib
import sys

from scripts import layout

from ._files import write_if_changed

# Bump when the meaning of cached outputs changes; every page then runs again.
FORMAT = 1
# Build modules whose code shapes what a page's run produces.
_RUNNER_FILES = ("_child.py", "_execute.py", "_server.py", "_warm.py", "_watchdog.py", "figures.mplstyle")


def _hash_files(digest, root, paths):
    for path in paths:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())


def dependencies_digest(config) -> str:
    """Hash of everything every page depends on: faircode's source, the audit data, the pinned versions,
    the Python version, the runner's code and the figure settings."""
    root = config.root
    digest = hashlib.sha256(f"format {FORMAT}; python {sys.version_info[:2]}; dpi {config.dpi}".encode())
    faircode = root / "faircode"
    if faircode.is_dir():
        _hash_files(digest, root, sorted(p for p in faircode.rglob("*") if p.is_file()
                                         and p.suffix not in (".pyc", ".pyo") and "__pycache__" not in p.parts))
    for folder in layout.audit_folders(root):
        _hash_files(digest, root, layout.audit_inputs(folder))
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


def _is_str(value):
    return isinstance(value, str)


def _valid_entry(entry) -> bool:
    """Whether a cache entry has the shape this build writes (a skipped page, or a page that ran)."""
    if not isinstance(entry, dict) or not _is_str(entry.get("deps")) or not _is_str(entry.get("page_sha")):
        return False
    if entry.get("skip") is True:
        return True
    figures, outputs, seconds = entry.get("figures"), entry.get("outputs"), entry.get("seconds")
    return (all(_is_str(entry.get(k)) for k in ("key", "script", "script_sha"))
            and isinstance(figures, dict) and all(map(_is_str, [*figures, *figures.values()]))
            and isinstance(entry.get("reports", {}), dict)
            and all(map(_is_str, [*entry.get("reports", {}), *entry.get("reports", {}).values()]))
            and isinstance(outputs, list)
            and all(isinstance(o, list) and len(o) == 2 and _is_str(o[0]) and isinstance(o[1], list)
                    and all(isinstance(f, list) and len(f) == 2 and all(map(_is_str, f)) for f in o[1])
                    for o in outputs)
            and (seconds is None or isinstance(seconds, (int, float)) and not isinstance(seconds, bool)))


class Cache:
    """The cache file, read once and rewritten (atomically) after every page that built.

    ``warnings`` says why entries were dropped (the build prints them); a dropped entry's page runs again.
    """

    def __init__(self, path):
        self.path = pathlib.Path(path)
        self.pages = {}
        self.warnings = []
        if not self.path.is_file():
            return
        again = "its pages run again"
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            self.warnings.append(f"cache file {self.path} cannot be read ({err}); {again}")
            return
        if not isinstance(data, dict) or not isinstance(data.get("pages"), dict):
            self.warnings.append(f"cache file {self.path} is not {{\"format\": {FORMAT}, \"pages\": {{...}}}} "
                                 f"(got {json.dumps(data)[:80]}); {again}")
            return
        if data.get("format") != FORMAT:
            return  # written by another version of the build: silently outdated, not damaged
        bad = sorted(page for page, entry in data["pages"].items() if not _valid_entry(entry))
        if bad:
            self.warnings.append(f"cache file {self.path}: entries of an unexpected shape for {', '.join(bad)}; "
                                 "those pages run again")
        self.pages = {page: entry for page, entry in data["pages"].items() if page not in bad}

    def get(self, path):
        return self.pages.get(path)

    def put(self, path, entry):
        self.pages[path] = entry
        self._write()

    def prune(self, existing) -> list[str]:
        """Drop the entries of pages not in ``existing``; return them (the file is rewritten if any went)."""
        gone = sorted(set(self.pages) - set(existing))
        for path in gone:
            del self.pages[path]
        if gone:
            self._write()
        return gone

    def _write(self):
        payload = json.dumps({"format": FORMAT, "pages": self.pages}, indent=1, sort_keys=True)
        write_if_changed(self.path, payload.encode())
