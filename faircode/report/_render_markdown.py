"""The report as Markdown: the blocks of ``_document`` as headings, paragraphs and pipe tables."""
from __future__ import annotations

from faircode.report._document import Cell, build


def _cell(value) -> str:
    text = value.text() if isinstance(value, Cell) else str(value)
    return text.replace("|", "\\|")


def _table(caption, table) -> str:
    header = [table.index.name or "", *map(str, table.columns)]
    lines = [f"**{caption}**", "", "| " + " | ".join(header) + " |",
             "|" + "|".join([":---"] + ["---:"] * len(table.columns)) + "|"]
    for label, row in table.iterrows():
        lines.append("| " + " | ".join([_cell(label), *(_cell(v) for v in row)]) + " |")
    return "\n".join(lines)


def to_markdown(report, *, docs_url=None, gate=None) -> str:
    return blocks_to_markdown(build(report, docs_url=docs_url, gate=gate))


def blocks_to_markdown(blocks) -> str:
    """Headings, paragraphs, explainer links, tables and figure notes as Markdown (any report's blocks)."""
    out = []
    for block in blocks:
        if block.kind in ("h1", "h2", "h3"):
            out.append("#" * int(block.kind[1]) + " " + block.text)
        elif block.kind == "p":
            out.append(block.text)
        elif block.kind == "link":
            out.append(f"{block.text}: <{block.url}>")
        elif block.kind == "table":
            out.append(_table(block.text, block.table))
        elif block.kind == "figure":
            where = block.extra.get("json_key", "curves")
            out.append(f"*Figure in the HTML report: {block.caption}; its points are in the JSON report's "
                       f"`{where}`.*")
    return "\n\n".join(out) + "\n"
