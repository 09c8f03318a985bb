"""What runs inside the forked child: one page's blocks, in order, in a fresh namespace.

The child is forked from a server that imported the heavy libraries once and never runs page code, so every
page starts from the same clean state and nothing a page does can leak into another.
"""
from __future__ import annotations

import builtins
import contextlib
import io
import os
import sys
import traceback

from scripts.layout import REPORTS_ENV
from scripts.pagebuild import _inject

# faircode's fit cache switch (faircode/benchmark/_fitcache.py); named here so that the build does not import faircode.
FIT_CACHE_ENV = "FAIRCODE_FIT_CACHE"


# The figure style every page draws with (text sized for the site's column); see the file's own comments.
FIGURE_STYLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "figures.mplstyle")


def _use_figure_style():
    """Apply the page figure style to matplotlib's settings (the fork server has already imported it)."""
    try:
        import matplotlib.style
    except ImportError:  # a page that draws nothing needs no matplotlib
        return
    matplotlib.style.use(FIGURE_STYLE)


def _figures(dpi):
    """Save and close every open matplotlib figure, in creation order, as PNG bytes with its alt text."""
    if "matplotlib.pyplot" not in sys.modules:
        return []
    import matplotlib.pyplot as plt

    saved = []
    for number in plt.get_fignums():
        fig = plt.figure(number)
        data = io.BytesIO()
        # metadata={"Software": None} keeps the library version out of the file; PNGs carry no timestamp.
        fig.savefig(data, format="png", dpi=dpi, metadata={"Software": None})
        saved.append((fig.get_label(), data.getvalue()))
        plt.close(fig)
    return saved


def _page_line(error, md_path):
    """The Markdown line of the innermost traceback frame that lies in the page (None if none does)."""
    line = None
    if isinstance(error, SyntaxError) and error.filename == md_path:
        return error.lineno
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.filename == md_path:
            line = frame.lineno
    return line


def run_page(conn, alive, root, md_path, script_path, blocks, dpi, fit_cache=True, reports=None):
    """Run ``blocks`` (tuples of Markdown line and source) and send the results back over ``conn``.

    Messages: ``("block", i)`` before block ``i`` runs; then ``("done", outputs, stderr)`` with one
    ``(stdout, figures)`` pair per block, or ``("error", info)`` with the page line and the traceback.
    ``alive`` is the read end of the build's pipe that the watchdog (``_watchdog.py``) waits on.
    ``fit_cache=False`` (``--no-cache``) sets ``FAIRCODE_FIT_CACHE=off``, so the page computes every fit.
    ``reports`` is the empty folder, made and read by the build, where the page writes the files it publishes
    (named to the page by ``layout.REPORTS_ENV``).
    """
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)  # its own process group, so a time-out kills whatever the page started too
    from . import _watchdog

    _watchdog.guard(os.dup(alive.fileno()))
    alive.close()
    os.chdir(root)
    os.environ.update(_inject.DISPLAY_ENV)  # this process is the page's own: tables print as Markdown
    if not fit_cache:
        os.environ[FIT_CACHE_ENV] = "off"  # faircode.benchmark._fitcache reads it: every fit is computed, none read
    if reports is not None:
        os.environ[REPORTS_ENV] = reports
    sys.path[:] = [root] + [p for p in sys.path if p not in ("", root)]
    warm = sys.modules.get("scripts.pagebuild._warm")  # present when forked from the server
    if warm is not None:
        warm.forget_for(root)
    sys.argv = [script_path]
    _use_figure_style()
    namespace = {"__name__": "__main__", "__file__": os.path.join(root, script_path), "__builtins__": builtins}
    outputs, errors = [], io.StringIO()
    with contextlib.redirect_stderr(errors):
        for index, (line, source) in enumerate(blocks):
            conn.send(("block", index))
            stdout = io.StringIO()
            try:
                with contextlib.redirect_stdout(stdout):
                    # Leading newlines put the code at its Markdown line, so tracebacks name the page's line.
                    code = compile("\n" * (line - 1) + source, md_path, "exec")
                    exec(code, namespace)
            except BaseException as error:  # noqa: BLE001 - any failure of page code is reported, even SystemExit
                frames = traceback.format_exception(error)
                # Drop the frames of this runner; keep the page's and the libraries' below it.
                text = "".join(f for f in frames if __file__ not in f)
                conn.send(("error", {
                    "block": index,
                    "line": _page_line(error, md_path) or line,
                    "error": traceback.format_exception_only(error)[-1].strip(),
                    "traceback": text,
                    "stdout": stdout.getvalue(),
                    "stderr": errors.getvalue(),
                }))
                return
            outputs.append((stdout.getvalue(), _figures(dpi)))
    conn.send(("done", outputs, errors.getvalue()))
