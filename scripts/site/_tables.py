"""Mark up the cells of the pages' output tables so the theme can style them.

The build writes each table a page's code printed (``faircode.display.show``) as a Markdown table inside a
``<div class="fc-table">``. Its cells hold plain text such as ``0.241 [0.231, 0.251]``,
``too small (positives=9)`` or ``0.031 [0.004, 0.108] (2/64, exact)``. Here, on the rendered HTML of a page,
each such cell is split into spans: the estimate, its interval (shown smaller, on its own line), and the notes
(few events, too small), so that the estimate leads and the rest reads as secondary. The text itself is not
changed: the spans hold exactly the characters the code printed.
"""
from __future__ import annotations

import html
import re

_TABLE_BLOCK = re.compile(r'(<div class="fc-table">)(.*?)(</div>)', re.S)
_CELL = re.compile(r"(<td[^>]*>)(.*?)(</td>)", re.S)
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


def _block(match: re.Match) -> str:
    body = _CELL.sub(lambda cell: cell[1] + _cell(cell[2]) + cell[3], match[2])
    return match[1] + body + match[3]


def style_tables(content: str) -> str:
    """The page's HTML with the cells of every output table split into estimate, interval and notes."""
    return _TABLE_BLOCK.sub(_block, content)
