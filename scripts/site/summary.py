"""One line that says what ``make site`` built: ``python -m scripts.site.summary SITE_DIR START_EPOCH``.

The site build's own log has a line per notebook converted and copied (about 200); ``make site`` hides those INFO
lines and prints this instead (``make site V=1`` shows the whole log).
"""
from __future__ import annotations

import pathlib
import sys
import time


def summary(site: pathlib.Path, seconds: float) -> str:
    pages = [p for p in site.rglob("*.html") if p.name != "404.html"]
    notebooks = sum("/notebooks/" in p.as_posix() for p in pages)
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    return (f"site: {len(pages) - notebooks} pages and {notebooks} notebook pages in {site}/ "
            f"({size / 1e6:.0f} MB) in {seconds:.0f} s; `make serve` to preview it")


if __name__ == "__main__":
    folder, start = pathlib.Path(sys.argv[1]), float(sys.argv[2])
    if not (folder / "index.html").is_file():
        sys.exit(f"site: no {folder}/index.html after the build; run `make site V=1` to see the build's log")
    print(summary(folder, time.time() - start))
