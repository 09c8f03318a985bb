"""Site build time: `mkdocs build --strict` of the repository's site, twice (the second with mkdocs-jupyter's
cache and the staged notebooks already in place), and how many HTML pages it made."""
import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _build(site_dir: pathlib.Path) -> float:
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(site_dir)],
                   cwd=ROOT, env=env, check=True, capture_output=True)
    return time.perf_counter() - start


def main():
    with tempfile.TemporaryDirectory() as tmp:
        site = pathlib.Path(tmp) / "site"
        first = _build(site)
        second = _build(site)
        pages = sum(1 for _ in site.rglob("*.html"))
    print(f"BENCH site_build_first {first:.2f} s")
    print(f"BENCH site_build_again {second:.2f} s")
    print(f"BENCH site_pages {pages} pages")


if __name__ == "__main__":
    main()
