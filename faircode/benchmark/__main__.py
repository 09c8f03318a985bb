"""python -m faircode.benchmark: compare strategies x models on the audits, with fairness gaps and intervals.

Every audit x strategy x model x seed is one independent fit on the audit's training rows, measured on its
test rows: accuracy, balanced accuracy and, per protected attribute, selection rates and the parity, TPR, FPR
and precision gaps (named group minus the rest) with 95% bootstrap intervals and group sizes.

Examples (from the repository root)::

    python -m faircode.benchmark                                   # every audit, strategy, default models
    python -m faircode.benchmark --audit "German Credit Lending"
    python -m faircode.benchmark --strategy S2 --strategy S4 --model logistic_regression --seeds 5
    python -m faircode.benchmark --csv results.csv --markdown --quiet

The fits run in parallel through joblib (``--jobs``, default every core); the results are the same for any
number of workers. ``--scheduler ADDRESS`` runs them on a Dask distributed cluster instead (joblib's "dask"
backend; the table is identical to a local run, which tests/test_benchmark_distributed.py checks on a local
cluster of two worker processes). Every worker needs this repository at the same commit (it imports
faircode) and the packages of requirements.lock; the audit data is read only where the harness runs.
CONTRIBUTING.md ("The harness on a cluster") says how to start a cluster.

Finished cells are kept in the fit cache (``.cache/fits/``), so a second run with the same settings reads them
instead of fitting again; ``FAIRCODE_FIT_CACHE=off`` computes every cell.
"""
from __future__ import annotations

import argparse
import contextlib
import pathlib
import sys

from faircode.data._audits import get_manifest, list_audits
from faircode.benchmark._distributed import dask_cluster
from faircode.benchmark._harness import (DEFAULT_MODELS, MAX_SEEDS, N_BOOT, check_grid, manifest_target,
                                        print_progress, run_benchmark)
from faircode.benchmark._report import format_results, write_csv
from faircode.benchmark._strategies import STRATEGIES
from faircode.models import MODELS


def _whole_number(low=None, high=None, nonzero=False):
    """An argparse type: a whole number within [low, high] (either end open when None), or not 0."""
    def parse(text):
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number; got {text!r}") from None
        if (low is not None and value < low) or (high is not None and value > high) or (nonzero and value == 0):
            expected = ("a non-zero number (a count of workers, or -1 for every core)" if nonzero else
                        f"a number from {low} to {high}" if high is not None else f"a number of at least {low}")
            raise argparse.ArgumentTypeError(f"expected {expected}; got {value}")
        return value
    return parse


def _check_writable(path: str) -> None:
    """Raise OSError unless a file can be written at ``path``, checked by opening it (leaving no new file)."""
    target = pathlib.Path(path)
    if target.is_dir():
        raise IsADirectoryError(f"{path} is a folder")
    existed = target.exists()
    with open(target, "a"):
        pass
    if not existed:
        target.unlink()


def _parser() -> argparse.ArgumentParser:
    audits = list_audits()
    targets = "; ".join(f"{a}: {t.attribute} under {t.constraint}"
                        for a, t in ((a, manifest_target(get_manifest(a))) for a in audits))
    parser = argparse.ArgumentParser(
        prog="python -m faircode.benchmark", formatter_class=argparse.RawDescriptionHelpFormatter,
        description=__doc__.split("\n\n")[1],
        epilog=f"S3/S4/reweighing target the attribute and constraint in each audit's audit.toml [target] "
               f"table ({targets}).\n\n"
               + __doc__[__doc__.index("The fits run"):])
    parser.add_argument("--audit", action="append", metavar="NAME",
                        help=f"audit to run (repeatable; default all: {', '.join(audits)})")
    parser.add_argument("--strategy", action="append", metavar="NAME",
                        help=f"strategy (repeatable; default all): baseline (or S0), {', '.join(STRATEGIES[1:])}")
    parser.add_argument("--model", action="append", metavar="NAME",
                        help=f"model (repeatable; default {', '.join(DEFAULT_MODELS)}); one of {', '.join(MODELS)}")
    parser.add_argument("--seeds", type=_whole_number(1, MAX_SEEDS), default=1, metavar="N",
                        help="number of splits: the audit's own, then re-splits with the same stratified 80/20 "
                             "recipe at seed+1, seed+2, ...; with N > 1 the table shows mean ± sd (default 1, "
                             f"at most {MAX_SEEDS})")
    parser.add_argument("--jobs", type=_whole_number(nonzero=True), default=-1, metavar="N",
                        help="parallel fits (default -1: all cores; -2: all but one)")
    parser.add_argument("--bootstrap", type=_whole_number(1), default=N_BOOT, metavar="N",
                        help=f"bootstrap resamples for each interval (default {N_BOOT})")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run the fits on the Dask distributed scheduler at ADDRESS (e.g. tcp://10.0.0.5:8786) "
                             "instead of on this machine's cores; --jobs then counts the cluster's workers' cores")
    parser.add_argument("--csv", metavar="PATH", help="also write every result row to this CSV file")
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables instead of aligned text")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    return parser


def main(argv=None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        audits, strategies, models = check_grid(args.audit, args.strategy, args.model, seeds=args.seeds,
                                                n_jobs=args.jobs, n_boot=args.bootstrap)
    except ValueError as err:
        parser.error(str(err))
    if args.csv:
        try:
            _check_writable(args.csv)
        except OSError as err:
            parser.error(f"argument --csv: cannot write {args.csv!r}: {err.strerror or err}")
    with contextlib.ExitStack() as engine:
        if args.scheduler:
            try:
                engine.enter_context(dask_cluster(args.scheduler))
            except (OSError, TimeoutError) as err:
                parser.error(f"argument --scheduler: cannot connect to a Dask scheduler at {args.scheduler!r}: {err}")
        results = run_benchmark(audits, strategies, models, seeds=args.seeds, n_jobs=args.jobs,
                                n_boot=args.bootstrap, progress=None if args.quiet else print_progress)
    print(format_results(results, markdown=args.markdown), end="")
    if args.csv:
        write_csv(results, args.csv)
        if not args.quiet:
            print(f"wrote {len(results)} rows to {args.csv}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
