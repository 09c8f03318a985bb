"""The output regions of a page: find them, and frame each one on the site as output, with the code that printed it.

A page's printed output lives between ``<!-- output: name -->`` and ``<!-- end output -->`` (written there by the
page build), and the block that printed it is the ```` ```python output="name" ```` fence. On the site each region
becomes a container labelled as output, with no copy button over its text, and the code that printed it folded
inside it, one click away (as Jupyter Book and sphinx-gallery fold code above its output).

The markers are read here with the page build's own patterns (``scripts/pagebuild/_pages.py``) rather than by
importing the build: the site's hooks are copied into test roots that do not hold the build.
"""
from __future__ import annotations

import dataclasses
import html
import itertools
import re

from scripts.site._fences import fenced_blocks

__all__ = ["OutputRegion", "output_regions", "block_sources", "frame_outputs", "point_to_folds", "OUTPUT_CLASS",
           "CODE_SUMMARY", "POINTER_CLASS"]

_NAME = r"[A-Za-z0-9][A-Za-z0-9_.-]*"
_START = re.compile(rf"^ {{0,3}}<!--\s*output:\s*(?P<name>{_NAME})\s*-->\s*$")
_END = re.compile(r"^ {0,3}<!--\s*end output\s*-->\s*$")
_PYTHON_OPENER = re.compile(r"^(?P<fence>`{3,}|~{3,})[ \t]*(?:python|py)\b(?P<rest>[^\n]*)$")
_OUTPUT_OPTION = re.compile(r"""\boutput=(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[^\s"']+))""")
_TEXT_OPENER = re.compile(r"^(?P<fence>`{3,}|~{3,})[ \t]*text[ \t]*$")
# A figure as the build writes it, alone on its line: ![alt](path) with [, ] and \ escaped in the alt text.
_IMAGE = re.compile(r"^!\[(?P<alt>(?:[^\]\\]|\\.)*)\]\((?P<src><[^<>\n]+>|[^\s()]+)\)$")

OUTPUT_CLASS = "fc-output"
FIGURE_CLASS = "fc-figure"
CODE_SUMMARY = "Output · show the code that printed it"
POINTER_CLASS = "fc-code-pointer"
_COLUMN_GAP = re.compile(r"\S {2,}\S")
ALT_LIMIT = 150  # characters of a figure's alt text (its caption, under the figure, holds the whole label)


@dataclasses.dataclass(frozen=True)
class OutputRegion:
    """One marker pair: the 0-based line indexes of its two markers and the lines between them."""

    name: str
    start: int
    end: int
    lines: tuple[str, ...]

    @property
    def content(self) -> str:
        """What the build wrote between the markers, without the blank lines around it."""
        return "\n".join(self.lines).strip("\n")


def output_regions(markdown: str) -> list[OutputRegion]:
    """The output regions of a page, in order (an unclosed start marker is left alone).

    Examples
    --------
    >>> [r.content for r in output_regions("a\\n<!-- output: t -->\\n\\nx\\n\\n<!-- end output -->\\n")]
    ['x']
    """
    lines = markdown.split("\n")
    regions, index = [], 0
    while index < len(lines):
        start = _START.match(lines[index])
        if start:
            end = next((j for j in range(index + 1, len(lines)) if _END.match(lines[j])), None)
            if end is None:
                break
            regions.append(OutputRegion(start.group("name"), index, end, tuple(lines[index + 1:end])))
            index = end
        index += 1
    return regions


def block_sources(markdown: str) -> dict[str, str]:
    """The code of each ```` ```python output="name" ```` block, by output name.

    Examples
    --------
    >>> block_sources('```python output="t"\\nprint(1)\\n```\\n')
    {'t': 'print(1)\\n'}
    """
    lines = markdown.splitlines(keepends=True)
    sources = {}
    for first, last in fenced_blocks(lines):
        opener = _PYTHON_OPENER.match(lines[first].rstrip("\r\n"))
        option = _OUTPUT_OPTION.search(opener.group("rest")) if opener else None
        if option:
            name = option.group("dq") or option.group("sq") or option.group("bare")
            closed = last > first and lines[last].strip().startswith(opener.group("fence"))
            sources[name] = "".join(lines[first + 1:last if closed else last + 1])
    return sources


def _fence(code: str) -> str:
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    return "`" * max(3, longest + 1)


def is_aligned(lines: list[str]) -> bool:
    """Whether printed text is laid out in columns (most lines hold a run of two or more spaces between words),
    so that wrapping it would break the columns; such text scrolls sideways on a narrow screen instead.

    Examples
    --------
    >>> is_aligned(["group   rate", "women  0.250", "men    0.400"])
    True
    >>> is_aligned(["A sentence that wraps.", "Another one."])
    False
    """
    filled = [line for line in lines if line.strip()]
    columned = [line for line in filled if _COLUMN_GAP.search(line)]
    return len(columned) >= 2 and 2 * len(columned) >= len(filled)


def short_alt(label: str, limit: int = ALT_LIMIT) -> str:
    """A figure's alt text: its label's first clause, at most ``limit`` characters; the caption keeps it whole.

    A screen reader reads the alt text and then the caption, so an alt that repeats a 400-character caption is
    read twice; the alt names what the figure is, the caption says what it shows.

    Examples
    --------
    >>> short_alt("Three panels of precision against base rate: a grey curve for the shared rates.")
    'Three panels of precision against base rate'
    >>> short_alt("A bar chart.")
    'A bar chart.'
    """
    head = re.split(r"(?<=[^\s.])(?::|;|\.)\s", label.strip(), maxsplit=1)[0].strip()
    if len(head) <= limit:
        return head
    cut = head[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:")
    return cut + "\u2026"


def short_alt_markdown(alt: str) -> str:
    """:func:`short_alt` of an alt text as the build writes it in Markdown (``[``, ``]`` and ``\\`` escaped),
    escaped the same way."""
    return re.sub(r"([\\\[\]])", r"\\\1", short_alt(re.sub(r"\\(.)", r"\1", alt)))


def _shown(content: str) -> str:
    """The output as shown: text fences marked no-copy (mkdocs-material then draws no copy button on them) and
    each figure in a ``<figure>`` whose visible caption is its label (the alt text ``fig.set_label`` gave it), the
    image's alt text the label's first clause (:func:`short_alt`), the enlarged view's title the whole label."""
    out = []
    lines = content.split("\n")
    for number, line in enumerate(lines):
        text, image = _TEXT_OPENER.match(line), _IMAGE.match(line)
        if text:
            body = list(itertools.takewhile(lambda x: not x.startswith(text.group("fence")), lines[number + 1:]))
            aligned = " .fc-aligned" if is_aligned(body) else ""
            out.append(f"{text.group('fence')} {{ .text .no-copy{aligned} }}")
        elif image:
            label = re.sub(r"\\(.)", r"\1", image.group("alt"))
            short = short_alt_markdown(image.group("alt"))
            # The enlarged view (glightbox) titles the figure with data-title when given, else with the alt text.
            title = html.escape(label, quote=True)
            out += [f'<figure class="{FIGURE_CLASS}" markdown>', "",
                    f'![{short}]({image.group("src")}){{ data-title="{title}" }}', "",
                    f"<figcaption>{html.escape(label)}</figcaption>", "", "</figure>"]
        else:
            out.append(line)
    return "\n".join(out)


def output_id(name: str) -> str:
    """The HTML id of an output's container: ``output-<name>`` (names are ``[A-Za-z0-9_.-]``, valid in an id)."""
    return f"output-{name}"


def _frame(region: OutputRegion, source: str | None) -> list[str]:
    # Out of the search index, like the folded code: runs of numbers are no answer to a search, and they were most
    # of the index every reader's browser fetches. A <section>, not a <div>: mkdocs-material's indexer keeps its
    # skip set by tag name, so the first nested </div> (a table's, a code block's) would end a <div>'s exclusion.
    parts = [f'<section class="{OUTPUT_CLASS}" id="{output_id(region.name)}" markdown data-search-exclude>', ""]
    if source is not None:
        fence = _fence(source)
        parts += [f'<details class="{OUTPUT_CLASS}__code" markdown data-search-exclude>',
                  f"<summary>{html.escape(CODE_SUMMARY)}</summary>", "",
                  f"{fence}python", source.rstrip("\n"), fence, "", "</details>", ""]
    else:
        parts += [f'<p class="{OUTPUT_CLASS}__label">Output</p>', ""]
    parts += [_shown(region.content), "", "</section>"]
    return parts


def frame_outputs(markdown: str) -> str:
    """Wrap every non-empty output region of a page in the site's output container.

    Parameters
    ----------
    markdown : str
        The page's Markdown, with the build's fence options (``output="name"``) still on its Python fences.

    Returns
    -------
    str
        The page with each region's content inside ``<section class="fc-output">``: a folded ``<details>`` holding
        the code of the block that printed it (or a plain "Output" label when no block names the region), then
        the output itself, its text fences marked ``.no-copy``. Markers and prose are kept as they are.
    """
    regions = [r for r in output_regions(markdown) if r.content.strip()]
    if not regions:
        return markdown
    sources = block_sources(markdown)
    lines = markdown.split("\n")
    out, cursor = [], 0
    for region in regions:
        out += lines[cursor:region.start + 1]
        out += ["", *_frame(region, sources.get(region.name)), ""]
        cursor = region.end
    out += lines[cursor:]
    return "\n".join(out)


def point_to_folds(markdown: str) -> str:
    """Keep one copy of each block's code on the site: the fold inside its output (``frame_outputs``).

    A ```` ```python output="name" ```` block whose region is shown folded elsewhere is replaced by a line that
    links to that output (``#output-<name>``); a block that sits right above its own output is dropped, since the
    fold is the next thing the reader sees. Blocks that print nothing (set-up code), blocks whose region is empty
    or missing, and every other fence stay as they are. The page's Markdown in the repository keeps its blocks:
    this runs only on the site's copy, after ``frame_outputs``.

    Examples
    --------
    >>> page = '```python output="t"\\nprint(1)\\n```\\n\\n<!-- output: t -->\\n1\\n<!-- end output -->\\n'
    >>> point_to_folds(frame_outputs("Intro\\n\\n" + page)).count("print(1)")  # only the fold is left
    1
    """
    shown = {r.name: r for r in output_regions(markdown) if r.content.strip()}
    lines = markdown.splitlines(keepends=True)
    replace = {}  # opener line -> (closer line, replacement lines)
    for first, last in fenced_blocks(lines):
        opener = _PYTHON_OPENER.match(lines[first].rstrip("\r\n"))
        option = _OUTPUT_OPTION.search(opener.group("rest")) if opener else None
        name = option and (option.group("dq") or option.group("sq") or option.group("bare"))
        if not name or name not in shown:
            continue
        following = next((i for i in range(last + 1, len(lines)) if lines[i].strip()), None)
        if following == shown[name].start:
            replace[first] = (last, [])
        else:
            link = f'<p class="{POINTER_CLASS}">Its code is folded inside <a href="#{output_id(name)}">the output ' \
                   f'it prints</a>.</p>\n'
            replace[first] = (last, [link])
    out, index = [], 0
    while index < len(lines):
        if index in replace:
            last, new = replace[index]
            out += new
            index = last + 1
        else:
            out.append(lines[index])
            index += 1
    return "".join(out)
