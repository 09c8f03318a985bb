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
_ANY = re.compile(r"^ {0,3}(?:>\s?)*(?P<fence>`{3,}|~{3,})")
_OUTPUT = re.compile(r"""\s*\boutput=(?:"[^"]*"|'[^']*'|\S+)""")
_NORUN = re.compile(r"\s*\bnorun\b")


def fenced_blocks(lines: list[str]) -> list[tuple[int, int]]:
    """Line ranges ``(opener, closer)``, inclusive, of the fenced code blocks; an unclosed one runs to the end."""
    blocks, fence, first = [], None, 0
    for number, line in enumerate(lines):
        match = _ANY.match(line)
        if fence is None and match:
            fence, first = match.group("fence"), number
        elif fence is not None and match and set(line.strip()) == {fence[0]} and len(line.strip()) >= len(fence):
            blocks.append((first, number))  # closes with as many backticks (or tildes) as it opened, or more
            fence = None
    if fence is not None:
        blocks.append((first, len(lines) - 1))
    return blocks


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
