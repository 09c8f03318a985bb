"""What a page's outputs were produced from.

Provenance is content only (data checksums, pinned versions), never a clock time, so that two builds of the
same inputs give byte-identical pages.
"""
from __future__ import annotations

import ast
import functools
import hashlib
import pathlib
import re

from scripts import layout

__all__ = ["Provenance", "provenance", "audits_named", "sha256_file", "pinned_versions"]

# The libraries every page's numbers go through (faircode's own dependencies), shown first, in this order.
MAIN_LIBRARIES = ("fairlearn", "scikit-learn", "pandas", "numpy", "scipy", "matplotlib")
# Import names whose distribution on PyPI has another name.
_DISTRIBUTIONS = {"sklearn": "scikit-learn", "PIL": "pillow", "yaml": "PyYAML", "dateutil": "python-dateutil"}
_LOCK_LINE = re.compile(r"^(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)==(?P<version>\S+)\s*$")


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


class Provenance:
    """The inputs behind a page's outputs: audit data files with their SHA-256 and library versions.

    Parameters
    ----------
    data : list of (str, str)
        Repository path of each data file and its SHA-256, sorted by path.
    libraries : list of (str, str)
        Distribution name and pinned version.
    """

    def __init__(self, data: list[tuple[str, str]], libraries: list[tuple[str, str]]):
        self.data = data
        self.libraries = libraries


def audits_named(script: str, audit_names: list[str]) -> list[str]:
    """The audits a script reads: those whose folder name appears as a string constant in its code.

    Parameters
    ----------
    script : str
        Python source.
    audit_names : list of str
        The audit folder names that exist.

    Returns
    -------
    list of str
        Names in the order of ``audit_names``; a constant that equals the name or starts with ``name/`` counts.

    Examples
    --------
    >>> audits_named('load_audit("German Credit Lending")', ["Benefits Denial", "German Credit Lending"])
    ['German Credit Lending']
    """
    strings = {node.value for node in ast.walk(ast.parse(script))
               if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    return [name for name in audit_names
            if any(s == name or s.startswith(name + "/") for s in strings)]


@functools.lru_cache(maxsize=64)
def _sha256(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def sha256_file(path: pathlib.Path) -> str:
    """SHA-256 of a file, hex; computed once per build for each unchanged file."""
    stat = path.stat()
    return _sha256(str(path), stat.st_size, stat.st_mtime_ns)


def pinned_versions(lock: pathlib.Path, script: str) -> list[tuple[str, str]]:
    """Pinned versions of the main libraries and of every other locked library the script imports.

    Parameters
    ----------
    lock : pathlib.Path
        ``requirements.lock`` (``name==version`` lines).
    script : str
        Python source of the page's script.

    Returns
    -------
    list of (str, str)
        ``MAIN_LIBRARIES`` first, then the script's other imports alphabetically; only names found in the lock.
    """
    pins = {}
    for line in lock.read_text(encoding="utf-8").splitlines():
        match = _LOCK_LINE.match(line)
        if match:
            pins[_normal(match.group("name"))] = (match.group("name"), match.group("version"))
    imported = set()
    for node in ast.walk(ast.parse(script)):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            imported.add(node.module.split(".")[0])
    extra = sorted({_normal(_DISTRIBUTIONS.get(name, name)) for name in imported} - set(map(_normal, MAIN_LIBRARIES)))
    return [pins[_normal(name)] for name in (*MAIN_LIBRARIES, *extra) if _normal(name) in pins]


def provenance(root: pathlib.Path, script_path: pathlib.Path, audit_dirs: dict[str, pathlib.Path]) -> Provenance:
    """Provenance of one script: the data files of the audits it names and the pinned library versions.

    Parameters
    ----------
    root : pathlib.Path
        Repository root (holds ``requirements.lock``).
    script_path : pathlib.Path
        The page's generated script.
    audit_dirs : dict of str to pathlib.Path
        Audit name to its folder.

    Returns
    -------
    Provenance
    """
    script = script_path.read_text(encoding="utf-8")
    data = []
    for name in audits_named(script, list(audit_dirs)):
        for path in layout.audit_data(audit_dirs[name]):
            data.append((path.relative_to(root).as_posix(), sha256_file(path)))
    lock = root / "requirements.lock"
    libraries = pinned_versions(lock, script) if lock.is_file() else []
    return Provenance(data, libraries)
