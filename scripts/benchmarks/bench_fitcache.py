"""The fit cache's effect on the page build, on a temporary copy of the repository (the working tree and its
``.cache/`` are never touched).

Prints ``BENCH`` lines:

- a cold full build (``-j 2``, empty fit cache): its wall time, the pages' total run time, the cells (fits)
  computed and their distinct keys (equal when no fit was computed twice), and the fits read from the cache
  instead (a cell one page or one call computed, asked for again by another);
- the Benefits Denial write-up after a one-block code edit that leaves its fits alone (a comment added to its
  last block), rebuilt with the warm fit cache and with ``FAIRCODE_FIT_CACHE=off``, alternating, the faster of
  REPEATS each, and their ratio (target: under 5 s warm). Both must write the same page.

Run: ``make bench`` (all benchmarks), or ``.venv/bin/python scripts/bench.py bench_fitcache``.
"""
from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_build import _IGNORE, ROOT, _bench  # noqa: E402 - the sibling benchmark's copy rules and output

PAGE = "Benefits Denial/benefits-denial.md"
REPEATS = 2
JOBS = 2


def _env(root, **extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith("FAIRCODE_")}
    env.update(PYTHONPATH=str(root), MPLBACKEND="Agg", OMP_NUM_THREADS="1", **extra)
    return env


def _build(root, ran, *args, **env):
    """Run the build in ``root``; return its wall seconds, after checking that it ran ``ran`` pages."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "scripts.pagebuild", "build", "-q", *args], cwd=root,
                          env=_env(root, **env), capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0 or f"built: {ran} ran," not in done.stdout:
        raise RuntimeError(f"expected the build to run {ran} page(s):\n{done.stdout}{done.stderr}")
    return seconds


def _add_comment(page, text):
    """Add a comment line at the end of the page's last Python block: a code edit that changes no fit."""
    lines = page.read_text().split("\n")
    last = max(i for i, line in enumerate(lines) if line.startswith("```python"))
    end = next(i for i in range(last + 1, len(lines)) if lines[i].startswith("```"))
    lines.insert(end, f"# {text}")
    page.write_text("\n".join(lines))


def _events(log):
    """The fit log's lines as (event, key) pairs."""
    return [tuple(line.split()) for line in log.read_text().splitlines()] if log.exists() else []


def main():
    with tempfile.TemporaryDirectory(prefix="bench-fitcache-") as temp:
        root = pathlib.Path(temp) / "repo"
        shutil.copytree(ROOT, root, ignore=_IGNORE, symlinks=True)
        log = pathlib.Path(temp) / "computed.log"
        pages = [p for p in json.loads((root / ".pagebuild-durations.json").read_text())["pages"]]

        full = _build(root, len(pages), "-j", str(JOBS), FAIRCODE_FIT_LOG=str(log))
        events = _events(log)
        keys = [key for event, key in events if event == "computed"]
        cache = json.loads((root / ".cache" / "pagebuild.json").read_text())
        work = sum(entry.get("seconds", 0.0) for entry in cache.get("pages", {}).values())
        _bench("fitcache_cold_build_wall", full, "s")
        _bench("fitcache_cold_build_page_work", work, "s")
        _bench("fitcache_cold_build_fits_computed", len(keys), "fits")
        _bench("fitcache_cold_build_fit_keys_distinct", len(set(keys)), "keys")
        _bench("fitcache_cold_build_fits_computed_twice", len(keys) - len(set(keys)), "fits")
        _bench("fitcache_cold_build_fits_read", sum(event == "read" for event, _ in events), "fits")

        page = root / PAGE
        original = page.read_text()
        times = {"warm": [], "off": []}
        for repeat in range(REPEATS):
            for mode in ("warm", "off"):
                _add_comment(page, f"benchmark edit {repeat} {mode}")
                edited = page.read_text()
                env = {"FAIRCODE_FIT_LOG": str(log)} | ({"FAIRCODE_FIT_CACHE": "off"} if mode == "off" else {})
                before = len(_events(log))
                times[mode].append(_build(root, 1, "-j", "1", PAGE, **env))
                fitted = sum(event == "computed" for event, _ in _events(log)[before:])
                if (mode == "warm") != (fitted == 0):
                    raise RuntimeError(f"the {mode} rebuild fitted {fitted} cell(s)")
                if page.read_text() != edited:
                    raise RuntimeError(f"the {mode} rebuild changed the page's output: the cache gave other numbers")
                page.write_text(original)
        warm, off = min(times["warm"]), min(times["off"])
        _bench("fitcache_benefits_code_edit_warm", warm, "s")
        _bench("fitcache_benefits_code_edit_no_cache", off, "s")
        _bench("fitcache_benefits_code_edit_no_cache_over_warm", off / warm, "ratio")


if __name__ == "__main__":
    main()
