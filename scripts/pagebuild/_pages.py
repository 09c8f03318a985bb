"""Read a page: one markdown-it pass gives its front matter, output markers and Python blocks with their lines.

markdown-it implements CommonMark's fence rules (backticks or tildes, a closing fence at least as long, fences
inside lists and quotes), which a hand-written scanner would get wrong; jupytext's metadata parser reads a
fence's options (``output="name"``, ``norun``) as jupytext itself would. Each page is parsed exactly once.
"""
from __future__ import annotations

import dataclasses
import math
import pathlib
import re

import yaml

from scripts import layout

NAME = r"[A-Za-z0-9][A-Za-z0-9_.-]*"
START_MARKER = re.compile(rf"^ {{0,3}}<!--\s*output:\s*({NAME})\s*-->\s*$")
END_MARKER = re.compile(r"^ {0,3}<!--\s*end output\s*-->\s*$")
MARKER_LIKE = re.compile(r"^\s*<!--\s*(end\s+)?output\b")
NAME_RE = re.compile(rf"^{NAME}$")
#: The options a ```python fence may carry.
FENCE_OPTIONS = ("output", "norun")


class PageError(Exception):
    """A page that cannot be built as written; the message names the file and the Markdown line."""

    def __init__(self, path, line, message):
        self.path = str(path)
        self.line = line
        self.message = message
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {message}")


@dataclasses.dataclass(frozen=True)
class Region:
    """An output marker pair: ``start`` and ``end`` are the 1-based lines of the two marker comments."""

    name: str
    start: int
    end: int


@dataclasses.dataclass(frozen=True)
class Block:
    """One fenced Python block of a page, ``line`` being the Markdown line of its first code line."""

    index: int
    line: int
    source: str
    output: str | None
    norun: bool


@dataclasses.dataclass
class Page:
    """A parsed page: where it lives, its exact text, its front matter, its marker regions and its Python blocks.

    ``text`` is the page as written (line endings included); line numbers are those of the page.
    """

    path: str  # relative to the repository root, POSIX separators
    text: str
    front_matter: dict
    regions: list
    blocks: list
    code_lines: frozenset = frozenset()  # 0-based lines inside fenced or indented code

    @property
    def slug(self) -> str:
        return layout.slug(self.path)

    @property
    def folder(self) -> str:
        return layout.folder(self.path)

    @property
    def script_path(self) -> str:
        return layout.script_path(self.path)

    def figure_path(self, number: int) -> str:
        return layout.figure_path(self.path, number)

    @property
    def report_folder(self) -> str:
        return layout.report_folder(self.path)

    @property
    def runnable(self) -> list:
        return [block for block in self.blocks if not block.norun]


def discover(config) -> list[str]:
    """The pages of ``config.root`` (relative, sorted); see :mod:`scripts.layout`."""
    return layout.pages(config.root)


def might_run(text: str) -> bool:
    """Cheap test before parsing: a page with no Python fence and no marker is not built at all."""
    return "```python" in text or "<!--" in text and "output" in text


def split_front_matter(path, text):
    """Return the YAML front matter as a dict (empty if the page has none)."""
    lines = text.split("\n")
    if not lines or lines[0].rstrip() != "---":
        return {}
    for number, line in enumerate(lines[1:], start=2):
        if line.rstrip() in ("---", "..."):
            try:
                data = yaml.safe_load("\n".join(lines[1 : number - 1])) or {}
            except yaml.YAMLError as err:
                raise PageError(path, 1, f"front matter is not valid YAML: {err}") from err
            if not isinstance(data, dict):
                raise PageError(path, 1, f"front matter is a {type(data).__name__}; expected 'key: value' lines")
            return data
    raise PageError(path, 1, "front matter opened with '---' is never closed by a '---' line")


def _tokens(path, text):
    """The page's block tokens, after checking that every fence is closed (an unclosed one swallows the page)."""
    from markdown_it import MarkdownIt

    lines = text.split("\n")
    tokens = MarkdownIt("commonmark").parse(text)
    for token in tokens:
        if token.type == "fence" and token.map:
            last = lines[token.map[1] - 1].lstrip(" \t>") if token.map[1] > token.map[0] + 1 else ""
            char, length = token.markup[0], len(token.markup)
            if not re.fullmatch(rf"{re.escape(char)}{{{length},}}[ \t]*", last):
                raise PageError(path, token.map[0] + 1, f"the code fence {token.markup}{token.info.strip()} opened "
                                f"on this line is never closed; close it with a line of {length} or more {char!r}")
    return tokens


def code_lines(tokens) -> set[int]:
    """0-based numbers of the lines that lie inside fenced or indented code (markers there are examples)."""
    inside = set()
    for token in tokens:
        if token.type in ("fence", "code_block") and token.map:
            inside.update(range(token.map[0], token.map[1]))
    return inside


def find_regions(path, text, inside) -> list[Region]:
    """Output marker pairs of a page, checked: every start closed, no nesting, no stray end, unique names."""
    regions, open_name, open_line, seen = [], None, None, {}
    for number, line in enumerate(text.split("\n"), start=1):
        if number - 1 in inside or not MARKER_LIKE.match(line):
            continue
        start, end = START_MARKER.match(line), END_MARKER.match(line)
        if start:
            if open_name is not None:
                raise PageError(path, open_line, f"output marker '{open_name}' is not closed before the next "
                                f"marker on line {number}; expected '<!-- end output -->' first")
            open_name, open_line = start.group(1), number
            if open_name in seen:
                raise PageError(path, number, f"output marker '{open_name}' appears twice (first on line "
                                f"{seen[open_name]}); each output name is placed once")
            seen[open_name] = number
        elif end:
            if open_name is None:
                raise PageError(path, number, "'<!-- end output -->' without an opening '<!-- output: name -->'")
            regions.append(Region(open_name, open_line, number))
            open_name = None
        else:
            raise PageError(path, number, f"malformed output marker {line.strip()!r}; expected "
                            "'<!-- output: name -->' (name of letters, digits, '-', '_', '.') or '<!-- end output -->'")
    if open_name is not None:
        raise PageError(path, open_line, f"output marker '{open_name}' is never closed; expected "
                        "'<!-- end output -->' after it")
    return regions


def _fence_options(path, number, info):
    """The options of a ```python fence (jupytext's reader of fence metadata), checked against FENCE_OPTIONS."""
    from jupytext.cell_metadata import text_to_metadata

    _, meta = text_to_metadata(info)
    valid = "output=\"name\" and norun"
    if "incorrectly_encoded_metadata" in meta:
        raise PageError(path, number, f"cannot read the fence options {meta['incorrectly_encoded_metadata']!r}; "
                        f"write them as key=\"value\" or a bare flag (the options are {valid})")
    unknown = sorted(set(meta) - set(FENCE_OPTIONS))
    if unknown:
        raise PageError(path, number, f"unknown fence option(s) {unknown}; the options are {valid}")
    return meta


def python_blocks(path, text, tokens, regions) -> list[Block]:
    """The page's Python blocks: top-level ```python fences at column 0, outside the output regions."""
    lines = text.split("\n")
    inside_regions = {n for region in regions for n in range(region.start, region.end - 1)}  # 0-based
    blocks = []
    for token in tokens:
        if token.type != "fence" or not token.map or token.level != 0 or not token.markup.startswith("`"):
            continue
        first = token.map[0]
        words = token.info.split()
        if first in inside_regions or not words or words[0] != "python" or not lines[first].startswith(token.markup):
            continue
        meta = _fence_options(path, first + 1, token.info.strip())
        output = meta.get("output")
        blocks.append(Block(index=len(blocks), line=first + 2, source=token.content.rstrip() + "\n",
                            output=None if output is None else str(output), norun="norun" in meta))
    return blocks


def read_page(root, path, raw: bytes | None = None) -> Page:
    """Parse ``root/path`` (or its bytes ``raw``) into a :class:`Page`; :class:`PageError` when malformed."""
    if raw is None:
        raw = (pathlib.Path(root) / path).read_bytes()
    try:
        text = layout.decode(path, raw)
    except layout.PageEncodingError as err:
        raise PageError(path, err.line, str(err).split(": ", 1)[1]) from None
    return parse_page(path, text)


def parse_page(path, text) -> Page:
    """Parse page text (see :func:`read_page`). CRLF line endings are read as LF; the text is kept as written."""
    lone = re.search(r"\r(?!\n)", text)
    if lone:
        raise PageError(path, text.count("\n", 0, lone.start()) + 1, "a carriage return ('\\r') not followed by "
                        "a newline; save the page with LF or CRLF line endings")
    plain = text.replace("\r\n", "\n")
    front = split_front_matter(path, plain)
    tokens = _tokens(path, plain)
    inside = code_lines(tokens)
    regions = find_regions(path, plain, inside)
    blocks = python_blocks(path, plain, tokens, regions)
    page = Page(path=path, text=text, front_matter=front, regions=regions, blocks=blocks,
                code_lines=frozenset(inside))
    validate(page)
    return page


def validate(page: Page) -> None:
    """Every output name is a marker and every marker has a block; names are unique; the time limit is usable."""
    markers = {region.name: region for region in page.regions}
    named = {}
    for block in page.blocks:
        if block.output is None:
            continue
        if not NAME_RE.match(block.output):
            raise PageError(page.path, block.line - 1, f"output name {block.output!r} is not valid; use letters, "
                            "digits, '-', '_', '.' (starting with a letter or digit)")
        if block.output in named:
            raise PageError(page.path, block.line - 1, f"output=\"{block.output}\" is used by two blocks (the other "
                            f"starts on line {named[block.output].line - 1}); each output name belongs to one block")
        if block.norun:
            raise PageError(page.path, block.line - 1, f"block output=\"{block.output}\" is marked norun, so it "
                            "never prints; drop norun or the output name")
        if block.output not in markers:
            raise PageError(page.path, block.line - 1, f"block output=\"{block.output}\" has no marker; add "
                            f"'<!-- output: {block.output} -->' and '<!-- end output -->' where it should show")
        named[block.output] = block
    for region in page.regions:
        if region.name not in named:
            choices = ", ".join(sorted(named)) or "none"
            raise PageError(page.path, region.start, f"output marker '{region.name}' has no code block with "
                            f"output=\"{region.name}\"; the page's named blocks are: {choices}")
    timeout = page.front_matter.get("timeout")
    if timeout is not None and not positive_seconds(timeout):
        raise PageError(page.path, 1, f"front matter timeout is {timeout!r}; expected a finite positive number "
                        "of seconds")


def positive_seconds(value) -> bool:
    """Whether ``value`` is a usable time limit: a finite number above zero (not a bool, not NaN or infinity)."""
    return (not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)
            and value > 0)
