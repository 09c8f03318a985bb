"""Write each audit's data card (``<audit>/DATA.md``) from its manifest and its verified data file."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
from scipy.stats import chi2_contingency

from faircode.data._audits import get_manifest, in_sample, list_audits, load_audit, read_verified


def cramers_v(a: pd.Series, b: pd.Series) -> float:
    """Cramér's V between two categorical series: 0 = no association, 1 = one determines the other."""
    table = pd.crosstab(a, b)
    if min(table.shape) < 2:
        return 0.0
    chi2 = chi2_contingency(table, correction=False)[0]
    return float(np.sqrt(chi2 / (table.to_numpy().sum() * (min(table.shape) - 1))))


def _categorical(series: pd.Series) -> pd.Series:
    """Numeric columns with many values are cut into quintiles so that Cramér's V compares like with like."""
    if pd.api.types.is_numeric_dtype(series) and series.nunique() > 10:
        bins = pd.qcut(series, 5, duplicates="drop")
        if bins.nunique() > 1:
            return bins.astype(str)
        # Mostly one value (capital gains are 0 for nine in ten people): that value against the rest.
        return (series != series.mode()[0]).astype(str)
    return series.astype(str)


def association_table(data) -> pd.DataFrame:
    """Cramér's V of every non-protected feature column with each protected group mask."""
    manifest = data.manifest
    columns = [c for c in (*manifest.proxies, *manifest.core)]
    rows = {}
    for column in columns:
        values = _categorical(data.raw[column])
        # Rows whose group is unknown are left out of the association with that group.
        rows[column] = {attr: cramers_v(values[mask.notna()], mask.dropna().astype(int))
                        for attr, mask in data.masks.items()}
    table = pd.DataFrame(rows).T
    table.insert(0, "role", ["proxy" if c in manifest.proxies else "core" for c in table.index])
    return table


# A bare web address in a citation (a DOI's https://doi.org/... form), not already a link; a final full stop or
# comma is the sentence's, not the address's.
_BARE_URL = re.compile(r"(?<![<(])(https?://[^\s<>|]+?)([.,;]?)(?=\s|$)")


def _linked(text: str) -> str:
    """``text`` with bare web addresses written as Markdown autolinks (``<https://...>``), so they are clickable."""
    return _BARE_URL.sub(r"<\1>\2", text)


def _markdown_table(header, rows) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def _rows_kept_section(manifest) -> list[str]:
    """The filters the build applied, with the rows kept after each; nothing for an audit kept whole."""
    if not manifest.rows_kept:
        return []
    rows = [(step["rule"], f"{step['rows']:,}", step["why"]) for step in manifest.rows_kept]
    return ["## Rows kept", "", "The build applies these filters to the raw file, in this order; the count is the "
            "rows left after each.", "", _markdown_table(("filter", "rows kept", "why"), rows), ""]


def _months_section(manifest) -> list[str]:
    """Each month's rows in the raw file and after the build's filters; nothing for an audit without dates."""
    if not manifest.rows_by_month:
        return []
    rows = [(m["month"], f"{m['raw']:,}", f"{m['kept']:,}", f"{m['kept'] / m['raw']:.3f}" if m["raw"] else "n/a")
            for m in manifest.rows_by_month]
    return ["## Rows by month", "", "Rows of the raw file by the month of their date, and the rows the filters above "
            "keep: a month that is thin in the committed file may have been thin already, or thinned by a filter.",
            "", _markdown_table(("month", "raw rows", "rows kept", "share kept"), rows), ""]


def _rate(y) -> str:
    return f"{np.mean(y):.3f}" if len(y) else "n/a"


def _group_rows(data) -> list[tuple[str, str, np.ndarray]]:
    """(attribute, group, rows) for the outcome-rate-by-sample table: every row, then per protected attribute each
    value of a text column (most common first), or the mask's group and the rest for a numeric one."""
    out = [("", "every row", np.ones(len(data.raw), dtype=bool))]
    for attr, mask in data.masks.items():
        values = data.raw[attr]
        if pd.api.types.is_numeric_dtype(values):
            known = mask.notna().to_numpy()
            inside = (mask == 1).to_numpy(dtype=bool)
            out += [(attr, data.manifest.protected[attr].group, inside), (attr, "the rest", known & ~inside)]
        else:
            for value in values.value_counts().index:
                out.append((attr, str(value), (values == value).to_numpy()))
    return out


def _samples_section(m) -> list[str]:
    """The audit's samples, what a filtered one removes and why, and the outcome rate by group in each."""
    if not m.declares_samples:
        return []
    frame = read_verified(m)
    positive = (frame[m.outcome].astype(str) == m.positive).to_numpy()
    default = m.default_sample.name
    loaded = {s.name: load_audit(m.name, strategy="baseline", sample=s.name) for s in m.samples}
    rows = [(f"{s.name} (default)" if s.default else s.name, s.rule, f"{len(loaded[s.name].y):,}",
             _rate(loaded[s.name].y), s.why) for s in m.samples]
    parts = ["## Samples", "",
             f"`load_audit` serves the data file's rows as one of these samples (`load_audit(name, sample=...)`, "
             f"the split computed on the sample's rows); the sections below describe the default, `{default}`, "
             "unless they name a sample.",
             "", _markdown_table(("sample", "rule", "rows", "outcome rate", "why"), rows), ""]
    outcome = f"`{m.outcome}` = `{m.positive}` ({m.outcome_label})"
    for s in m.samples:
        if not s.filtered:
            continue
        keep = in_sample(s, frame, where=str(m.data_path))
        removed = ~keep
        dates = pd.to_datetime(frame[s.column].astype(str), format="%Y-%m-%d")
        last = dates[~positive].max()
        text = (f"`{s.name}` removes {int(removed.sum()):,} of the data file's {len(frame):,} rows, those with "
                f"{s.column} after {s.on_or_before.isoformat()}: {int(positive[removed].sum()):,} of them "
                f"({_rate(positive[removed])}) have {outcome}, against {_rate(positive[keep])} among the "
                f"{int(keep.sum()):,} rows it keeps and {_rate(positive)} in the whole file. ")
        if pd.notna(last) and last.date() <= s.on_or_before:
            text += (f"The latest {s.column} of a row without the outcome is {last.date().isoformat()}: after the "
                     f"cut-off the data file holds no row without it.")
        else:
            text += f"The latest {s.column} of a row without the outcome is {last.date().isoformat()}."
        parts += [text, ""]
    names = [s.name for s in m.samples]
    groups = {n: _group_rows(loaded[n]) for n in names}
    table = []
    for attr, group, _ in groups[names[0]]:
        cells = [attr or "all", group]
        for n in names:
            found = [rows for a, g, rows in groups[n] if (a, g) == (attr, group)]
            inside = found[0] if found else np.zeros(len(loaded[n].y), dtype=bool)
            cells += [f"{int(inside.sum()):,}", _rate(loaded[n].y.to_numpy()[inside])]
        table.append(cells)
    header = ["attribute", "group"] + [f"{label} {n}" for n in names for label in ("rows:", "rate:")]
    parts += [f"Rows and outcome rate (share of rows with `{m.outcome}` = `{m.positive}`) by group in each sample; a "
              "small group's rate rests on few rows:", "", _markdown_table(header, table), ""]
    return parts


def _value_notes_section(m) -> list[str]:
    """Values of a column that do not mean what they seem to say, with their rows in each sample."""
    if not m.value_notes:
        return []
    names = list(m.sample_names)
    loaded = {n: load_audit(m.name, strategy="baseline", sample=n).raw for n in names}
    rows = []
    for note in m.value_notes:
        counts = [f"{int((loaded[n][note['column']].astype(str) == note['value']).sum()):,}" for n in names]
        rows.append((note["column"], f"`{note['value']}`", *counts, note["note"]))
    header = ("column", "value", *(f"rows: {n}" if m.declares_samples else "rows" for n in names), "what it means")
    return ["## Values to read with care", "", _markdown_table(header, rows), "", *_value_notes_by_group(m)]


def _value_notes_by_group(m) -> list[str]:
    """The share of rows holding each noted value, in each protected group and outside it (default sample)."""
    data = load_audit(m.name, strategy="baseline")
    header, rows = ["column", "value"], []
    for attr, mask in data.masks.items():
        group = m.protected[attr].group
        header += [f"{group}", f"not {group}"]
    for note in m.value_notes:
        hit = (data.raw[note["column"]].astype(str) == note["value"]).to_numpy()
        cells = []
        for mask in data.masks.values():
            known = mask.notna().to_numpy()
            inside = (mask == 1).fillna(False).to_numpy(dtype=bool)
            cells += [f"{hit[inside].mean():.3f}", f"{hit[known & ~inside].mean():.3f}"]
        rows.append((note["column"], f"`{note['value']}`", *cells))
    where = f" of the default sample (`{data.sample}`)" if m.declares_samples else ""
    return [f"The share of rows{where} holding each of these values, in each protected group and outside it (rows "
            "whose group is unknown are in neither column):", "", _markdown_table(header, rows), ""]


def data_card(name: str) -> str:
    """The Markdown data card of one audit (its default sample; every sample in the Samples section)."""
    data = load_audit(name, strategy="baseline")
    m = data.manifest
    source = m.source
    y = data.y
    group_rows = []
    for attr, mask in data.masks.items():
        # Rows whose group is unknown are in neither column: the share and both rates are among known rows.
        known = mask.notna().to_numpy()
        inside = (mask[known] == 1).to_numpy(dtype=bool)
        y_known = y[known]
        group_rows.append((attr, m.protected[attr].group, m.protected[attr].describe(), f"{int(inside.sum()):,}",
                           f"{int((~known).sum()):,}", f"{inside.mean():.3f}", f"{y_known[inside].mean():.3f}",
                           f"{y_known[~inside].mean():.3f}"))
    assoc = association_table(data)
    assoc_rows = [(column, row["role"], *(f"{row[a]:.2f}" for a in data.masks)) for column, row in assoc.iterrows()]
    parts = [
        f"# {m.name}: data card",
        "",
        f"{m.summary}",
        "",
        "| fact | value |",
        "|---|---|",
        f"| source | [{source.get('title', m.raw_file)}]({source.get('url', '')}) |",
        f"| citation | {_linked(source.get('citation', ''))} |",
        f"| licence | {source.get('licence', '')} |",
        f"| raw file | `{m.raw_file}`, SHA-256 `{m.raw_sha256}` |",
        f"| data file | `{m.data}`, SHA-256 `{m.data_sha256}` (built by `{m.rebuild}`) |",
        *([f"| sample | `{data.sample}`, the default of `load_audit` (see Samples): {m.default_sample.rule} |"]
          if m.declares_samples else []),
        f"| rows | {len(data.raw):,} |",
        f"| outcome | `{m.outcome}` = `{m.positive}` ({m.outcome_label}): rate {y.mean():.3f} |",
        f"| split | stratified on the outcome, test share {m.test_size:g}, seed {m.random_state}: "
        f"{len(data.idx_train):,} training rows, {len(data.idx_test):,} test rows |",
        *([f"| unit | one row per `{m.unit}` ({data.raw[m.unit].nunique():,} distinct, checked by `load_audit`), so "
           f"no split puts one in both training and test rows |"] if m.unit else []),
        *([f"| decision | a fixed capacity: the {m.capacity:.0%} of people the model ranks highest are flagged: "
           f"{m.decision['why']} |"] if m.capacity is not None else []),
        "",
        source.get("notes", ""),
        "",
        *_rows_kept_section(m),
        *_months_section(m),
        *_samples_section(m),
        *_value_notes_section(m),
        "## Protected groups",
        "",
        "Each mask marks one group (1) against the rest (0); a row whose value is unknown (listed in the rule) is in neither, "
        "and the share and the outcome rates are among the rows whose group is known.",
        "",
        _markdown_table(("attribute", "group marked", "rule", "rows in group", "rows unknown", "share",
                         "outcome rate in group", "outcome rate outside"), group_rows),
        "",
        "## Which columns carry the protected attributes",
        "",
        "Cramér's V between each column and each group mask (0: no association; 1: the column determines "
        "the group; numeric columns with many values cut into quintiles, or into their most common value "
        "against the rest when quintiles collapse). Proxies are dropped by strategy S2; "
        f"core columns are what S2 keeps. Columns given to no model: {', '.join(m.unused) or 'none'}.",
        "",
        _markdown_table(("column", "role", *data.masks), assoc_rows),
        "",
        "This file is generated by `make data` (scripts/build_data.py); do not edit it by hand.",
        "",
    ]
    return "\n".join(parts)


def write_data_cards():
    """Regenerate every audit's DATA.md; return the paths written."""
    written = []
    for name in list_audits():
        path = get_manifest(name).folder / "DATA.md"
        text = data_card(name)
        if not path.exists() or path.read_text() != text:
            tmp = path.with_name("DATA.md.tmp")
            tmp.write_text(text)
            tmp.replace(path)
        written.append(path)
    return written
