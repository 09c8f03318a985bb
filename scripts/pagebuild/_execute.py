"""Run pages in parallel, each in a child forked from a server that has the heavy libraries imported.

Engine chosen by measurement (``scripts/benchmarks/bench_build.py`` prints the figures): starting a plain
Python process per page pays the pandas/scikit-learn/matplotlib import every time, a Jupyter kernel per page
pays that and the kernel start-up, while a fork from an already-loaded server costs a small fraction of either.
The standard library's ``multiprocessing`` forkserver with preloaded modules is exactly that server.
"""
from __future__ import annotations

import collections
import contextlib
import dataclasses
import json
import multiprocessing
import multiprocessing.connection
import os
import pathlib
import shutil
import signal
import tempfile
import time

# Fixed for every page run: a non-interactive matplotlib, stable str hashes, one BLAS thread per page
# (pages run in parallel instead, and the reduction order, hence the last digits, cannot depend on -j).
CHILD_ENV = {
    "MPLBACKEND": "Agg",
    "PYTHONHASHSEED": "0",
    "OMP_NUM_THREADS": "1",
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
}
# How the build hands the fork server its root and warm calls (see _warm.py).
WARM_ENV = "PAGEBUILD_WARM"
# What the fork server imports after the configured preloads; _server runs the warm calls.
_SERVER_MODULES = ["scripts.pagebuild._child", "scripts.pagebuild._server"]


@dataclasses.dataclass
class Job:
    """One page to run: its path, its runnable blocks and its time limit (with where the limit came from)."""

    path: str
    script_path: str
    blocks: list  # Block records
    timeout: float
    timeout_source: str


@dataclasses.dataclass
class Result:
    """What a page run produced: per-block (stdout, figures) and the files it published (name -> bytes) on
    success, else an error message."""

    job: Job
    seconds: float
    outputs: list | None = None
    stderr: str = ""
    error: str | None = None
    line: int | None = None
    reports: dict = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class _Running:
    job: Job
    process: object
    conn: object
    alive: object  # the build's end of the pipe the page's watchdog waits on (_watchdog.py)
    started: float
    reports: str  # the folder the page writes its published files to; read, then removed, when it ends
    block: int = 0
    message: tuple | None = None


@contextlib.contextmanager
def _borrowed_environ(values):
    """Set environment variables for the duration of the block, then restore the caller's exactly."""
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _context(preload, warm=(), root="."):
    """The forkserver context, its server started: the server (and every page forked from it) gets CHILD_ENV
    and the warm request in its environment, borrowed from this process only while the server starts."""
    import multiprocessing.forkserver

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(preload) + _SERVER_MODULES)
    # The server can only be handed module names, so the warm request travels in its environment.
    request = json.dumps({"root": os.path.realpath(root), "calls": list(warm)})
    with _borrowed_environ({**CHILD_ENV, WARM_ENV: request}):
        multiprocessing.forkserver.ensure_running()
    return context


def warm_up(preload, warm=(), root="."):
    """Start the fork server now, so its imports and warm calls overlap with the build's preparation."""
    _context(preload, warm, root)


def _kill(state):
    try:
        os.killpg(state.process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        state.process.kill()
    state.process.join()
    state.alive.close()


def _published(folder) -> dict:
    """The files a page wrote into its reports folder, name -> bytes (a folder inside it: name -> None)."""
    found = {}
    for path in sorted(pathlib.Path(folder).iterdir()):
        found[path.name] = path.read_bytes() if path.is_file() and not path.is_symlink() else None
    return found


def _finish(state, now):
    """Turn a finished child's last message (or its silence) into a Result."""
    job, seconds = state.job, now - state.started
    message = state.message
    if message and message[0] == "done":
        return Result(job, seconds, outputs=message[1], stderr=message[2], reports=_published(state.reports))
    if message and message[0] == "error":
        info = message[1]
        text = f"{job.path}:{info['line']}: {info['error']}\n{info['traceback'].rstrip()}"
        if info["stderr"].strip():
            text += "\n--- stderr ---\n" + info["stderr"].rstrip()
        return Result(job, seconds, error=text, line=info["line"], stderr=info["stderr"])
    line = job.blocks[state.block].line
    code = state.process.exitcode
    return Result(job, seconds, line=line, error=f"{job.path}:{line}: the page's process died (exit code {code}) "
                  f"while running the block that starts on line {line}")


def run_jobs(jobs, *, parallel, dpi, preload, root, warm=(), on_start=None, on_finish=None, fit_cache=True):
    """Run ``jobs`` with at most ``parallel`` at once; return their Results in the order given.

    ``fit_cache=False`` turns faircode's fit cache off in every page's process (``--no-cache``: every fit runs).
    ``warm`` names functions (``"module:function"``) the fork server calls once before the first page.
    ``on_start(job)`` and ``on_finish(result)`` are called as pages start and end (for progress lines).
    """
    if not jobs:
        return []
    context = _context(preload, warm, root)
    pending = collections.deque(jobs)
    running, results = [], {}
    try:
        _loop(context, pending, running, results, parallel, dpi, root, on_start, on_finish, fit_cache)
    finally:
        for state in running:  # interrupted (Ctrl-C, an error in a callback): no page keeps running
            _kill(state)
            shutil.rmtree(state.reports, ignore_errors=True)
    return [results[job.path] for job in jobs]


def _loop(context, pending, running, results, parallel, dpi, root, on_start, on_finish, fit_cache):
    while pending or running:
        while pending and len(running) < max(1, parallel):
            job = pending.popleft()
            receive, send = context.Pipe(duplex=False)
            watched, alive = context.Pipe(duplex=False)
            blocks = [(block.line, block.source) for block in job.blocks]
            reports = tempfile.mkdtemp(prefix="pagebuild-reports-")
            from . import _child

            process = context.Process(target=_child.run_page, name=f"page {job.path}",
                                      args=(send, watched, str(root), job.path, job.script_path, blocks, dpi, fit_cache,
                                            reports))
            if on_start:
                on_start(job)
            try:
                process.start()
            except BaseException:
                shutil.rmtree(reports, ignore_errors=True)
                raise
            finally:
                send.close()
                watched.close()
            running.append(_Running(job, process, receive, alive, time.monotonic(), reports))
        deadline = min(s.started + s.job.timeout for s in running)
        waitables = [s.conn for s in running if s.message is None] + [s.process.sentinel for s in running]
        multiprocessing.connection.wait(waitables, timeout=max(0.0, deadline - time.monotonic()))
        now = time.monotonic()
        for state in list(running):
            alive = state.process.is_alive()  # asked first: a child that is gone has sent all it will send
            try:
                while state.message is None and state.conn.poll():
                    message = state.conn.recv()
                    if message[0] == "block":
                        state.block = message[1]
                    else:
                        state.message = message
            except (EOFError, OSError):
                pass  # the child is gone; its sentinel tells us how it ended
            if state.message is not None or not alive:
                state.process.join(5)
                if state.process.is_alive():  # finished, but something it started keeps it alive
                    _kill(state)
                result = _finish(state, now)
            elif now >= state.started + state.job.timeout:
                _kill(state)
                line = state.job.blocks[state.block].line
                result = Result(state.job, now - state.started, line=line, error=(
                    f"{state.job.path}:{line}: timed out after {now - state.started:.1f} s (time limit "
                    f"{state.job.timeout:g} s, {state.job.timeout_source}) while running the block that "
                    f"starts on line {line}"))
            else:
                continue
            state.conn.close()
            state.alive.close()  # the watchdog kills whatever the page left running in its group
            shutil.rmtree(state.reports, ignore_errors=True)
            running.remove(state)
            results[state.job.path] = result
            if on_finish:
                on_finish(result)
