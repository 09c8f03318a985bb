"""``python -m faircode audit``: the command line over ``faircode.audit`` and ``faircode.report.check``
(registered with the ``faircode`` command by ``faircode.__main__``).

Exit codes: 0 the audit ran and every ``--fail-on`` condition passed; 1 a condition failed (the message names
the column, group, metric, estimate and interval); 2 bad input (the message says what arrived and what was
expected); 3 an internal error (so that a crash never reads as a failed gate). Output files are written only after everything was computed and rendered, each to a temporary file
renamed into place, so a failed run leaves no partial report.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import sys
import tempfile

from faircode.report._errors import EXIT_INPUT, AuditInputError

EXAMPLE = """examples:
  python -m faircode audit predictions.csv --label y --score p --threshold 0.5 --group race --group sex \\
      --html report.html --json report.json
  python -m faircode audit preds.csv.gz --label reoffended --decision flagged --group race \\
      --reference race=Caucasian --fail-on "fpr_gap > 0.05" --fail-on "unfavourable_four_fifths_ratio < 0.8"
  (a flag is unfavourable: the four-fifths rule reads 1 - flag rate over the highest group's;
   four_fifths_ratio is the selection rate over the highest group's, for a favourable decision;
   selection_ratio is the selection rate over the reference group's)

exit codes: 0 pass, 1 a --fail-on condition failed, 2 bad input, 3 internal error.
--fail-when interval (default) fails only when the whole interval lies beyond the limit; point fails when the
estimate does (it trips on noise in small groups)."""


def add_parser(commands) -> None:
    """The ``audit`` command of the ``faircode`` command line (``faircode.__main__``)."""
    a = commands.add_parser("audit", help="audit a CSV or Parquet file of predictions", epilog=EXAMPLE,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    a.set_defaults(run=_run)
    a.add_argument("data", help="CSV (plain or compressed) or Parquet file, folder or quoted glob ('preds/*.parquet'), "
                                "one row per prediction")
    a.add_argument("--label", required=True, help="the true outcome column (0/1, or see --positive)")
    what = a.add_mutually_exclusive_group(required=True)
    what.add_argument("--score", help="a score column (with --threshold)")
    what.add_argument("--decision", help="a column of 0/1 decisions")
    a.add_argument("--threshold", type=float, action="append", help="score at or above it: positive (repeatable)")
    a.add_argument("--group", action="append", required=True, help="a group column (repeatable)")
    a.add_argument("--intersections", action="store_true", help="also audit the combinations of the group columns")
    a.add_argument("--reference", action="append", default=[],
                   help="reference group, as COLUMN=GROUP (or GROUP with one group column); default the largest")
    a.add_argument("--strata", action="append", help="a stratum column for conditional gaps (repeatable)")
    a.add_argument("--weight", help="a column of non-negative sample weights")
    a.add_argument("--positive", help="the positive value of a label column that is not 0/1")
    a.add_argument("--score-range", type=float, nargs=2, default=(0.0, 1.0), metavar=("LOW", "HIGH"),
                   help="the score's scale (default 0 1; deciles: 1 10)")
    a.add_argument("--dropna", action="store_true", help="drop rows with missing values (their count is reported)")
    a.add_argument("--min-count", type=int, default=30, help="rows below which a rate is too small (default 30)")
    a.add_argument("--min-events", type=int, default=5, help="events below which a rate gets an exact interval")
    a.add_argument("--n-boot", type=int, default=1000, help="bootstrap resamples (default 1000; 0: exact only)")
    a.add_argument("--confidence", type=float, default=0.95, help="coverage of every interval (default 0.95)")
    a.add_argument("--seed", type=int, default=0, help="the bootstrap's seed (default 0)")
    a.add_argument("--calibration-bins", type=int, default=10, help="score bins of the calibration table")
    a.add_argument("--sep", default=",", help="the CSV delimiter (default ,)")
    a.add_argument("--encoding", default="utf-8", help="the CSV encoding (default utf-8)")
    a.add_argument("--engine", choices=("auto", "pandas", "dask"), default="auto",
                   help="how rows are read: pandas (into memory) or dask (counted a partition at a time, for data "
                        "larger than memory; the same report); auto (default): dask for a Parquet folder or glob")
    a.add_argument("--json", type=pathlib.Path, help="write the JSON report here")
    a.add_argument("--markdown", type=pathlib.Path, help="write the Markdown report here")
    a.add_argument("--html", type=pathlib.Path, help="write the self-contained HTML report here")
    a.add_argument("--docs-url", help="base URL of the site whose explainer pages the report links to")
    a.add_argument("--fail-on", action="append", default=[], metavar="CONDITION",
                   help="e.g. 'fpr_gap > 0.05', 'abs(tpr_gap) > 0.05', 'four_fifths_ratio < 0.8' (repeatable)")
    a.add_argument("--fail-when", choices=("interval", "point"), default="interval",
                   help="interval (default): fail when the whole interval is beyond the limit; point: the estimate")


def _references(values: list[str], groups: list[str]):
    if not values:
        return None
    out = {}
    for value in values:
        column, sep, group = value.partition("=")
        if sep and column in groups:
            out[column] = group
        elif sep and len(groups) > 1:
            from faircode.report._errors import closest

            raise AuditInputError(f"--reference {value!r} names column {column!r}, which is not a --group "
                                  f"column{closest(column, groups)}; the group columns are: {', '.join(groups)}")
        elif len(groups) == 1:
            out[groups[0]] = value
        else:
            raise AuditInputError(f"--reference {value!r}: with several group columns write COLUMN=GROUP, with "
                                  f"COLUMN one of: {', '.join(groups)}")
    return out


def _write_all(outputs: dict[pathlib.Path, str]) -> None:
    """Write every file to a temporary name first, then rename them all: none is left half-written."""
    staged = []
    try:
        for path, text in outputs.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)  # mkstemp's 0600 would make a CI artefact unreadable to others
            staged.append((tmp, path))
    except BaseException:
        for tmp, _ in staged:
            os.unlink(tmp)
        raise
    for tmp, path in staged:
        os.replace(tmp, path)


def print_warnings(caught, command: str) -> None:
    """An ``AuditWarning`` caught while the command ran as a 'faircode <command>: warning:' line on stderr; any
    other warning passed on as it came."""
    import warnings

    from faircode.report._errors import AuditWarning

    for warning in caught:
        if issubclass(warning.category, AuditWarning):
            print(f"faircode {command}: warning: {warning.message}", file=sys.stderr)
        else:
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)


def main(argv=None) -> int:
    """``faircode`` with ``argv`` (``["audit", ...]``): the command line of ``faircode.__main__``."""
    from faircode.__main__ import main as faircode_main

    return faircode_main(argv)


def _run(args) -> int:
    from faircode.report._audit import audit
    from faircode.report._gate import check
    from faircode.report._render_html import to_html
    from faircode.report._render_json import to_json
    from faircode.report._render_markdown import to_markdown

    import warnings

    from faircode.report._errors import AuditWarning

    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", AuditWarning)
            report = audit(args.data, label=args.label, groups=args.group, score=args.score, decision=args.decision,
                           threshold=args.threshold, reference=_references(args.reference, args.group),
                           intersections=args.intersections, strata=args.strata, sample_weight=args.weight,
                           positive_label=args.positive, score_range=tuple(args.score_range), dropna=args.dropna,
                           min_count=args.min_count, min_events=args.min_events, n_boot=args.n_boot,
                           confidence=args.confidence, random_state=args.seed, calibration_bins=args.calibration_bins,
                           sep=args.sep, encoding=args.encoding, engine=args.engine)
        print_warnings(caught, "audit")
        gate = check(report, args.fail_on, when=args.fail_when) if args.fail_on else None
    except AuditInputError as err:
        print(f"faircode audit: error: {err}", file=sys.stderr)
        return EXIT_INPUT
    outputs = {}
    if args.json:
        outputs[args.json] = to_json(report, gate)
    if args.markdown:
        outputs[args.markdown] = to_markdown(report, docs_url=args.docs_url, gate=gate)
    if args.html:
        outputs[args.html] = to_html(report, docs_url=args.docs_url, gate=gate)
    _write_all(outputs)
    if not outputs:
        sys.stdout.write(to_markdown(report, docs_url=args.docs_url, gate=gate))
    meta = report.meta
    dropped = f", {meta['rows_dropped_missing']} dropped for missing values" if meta["rows_dropped_missing"] else ""
    print(f"faircode audit: {meta['rows_used']} rows of {meta['source']}{dropped}; "
          f"{report.comparisons['count']} gaps compared" + "".join(f"; wrote {p}" for p in outputs), file=sys.stderr)
    if gate is None:
        return 0
    print(gate.message())
    return gate.exit_code
