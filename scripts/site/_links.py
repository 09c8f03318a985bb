"""Show links to pages that do not exist yet as plain text, so that a page can name its related concepts early.

Python-Markdown has no hook for rewriting link targets before mkdocs validates them, and mkdocs' strict mode
turns every link to a missing page into a warning; so this module rewrites the Markdown source itself, outside
code blocks and code spans, and only for ``.md`` targets that exist neither on the site nor on disk.
"""
from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterable
from urllib.parse import unquote

from scripts.site._fences import fenced_blocks

__all__ = ["unlink_missing_pages", "code_regions"]

# [text](target.md), [text](target.md#anchor), [text](<target with spaces.md>), optional "title"; not images.
_LINK = re.compile(
    r"(?<!!)\[(?P<text>(?:[^\[\]\n]|\[[^\[\]\n]*\])+)\]"
    r"\((?:<(?P<angled>[^<>\n]+?\.md)(?P<aanchor>#[^<>\s]*)?>|(?P<plain>[^()\s<>]+?\.md)(?P<panchor>#[^()\s]*)?)"
    r"(?:\s+\"[^\"\n]*\")?\)"
)
_SPAN = re.compile(r"(?<!`)(?P<ticks>`+)(?!`).+?(?<!`)(?P=ticks)(?!`)", re.DOTALL)


def code_regions(markdown: str) -> list[tuple[int, int]]:
    """Character ranges of fenced code blocks and inline code spans, where links are not links.

    Parameters
    ----------
    markdown : str
        Markdown source.

    Returns
    -------
    list of (int, int)
        Half-open ``[start, end)`` ranges, in order.

    Examples
    --------
    >>> code_regions("a `b` c")
    [(2, 5)]
    """
    lines = markdown.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    regions = [(offsets[first], offsets[last + 1]) for first, last in fenced_blocks(lines)]
    outside, last = [], 0
    for lo, hi in regions:
        outside.append((last, lo))
        last = hi
    outside.append((last, len(markdown)))
    for lo, hi in outside:
        regions.extend((lo + m.start(), lo + m.end()) for m in _SPAN.finditer(markdown[lo:hi]))
    return sorted(regions)


def unlink_missing_pages(markdown: str, page_uri: str, exists: Callable[[str], bool]) -> tuple[str, list[str]]:
    """Replace links to ``.md`` pages that do not exist by their text.

    Parameters
    ----------
    markdown : str
        The page's Markdown source.
    page_uri : str
        The page's path on the site, slash-separated (``explainers/slug.md``); relative targets resolve from it.
    exists : callable
        Takes a resolved slash-separated path and says whether the page exists (on the site or on disk).
        Links whose target exists are left exactly as written, so mkdocs still validates them.

    Returns
    -------
    markdown : str
        The source with each missing-page link replaced by its text.
    unlinked : list of str
        The resolved targets that were unlinked, in order.

    Examples
    --------
    >>> unlink_missing_pages("See [Odds](odds.md).", "explainers/a.md", lambda uri: False)
    ('See Odds.', ['explainers/odds.md'])
    """
    skip = code_regions(markdown)
    out, unlinked, last = [], [], 0
    for match in _LINK.finditer(markdown):
        if _inside(match.start(), skip):
            continue
        raw = match.group("angled") or match.group("plain")
        if "://" in raw or raw.startswith(("/", "mailto:")):
            continue
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page_uri), unquote(raw)))
        if exists(target):
            continue
        out.append(markdown[last:match.start()])
        out.append(match.group("text"))
        last = match.end()
        unlinked.append(target)
    out.append(markdown[last:])
    return "".join(out), unlinked


def _inside(position: int, regions: Iterable[tuple[int, int]]) -> bool:
    """Whether ``position`` falls inside one of the half-open ``regions``."""
    return any(lo <= position < hi for lo, hi in regions)
