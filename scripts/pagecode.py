"""Format the pages' Python blocks with ruff, or check that they are formatted (``make format``, ``make check``).

A page's code is read on the site in a column about 88 monospace characters wide, so every block is kept to
``[tool.ruff] line-length`` by ruff's formatter, the Python ecosystem's own tool, run on each block as a unit (a
block is valid Python on its own: the build compiles it alone). ``check`` fails with ``page.md:LINE`` for a
block the formatter would change and for a line still over the limit (ruff's E501, e.g. a long string the
formatter cannot split). ``format`` rewrites the blocks in place and touches nothing else of the page.

Usage: ``python -m scripts.pagecode {check,format} [PAGE ...]`` from the repository root.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scripts import layout  # noqa: E402
from scripts.pagebuild._files import write_if_changed  # noqa: E402
from scripts.pagebuild._pages import PageError, read_page  # noqa: E402


def _ruff(*args: str, source: str, root: pathlib.Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "ruff", *args, "--config", str(root / "pyproject.toml")]
    return subprocess.run(command, input=source, capture_output=True, text=True, cwd=root, check=False)


def formatted(source: str, root: pathlib.Path = ROOT) -> str:
    """``source`` as ruff's formatter writes it (ValueError with ruff's message when it cannot parse it)."""
    result = _ruff("format", "--stdin-filename", "block.py", "-", source=source, root=root)
    if result.returncode != 0:
        raise ValueError(result.stderr.strip().splitlines()[-1] if result.stderr.strip() else "ruff format failed")
    return result.stdout


def long_lines(source: str, root: pathlib.Path = ROOT) -> list[tuple[int, str]]:
    """(line within the block, ruff's message) for each line over the limit."""
    result = _ruff("check", "--select", "E501", "--output-format", "json", "--stdin-filename", "block.py", "-",
                   source=source, root=root)
    return [(item["location"]["row"], item["message"]) for item in json.loads(result.stdout or "[]")]


def _blocks(root: pathlib.Path, page: str):
    parsed = read_page(root, page)
    if "\r\n" in parsed.text:
        raise PageError(page, 1, "CRLF line endings: the code formatter works on LF pages only")
    return parsed


def problems(root: pathlib.Path, page: str) -> list[str]:
    """``page.md:LINE: ...`` for each block that is not formatted or has a line over the limit."""
    out = []
    for block in _blocks(root, page).blocks:
        try:
            if formatted(block.source, root) != block.source:
                out.append(f"{page}:{block.line}: this Python block is not formatted; run `make format`")
                continue
        except ValueError as err:
            out.append(f"{page}:{block.line}: ruff cannot read this block: {err}")
            continue
        out += [f"{page}:{block.line + row - 1}: {message}" for row, message in long_lines(block.source, root)]
    return out


def format_page(root: pathlib.Path, page: str) -> bool:
    """Rewrite the page's Python blocks as the formatter writes them; True when the file changed."""
    parsed = _blocks(root, page)
    lines = parsed.text.split("\n")
    # From the last block up, so earlier line numbers stay valid while later blocks change length.
    for block in reversed(parsed.blocks):
        first = block.line - 1
        count = block.source.count("\n")
        lines[first:first + count] = formatted(block.source, root).rstrip("\n").split("\n")
    return write_if_changed(root / page, "\n".join(lines).encode(), expected=parsed.text.encode())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.pagecode", description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["check", "format"])
    parser.add_argument("pages", nargs="*", help="pages to work on (default: every page)")
    args = parser.parse_args(argv)
    pages = args.pages or layout.pages(ROOT)
    found = []
    for page in pages:
        try:
            if args.command == "format":
                if format_page(ROOT, page):
                    print(f"formatted {page}")
            else:
                found += problems(ROOT, page)
        except (PageError, ValueError, OSError) as err:
            found.append(f"{page}: {err}")
    for problem in found:
        print(problem, file=sys.stderr)
    if args.command == "check":
        print(f"page code: {len(pages)} page(s) checked, {len(found)} problem(s)",
              file=sys.stderr if found else sys.stdout)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
