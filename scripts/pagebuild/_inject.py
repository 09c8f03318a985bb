"""Put a block's printed output and figures between its page's output markers; nothing else changes."""
from __future__ import annotations

import re

BACKTICKS = re.compile(r"`+")


def fence_for(text: str) -> str:
    """A backtick fence longer than any backtick run in ``text`` (at least three), so the output cannot close it."""
    longest = max((len(run) for run in BACKTICKS.findall(text)), default=0)
    return "`" * max(3, longest + 1)


def _alt(text: str) -> str:
    return " ".join(text.split()).replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")


# The table protocol shared with faircode.display: the build sets DISPLAY_ENV in each page's process, and a
# table printed there arrives as Markdown between these two lines (tests/pagebuild checks the two agree).
DISPLAY_ENV = {"FAIRCODE_DISPLAY": "markdown"}
TABLE_START = "<!-- table -->"
TABLE_END = "<!-- end table -->"


def _segments(lines):
    """Split printed lines into ("text", lines) and ("table", lines) runs, in order."""
    segments, kind, current = [], "text", []
    for number, line in enumerate(lines, 1):
        if line == TABLE_START and kind == "text":
            segments.append((kind, current))
            kind, current = "table", []
        elif line == TABLE_END and kind == "table":
            segments.append((kind, current))
            kind, current = "text", []
        elif line in (TABLE_START, TABLE_END):
            raise ValueError(f"printed output line {number}: {line!r} where a "
                             f"{'table' if kind == 'text' else 'table end'} marker was expected")
        else:
            current.append(line)
    if kind == "table":
        raise ValueError(f"printed output ends inside a table: {TABLE_START!r} has no {TABLE_END!r}")
    segments.append((kind, current))
    return segments


def _trim(lines):
    lines = list(lines)
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    return lines


def render_output(stdout: str, figures) -> str:
    """Markdown for one output region: printed text fenced as ``text``, tables as tables, then the figures.

    ``figures`` holds (alt text, path relative to the page) pairs. Trailing spaces are dropped from each
    printed line (editors strip them, and a check must not fail over invisible spaces). A table printed by
    ``faircode.display.show`` becomes a Markdown table inside a ``fc-table`` block, which the site styles.
    Blank lines around each part keep every Markdown renderer from gluing it to the markers.
    """
    parts = []
    for kind, lines in _segments([line.rstrip() for line in stdout.split("\n")]):
        lines = _trim(lines)
        if not lines:
            continue
        body = "\n".join(lines)
        if kind == "table":
            parts.append(f'<div class="fc-table" markdown>\n\n{body}\n\n</div>')
        else:
            fence = fence_for(body)
            parts.append(f"{fence}text\n{body}\n{fence}")
    for alt, target in figures:
        target = f"<{target}>" if " " in target else target
        parts.append(f"![{_alt(alt)}]({target})")
    return "\n\n".join(parts)


def inject(text: str, regions, rendered: dict) -> str:
    """Replace the lines between each region's markers with ``rendered[region.name]``.

    ``regions`` are the page's marker pairs (1-based marker lines, in page order); regions not named in
    ``rendered`` keep their content. Lines outside the regions are kept byte for byte; the inserted lines end
    as the start marker's line does (CRLF or LF).
    """
    lines = text.split("\n")
    out, cursor = [], 0
    for region in regions:
        if region.name not in rendered:
            continue
        out.extend(lines[cursor : region.start])  # up to and including the start marker
        content = rendered[region.name]
        ending = "\r" if lines[region.start - 1].endswith("\r") else ""
        if content:
            out.extend(line + ending for line in ["", *content.split("\n"), ""])
        cursor = region.end - 1  # resume at the end marker
    out.extend(lines[cursor:])
    return "\n".join(out)
