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


def _row(cells: str, headers: list[str], above: dict[int, str]) -> str:
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


def _block(match: re.Match) -> str:
    body = match[2]
    headers = [html.unescape(_TAG.sub("", h)).strip() for h in _HEADER.findall(body)]
    head, rows = body.split("<tbody>", 1) if "<tbody>" in body else ("", body)
    above: dict[int, str] = {}
    rows = _ROW.sub(lambda row: _row(row[1], headers, above), rows)
    return match[1] + (head + "<tbody>" if head else "") + rows + match[3]


def style_tables(content: str) -> str:
    """The page's HTML with the cells of every output table split into estimate, interval and notes."""
    return _TABLE_BLOCK.sub(_block, content)
