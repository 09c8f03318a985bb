"""``python -m faircode audit|profile ...`` (and the ``faircode`` console script): the command line.

``audit`` (``faircode.report._cli``) audits a table of predictions; ``profile`` (``faircode.profiling._cli``) describes
a table before a model. Exit codes: 0 done, 1 a ``--fail-on`` condition failed (audit), 2 bad input, 3 an internal
error (so that a crash never reads as a failed gate).
"""
import argparse
import sys


def _parser() -> argparse.ArgumentParser:
    from faircode.profiling._cli import add_parser as add_profile
    from faircode.report._cli import add_parser as add_audit

    parser = argparse.ArgumentParser(prog="faircode", description="Audit a table of your own predictions for "
                                     "fairness (rates, gaps and ratios by group with intervals), or profile a "
                                     "table before a model (group sizes, base rates, missing values, proxies, "
                                     "drift).")
    commands = parser.add_subparsers(dest="command", required=True)
    add_audit(commands)
    add_profile(commands)
    return parser


def main(argv=None) -> int:
    from faircode.report._errors import EXIT_INTERNAL

    args = _parser().parse_args(argv)
    try:
        return args.run(args)
    except Exception:  # a bug, not a gate: exit 3, never 1
        import traceback

        traceback.print_exc()
        print(f"faircode {args.command}: internal error (exit 3); no report was written", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
