"""The profile as a sequence of blocks (headings, paragraphs, explainer links, tables of cells), built once and
written as Markdown and HTML by ``faircode.report``'s renderers, so both show the same cells with the same
digits as the audit report."""
from __future__ import annotations

import math

import pandas as pd

from faircode.profiling import _texts
from faircode.profiling._texts import SECTIONS, link
from faircode.report._document import Block, Cell
from faircode.report._document import _f as number
from faircode.report._document import _interval as interval
from faircode.report._texts import DEFAULT_DOCS_URL, RELATIVE_LINKS


def _share(share, lower, upper, note="", kind="") -> Cell:
    if share is None or (isinstance(share, float) and math.isnan(share)):
        return Cell("no rows", kind="small")
    return Cell(number(share), interval(lower, upper), note, kind)


def _signed(value, lower, upper) -> Cell:
    if value is None or math.isnan(value):
        return Cell("undefined", kind="small")
    return Cell(f"{'+' if value >= 0 else ''}{number(value)}", interval(lower, upper))


def _section(blocks, key, docs_url):
    title, _, teaches = SECTIONS[key]
    blocks.append(Block("h2", title))
    blocks.append(Block("link", f"Explained on the site: {teaches}", url=link(key, docs_url)))


def _by_column(table: pd.DataFrame, key="column"):
    for column in dict.fromkeys(table[key]):
        yield column, table[table[key] == column]


def _sizes(blocks, report, docs_url):
    meta = report.meta
    _section(blocks, "sizes", docs_url)
    blocks.append(Block("p", _texts.SIZES.format(**meta)))
    for column, part in _by_column(report.sizes):
        table = pd.DataFrame({
            "rows": [f"{n:,}" for n in part["count"]],
            "share": [_share(r["share"], r["lower"], r["upper"]) for r in part.to_dict("records")],
            "reading": ["too small to audit" if s else "" for s in part["too_small"]],
        }, index=pd.Index(part["group"].to_numpy(), name="group"))
        blocks.append(Block("table", f"{column}: rows by group", table=table))


def _base_rates(blocks, report, docs_url):
    _section(blocks, "base_rates", docs_url)
    blocks.append(Block("p", _texts.BASE_RATES.format(**report.meta)))
    for column, part in _by_column(report.base_rates):
        rows = part.to_dict("records")
        reference = rows[0]["reference"]
        table = pd.DataFrame({
            "rows": [f"{r['count']:,}" for r in rows],
            "positives": [f"{r['positives']:,}" for r in rows],
            "base rate": [_share(r["estimate"], r["lower"], r["upper"], "(too small)" if r["too_small"] else "",
                                 "small" if r["too_small"] else "") for r in rows],
            f"gap to {reference}": [Cell("reference") if r["group"] == reference else
                                    _signed(r["difference"], r["difference_lower"], r["difference_upper"])
                                    for r in rows],
        }, index=pd.Index(part["group"].to_numpy(), name="group"))
        blocks.append(Block("table", f"{column}: base rate of {report.meta['label']!r}", table=table))


def _missing(blocks, report, docs_url):
    _section(blocks, "missing", docs_url)
    blocks.append(Block("p", _texts.missing_note(report.meta["missing_values"])))
    markers = report.meta["possible_missing_markers"]
    if markers:
        found = "; ".join(f"{c}: {', '.join(f'{m!r} ({n:,} rows)' for m, n in hits.items())}"
                          for c, hits in markers.items())
        blocks.append(Block("p", f"Values often written for a missing one are counted here as values: {found}. If "
                                 "they mean missing, profile again with them listed as missing values."))
    overall = report.missing_overall
    complete = overall[overall["missing"] == 0]["variable"].tolist()
    some = overall[overall["missing"] > 0]
    if complete:
        blocks.append(Block("p", f"No value missing in {len(complete)} of {len(overall)} columns: "
                                 f"{', '.join(complete)}."))
    if some.empty:
        return
    blocks.append(Block("p", _texts.MISSING))
    table = pd.DataFrame({
        "missing": [f"{n:,}" for n in some["missing"]],
        "share": [_share(r["share"], r["lower"], r["upper"]) for r in some.to_dict("records")],
    }, index=pd.Index(some["variable"].to_numpy(), name="column"))
    blocks.append(Block("table", "Missing values, all rows", table=table))
    for column, part in _by_column(report.missing):
        groups = list(dict.fromkeys(part["group"]))
        reference = part["reference"].iloc[0]
        by = part.set_index(["variable", "group"])
        variables = list(dict.fromkeys(part["variable"]))
        shares = {g: [_share(*by.loc[(v, g), ["share", "lower", "upper"]]) for v in variables] for g in groups}
        blocks.append(Block("table", f"{column}: share missing by group",
                            table=pd.DataFrame(shares, index=pd.Index(variables, name="column"))))
        gaps = {f"{g} - {reference}": [_signed(*by.loc[(v, g), ["difference", "difference_lower",
                                                                 "difference_upper"]]) for v in variables]
                for g in groups if g != reference}
        blocks.append(Block("table", f"{column}: gap in share missing to {reference!r}",
                            table=pd.DataFrame(gaps, index=pd.Index(variables, name="column"))))


def _proxies(blocks, report, docs_url):
    _section(blocks, "proxies", docs_url)
    blocks.append(Block("p", _texts.PROXIES.format(**report.meta)))
    if report.proxies.empty:
        blocks.append(Block("p", "No column besides the group columns and the label: nothing to test."))
        return
    for column, part in _by_column(report.proxies):
        groups = list(dict.fromkeys(part["group"]))
        strength = part.groupby("variable", sort=False)["auc"].max().fillna(-1.0)
        variables = sorted(strength.index, key=lambda v: (-strength[v], v))
        by = part.set_index(["variable", "group"])
        cells = {"kind": [by.loc[(v, groups[0]), "kind"] for v in variables]}
        for g in groups:
            column_cells = []
            for v in variables:
                r = by.loc[(v, g)]
                if math.isnan(r["auc"]):
                    column_cells.append(Cell("undefined", kind="small"))
                    continue
                v_text = "" if math.isnan(r["cramers_v"]) else f"V {number(r['cramers_v'])}"
                direction = r["direction"] if r["holm"] and isinstance(r["direction"], str) else ""
                note = " ".join(t for t in (direction, "Holm" if r["holm"] else "",
                                            "(group too small)" if r["too_small"] else "") if t)
                column_cells.append(Cell(number(r["auc"]), v_text, note, "small" if r["too_small"] else ""))
            cells[g] = column_cells
        blocks.append(Block("table", f"{column}: AUC of one group against the rest, from one column",
                            table=pd.DataFrame(cells, index=pd.Index(variables, name="column"))))
    _section(blocks, "comparisons", docs_url)
    blocks.append(Block("p", report.comparisons["note"]))


def _drift(blocks, report, docs_url):
    meta, against = report.meta, report.meta["against"]
    _section(blocks, "drift", docs_url)
    blocks.append(Block("p", _texts.DRIFT.format(source=meta["source"], rows=f"{meta['rows_used']:,}",
                                                 against=against["source"],
                                                 against_rows=f"{against['rows_used']:,}",
                                                 confidence=meta["confidence"])))
    for column, part in _by_column(report.drift_groups):
        rows = part.to_dict("records")
        table = pd.DataFrame({
            "rows": [f"{r['count']:,}" for r in rows], "share": [number(r["share"]) for r in rows],
            "earlier rows": [f"{r['against_count']:,}" for r in rows],
            "earlier share": [number(r["against_share"]) for r in rows],
            "change": [_signed(r["change"], r["change_lower"], r["change_upper"]) for r in rows],
        }, index=pd.Index(part["group"].to_numpy(), name="group"))
        blocks.append(Block("table", f"{column}: share of rows, this file against the earlier", table=table))
    if report.drift_base_rates is not None:
        for column, part in _by_column(report.drift_base_rates):
            rows = part.to_dict("records")
            table = pd.DataFrame({
                "rows": [f"{r['count']:,}" for r in rows],
                "base rate": [_share(r["estimate"], None, None) for r in rows],
                "earlier rows": [f"{r['against_count']:,}" for r in rows],
                "earlier base rate": [_share(r["against_estimate"], None, None) for r in rows],
                "change": [_signed(r["change"], r["change_lower"], r["change_upper"]) for r in rows],
            }, index=pd.Index(part["group"].to_numpy(), name="group"))
            blocks.append(Block("table", f"{column}: base rate of {meta['label']!r}, this file against the earlier",
                                table=table))
    elif meta["label"] is not None:
        blocks.append(Block("p", f"The earlier file has no column {meta['label']!r}: no base rates compared."))
    changed = report.drift_missing
    moved = changed[(changed["missing"] > 0) | (changed["against_missing"] > 0)]
    if not moved.empty:
        rows = moved.to_dict("records")
        table = pd.DataFrame({
            "share missing": [number(r["share"]) for r in rows],
            "earlier": [number(r["against_share"]) for r in rows],
            "change": [_signed(r["change"], r["change_lower"], r["change_upper"]) for r in rows],
        }, index=pd.Index(moved["variable"].to_numpy(), name="column"))
        blocks.append(Block("table", "Share of rows missing each column, this file against the earlier", table=table))
    still = len(changed) - len(moved)
    lines = []
    if still:
        lines.append(f"{still} columns have no missing value in either file.")
    for key, where in (("only_in_data", "this file"), ("only_in_against", "the earlier file")):
        if against[key]:
            lines.append(f"Only in {where}: {', '.join(against[key])}.")
    if lines:
        blocks.append(Block("p", " ".join(lines)))


def build(report, *, docs_url=None) -> list[Block]:
    meta = report.meta
    blocks = [Block("h1", f"Data profile of {meta['source']}")]
    dropped = (f", after dropping {meta['rows_dropped_missing']:,} rows with a missing group or label"
               if meta["rows_dropped_missing"] else "")
    label = f"Label {meta['label']!r}; groups" if meta["label"] else "No label; groups"
    refs = "; ".join(f"{c}: {g!r}" for c, g in meta["references"].items())
    blocks.append(Block("p", f"{meta['rows_used']:,} rows{dropped}, {len(meta['variables'])} columns besides the "
                             f"group columns and the label. {label} from "
                             f"{', '.join(repr(g) for g in meta['groups'])}. Reference groups (the largest unless "
                             f"named): {refs}."))
    if not (docs_url if docs_url is not None else DEFAULT_DOCS_URL):
        blocks.append(Block("p", RELATIVE_LINKS))
    _sizes(blocks, report, docs_url)
    if report.base_rates is not None:
        _base_rates(blocks, report, docs_url)
    _missing(blocks, report, docs_url)
    _proxies(blocks, report, docs_url)
    if meta["against"] is not None:
        _drift(blocks, report, docs_url)
    return blocks
