"""The fit cache: results of expensive, deterministic fits, stored under ``.cache/fits/`` and shared by every
page and by the benchmark harness.

Built on :class:`joblib.Memory` (its store writes each result to a temporary file and renames it into place, so
a reader never sees half a result). What is stored is addressed by an explicit key: a hash of everything that
decides the result, given by the caller (the data's checksum, the feature columns, the training and test rows,
the estimator's class and ``get_params``, the seed, the measurement settings), to which :func:`fit_key` always
adds faircode's own source and the pinned library versions (``requirements.lock``). A change to any of them is
a new key, so a stale result can never be returned; old entries are simply never asked for again
(``make clean`` removes them). Module paths are in the key too: the source digest hashes each file's path inside
the package with its content, so moving a module (faircode's subpackages, 2026-12) makes every key new, and
joblib files each entry under the module and name of the function that stores it (``_stored`` here), so
entries stored before this module moved are not even looked at. What is stored is the harness's result rows
(plain numbers and names) and a time, no faircode object, so no entry unpickles into a moved class.

The environment decides whether the cache is used: ``FAIRCODE_FIT_CACHE=off`` (also ``0``, ``false``, ``no``)
bypasses it, so that every fit is computed (``python -m scripts.pagebuild check --no-cache`` sets it in each
page's process, and CI runs that); a folder path stores the cache there instead; unset (or ``on``) means
``.cache/fits/`` in the repository faircode is imported from.

Several processes may ask for the same fit at once (the page build runs pages in parallel). The first one to
ask takes a lock on the key (``fcntl.flock`` on a file in ``locks/``) and computes; the others wait for that
lock and then read the stored result, so a fit is computed once. Locks are released by the operating system
when a process dies, so a crashed page never blocks the next build.

When ``FAIRCODE_FIT_LOG`` names a file, every key computed is appended to it as a line ``computed <key>``, and
every key read from the cache as ``read <key>``: the build benchmark counts the fits a cold build computes, their
distinct keys and the fits it read with it.
"""
from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import importlib.metadata
import os
import pathlib

import joblib

__all__ = ["ENV", "LOG_ENV", "FitCache", "estimator_spec", "fit_key", "log", "open_cache", "source_digest",
           "versions_digest"]

ENV = "FAIRCODE_FIT_CACHE"
LOG_ENV = "FAIRCODE_FIT_LOG"
_OFF = ("off", "0", "false", "no")
_ON = ("", "on", "1", "true", "yes")

#: faircode itself (this module is in faircode/benchmark/), whose source is in every key, and its repository.
PACKAGE = pathlib.Path(__file__).resolve().parents[1]
REPO_ROOT = PACKAGE.parent
#: Where the libraries that decide a fit are pinned; read from the repository faircode is imported from.
LOCK_FILE = REPO_ROOT / "requirements.lock"
#: Without a lock file (faircode installed elsewhere), the installed versions of these decide instead.
_LIBRARIES = ("numpy", "scipy", "pandas", "scikit-learn", "fairlearn", "joblib", "threadpoolctl")


def location() -> pathlib.Path | None:
    """The cache's folder, or None when ``FAIRCODE_FIT_CACHE`` turns the cache off.

    Raises ValueError for a value that is neither a switch nor a usable folder path.
    """
    value = os.environ.get(ENV, "").strip()
    if value.lower() in _OFF:
        return None
    if value.lower() in _ON:
        return REPO_ROOT / ".cache" / "fits"
    path = pathlib.Path(value)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{ENV}={value!r} is a file; expected 'off', 'on' or the path of a folder for the fit "
                         "cache")
    return path


@functools.lru_cache(maxsize=None)
def source_digest() -> str:
    """SHA-256 of faircode's Python source (every ``.py`` file under the package, with its relative path)."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


@functools.lru_cache(maxsize=None)
def versions_digest() -> str:
    """SHA-256 of the pinned library versions: ``requirements.lock``'s pins, or, without one, the installed
    versions of the numerical libraries."""
    if LOCK_FILE.is_file():
        pins = sorted(line.strip() for line in LOCK_FILE.read_text().splitlines()
                      if line.strip() and not line.lstrip().startswith("#"))
    else:
        pins = [f"{name}=={importlib.metadata.version(name)}" for name in _LIBRARIES]
    return hashlib.sha256("\n".join(pins).encode()).hexdigest()


def estimator_spec(estimator) -> dict:
    """What identifies an unfitted scikit-learn estimator: its class and every parameter (``get_params``)."""
    cls = type(estimator)
    return {"class": f"{cls.__module__}.{cls.__qualname__}",
            "params": joblib.hash(estimator.get_params(deep=True))}


def rows_digest(rows) -> str:
    """SHA-256 of an array of row positions (as 64-bit integers)."""
    import numpy as np

    return hashlib.sha256(np.asarray(rows, dtype="int64").tobytes()).hexdigest()


def fit_key(**parts) -> str:
    """The key of a fit: a hash of ``parts`` (what the caller knows decides it) together with faircode's source
    and the pinned library versions."""
    return joblib.hash({"parts": parts, "faircode": source_digest(), "versions": versions_digest()})


def _stored(key, value=None):
    """What the cache stores under ``key``: ``value``, given when it was computed (``value`` is not hashed)."""
    return value


class FitCache:
    """A joblib.Memory store of computed values addressed by :func:`fit_key` keys, with one lock per key."""

    def __init__(self, folder):
        self.folder = pathlib.Path(folder)
        self.memory = joblib.Memory(self.folder, verbose=0)
        self._store = self.memory.cache(_stored, ignore=["value"])

    def get(self, key):
        """The value stored under ``key`` as ``(True, value)``, or ``(False, None)`` when there is none."""
        if not self._store.check_call_in_cache(key):
            return False, None
        return True, self._store(key, None)

    def put(self, key, value) -> None:
        """Store ``value`` under ``key`` (joblib writes it to a temporary file, then renames it into place)."""
        if not self._store.check_call_in_cache(key):
            self._store(key, value)

    @contextlib.contextmanager
    def lock(self, key, *, wait=True):
        """Hold the key's lock for the block; yields False instead when ``wait`` is False and another process
        holds it."""
        folder = self.folder / "locks"
        folder.mkdir(parents=True, exist_ok=True)
        with open(folder / f"{key}.lock", "a") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
            except BlockingIOError:
                yield False
                return
            try:
                yield True
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)


def open_cache() -> FitCache | None:
    """The fit cache the environment asks for (see the module's notes), or None when it is off."""
    folder = location()
    return None if folder is None else FitCache(folder)


def log(event, key) -> None:
    """Append ``<event> <key>`` (``computed`` or ``read``) to the file ``FAIRCODE_FIT_LOG`` names, if it names
    one (one write with O_APPEND, so that lines of parallel processes never interleave)."""
    path = os.environ.get(LOG_ENV)
    if not path:
        return
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, f"{event} {key}\n".encode())
    finally:
        os.close(fd)
