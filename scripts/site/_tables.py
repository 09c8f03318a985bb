"""Mark up the cells of the pages' output tables so the theme can style them.

The build writes each table a page's code printed (``faircode.display.show``) as a Markdown table inside a
``<div class="fc-table">``. Its cells hold plain text such as ``0.241 [0.231, 0.251]``,
``too small (positives=9)`` or ``0.031 [0.004, 0.108] (2/64, exact)``. Here, on the rendered HTML of a page,
each such cell is split into spans: the estimate, its interval (shown smaller, on its own line), and the notes
(few events, too small), so that the estimate leads and the rest reads as secondary. The text itself is not
changed: the spans hold exactly the characters the code printed.

Each body cell also learns its column: a ``data-label`` attribute holding its header's text; the row-label cells
(the left-aligned cells before the first right-aligned one, pandas' index) become row headers
(``<th scope="row">``) with the class ``fc-label``.
On a phone the stylesheet uses them to show each row as a small card (its labels as a title, then one line per
column, "header: value", the value in a ``fc-val`` span; a label pandas left blank because it repeats the row
above is carried in ``data-fill``) instead of a table scrolled sideways; on wider screens they change nothing.
A card of a wide table shows its estimates first (at most ``PHONE_VALUES`` columns; the others, counts first,
get the class ``fc-more``) and one tap on "Show all N columns" shows the rest; a line above the cards says what
each card stands for (the row labels' headers), since a phone does not show the header row.
"""
from __future__ import annotations

import html
import itertools
import re

_TABLE_BLOCK = re.compile(r'(<div class="fc-table">)(.*?)(</div>)', re.S)
_CELL = re.compile(r"(<td[^>]*>)(.*?)(</td>)", re.S)
_HEADER = re.compile(r"<th[^>]*>(.*?)</th>", re.S)
_ROW = re.compile(r"<tr>(.*?)</tr>", re.S)
_TAG = re.compile(r"<[^>]+>")
_NUMBER = r"[+\-]?(?:\d[\d,]*\.?\d*|\.\d+)(?:e[+\-]?\d+)?%?"
# estimate, optional interval, optional parenthesised note, e.g. "0.031 [0.004, 0.108] (2/64, exact)"
_ESTIMATE = re.compile(rf"^(?P<est>{_NUMBER})(?: (?P<ci>\[{_NUMBER}, {_NUMBER}\]))?(?: \((?P<note>[^()]*)\))?$")
_SMALL = re.compile(r"^(?P<what>too small|undefined|too few groups) \((?P<note>[^()]*)\)$")
PHONE_VALUES = 5  # value columns a phone card shows before "show all"


def _cell(text: str) -> str:
    plain = html.unescape(text).strip()
    match = _ESTIMATE.match(plain)
    if match and (match["ci"] or match["note"]):
        parts = [f'<span class="fc-est">{html.escape(match["est"])}</span>']
        if match["ci"]:
            parts.append(f' <span class="fc-ci">{html.escape(match["ci"])}</span>')
        if match["note"]:
            parts.append(f' <span class="fc-few" title="few events: exact interval, no gap">'
                         f'({html.escape(match["note"])})</span>')
        return "".join(parts)
    match = _SMALL.match(plain)
    if match:
        return (f'<span class="fc-small">{html.escape(match["what"])}</span>'
                f' <span class="fc-note">({html.escape(match["note"])})</span>')
    return text


def _is_estimate(text: str) -> bool:
    """Whether a cell holds an estimate with its interval or note, or a marked cell (too small, undefined)."""
    plain = html.unescape(_TAG.sub("", text)).strip()
    match = _ESTIMATE.match(plain)
    return bool(match and (match["ci"] or match["note"])) or bool(_SMALL.match(plain))


def _phone_columns(rows: list[str]) -> tuple[list[int], set[int]]:
    """The row-label columns, and the value columns a phone card shows before "show all".

    A card shows the estimates (cells with an interval, or marked too small or undefined) first, at most
    ``PHONE_VALUES`` of them; counts and the further columns wait behind one tap. A table with at most
    ``PHONE_VALUES`` value columns shows them all."""
    cells = [[(m[1], m[2]) for m in _CELL.finditer(row)] for row in rows]
    width = max((len(r) for r in cells), default=0)
    labels = []
    for number in range(width):
        if cells and all(number < len(r) and "right" not in r[number][0] for r in cells):
            labels.append(number)
        else:
            break
    values = [n for n in range(len(labels), width)]
    if len(values) <= PHONE_VALUES:
        return labels, set(values)
    estimates = [n for n in values if any(n < len(r) and _is_estimate(r[n][1]) for r in cells)]
    shown = estimates[:PHONE_VALUES] or values[:PHONE_VALUES]
    return labels, set(shown)


def _row(cells: str, headers: list[str], above: dict[int, str], shown: set[int] | None = None) -> str:
    """A body row's cells split into spans, each tagged with its column's header and, for row labels, fc-label.

    pandas leaves a row label blank where it repeats the row above; such a cell gets ``data-fill`` with the label
    it stands for (``above`` carries the last label seen in each column), so that a card can show it."""
    column, in_labels = itertools.count(), True

    def tag(cell: re.Match) -> str:
        nonlocal in_labels
        number = next(column)
        in_labels = in_labels and "right" not in cell[1]
        header = headers[number] if number < len(headers) else ""
        attributes = f' data-label="{html.escape(header, quote=True)}"'
        if not in_labels:
            if shown is not None and number not in shown:
                attributes += ' class="fc-more"'
            return cell[1][:-1] + attributes + '><span class="fc-val">' + _cell(cell[2]) + "</span>" + cell[3]
        attributes += ' class="fc-label"'
        text = html.unescape(_TAG.sub("", cell[2])).strip()
        if text:
            above[number] = text
            for deeper in [k for k in above if k > number]:
                del above[deeper]
        elif number in above:
            attributes += f' data-fill="{html.escape(above[number], quote=True)}"'
        # A row label is the header of its row: a screen reader names it with each value in the row.
        return '<th scope="row"' + cell[1][len("<td"):-1] + attributes + ">" + _cell(cell[2]) + "</th>"

    return "<tr>" + _CELL.sub(tag, cells) + "</tr>"


def _block(match: re.Match, number: int) -> str:
    body = match[2]
    headers = [html.unescape(_TAG.sub("", h)).strip() for h in _HEADER.findall(body)]
    head, rows = body.split("<tbody>", 1) if "<tbody>" in body else ("", body)
    labels, shown = _phone_columns([row[1] for row in _ROW.finditer(rows)])
    hidden = sum(1 for n in range(len(labels), len(headers)) if n not in shown)
    above: dict[int, str] = {}
    rows = _ROW.sub(lambda row: _row(row[1], headers, above, shown if hidden else None), rows)
    # On a phone (site.css): what each card stands for, since the header row is hidden there, and a switch that
    # shows the columns a card leaves out at first. Both are hidden on wider screens.
    by = " · ".join(headers[n] for n in labels if n < len(headers) and headers[n])
    lead = f'\n<p class="fc-table__by">One card per {html.escape(by)}</p>' if by else ""
    if hidden:
        switch = f"fc-more-{number}"
        lead += (f'\n<input type="checkbox" class="fc-more-switch" id="{switch}">'
                 f'<label class="fc-more-label" for="{switch}"><span class="fc-more-open">Show all '
                 f'{len(headers) - len(labels)} columns ({hidden} more)</span><span class="fc-more-close">Show '
                 f'the estimates only</span></label>')
    return match[1] + lead + (head + "<tbody>" if head else "") + rows + match[3]


def style_tables(content: str) -> str:
    """The page's HTML with the cells of every output table split into estimate, interval and notes."""
    counter = itertools.count(1)
    return _TABLE_BLOCK.sub(lambda match: _block(match, next(counter)), content)
