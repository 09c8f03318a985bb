"""``python -m faircode audit ...`` (and the ``faircode`` console script): see ``faircode.report._cli``."""
import sys


def main(argv=None) -> int:
    from faircode.report._cli import main as cli

    return cli(argv)


if __name__ == "__main__":
    sys.exit(main())
