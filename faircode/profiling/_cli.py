"""``python -m faircode profile``: the command line over ``faircode.profile`` (registered with the ``faircode``
command by ``faircode.__main__``).

Exit codes: 0 the profile was written; 2 bad input (the message says what arrived and what was expected); 3 an
internal error. The output file is written only after everything was computed and rendered, to a temporary file
renamed into place, so a failed run leaves no partial file.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import warnings

EXAMPLE = """examples:
  python -m faircode profile people.csv --group race --group sex --label hired
  python -m faircode profile people.csv.gz --group race --label y --missing-values "?,None" \\
      --against last_year.csv --format html --output profile.html

exit codes: 0 written, 2 bad input, 3 internal error."""


def add_parser(commands) -> None:
    """The ``profile`` command of the ``faircode`` command line."""
    p = commands.add_parser("profile", help="profile a table before a model: group sizes, base rates, missing "
                            "values, proxies and drift by group", epilog=EXAMPLE,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    p.set_defaults(run=_run)
    p.add_argument("data", help="CSV (plain or compressed) or Parquet file or folder, one row per record")
    p.add_argument("--group", action="append", required=True, help="a group column (repeatable)")
    p.add_argument("--label", help="a binary outcome column: adds base rates by group (0/1, or see --positive)")
    p.add_argument("--positive", help="the positive value of a label column that is not 0/1")
    p.add_argument("--reference", action="append", default=[],
                   help="reference group, as COLUMN=GROUP (or GROUP with one group column); default the largest")
    p.add_argument("--against", help="an earlier file of the same columns: adds the drift from it")
    p.add_argument("--missing-values", default="", metavar="TOKENS",
                   help="comma-separated values that also mean missing, e.g. '?,None' (an empty cell always does)")
    p.add_argument("--dropna", action="store_true", help="drop rows whose group or label is missing (counted)")
    p.add_argument("--min-count", type=int, default=30, help="rows below which a group is too small (default 30)")
    p.add_argument("--confidence", type=float, default=0.95, help="coverage of every interval (default 0.95)")
    p.add_argument("--seed", type=int, default=0, help="seed of the proxy AUC's random halves (default 0)")
    p.add_argument("--sep", default=",", help="the CSV delimiter (default ,)")
    p.add_argument("--encoding", default="utf-8", help="the CSV encoding (default utf-8)")
    p.add_argument("--format", choices=("md", "json", "html"), default="md", help="output format (default md)")
    p.add_argument("--output", type=pathlib.Path, help="write here (default: standard output)")
    p.add_argument("--docs-url", help="base URL of the site whose explainer pages the profile links to")


def _run(args) -> int:
    from faircode.profiling._profile import profile
    from faircode.report._cli import _references, _write_all, print_warnings
    from faircode.report._errors import EXIT_INPUT, AuditInputError, AuditWarning

    tokens = [t for t in args.missing_values.split(",") if t != ""] if args.missing_values else []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", AuditWarning)
            report = profile(args.data, groups=args.group, label=args.label,
                             reference=_references(args.reference, args.group), reference_data=args.against,
                             positive_label=args.positive, missing_values=tokens, dropna=args.dropna,
                             min_count=args.min_count, confidence=args.confidence, random_state=args.seed,
                             sep=args.sep, encoding=args.encoding)
        print_warnings(caught, "profile")
    except AuditInputError as err:
        print(f"faircode profile: error: {err}", file=sys.stderr)
        return EXIT_INPUT
    if args.format == "json":
        text = report.to_json()
    elif args.format == "html":
        text = report.to_html(docs_url=args.docs_url)
    else:
        text = report.to_markdown(docs_url=args.docs_url)
    if args.output is not None:
        _write_all({args.output: text})
    else:
        sys.stdout.write(text)
    meta = report.meta
    dropped = (f", {meta['rows_dropped_missing']} dropped for a missing group or label"
               if meta["rows_dropped_missing"] else "")
    print(f"faircode profile: {meta['rows_used']} rows of {meta['source']}{dropped}; {len(meta['variables'])} "
          f"columns; {report.comparisons['count']} proxy tests"
          + (f"; wrote {args.output}" if args.output is not None else ""), file=sys.stderr)
    return 0
