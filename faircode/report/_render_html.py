"""The report as one self-contained HTML page: inline CSS in the site's table style (estimate in bold, the
interval under it in smaller type, too-small and few-event notes set apart, row labels kept in view while a wide
table scrolls), figures as inline SVG, no script, no font, no request to anywhere: it opens offline."""
from __future__ import annotations

from html import escape

from faircode.report._document import Cell, build
from faircode.report._svg import curves_svg

CSS = """
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --line: #d0d7de; --bg: #fff; --accent: #0969da; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --bg: #0d1117;
  --accent: #4493f8; } svg text { fill: #e6edf3; } }
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  background: var(--bg); max-width: 60rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2.2rem; border-bottom: 1px solid var(--line); }
a { color: var(--accent); }
.fc-explainer { font-size: .9rem; color: var(--muted); }
.fc-table { overflow-x: auto; margin: .6rem 0 1.4rem; }
.fc-table caption { text-align: left; font-weight: 600; padding: .3rem 0; }
.fc-table table { border-collapse: collapse; font-size: .8rem; font-variant-numeric: tabular-nums; }
.fc-table th, .fc-table td { padding: .45em .6em; vertical-align: top; border-bottom: 1px solid var(--line); }
.fc-table th { vertical-align: bottom; text-align: right; }
.fc-table th:first-child, .fc-table td:first-child { position: sticky; left: 0; background: var(--bg);
  text-align: left; box-shadow: 1px 0 0 var(--line); }
.fc-table td { text-align: right; white-space: nowrap; }
.fc-table .fc-est { font-weight: 600; }
.fc-table .fc-ci, .fc-table .fc-note { display: block; font-size: .85em; color: var(--muted); }
.fc-table .fc-few .fc-note { color: var(--accent); }
.fc-table td.fc-small { white-space: normal; min-width: 6em; max-width: 9em; }
.fc-table .fc-small .fc-est { font-weight: 400; font-style: italic; color: var(--muted); }
figure { margin: 1rem 0; } figure svg { width: 100%; height: auto; max-width: 720px; }
figcaption { font-size: .9rem; color: var(--muted); }
.fc-gate { padding: .6rem .8rem; border-left: .25rem solid var(--accent); white-space: pre-wrap;
  font-family: ui-monospace, monospace; font-size: .85rem; }
"""


def _cell(value) -> str:
    if not isinstance(value, Cell):
        return f"<td>{escape(str(value))}</td>"
    parts = [f'<span class="fc-est">{escape(value.est)}</span>']
    if value.ci:
        parts.append(f'<span class="fc-ci">{escape(value.ci)}</span>')
    if value.note:
        parts.append(f'<span class="fc-note">{escape(value.note)}</span>')
    kind = f' class="fc-{value.kind}"' if value.kind else ""
    return f"<td{kind}>{''.join(parts)}</td>"


def _table(caption, table) -> str:
    head = "".join(f'<th scope="col">{escape(str(c))}</th>' for c in [table.index.name or "", *table.columns])
    body = []
    for label, row in table.iterrows():
        body.append(f'<tr><th scope="row">{escape(str(label))}</th>' + "".join(_cell(v) for v in row) + "</tr>")
    return (f'<div class="fc-table"><table><caption>{escape(caption)}</caption><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(body)}</tbody></table></div>")


def to_html(report, *, docs_url=None, gate=None) -> str:
    return blocks_to_html(build(report, docs_url=docs_url, gate=gate),
                          boxed=() if gate is None else (gate.message(),),
                          figure=lambda block: curves_svg(block.extra["curves"], block.caption))


def blocks_to_html(blocks, *, boxed=(), figure=None) -> str:
    """One self-contained page of any report's blocks: the first block's text is its title; a paragraph whose text
    is in ``boxed`` is set apart (a gate's verdict); ``figure(block)`` draws a figure block as inline SVG."""
    title = blocks[0].text
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{escape(title)}</title>", f"<style>{CSS}</style>", "</head>", "<body>"]
    for block in blocks:
        if block.kind in ("h1", "h2", "h3"):
            out.append(f"<{block.kind}>{escape(block.text)}</{block.kind}>")
        elif block.kind == "p":
            out.append(f'<p class="fc-gate">{escape(block.text)}</p>' if block.text in boxed
                       else f"<p>{escape(block.text)}</p>")
        elif block.kind == "link":
            out.append(f'<p class="fc-explainer">{escape(block.text)}: '
                       f'<a href="{escape(block.url)}">{escape(block.url)}</a></p>')
        elif block.kind == "table":
            out.append(_table(block.text, block.table))
        elif block.kind == "figure" and figure is not None:
            out.append(f"<figure>{figure(block)}<figcaption>{escape(block.caption)}</figcaption></figure>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"
