"""The page build's speed, on a temporary copy of the repository (the working tree is never touched).

Prints ``BENCH`` lines for the pages present (the build's own fixture pages when the repository has none):
full build wall time, the sum of running every generated script one after another, their ratio (target
<= 0.6), a rebuild with nothing changed (target <= 0.5 s), a prose-only edit, a one-page code edit, the
stock chain (``jupytext --to ipynb`` then ``jupyter nbconvert --execute``, page after page) and its ratio to
the build (target >= 3), the stock chain over the compute floor (the most any engine could gain on these cores,
since no build ends before its longest page or before the pages' work shared over every core), the per-page
start-up cost of the three engines the build could use, and the build against the stock chain on the build's
small fixture pages, where start-up rather than the pages' own work dominates.
"""
from __future__ import annotations

import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "pagebuild" / "fixtures"
_IGNORE = shutil.ignore_patterns(".git", ".venv", ".cache", "site", "__pycache__", ".pytest_cache", "*.egg-info")
_TRIVIAL = "import pandas, sklearn, matplotlib.pyplot\nprint('ready')\n"


def _bench(name, value, unit):
    print(f"BENCH {name} {value:.3f} {unit}", flush=True)


def _env(root):
    env = dict(os.environ, PYTHONPATH=str(root), MPLBACKEND="Agg")
    env.pop("PYTHONSTARTUP", None)
    return env


def _run(command, root):
    started = time.perf_counter()
    done = subprocess.run(command, cwd=root, env=_env(root), capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, command))} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return seconds, done.stdout


def _timed(command, root):
    return _run(command, root)[0]


def _copy_repository(target):
    """Copy the working tree; with no runnable page of its own, the copy gets the fixture pages."""
    shutil.copytree(ROOT, target, ignore=_IGNORE, symlinks=True)
    sys.path.insert(0, str(target))
    from scripts.pagebuild import load_config, read_page
    from scripts.pagebuild._pages import might_run

    config = load_config(target)
    pages = []
    from scripts.pagebuild import discover

    for path in discover(config):
        if might_run((target / path).read_text()) and read_page(target, path).runnable:
            pages.append(path)
    if not pages:
        print("# no runnable pages in the repository: using the build's fixture pages", flush=True)
        for page in sorted(FIXTURES.glob("*.md")):
            shutil.copy(page, target / "explainers" / page.name)
        pages = [p for p in discover(config) if read_page(target, p).runnable]
    return [read_page(target, p) for p in pages]


def _build(root, ran):
    """Time one build and make sure it ran exactly ``ran`` pages (so each figure measures what it says)."""
    seconds, out = _run([sys.executable, "-m", "scripts.pagebuild", "build", "-q"], root)
    if f"built: {ran} ran," not in out:
        raise RuntimeError(f"expected the build to run {ran} page(s); it printed: {out.strip()}")
    return seconds


def _engines(root):
    """Per-page start-up cost of each engine, for a page that only imports the usual libraries."""
    runs = [_timed([sys.executable, "-c", _TRIVIAL], root) for _ in range(3)]
    _bench("engine_subprocess_per_page", statistics.median(runs), "s")

    from jupyter_client.manager import start_new_kernel

    times = []
    for _ in range(2):
        started = time.perf_counter()
        manager, client = start_new_kernel(kernel_name="python3", cwd=str(root))
        client.execute_interactive(_TRIVIAL, timeout=120, output_hook=lambda message: None)
        client.stop_channels()
        manager.shutdown_kernel(now=True)
        times.append(time.perf_counter() - started)
    _bench("engine_kernel_per_page", statistics.median(times), "s")

    from scripts.pagebuild import Block, Job, load_config, run_jobs

    config = load_config(root)
    job = Job("bench.md", "code/bench.py", [Block(0, 1, _TRIVIAL, None, False)], 60.0, "bench")
    started = time.perf_counter()
    run_jobs([job], parallel=1, dpi=config.dpi, preload=config.preload, root=root)
    _bench("engine_fork_server_start", time.perf_counter() - started, "s")
    times = []
    for _ in range(3):
        started = time.perf_counter()
        (result,) = run_jobs([job], parallel=1, dpi=config.dpi, preload=config.preload, root=root)
        assert result.error is None, result.error
        times.append(time.perf_counter() - started)
    _bench("engine_fork_per_page", statistics.median(times), "s")


def _stock_chain(root, pages):
    """jupytext to a notebook, then nbconvert executes it, one page after another (errors allowed: the stock
    chain also runs the sketches marked norun)."""
    jupytext = pathlib.Path(sys.executable).with_name("jupytext")
    jupyter = pathlib.Path(sys.executable).with_name("jupyter")
    total = 0.0
    for page in pages:
        notebook = root / f"_bench_{page.slug}.ipynb"
        total += _timed([str(jupytext), "--quiet", "--to", "ipynb", "-o", str(notebook), page.path], root)
        total += _timed([str(jupyter), "nbconvert", "--to", "notebook", "--execute", "--allow-errors",
                         "--output", str(notebook.with_suffix(".out.ipynb")), str(notebook)], root)
    return total


def _fixture_comparison():
    """The build against the stock chain on the build's own small fixture pages, where engine start-up
    rather than the pages' own work dominates."""
    with tempfile.TemporaryDirectory(prefix="bench-build-fixtures-") as temp:
        root = pathlib.Path(temp) / "repo"
        shutil.copytree(ROOT, root, ignore=_IGNORE, symlinks=True)
        for page in root.glob("*/*.md"):  # the real pages: explainers and audit write-ups
            if (page.parent / "audit.toml").exists() or page.parent.name == "explainers":
                page.unlink()
        for page in sorted(FIXTURES.glob("*.md")):
            shutil.copy(page, root / "explainers" / page.name)
        sys.path.insert(0, str(root))
        _forget_build_modules()
        from scripts.pagebuild import discover, load_config, read_page

        pages = [read_page(root, p) for p in discover(load_config(root)) if read_page(root, p).runnable]
        full = _build(root, len(pages))
        stock = _stock_chain(root, pages)
        _bench("fixtures_pages", len(pages), "pages")
        _bench("fixtures_build_full_wall", full, "s")
        _bench("fixtures_stock_chain", stock, "s")
        _bench("fixtures_stock_chain_over_build", stock / full, "ratio")
        sys.path.remove(str(root))


def _forget_build_modules():
    """Each temporary copy imports its own scripts.pagebuild; drop the previous copy's modules first."""
    for name in [n for n in sys.modules if n == "scripts" or n.startswith("scripts.")]:
        del sys.modules[name]


def main():
    with tempfile.TemporaryDirectory(prefix="bench-build-") as temp:
        root = pathlib.Path(temp) / "repo"
        pages = _copy_repository(root)
        _bench("build_pages", len(pages), "pages")
        full = _build(root, len(pages))
        _bench("build_full_wall", full, "s")
        per_page = [_timed([sys.executable, page.script_path], root) for page in pages]
        sequential = sum(per_page)
        _bench("scripts_sequential_sum", sequential, "s")
        _bench("scripts_longest", max(per_page), "s")
        _bench("build_full_over_scripts", full / sequential, "ratio")
        _bench("build_nochange", statistics.median(_build(root, 0) for _ in range(3)), "s")

        first = root / pages[0].path
        first.write_text(first.read_text() + "\nA sentence of prose added by the benchmark.\n")
        _bench("build_prose_edit", _build(root, 0), "s")

        from scripts.pagebuild import read_page

        last = read_page(root, pages[0].path).runnable[-1]  # line numbers as the build left the page
        lines = first.read_text().split("\n")
        end = last.line - 1 + last.source.count("\n")
        lines.insert(end, "# a comment added by the benchmark")
        first.write_text("\n".join(lines))
        _bench("build_code_edit_one_page", _build(root, 1), "s")

        stock = _stock_chain(root, pages)
        _bench("stock_chain", stock, "s")
        _bench("stock_chain_over_build", stock / full, "ratio")
        # No build on these cores can finish before its longest page, nor before the pages' own work shared
        # out over every core: the stock chain's time over that floor is the most any engine could gain here.
        floor = max(max(per_page), sequential / (os.cpu_count() or 1))
        _bench("stock_chain_over_compute_floor", stock / floor, "ratio")
        _engines(root)
        sys.path.remove(str(root))
    _fixture_comparison()


if __name__ == "__main__":
    main()
