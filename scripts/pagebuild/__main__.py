"""``python -m scripts.pagebuild``: see :mod:`scripts.pagebuild._cli`."""
import sys

from ._cli import main

if __name__ == "__main__":
    sys.exit(main())
