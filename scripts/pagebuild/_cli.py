"""Command line: ``python -m scripts.pagebuild build|check [options] [pages]`` from the repository root."""
from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys

from ._build import Reporter, run
from ._cache import Cache
from ._config import load_config
from ._durations import read_durations, recorded_seconds, write_durations
from ._pages import discover, might_run


def _parser():
    parser = argparse.ArgumentParser(
        prog="python -m scripts.pagebuild",
        description="Extract, run and inject the code of the explainer and audit pages, or check that the "
                    "committed pages, scripts and figures are what the build produces.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="{build,check,durations}")
    for name, text in [("build", "regenerate what changed: run pages whose code or dependencies changed, "
                                 "re-inject outputs, write scripts and figures"),
                       ("check", "fail if any page, script or figure differs from what the build produces "
                                 "(writes nothing)")]:
        sub = commands.add_parser(name, help=text, description=text)
        sub.add_argument("pages", nargs="*", help="only these pages (default: every page)")
        sub.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                         help="pages run at once (default: all cores, here %(default)s)")
        sub.add_argument("-q", "--quiet", action="store_true", help="print only failures and the summary")
        sub.add_argument("--no-cache", action="store_true",
                         help="ignore the cache and run every page" + (" (what CI runs)" if name == "check" else ""))
        sub.add_argument("--root", default=".", help="repository root (default: the current directory)")
    text = ("write the committed durations file from the page times the last builds recorded in the cache "
            "(the build starts the longest pages first; run this after adding a page or changing its cost)")
    sub = commands.add_parser("durations", help=text, description=text)
    sub.add_argument("--root", default=".", help="repository root (default: the current directory)")
    return parser


def _durations(config) -> int:
    """Merge the cache's page times into the committed durations file, for the pages that exist."""
    committed = read_durations(config.durations_path)
    recorded = recorded_seconds(Cache(config.cache_path).pages)
    pages = set(discover(config))
    merged = {page: seconds for page, seconds in {**committed, **recorded}.items() if page in pages}
    missing = sorted(p for p in pages if p not in merged
                     and might_run((config.root / p).read_bytes().decode("utf-8", "replace")))
    changed = write_durations(config.durations_path, merged)
    print(f"{config.durations}: {len(merged)} page(s), {'rewritten' if changed else 'unchanged'}")
    if missing:
        print(f"no time recorded yet for {', '.join(missing)}: build them (make pages), then run this again",
              file=sys.stderr)
    return 0


class Stopped(BaseException):
    """The build was asked to stop by a signal (SIGTERM from CI or `timeout`, SIGHUP from a closed terminal)."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def _stop_on_signals():
    """Turn SIGTERM and SIGHUP into :class:`Stopped` while the build runs, so it unwinds like Ctrl-C does: the
    running pages are killed with their process groups and no file is left half-written."""
    def stop(signum, _frame):
        raise Stopped(signum)

    previous = {}
    for signum in (signal.SIGTERM, signal.SIGHUP):
        with contextlib.suppress(ValueError):  # not the main thread: leave the signals alone
            previous[signum] = signal.signal(signum, stop)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def main(argv=None) -> int:
    """Run the command line; return the exit status (0 when everything built or checked cleanly).

    Ctrl-C, SIGTERM or SIGHUP at any point ends it with one line and the status 128 + the signal's number.
    """
    args = _parser().parse_args(argv)
    try:
        with _stop_on_signals():
            return _command(args)
    except (KeyboardInterrupt, Stopped) as stop:
        signum = stop.signum if isinstance(stop, Stopped) else signal.SIGINT
        print(f"{args.command} interrupted by {signal.Signals(signum).name}: the running pages were stopped; pages "
              "that finished were written, the others left as they were", file=sys.stderr)
        return 128 + signum


def _command(args) -> int:
    if getattr(args, "jobs", 1) < 1:
        print(f"-j/--jobs is {args.jobs}; expected a number of pages to run at once, at least 1", file=sys.stderr)
        return 2
    try:
        config = load_config(args.root)
    except (OSError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if args.command == "durations":
        try:
            return _durations(config)
        except (OSError, ValueError) as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
    reporter = Reporter(quiet=args.quiet)
    try:
        summary = run(config, write=args.command == "build", use_cache=not args.no_cache,
                      parallel=args.jobs, reporter=reporter, only=args.pages)
    except ValueError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    numbers = []
    if args.command == "check":  # prose numbers must be ones the output shows (scripts/pagebuild/_numbers.py)
        from ._numbers import check_numbers
        numbers = check_numbers(config, args.pages)
        for problem in numbers:
            print(problem, file=sys.stderr)
    for warning in summary.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    for path, detail in summary.differences:
        print(f"[DIFF] {path} {detail}", file=sys.stderr)
    counts = (f"{len(summary.ran)} ran, {len(summary.cached)} from cache, {len(summary.fresh)} up to date, "
              f"{len(summary.skipped)} without code, {len(summary.failures)} failed")
    verb = "built" if args.command == "build" else "checked"
    if summary.failures:
        print(f"\n{len(summary.failures)} page(s) failed; their files were left as they were:", file=sys.stderr)
        for path, message in summary.failures:
            print(f"  {message.splitlines()[0]}", file=sys.stderr)
    if summary.differences:
        print(f"\n{len(summary.differences)} file(s) differ from what the build produces; run "
              "`make pages` (python -m scripts.pagebuild build) and commit the result.", file=sys.stderr)
    changed = f"; {len(summary.written)} file(s) written" if args.command == "build" else ""
    if args.command == "check":
        counts += f", {len(numbers)} prose number(s) not in the output"
    ok = summary.ok and not numbers
    print(f"{verb}: {counts}{changed} in {summary.seconds:.2f} s", file=sys.stdout if ok else sys.stderr)
    return 0 if ok else 1
