"""Make the build's code-fence options readable by pymdownx.superfences.

Pages mark blocks with options only the build understands (```` ```python output="name" ````, ```` ```python
norun ````). superfences rejects a fence whose options it does not know and prints the block as plain text, so the
site drops ``output=`` (the reader sees the output where the markers put it) and shows ``norun`` as a title.
"""
from __future__ import annotations

import re

__all__ = ["normalize_fences", "fenced_blocks", "SKETCH_TITLE"]

SKETCH_TITLE = "Sketch: shown, not run by the build"
_OPENER = re.compile(r"^(?P<lead> {0,3}(?:>\s?)*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>python|py)\b(?P<rest>[^`\n]*)$",
                     )
_OUTPUT = re.compile(r"""\s*\boutput=(?:"[^"]*"|'[^']*'|\S+)""")
_NORUN = re.compile(r"\s*\bnorun\b")


def fenced_blocks(lines: list[str]) -> list[tuple[int, int]]:
    """Line ranges ``(opener, closer)``, inclusive, of the fenced code blocks; an unclosed one runs to the end."""
    # markdown-it applies CommonMark's fence rules (backticks or tildes, a closing fence at least as long,
    # fences in lists and quotes), as the page build's reader does (scripts/pagebuild/_pages.py).
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").parse("".join(lines))
    return [(t.map[0], t.map[1] - 1) for t in tokens if t.type == "fence" and t.map]


def normalize_fences(markdown: str) -> str:
    """Rewrite the options of Python fence openers into ones superfences accepts.

    Parameters
    ----------
    markdown : str
        Markdown source.

    Returns
    -------
    str
        The source with ``output=...`` removed and ``norun`` turned into a ``title``; other lines untouched.

    Examples
    --------
    >>> normalize_fences('```python output="table"\\nprint(1)\\n```')
    '```python\\nprint(1)\\n```'
    """
    lines = markdown.splitlines(keepends=True)
    for first, _ in fenced_blocks(lines):
        opener = _OPENER.match(lines[first].rstrip("\r\n"))
        if opener:
            lines[first] = _rewrite(opener) + lines[first][len(lines[first].rstrip("\r\n")):]
    return "".join(lines)


def _rewrite(match: re.Match) -> str:
    """The fence opener with superfences-readable options."""
    rest = _OUTPUT.sub("", match.group("rest"))
    if _NORUN.search(rest):
        rest = _NORUN.sub("", rest) + f' title="{SKETCH_TITLE}"'
    return f"{match.group('lead')}{match.group('fence')}{match.group('lang')}{rest.rstrip()}"
