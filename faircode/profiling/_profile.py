"""``faircode.profile``: a table described before a model is fitted on it, group by group.

Reading, its errors and the group columns' coding are ``faircode.audit``'s (``faircode.report._read``); what is
measured is here: group sizes and shares, base rates, missing values by group, each column's strength as a proxy
for each group, and with a second file the drift between the two (``_shares``, ``_proxy``).
"""
from __future__ import annotations

import numbers
import warnings

import numpy as np
import pandas as pd

from faircode.metrics._multiplicity import holm
from faircode.profiling import _proxy, _shares
from faircode.profiling._result import ProfileReport
from faircode.report import _read
from faircode.report._audit import column_names, reference_position, references_by_column
from faircode.report._errors import AuditInputError, AuditWarning


def _check_options(min_count, confidence, random_state, missing_values) -> tuple[str, ...]:
    if isinstance(min_count, bool) or not isinstance(min_count, numbers.Integral) or min_count < 0:
        raise AuditInputError(f"min_count must be a whole number of rows (0 or more); got {min_count!r}")
    if isinstance(confidence, bool) or not isinstance(confidence, numbers.Real) or not 0 < confidence < 1:
        raise AuditInputError(f"confidence must lie strictly between 0 and 1, e.g. 0.95; got {confidence!r}")
    if isinstance(random_state, bool) or not isinstance(random_state, numbers.Integral):
        raise AuditInputError(f"random_state must be a whole number (the seed of the proxy halves); got "
                              f"{random_state!r}")
    tokens = (missing_values,) if isinstance(missing_values, str) else tuple(missing_values or ())
    if not all(isinstance(t, str) for t in tokens):
        raise AuditInputError(f"missing_values must be text values (e.g. ['?', 'None']); got {missing_values!r}")
    return tuple(dict.fromkeys(tokens))


def _mark_missing(frame: pd.DataFrame, tokens: tuple[str, ...]) -> None:
    """Empty text and the ``tokens`` become missing in every column (a CSV file's reader already did so; a
    DataFrame or Parquet file arrives with them as values)."""
    text = ("", *tokens)
    numbers_ = []
    for t in tokens:
        try:
            numbers_.append(float(t))
        except ValueError:
            pass
    for name in frame.columns:
        values = frame[name]
        if pd.api.types.is_bool_dtype(values):
            continue
        if pd.api.types.is_numeric_dtype(values):
            hit = values.isin(numbers_) if numbers_ else None
        else:
            hit = values.isin(text)
        if hit is not None and hit.any():
            frame[name] = values.mask(hit)


MARKERS = tuple(m for m in (*_read.NUMBER_MISSING, "?") if m)
"""Values often written for a missing one (pandas' markers, and '?'): found in a column and not given as
``missing_values``, they are counted as values, and the profile says so (and the command line warns)."""


def _markers(frame: pd.DataFrame, tokens: tuple[str, ...]) -> dict:
    """{column: {marker: rows}} for the ``MARKERS`` that are values of a text column here (not read as missing)."""
    found = {}
    for name in frame.columns:
        values = frame[name]
        if pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
            continue
        counts = values[values.isin(MARKERS)].astype(str).value_counts()
        hits = {str(k): int(v) for k, v in sorted(counts.items()) if k not in tokens}
        if hits:
            found[str(name)] = hits
    return found


def _read_file(data, groups, label, tokens, dropna, sep, encoding, *, label_required=True):
    """Every column of one table, its empty cells and ``tokens`` missing; rows with a missing group or label
    raise (or, with ``dropna``, are dropped and counted). Without ``label_required`` a table lacking the label
    column is read without it. Returns the table, whether it has the label, and the ``MARKERS`` found."""
    columns = _read.Columns(label=label, groups=groups)
    checked = columns if label_required else _read.Columns(label=None, groups=groups)
    source = _read.open_source(data, checked, sep=sep, encoding=encoding, every_column=True, verb="profile",
                               row="record")
    if label is not None and label not in source.names:
        columns = checked
    table = source.load(None, dtype={g: str for g in groups if g != label}, na_values=["", *tokens])
    table.frame.columns = [str(c) for c in table.frame.columns]  # a DataFrame's 0, 1, ... as the names checked
    _mark_missing(table.frame, tokens)
    markers = _markers(table.frame, tokens)
    if markers:
        shown = "; ".join(f"{c}: {', '.join(f'{m!r} ({n:,} rows)' for m, n in hits.items())}"
                          for c, hits in list(markers.items())[:6])
        more = f"; ... ({len(markers)} columns in all)" if len(markers) > 6 else ""
        listed = sorted({m for hits in markers.values() for m in hits})
        warnings.warn(AuditWarning(
            f"{table.source} holds values often written for a missing one, counted here as values: {shown}{more}; "
            f"if they mean missing, pass missing_values={listed!r} (--missing-values "
            f"'{','.join(listed)}')"), stacklevel=3)
    _read.drop_missing(table, columns, dropna)
    return table, columns.label is not None, markers


def _size_rows(column, codes, index, min_count, confidence) -> pd.DataFrame:
    counts = np.bincount(codes, minlength=len(index))
    out = _shares.shares(counts, np.full(len(index), len(codes)), confidence)
    out.insert(0, "count", counts)
    out.insert(0, "group", [str(g) for g in index])
    out.insert(0, "column", column)
    out["too_small"] = counts < min_count
    return out


def _base_rate_rows(column, codes, index, y, ref, min_count, confidence) -> pd.DataFrame:
    counts = np.bincount(codes, minlength=len(index))
    positives = np.bincount(codes, weights=y, minlength=len(index)).astype(np.int64)
    rates = _shares.shares(positives, counts, confidence).rename(columns={"share": "estimate"})
    out = pd.concat([rates, _shares.gaps_to_reference(positives, counts, ref, confidence)], axis=1)
    out.insert(0, "positives", positives)
    out.insert(0, "count", counts)
    out.insert(0, "group", [str(g) for g in index])
    out.insert(0, "column", column)
    out["reference"] = str(index[ref])
    out["too_small"] = counts < min_count
    return out


def _missing_rows(column, codes, index, missing: pd.DataFrame, ref, confidence) -> pd.DataFrame:
    counts = np.bincount(codes, minlength=len(index))
    parts = []
    for variable in missing.columns:
        events = np.bincount(codes, weights=missing[variable].to_numpy(), minlength=len(index)).astype(np.int64)
        part = pd.concat([_shares.shares(events, counts, confidence),
                          _shares.gaps_to_reference(events, counts, ref, confidence)], axis=1)
        part.insert(0, "missing", events)
        part.insert(0, "count", counts)
        part.insert(0, "group", [str(g) for g in index])
        part.insert(0, "variable", variable)
        part.insert(0, "column", column)
        part["reference"] = str(index[ref])
        parts.append(part)
    return pd.concat(parts, ignore_index=True) if parts else None


def _overall_missing(missing: pd.DataFrame, confidence) -> pd.DataFrame:
    events = missing.sum().to_numpy().astype(np.int64)
    out = _shares.shares(events, np.full(len(events), len(missing)), confidence)
    out.insert(0, "missing", events)
    out.insert(0, "count", len(missing))
    out.insert(0, "variable", list(missing.columns))
    return out


def profile(data, *, groups, label: str | None = None, reference=None, reference_data=None,
            positive_label=None, missing_values=(), dropna: bool = False, min_count: int = 30,
            confidence: float = 0.95, random_state: int = 0, sep: str = ",",
            encoding: str = "utf-8") -> ProfileReport:
    """Describe a table before a model: group sizes, base rates, missing values and proxies by group, and drift.

    Parameters
    ----------
    data : pandas.DataFrame or path
        One row per person (or record): a DataFrame, a CSV file (plain or compressed) or a Parquet file or folder.
        Every column is read.
    groups : str or list of str
        Group columns; each is described on its own.
    label : str, optional
        A binary outcome (0/1, True/False, or two values with ``positive_label``): adds base rates by group.
    reference : label or dict, optional
        The reference group of the gaps, or ``{column: group}``. Default: each column's largest group.
    reference_data : pandas.DataFrame or path, optional
        An earlier table of the same columns: adds the drift from it to ``data``.
    positive_label : optional
        The positive value of a label that is not 0/1.
    missing_values : str or list of str, optional
        Values that also mean missing (e.g. ``["?", "None"]``). Without them only an empty cell is missing
        (in a DataFrame or Parquet file: a null or an empty string).
    dropna : bool, default False
        Drop rows whose group or label is missing (their number is reported) instead of raising.
    min_count : int, default 30
        A group with fewer rows is flagged too small to audit.
    confidence : float, default 0.95
        Coverage of every interval; Holm's correction of the proxy tests is at 1 - confidence.
    random_state : int, default 0
        Seed of the random halves of the cross-fitted proxy AUC; the same input and seed give the same report.
    sep, encoding : str
        The CSV files' delimiter and encoding.

    Returns
    -------
    ProfileReport
        Tables ``sizes``, ``base_rates``, ``missing``, ``missing_overall``, ``proxies`` and, with
        ``reference_data``, ``drift_groups``, ``drift_base_rates``, ``drift_missing``; ``to_json()``,
        ``to_markdown()``, ``to_html()``.

    Examples
    --------
    >>> import pandas as pd
    >>> from faircode import profile
    >>> df = pd.DataFrame({"sex": ["f", "m"] * 50, "y": [1, 0, 0, 0] * 25, "hours": list(range(100))})
    >>> report = profile(df, groups="sex", label="y")
    >>> print(report.base_rates[["group", "count", "positives", "estimate"]].to_string(index=False))
    group  count  positives  estimate
        f     50         25       0.5
        m     50          0       0.0
    """
    group_cols = column_names(groups, "groups")
    if not group_cols:
        raise AuditInputError("groups must name at least one group column")
    tokens = _check_options(min_count, confidence, random_state, missing_values)
    confidence = float(confidence)
    references = references_by_column(reference, group_cols)
    table, _, markers = _read_file(data, group_cols, label, tokens, dropna, sep, encoding)
    frame = table.frame
    y = None if label is None else _read.binary(table, label, "label", positive_label).astype(float)
    coded = {c: _read.group_codes(table, c) for c in group_cols}
    others = [str(c) for c in frame.columns if c not in group_cols and c != label]
    missing = frame[others].isna()

    sizes, base_rates, by_group, proxies, refs = [], [], [], [], {}
    first = _proxy.halves(len(frame), random_state)
    encoded = [_proxy.encode(v, frame[v], missing[v].to_numpy(), first) for v in others]
    with_missing = missing.loc[:, missing.any()]
    for column, (codes, index) in coded.items():
        counts = np.bincount(codes, minlength=len(index))
        ref = reference_position(column, index, references.get(column), counts)
        refs[column] = str(index[ref])
        sizes.append(_size_rows(column, codes, index, min_count, confidence))
        if y is not None:
            base_rates.append(_base_rate_rows(column, codes, index, y, ref, min_count, confidence))
        rows = _missing_rows(column, codes, index, with_missing, ref, confidence)
        if rows is not None:
            by_group.append(rows.assign(too_small=lambda t: t["count"] < min_count))
        for enc in encoded:
            proxies.extend(_proxy.proxy_rows(enc, column, codes, index, first))
    proxy_table = pd.DataFrame(proxies, columns=["variable", "kind", "column", "group", "count", "direction", "auc",
                                                  "auc_half_1", "auc_half_2", "categories", "categories_tested",
                                                  "chi2", "df", "p_value", "cramers_v"])
    proxy_table["too_small"] = proxy_table["count"] < min_count
    # a column of two groups: one group against the rest is the other against the rest, one test, counted once
    two = proxy_table["column"].map({c: len(index) == 2 for c, (_, index) in coded.items()})
    proxy_table["counted"] = ~(two & proxy_table.duplicated(["variable", "column"]))
    proxy_table["holm"] = False
    family = proxy_table["p_value"].notna() & proxy_table["counted"]
    proxy_table.loc[family, "holm"] = holm(proxy_table.loc[family, "p_value"].to_numpy(), 1 - confidence)
    shared = proxy_table.groupby(["variable", "column"])["holm"].transform("any")
    proxy_table["holm"] = proxy_table["holm"] | (two & shared)

    meta = {
        "source": table.source, "rows_read": table.rows_read, "rows_dropped_missing": table.rows_dropped,
        "dropped_by_column": table.dropped_by_column, "rows_used": int(len(frame)), "label": label,
        "positive_label": None if positive_label is None else str(positive_label), "groups": list(group_cols),
        "variables": [{"name": e.name, "kind": e.kind, "missing": int(missing[e.name].sum())} for e in encoded],
        "missing_values": list(tokens), "possible_missing_markers": markers, "references": refs,
        "confidence": confidence, "min_count": int(min_count),
        "random_state": int(random_state), "half_rows": int(first.sum()), "against": None,
    }
    drift = {}
    if reference_data is not None:
        drift, meta["against"] = _drift(reference_data, frame, coded, group_cols, label, y, positive_label, tokens,
                                        dropna, sep, encoding, others, missing, confidence)
    return ProfileReport(
        meta=meta, sizes=pd.concat(sizes, ignore_index=True),
        base_rates=pd.concat(base_rates, ignore_index=True) if base_rates else None,
        missing=pd.concat(by_group, ignore_index=True) if by_group else None,
        missing_overall=_overall_missing(missing, confidence), proxies=proxy_table, **drift)


def _union(index, codes, other_index, other_codes):
    """Both files' groups of one column, sorted as text, and each file's row counts over them."""
    labels = sorted({str(g) for g in index} | {str(g) for g in other_index})
    where = {g: i for i, g in enumerate(labels)}
    new = np.bincount(np.array([where[str(g)] for g in index])[codes], minlength=len(labels))
    old = np.bincount(np.array([where[str(g)] for g in other_index])[other_codes], minlength=len(labels))
    return labels, new, old, np.array([where[str(g)] for g in index]), np.array([where[str(g)] for g in other_index])


def _drift(reference_data, frame, coded, group_cols, label, y, positive_label, tokens, dropna, sep, encoding, others,
           missing, confidence):
    """Group shares, base rates and missing shares of ``frame`` against an earlier table (two independent
    samples: Newcombe's interval on each change)."""
    old_table, has_label, _ = _read_file(reference_data, group_cols, label, tokens, dropna, sep, encoding,
                                      label_required=False)
    old = old_table.frame
    if has_label:
        old_y = _read.binary(old_table, label, "label", positive_label).astype(float)
    groups_parts, rate_parts = [], []
    for column in group_cols:
        codes, index = coded[column]
        old_codes, old_index = _read.group_codes(old_table, column, "drift")
        labels, new_n, old_n, to_new, to_old = _union(index, codes, old_index, old_codes)
        part = pd.DataFrame({"column": column, "group": labels, "count": new_n,
                             "share": new_n / len(frame), "against_count": old_n, "against_share": old_n / len(old)})
        groups_parts.append(pd.concat([part, _shares.changes(new_n, np.full(len(labels), len(frame)), old_n,
                                                             np.full(len(labels), len(old)), confidence)], axis=1))
        if has_label:
            new_pos = np.bincount(to_new[codes], weights=y, minlength=len(labels))
            old_pos = np.bincount(to_old[old_codes], weights=old_y, minlength=len(labels))
            with np.errstate(invalid="ignore", divide="ignore"):
                part = pd.DataFrame({"column": column, "group": labels, "count": new_n,
                                     "estimate": np.where(new_n > 0, new_pos / np.maximum(new_n, 1), np.nan),
                                     "against_count": old_n,
                                     "against_estimate": np.where(old_n > 0, old_pos / np.maximum(old_n, 1), np.nan)})
            rate_parts.append(pd.concat([part, _shares.changes(new_pos, new_n, old_pos, old_n, confidence)], axis=1))
    old_others = [str(c) for c in old.columns if c not in group_cols and c != label]
    both = [v for v in others if v in old_others]
    old_missing = old[both].isna().sum().to_numpy() if both else np.zeros(0)
    new_missing = missing[both].sum().to_numpy() if both else np.zeros(0)
    drift_missing = pd.DataFrame({"variable": both, "missing": new_missing.astype(np.int64),
                                  "share": new_missing / len(frame), "against_missing": old_missing.astype(np.int64),
                                  "against_share": old_missing / len(old)})
    drift_missing = pd.concat([drift_missing, _shares.changes(new_missing, np.full(len(both), len(frame)),
                                                              old_missing, np.full(len(both), len(old)),
                                                              confidence)], axis=1)
    against = {"source": old_table.source, "rows_read": old_table.rows_read,
               "rows_dropped_missing": old_table.rows_dropped,
               "rows_used": int(len(old)), "has_label": has_label,
               "only_in_data": [v for v in others if v not in old_others],
               "only_in_against": [v for v in old_others if v not in others]}
    return {"drift_groups": pd.concat(groups_parts, ignore_index=True),
            "drift_base_rates": pd.concat(rate_parts, ignore_index=True) if rate_parts else None,
            "drift_missing": drift_missing}, against
