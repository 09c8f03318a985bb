"""Find the pages, read their front matter and output markers, and check that the page is well formed."""
from __future__ import annotations

import dataclasses
import pathlib
import re

import yaml

NAME = r"[A-Za-z0-9][A-Za-z0-9_.-]*"
START_MARKER = re.compile(rf"^ {{0,3}}<!--\s*output:\s*({NAME})\s*-->\s*$")
END_MARKER = re.compile(r"^ {0,3}<!--\s*end output\s*-->\s*$")
MARKER_LIKE = re.compile(r"^\s*<!--\s*(end\s+)?output\b")
NAME_RE = re.compile(rf"^{NAME}$")


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
    """A parsed page: where it lives, its front matter, its marker regions and its Python blocks."""

    path: str  # relative to the repository root, POSIX separators
    text: str
    front_matter: dict
    regions: list
    blocks: list

    @property
    def slug(self) -> str:
        return pathlib.PurePosixPath(self.path).stem

    @property
    def folder(self) -> str:
        return str(pathlib.PurePosixPath(self.path).parent)

    @property
    def script_path(self) -> str:
        return str(pathlib.PurePosixPath(self.folder) / "code" / f"{self.slug}.py")

    def figure_path(self, number: int) -> str:
        return str(pathlib.PurePosixPath(self.folder) / "figures" / f"{self.slug}-{number}.png")

    @property
    def runnable(self) -> list:
        return [block for block in self.blocks if not block.norun]


def discover(config) -> list[str]:
    """Candidate page paths (relative, sorted): the configured globs plus the ``*.md`` of every audit folder."""
    root = config.root
    found = set()
    for pattern in config.pages:
        found.update(p for p in root.glob(pattern) if p.is_file())
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        if (folder / config.audit_manifest).is_file():
            found.update(p for p in folder.glob("*.md") if p.is_file())
    return sorted(p.relative_to(root).as_posix() for p in found)


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


def code_lines(text) -> set[int]:
    """0-based numbers of the lines that lie inside fenced or indented code (markers there are examples)."""
    # markdown-it implements CommonMark's fence rules (backticks or tildes, closing fence at least as long,
    # fences inside lists and quotes); a hand-written scanner would get those edge cases wrong.
    from markdown_it import MarkdownIt

    inside = set()
    for token in MarkdownIt("commonmark").parse(text):
        if token.type in ("fence", "code_block") and token.map:
            inside.update(range(token.map[0], token.map[1]))
    return inside


def find_regions(path, text) -> list[Region]:
    """Output marker pairs of a page, checked: every start closed, no nesting, no stray end, unique names."""
    inside = code_lines(text)
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


def blank_regions(text, regions) -> str:
    """The page with every line between markers emptied, so old output is never read as code.

    Lines are blanked rather than removed, so line numbers stay those of the page.
    """
    lines = text.split("\n")
    for region in regions:
        for number in range(region.start, region.end - 1):
            lines[number] = ""
    return "\n".join(lines)


def read_page(root, path) -> Page:
    """Parse ``root/path`` into a :class:`Page`, raising :class:`PageError` when it is malformed."""
    from ._extract import parse_blocks

    text = (pathlib.Path(root) / path).read_text(encoding="utf-8")
    return parse_page(path, text, parse_blocks)


def parse_page(path, text, parse_blocks) -> Page:
    """Parse page text (see :func:`read_page`); ``parse_blocks`` turns the marker-free text into blocks."""
    front = split_front_matter(path, text)
    regions = find_regions(path, text)
    blocks = parse_blocks(path, blank_regions(text, regions))
    page = Page(path=path, text=text, front_matter=front, regions=regions, blocks=blocks)
    validate(page)
    return page


def validate(page: Page) -> None:
    """Every output name is a marker and every marker has a block; names are unique."""
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
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0):
        raise PageError(page.path, 1, f"front matter timeout is {timeout!r}; expected a positive number of seconds")
