"""The report as a sequence of blocks (headings, paragraphs, tables of cells, figures), built once and written
by ``_render_markdown`` and ``_render_html`` alike, so both formats show the same cells with the same digits."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from faircode.report._texts import (DEFAULT_DOCS_URL, FOUR_FIFTHS_CAVEAT, NAMES, RELATIVE_LINKS, SECTIONS, SMALL,
                                    SPREAD_NOTE, UNDEFINED, bootstrap_note, link)

DIGITS = 3
ERROR_METRICS = ("tpr", "fpr", "fnr")
DECISION_METRICS = ("selection_rate", "base_rate", "precision", "npv", "accuracy")


@dataclass(frozen=True)
class Cell:
    """One table cell: an estimate, its interval and a note; ``kind`` is "small" or "few" for flagged cells."""

    est: str
    ci: str = ""
    note: str = ""
    kind: str = ""

    def text(self) -> str:
        return " ".join(part for part in (self.est, self.ci, self.note) if part)


@dataclass
class Block:
    kind: str  # "h1", "h2", "h3", "p", "table", "figure", "link"
    text: str = ""
    table: pd.DataFrame | None = None  # of Cell or str
    url: str = ""
    svg: str = ""
    caption: str = ""
    extra: dict = field(default_factory=dict)


def _f(x) -> str:
    return f"{x:.{DIGITS}f}"


def _interval(lo, hi) -> str:
    if lo is None or hi is None or (isinstance(lo, float) and math.isnan(lo)) or (isinstance(hi, float) and math.isnan(hi)):
        return ""
    hi_text = "∞" if math.isinf(hi) else _f(hi)
    return f"[{_f(lo)}, {hi_text}]"


def rate_cell(row) -> Cell:
    """A rate: too small, undefined, or an estimate with its interval and, on few events, its fraction."""
    if row["too_small"]:
        return Cell(f"too small ({row['denominator']}={row['count']})", kind="small")
    if math.isnan(row["estimate"]):
        return Cell(f"undefined ({row['denominator']}={row['count']})", kind="small")
    note, kind = "", ""
    if row["few_events"]:
        exact = "exact, Kish effective n" if "Kish" in str(row.get("interval", "")) else "exact"
        note, kind = f"({row['events']}/{row['count']}, {exact})", "few"
    return Cell(_f(row["estimate"]), _interval(row.get("lower"), row.get("upper")), note, kind)


def gap_cell(row, name="difference") -> Cell:
    if row["too_small"]:
        count = min(row["count"], row["reference_count"])
        return Cell(f"too small ({row['denominator']}={count})", kind="small")
    value = row[name]
    if math.isnan(value):
        return Cell("undefined", kind="small")
    sign = "+" if name == "difference" and value >= 0 else ""
    note, kind = "", ""
    if row["interval"].startswith("exact"):
        note, kind = ("(few events, exact, Kish effective n)" if "Kish" in row["interval"] else
                      "(few events, exact)"), "few"
    if row.get("holm") and name == "difference":
        note = (note + " Holm").strip()
    return Cell(f"{sign}{_f(value)}", _interval(row[f"{name}_lower"], row[f"{name}_upper"]), note, kind)


def _auc_cell(row) -> Cell:
    """An AUC: too small (fewer than min_count of a class), undefined, or the estimate with DeLong's interval."""
    if row["too_small"]:
        side = "positives" if row["positives"] <= row["negatives"] else "negatives"
        return Cell(f"too small ({side}={row[side]})", kind="small")
    if math.isnan(row["auc"]):
        return Cell("undefined", kind="small")
    return Cell(_f(row["auc"]), _interval(row["lower"], row["upper"]))


def _label(column: str, threshold) -> str:
    at = "" if threshold is None or (isinstance(threshold, float) and math.isnan(threshold)) else f", threshold {threshold:g}"
    return f"{column}{at}"


def _parts(table: pd.DataFrame):
    """(column, threshold, rows) in the table's order."""
    keys = table[["column", "threshold"]].astype(object).where(table[["column", "threshold"]].notna(), None)
    for key in dict.fromkeys(map(tuple, keys.to_numpy().tolist())):
        column, threshold = key
        mask = (table["column"] == column) & (
            table["threshold"].isna() if threshold is None else table["threshold"] == threshold)
        yield column, threshold, table[mask]


def _section(blocks, key, docs_url):
    title, _, teaches = SECTIONS[key]
    blocks.append(Block("h2", title))
    blocks.append(Block("link", f"Explained on the site: {teaches}", url=link(key, docs_url)))


def _rates_tables(blocks, rates):
    for column, threshold, part in _parts(rates):
        groups = list(dict.fromkeys(part["group"]))
        for title, metrics in (("decisions", DECISION_METRICS), ("errors", ERROR_METRICS)):
            cells = {}
            by = part.set_index(["group", "metric"])
            first = by.xs(metrics[0], level="metric")
            cells["n"] = [str(int(by.loc[(g, "selection_rate"), "count"])) for g in groups]
            if title == "errors":
                cells["positives"] = [str(int(by.loc[(g, "tpr"), "count"])) for g in groups]
                cells["negatives"] = [str(int(by.loc[(g, "fpr"), "count"])) for g in groups]
            for m in metrics:
                cells[NAMES[m]] = [rate_cell(by.loc[(g, m)]) for g in groups]
            del first
            table = pd.DataFrame(cells, index=pd.Index(groups, name="group"))
            blocks.append(Block("table", f"{_label(column, threshold)}: {title}", table=table))


def build(report, *, docs_url=None, gate=None) -> list[Block]:
    meta = report.meta
    blocks = [Block("h1", f"Fairness audit of {meta['source']}")]
    what = (f"score {meta['score']!r} at threshold{'s' if len(meta['thresholds']) > 1 else ''} "
            f"{', '.join(f'{t:g}' for t in meta['thresholds'])}" if meta["score"] else f"decision {meta['decision']!r}")
    dropped = (f", after dropping {meta['rows_dropped_missing']} rows with missing values"
               if meta["rows_dropped_missing"] else "")
    zero = f" and {meta['rows_zero_weight']} of weight 0" if meta["rows_zero_weight"] else ""
    refs = "; ".join(f"{c}: {g!r}" for c, g in meta["references"].items())
    blocks.append(Block("p", f"{meta['rows_used']} rows{dropped}{zero}. Label {meta['label']!r}, {what}; groups "
                             f"from {', '.join(repr(g) for g in meta['groups'])}"
                             f"{' and their intersections' if meta['intersections'] else ''}"
                             f"{'; weights ' + repr(meta['sample_weight']) if meta['sample_weight'] else ''}. "
                             f"Reference groups: {refs}."))
    if gate is not None:
        blocks.append(Block("h2", "Gate: " + ("passed" if gate.passed else "FAILED")))
        blocks.append(Block("p", gate.message()))
    blocks.append(Block("p", bootstrap_note(meta)))
    if not (docs_url if docs_url is not None else DEFAULT_DOCS_URL):
        blocks.append(Block("p", RELATIVE_LINKS))

    _section(blocks, "rates", docs_url)
    blocks.append(Block("p", UNDEFINED + " " + SMALL.format(**meta)))
    blocks.append(Block("link", "Why small cells cannot be read", url=link("small", docs_url)))
    _rates_tables(blocks, report.rates)
    if meta["intersections"]:
        _section(blocks, "intersections", docs_url)
        joined = " & ".join(meta["groups"])
        blocks.append(Block("p", f"The tables for {joined!r} above (and in the gaps below) hold every combination "
                                 "of the group columns present in the data. Each combination has fewer rows than its "
                                 "parts, so more of them are too small or rest on few events, and each adds "
                                 "comparisons (counted at the end)."))

    _section(blocks, "gaps", docs_url)
    blocks.append(Block("p", "Each group's rate minus its reference group's, with the paired interval (recomputed "
                             "within each resample). 'few events, exact' marks the combined exact interval; "
                             "'Holm' a gap that survives Holm's correction over every gap compared."))
    for column, threshold, part in _parts(report.gaps):
        groups = list(dict.fromkeys(part["group"]))
        by = part.set_index(["group", "metric"])
        cells = {NAMES[m]: [gap_cell(by.loc[(g, m)]) for g in groups] for m in dict.fromkeys(part["metric"])}
        reference = part["reference"].iloc[0]
        table = pd.DataFrame(cells, index=pd.Index([f"{g} vs {reference}" for g in groups], name="group"))
        blocks.append(Block("table", f"{_label(column, threshold)}: gap to {reference!r}", table=table))

    _section(blocks, "four_fifths", docs_url)
    blocks.append(Block("p", FOUR_FIFTHS_CAVEAT))
    ff = report.four_fifths
    for column, threshold, part in _parts(ff):
        for direction in dict.fromkeys(part["direction"]):
            rows = []
            sub = part[part["direction"] == direction]
            for row in sub.to_dict("records"):
                if row["too_small"]:
                    cell, reading = Cell(f"too small (n={row['count']})", kind="small"), ""
                elif math.isnan(row["ratio"]):
                    cell, reading = Cell("undefined", kind="small"), ""
                elif row["is_comparator"]:
                    cell, reading = Cell(_f(row["ratio"]), note="(highest)"), "comparator"
                else:
                    note, kind = ("(few events, exact)", "few") if row["interval"].startswith("exact") else ("", "")
                    cell = Cell(_f(row["ratio"]), _interval(row["ratio_lower"], row["ratio_upper"]), note, kind)
                    if row["ratio_upper"] < 0.8:
                        reading = "below 0.8"
                    elif row["ratio_lower"] >= 0.8:
                        reading = "not below 0.8"
                    else:
                        reading = "cannot tell (interval holds 0.8)"
                rate = "" if math.isnan(row["rate"]) else _f(row["rate"])
                rows.append({"group": row["group"], "rate": rate, "ratio to highest": cell, "reading": reading})
            table = pd.DataFrame(rows).set_index("group")
            first = sub.iloc[0]
            blocks.append(Block("table", f"{_label(column, threshold)}, {direction}: {first['rate_compared']} "
                                         f"over the highest group's ({first['comparator']!r})", table=table))
    spread = report.spread
    lines = []
    for row in spread.to_dict("records"):
        if row["n_groups"] < 2 or math.isnan(row["ratio"]):
            continue
        lines.append(f"{_label(row['column'], row['threshold'])}: lowest over highest selection rate "
                     f"{_f(row['ratio'])} ({row['min_group']} over {row['max_group']}, {row['n_groups']} groups "
                     "not too small)")
    if lines:
        blocks.append(Block("p", SPREAD_NOTE + " " + "; ".join(lines) + "."))

    if report.conditional is not None:
        _section(blocks, "conditional", docs_url)
        blocks.append(Block("p", f"Gaps within strata of {', '.join(repr(s) for s in meta['strata'])}, averaged "
                                 "with each stratum's share of rows as weight, beside the pooled gap above."))
        for column, threshold, part in _parts(report.conditional):
            groups = list(dict.fromkeys(part["group"]))
            by = part.set_index(["group", "metric"])
            cells = {}
            for m in ("selection_rate", "tpr", "fpr"):
                col = []
                for g in groups:
                    r = by.loc[(g, m)]
                    if r["too_small"]:
                        col.append(Cell(f"too small ({r['strata_too_small']} of {r['strata_used']} strata too "
                                        "small)", kind="small"))
                    elif math.isnan(r["conditional"]):
                        col.append(Cell("undefined", kind="small"))
                    else:
                        note = f"({r['strata_too_small']} of {r['strata_used']} strata too small)" if r["strata_too_small"] else ""
                        col.append(Cell(f"{'+' if r['conditional'] >= 0 else ''}{_f(r['conditional'])}",
                                        _interval(r.get("lower"), r.get("upper")), note))
                cells[NAMES[m]] = col
            table = pd.DataFrame(cells, index=pd.Index(groups, name="group"))
            blocks.append(Block("table", f"{_label(column, threshold)}: conditional gap", table=table))

    if report.auc is not None:
        _section(blocks, "auc", docs_url)
        blocks.append(Block("p", "ROC AUC per group with DeLong's interval (with weights: the weighted AUC, no "
                                 "interval). Undefined with fewer than two rows of a class; too small (its estimate "
                                 f"kept in the JSON, not checked by --fail-on) with fewer than {meta['min_count']} "
                                 "positives or negatives, where DeLong's large-sample interval cannot be read."))
        for column in dict.fromkeys(report.auc["column"]):
            part = report.auc[report.auc["column"] == column]
            table = pd.DataFrame({
                "positives": part["positives"].astype(str).to_numpy(),
                "negatives": part["negatives"].astype(str).to_numpy(),
                "AUC": [_auc_cell(r) for r in part.to_dict("records")],
            }, index=pd.Index(part["group"].astype(str).to_numpy(), name="group"))
            blocks.append(Block("table", f"{column}: AUC", table=table))

        _section(blocks, "calibration", docs_url)
        blocks.append(Block("p", "The share of positives among the rows of each score bin, with its exact "
                                 "(Clopper-Pearson) interval, beside the bin's mean score."))
        for column in dict.fromkeys(report.calibration["column"]):
            part = report.calibration[report.calibration["column"] == column]
            groups = list(dict.fromkeys(part["group"]))
            bins = list(dict.fromkeys(part["bin"]))
            by = part.set_index(["group", "bin"])
            cells = {}
            for g in groups:
                col = []
                for b in bins:
                    if (g, b) not in by.index:
                        col.append(Cell("no rows", kind="small"))
                        continue
                    r = by.loc[(g, b)]
                    kind, small = ("small", ", too small") if r["too_small"] else ("", "")
                    col.append(Cell(_f(r["observed"]), _interval(r["lower"], r["upper"]), f"(n={r['count']}{small})",
                                    kind))
                cells[str(g)] = col
            table = pd.DataFrame(cells, index=pd.Index(bins, name="score bin"))
            blocks.append(Block("table", f"{column}: observed share of positives by score bin", table=table))

        _section(blocks, "curves", docs_url)
        for column in dict.fromkeys(report.curves["column"]):
            part = report.curves[report.curves["column"] == column]
            blocks.append(Block("figure", caption=f"{column}: selection rate, TPR and FPR by threshold",
                                extra={"curves": part}))

    _section(blocks, "comparisons", docs_url)
    blocks.append(Block("p", report.comparisons["note"]))
    _section(blocks, "intervals", docs_url)
    blocks.append(Block("p", bootstrap_note(meta)))
    return blocks
