"""The numbers a page's prose quotes must be numbers its output shows: the check behind ``pagebuild check``.

What counts as a number: a decimal with a point (``0.605``, ``-0.090``, ``1,234.5``) and a percentage (``12.5%``,
``95%``). Integers without a percent sign (counts, years, page numbers) are not checked.

A prose number passes when any of these holds:

1. the page's output regions show a number with the same digits (the sign is ignored, so that prose may say
   "a gap of 0.087" for a printed ``-0.087``; thousands separators are ignored; ``0.61`` does not match a printed
   ``0.605``: prose copies the printed digits);
2. it equals a numeric constant of the page's Python code (a threshold ``0.5``, a confidence ``0.95``);
3. for a percentage X%: an output number or code constant equals X/100 exactly (``95%`` and ``0.95``,
   ``12.5%`` and ``0.125``), or the output shows X itself.

Not prose, never checked: fenced code, output regions (they are the output), inline code spans, HTML comments,
link targets and bare URLs, the section under a "Further Reading" or "References" heading, and numbers shaped
like a citation: DOIs (``10.1145/3287560``), arXiv ids (``arXiv:1810.01943``), version numbers (``v1.2``,
``1.2.3``, ``version 1.2``, ``Python 3.11``) and numbered parts of a document (``29 CFR 1607.4``, ``Section 4.2``,
``§ 3.1``, ``Eq. 2.1``, ``pp. 12.3``).

An audit's data card (``<audit>/DATA.md``, written by ``make data``) has no code and no output regions; its
numbers are checked against the card that ``faircode.data.data_card`` generates now from the manifest and the
data, so a hand edit or a card left stale after the data changed fails.
"""
from __future__ import annotations

import decimal
import io
import re
import tokenize

from scripts import layout

from ._pages import PageError, parse_page

_NUMBER = re.compile(r"(?<![\w.])([-+\u2212]?)((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)(%?)(?!\w|\.\d)")
# Spans removed from a prose line before its numbers are read (citations, code, addresses).
_NOT_PROSE = [re.compile(p, re.IGNORECASE) for p in (
    r"<!--.*?-->",                                    # HTML comments
    r"`[^`]*`",                                       # inline code
    r"\]\([^)]*\)",                                   # link targets
    r"https?://\S+",                                  # bare URLs
    r"\b10\.\d{4,9}/\S+",                             # DOIs
    r"\barxiv[:\s/]*\d{4}\.\d{4,5}(?:v\d+)?",          # arXiv ids
    r"\babs/\d{4}\.\d{4,5}",
    r"\b(?:v|version\s+|python\s+)\d+(?:\.\d+)+",     # versions
    r"(?:\bCFR|§|\bsection|\bsec\.|\bchapter|\beq\.|\bequation|\bpp?\.)\s*\d+(?:\.\d+)*",  # document parts
)]
_REFERENCES = re.compile(r"^(#{1,6})\s+(?:further reading|references|bibliography)\b", re.IGNORECASE)
_HEADING = re.compile(r"^(#{1,6})\s")


def _digits(number: str) -> str:
    return number.replace(",", "")


def _value(digits: str) -> decimal.Decimal:
    return decimal.Decimal(digits)


def prose_numbers(text: str, skip: set[int]) -> list[tuple[int, str]]:
    """``(line, number as written)`` for every decimal or percentage on prose lines (1-based lines not in skip)."""
    found, level = [], None
    for number, line in enumerate(text.split("\n"), start=1):
        heading = _HEADING.match(line)
        if heading and level is not None and len(heading.group(1)) <= level:
            level = None
        references = _REFERENCES.match(line)
        if references:
            level = len(references.group(1))
        if level is not None or number in skip:
            continue
        for pattern in _NOT_PROSE:
            line = pattern.sub(" ", line)
        for match in _NUMBER.finditer(line):
            sign, digits, percent = match.groups()
            if "." in digits or percent:
                found.append((number, match.group(0)))
    return found


def shown_numbers(text: str) -> tuple[set[str], set[decimal.Decimal]]:
    """Digits (sign and separators dropped) and values of every number in output text."""
    digits = {_digits(m.group(2)) for m in _NUMBER.finditer(text)}
    return digits, {_value(d) for d in digits}


def code_constants(source: str) -> set[decimal.Decimal]:
    """Values of the numeric literals in Python source (sign dropped), e.g. {0.5, 0.95, 30}."""
    values = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.NUMBER:
                try:
                    values.add(decimal.Decimal(token.string.replace("_", "")))
                except decimal.InvalidOperation:  # hex, octal, complex: no prose quotes them
                    pass
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return values


def unmatched(prose: list[tuple[int, str]], shown: tuple[set, set], constants: set) -> list[tuple[int, str]]:
    """The prose numbers that neither the output nor the code constants account for (rules in the docstring)."""
    digits, values = shown
    bad = []
    for line, written in prose:
        match = _NUMBER.fullmatch(written)
        plain, percent = _digits(match.group(2)), bool(match.group(3))
        value = _value(plain)
        ok = plain in digits or value in constants
        if percent and not ok:
            ok = value / 100 in values or value / 100 in constants
        if not ok:
            bad.append((line, written))
    return bad


def check_page_text(path: str, text: str, shown_text: str | None = None) -> list[str]:
    """Violations ``path:LINE: number X is not in the page's output`` for one page's text.

    ``shown_text`` is what the prose is checked against when the page has no output regions of its own (a data
    card's regenerated text); otherwise the page's output regions and code are.
    """
    page = parse_page(path, text)  # the build's own reading: one markdown-it pass, markers checked
    lines = text.split("\n")
    skip = {i + 1 for i in page.code_lines}
    output = []
    for region in page.regions:
        skip.update(range(region.start, region.end + 1))
        output.extend(lines[region.start:region.end - 1])
    if shown_text is not None:
        output.append(shown_text)
    # Front matter (--- ... ---) stays prose: its definition is shown on the site.
    constants = code_constants("\n".join(block.source for block in page.blocks))
    found = unmatched(prose_numbers(text, skip), shown_numbers("\n".join(output)), constants)
    return [f"{path}:{line}: number {written} is not in the page's output" for line, written in found]


def _data_card_text(root, folder) -> str:
    """The data card ``faircode`` generates now for the audit in `folder` (read from its manifest)."""
    from faircode.data import MANIFEST, data_card, read_manifest

    manifest = read_manifest(root / folder / MANIFEST)
    return data_card(manifest.name)


def check_numbers(config, only=()) -> list[str]:
    """Every violation in the pages (all, or those named), as ``page.md:LINE: number X is not in the page's output``."""
    from ._pages import discover

    problems = []
    wanted = {str(p).replace("\\", "/") for p in only}
    for path in discover(config):
        if wanted and path not in wanted:
            continue
        try:
            text = layout.read_text(config.root, path)
            if path.rsplit("/", 1)[-1] == layout.DATA_CARD and "/" in path:
                problems += check_page_text(path, text, _data_card_text(config.root, path.rsplit("/", 1)[0]))
            else:
                problems += check_page_text(path, text)
        except (PageError, layout.PageEncodingError) as err:
            problems.append(str(err))
    return problems
