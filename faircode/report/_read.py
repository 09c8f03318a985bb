"""Reading an audit's table (a DataFrame, a CSV file, plain or compressed, or Parquet) and checking its columns.

Only the columns the audit needs are read. Every check raises ``AuditInputError`` with what arrived and what was
expected: a missing or misspelt column (with the closest name), an empty file, a wrong delimiter, a file that is
not UTF-8, a label or decision that is not binary (its values listed), missing values (counted, the first row
named; ``dropna=True`` drops them and the count is reported), scores outside their range, a group column with one
value or with a value per row, duplicate column names. In a CSV file a label, group or strata column is
missing only where a field is empty: 'NA' or 'None' there is a group's name, not a missing value (``TEXT_MISSING``).
pandas' own errors for these say neither what was expected nor where. A ``Table`` of counted rows (read by Dask,
``_dask``) passes the same checks: each distinct row stands for ``count`` rows, and the first bad row is located.
"""
from __future__ import annotations

import os
import warnings
import pathlib
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from faircode.report._errors import AuditInputError, AuditWarning, closest, listed

PARQUET_SUFFIXES = (".parquet", ".pq")
TEXT_MISSING = ("",)
"""In a CSV file, the only value read as missing in a label, group or strata column: an empty field. pandas'
default markers ('NA', 'None', 'null', 'nan', ...) are real group names there ('NA' for North America), so
those columns keep them as text."""
NUMBER_MISSING = ("", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>",
                  "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null")
"""Values read as missing in a score, decision or weight column of a CSV file (pandas' default markers)."""
_OTHER_DELIMITERS = (";", "\t", "|", ":")


@dataclass(frozen=True)
class Columns:
    """The columns an audit reads, by role."""

    label: str
    groups: tuple[str, ...]
    score: str | None = None
    decision: str | None = None
    weight: str | None = None
    strata: tuple[str, ...] = ()

    def needed(self) -> list[str]:
        names = [self.label, self.score, self.decision, *self.groups, self.weight, *self.strata]
        return list(dict.fromkeys(n for n in names if n is not None))

    def role(self, name) -> str:
        for role in ("label", "score", "decision", "weight"):
            if getattr(self, role) == name:
                return role
        return "group" if name in self.groups else "strata"


@dataclass
class Table:
    """The columns read, and where they came from."""

    frame: pd.DataFrame
    source: str  # a file's name, or "DataFrame"
    from_file: bool
    rows_read: int
    rows_dropped: int = 0
    dropped_by_column: dict = field(default_factory=dict)
    count: np.ndarray | None = None
    """Counted rows (the Dask path, ``_dask``): ``frame`` holds each distinct combination of the columns read once,
    and ``count`` how many rows it stands for; None when ``frame`` holds the rows themselves."""
    locate: object = None
    """With ``count``: ``locate(predicate, name)`` finds the first row of the source for which ``predicate`` (a
    function of a pandas partition, giving a boolean per row) holds: its position, index label and ``name``'s
    value there."""

    def rows(self) -> np.ndarray:
        """How many rows each row of ``frame`` stands for."""
        return np.ones(len(self.frame), np.int64) if self.count is None else self.count

    @property
    def n_rows(self) -> int:
        return len(self.frame) if self.count is None else int(self.count.sum())


def _where(from_file: bool, position: int, label) -> str:
    if from_file:
        return f"data row {position + 1} (line {position + 2} of the file)"
    return f"row {position + 1} (index label {label!r})"


def _row(table: Table, position: int) -> str:
    """Where a row is, in the words of its source: a file's data row and line, or a DataFrame's index label."""
    return _where(table.from_file, position, None if table.from_file else table.frame.index[position])


def _first(table: Table, mask: np.ndarray, name: str, predicate):
    """Where the first flagged row is, and ``name``'s value there: ``mask`` flags rows of ``table.frame``; on
    counted rows, ``predicate`` finds the first such row of the source (a second pass, made only for the error)."""
    if table.count is None:
        position = int(np.flatnonzero(mask)[0])
        return _row(table, position), table.frame[name].iloc[position]
    position, label, value = table.locate(predicate, name)
    return _where(table.from_file, position, label), value


def _flagged(table: Table, name: str, mask: np.ndarray):
    """A predicate for the rows whose ``name`` holds one of the values flagged by ``mask`` (on counted rows)."""
    values = pd.unique(table.frame[name].to_numpy()[mask])
    return lambda part: part[name].isin(values).to_numpy()


def _check_names(columns: Columns, available, source: str) -> None:
    for name in columns.needed():
        if name not in available:
            raise AuditInputError(
                f"no column {name!r} (the {columns.role(name)} column) in {source}{closest(name, available)}; "
                f"its columns are: {listed(available)}")


def _check_duplicates(names, needed, source: str) -> None:
    """A column the audit reads that is named twice: which one is meant cannot be known (pandas silently renames
    the second in a CSV file, 'sex' to 'sex.1', and a DataFrame returns both)."""
    names = [str(n) for n in names]
    twice = [n for n in needed if names.count(n) > 1]
    if twice:
        where = "; ".join(f"{n!r} at positions {', '.join(str(i + 1) for i, m in enumerate(names) if m == n)}"
                          for n in twice)
        raise AuditInputError(f"{source} has more than one column named {listed(twice)} ({where}): rename them "
                              "so that each column the audit reads has one name")


def _csv_header(path, sep, encoding, row: str = "prediction") -> list[str]:
    try:
        raw = pd.read_csv(path, nrows=1, header=None, sep=sep, encoding=encoding, dtype=str, keep_default_na=False)
        header = pd.read_csv(path, nrows=0, sep=sep, encoding=encoding)
    except pd.errors.EmptyDataError as err:
        raise AuditInputError(f"{path} is empty: expected a header line naming the columns, then one row per "
                              f"{row}") from err
    except UnicodeDecodeError as err:
        raise _not_utf8(path, encoding, err) from err
    names = [str(c) for c in raw.iloc[0]] if len(raw) else [str(c) for c in header.columns]
    return names if len(names) == len(header.columns) else [str(c) for c in header.columns]


def _not_utf8(path, encoding, err) -> AuditInputError:
    return AuditInputError(
        f"{path} is not {encoding} text: byte {err.object[err.start:err.start + 1]!r} cannot be decoded "
        f"({err.reason}); save it as UTF-8 or pass its encoding (encoding='latin-1', --encoding latin-1)")


def _check_delimiter(names: list[str], needed: list[str], path, sep) -> None:
    """One column whose name holds another delimiter: the file is delimited by that, not by ``sep``."""
    if len(names) != 1:
        return
    for other in _OTHER_DELIMITERS:
        if other != sep and other in names[0] and len(names[0].split(other)) > 1:
            shown = "\\t" if other == "\t" else other
            raise AuditInputError(
                f"{path} has one column, {names[0]!r}, when split at {sep!r}: its header looks delimited by "
                f"'{shown}'; pass sep='{shown}' (--sep '{shown}')")


@dataclass
class Source:
    """A table opened for reading: a DataFrame, or a file whose header has been read and checked."""

    data: object  # the DataFrame, or the file's path
    names: list[str]  # its columns, in order
    kind: str  # "frame", "csv" or "parquet"
    sep: str = ","
    encoding: str = "utf-8"
    verb: str = "audit"

    def load(self, usecols, *, dtype=None, na_values=None) -> Table:
        """The columns ``usecols`` (every column when None) as a ``Table``; ``dtype`` and ``na_values`` apply to a
        CSV file (pandas' meanings), where no other value than those given is read as missing."""
        if self.kind == "frame":
            frame = self.data[list(usecols if usecols is not None else self.data.columns)].copy()
            return Table(frame=frame, source="DataFrame", from_file=False, rows_read=len(frame))
        path = self.data
        if self.kind == "parquet":
            frame = pd.read_parquet(path, columns=None if usecols is None else list(usecols))
        else:
            try:
                frame = pd.read_csv(path, sep=self.sep, encoding=self.encoding, usecols=usecols, dtype=dtype,
                                    keep_default_na=False, na_values=na_values)
            except UnicodeDecodeError as err:
                raise _not_utf8(path, self.encoding, err) from err
            except (pd.errors.ParserError, ValueError) as err:
                raise AuditInputError(f"{path} could not be read as a table delimited by {self.sep!r}: {err}") from err
            if usecols is not None:
                frame = frame[list(usecols)]
        if len(frame) == 0:
            raise AuditInputError(f"{path} has a header but no rows: there is nothing to {self.verb}")
        return Table(frame=frame, source=path.name, from_file=True, rows_read=len(frame))


def open_source(data, columns: Columns, *, sep: str = ",", encoding: str = "utf-8", every_column: bool = False,
                verb: str = "audit", row: str = "prediction") -> Source:
    """Open a DataFrame or a file path (CSV, compressed CSV, Parquet file or folder): check that the columns
    ``columns`` names exist and are named once (with ``every_column``, that no column is named twice), that the
    file exists, is not empty, is text in ``encoding`` and is delimited by ``sep``. ``verb`` and ``row`` are the
    words of the messages ('nothing to audit', 'one row per prediction')."""
    needed = columns.needed()
    if isinstance(data, pd.DataFrame):
        names = [str(c) for c in data.columns]
        _check_names(columns, names, "the DataFrame")
        _check_duplicates(data.columns, names if every_column else needed, "the DataFrame")
        return Source(data, names, "frame", verb=verb)
    if not isinstance(data, (str, os.PathLike)):
        raise AuditInputError(f"data must be a pandas DataFrame or the path of a CSV or Parquet file; got a "
                              f"{type(data).__name__}")
    path = pathlib.Path(data)
    if not path.exists():
        near = closest(path.name, [p.name for p in path.parent.iterdir()]) if path.parent.is_dir() else ""
        raise AuditInputError(f"no file {str(path)!r}{near}")
    if path.is_dir() or path.suffix.lower() in PARQUET_SUFFIXES:
        names = _parquet_names(path)
        _check_names(columns, names, str(path))
        return Source(path, names, "parquet", verb=verb)
    if path.stat().st_size == 0:
        raise AuditInputError(f"{path} is empty (0 bytes): expected a header line naming the columns, then "
                              f"one row per {row}")
    names = _csv_header(path, sep, encoding, row)
    _check_delimiter(names, needed, path, sep)
    _check_names(columns, names, str(path))
    _check_duplicates(names, names if every_column else needed, str(path))
    return Source(path, names, "csv", sep=sep, encoding=encoding, verb=verb)


def read_table(data, columns: Columns, *, sep: str = ",", encoding: str = "utf-8", engine: str = "pandas") -> Table:
    """The columns an audit needs, from a DataFrame or a file path (CSV, compressed CSV, Parquet file or
    folder); with ``engine`` "dask" (or "auto" for a Dask DataFrame, a Parquet folder or glob) counted by Dask
    (``_dask``)."""
    from faircode.report import _dask  # imports Dask only when it reads

    if _dask.wanted(data, engine):
        return _dask.read_counted(data, columns)
    source = open_source(data, columns, sep=sep, encoding=encoding)
    needed = columns.needed()
    group_like = [*columns.groups, *columns.strata]
    text_like = {*group_like, columns.label}
    return source.load(needed, dtype={name: str for name in group_like if name != columns.label},
                       na_values={name: list(TEXT_MISSING if name in text_like else NUMBER_MISSING)
                                  for name in needed})


def _parquet_names(path: pathlib.Path) -> list[str]:
    try:
        import pyarrow.parquet as pq
    except ImportError as err:  # pragma: no cover - pyarrow is pinned in requirements.lock
        raise AuditInputError(f"reading {path} needs pyarrow (pip install pyarrow)") from err
    try:
        return list(pq.ParquetDataset(path).schema.names)
    except Exception as err:  # pyarrow raises several types for a file that is not Parquet
        raise AuditInputError(f"{path} could not be read as Parquet: {err}") from err


# ---- the columns' values ----

def drop_missing(table: Table, columns: Columns, dropna: bool) -> None:
    """Raise on missing values in any needed column (count, first row), or drop those rows with ``dropna``."""
    frame = table.frame
    score_is_number = columns.score is not None and pd.api.types.is_numeric_dtype(frame[columns.score])
    missing = frame[columns.needed()].isna()
    if score_is_number:
        missing[columns.score] |= ~np.isfinite(frame[columns.score].to_numpy(float, na_value=np.nan))
    counts = missing.sum() if table.count is None else missing.mul(table.count, axis=0).sum()
    if not counts.any():
        return
    if dropna:
        keep = ~missing.any(axis=1).to_numpy()
        table.dropped_by_column = {str(k): int(v) for k, v in counts.items() if v}
        table.rows_dropped = int(table.rows()[~keep].sum())
        table.frame = frame[keep]
        if table.count is not None:
            table.count = table.count[keep]
        if len(table.frame) == 0:
            raise AuditInputError(f"every row of {table.source} has a missing value in a column the audit needs "
                                  f"({', '.join(f'{k}: {v}' for k, v in table.dropped_by_column.items())}); "
                                  "nothing is left to audit")
        return
    name = next(k for k, v in counts.items() if v)

    def is_missing(part):
        flag = part[name].isna().to_numpy()
        if name == columns.score and score_is_number:
            flag = flag | ~np.isfinite(part[name].to_numpy(float, na_value=np.nan))
        return flag

    where, _ = _first(table, missing[name].to_numpy(), name, is_missing)
    others = [f"{k}: {v}" for k, v in counts.items() if v and k != name]
    also = f" (also missing: {', '.join(others)})" if others else ""
    what = "missing or infinite value" if name == columns.score else "missing value"
    what += "" if counts[name] == 1 else "s"
    raise AuditInputError(
        f"the {columns.role(name)} column {name!r} has {int(counts[name])} {what}, the first in "
        f"{where}{also}; fill them, or pass dropna=True (--dropna) to drop those rows")


def binary(table: Table, name: str, role: str, positive=None) -> np.ndarray:
    """A 0/1 column as int8: 0/1 numbers or booleans, or two values of which ``positive`` is the positive one."""
    values = table.frame[name]
    if pd.api.types.is_bool_dtype(values):
        return values.to_numpy(bool).astype(np.int8)
    found = pd.unique(values.to_numpy())
    if positive is not None:
        texts = {str(v) for v in found}
        if str(positive) not in texts or len(texts) > 2:
            raise AuditInputError(
                f"the {role} column {name!r} must hold two values, {positive!r} (positive) and one other; "
                f"found {len(texts)}: {_value_counts(values, table.count)}")
        return (values.astype(str).to_numpy() == str(positive)).astype(np.int8)
    if pd.api.types.is_numeric_dtype(values) and set(found.tolist()) <= {0, 1}:
        return values.to_numpy().astype(np.int8)
    hint = (f"; name the positive value with positive_label= (--positive), e.g. {sorted(map(str, found))[-1]!r}"
            if len(found) == 2 and role == "label" else "")
    raise AuditInputError(f"the {role} column {name!r} must be binary, 0 and 1 (or True/False); found "
                          f"{len(found)} values: {_value_counts(values, table.count)}{hint}")


def _value_counts(values: pd.Series, count=None, limit: int = 8) -> str:
    if count is None:
        counts = values.value_counts(dropna=False)
    else:  # counted rows: the rows of each value (values of equal counts may come in another order)
        counts = pd.Series(count, index=values.index).groupby(values.to_numpy(), dropna=False).sum()
        counts = counts.sort_values(ascending=False, kind="stable")
    shown = ", ".join(f"{k!r} ({v} rows)" for k, v in list(counts.items())[:limit])
    return shown + (f", ... ({len(counts)} values in all)" if len(counts) > limit else "")


def numeric(table: Table, name: str, role: str) -> np.ndarray:
    """A column of numbers as float64, or an error naming the first value that is not a number."""
    values = table.frame[name]
    if pd.api.types.is_bool_dtype(values) or not pd.api.types.is_numeric_dtype(values):
        converted = pd.to_numeric(values, errors="coerce")
        bad = converted.isna().to_numpy() & values.notna().to_numpy()
        if bad.any():
            n_bad = int(table.rows()[bad].sum())
            where, value = _first(table, bad, name, _flagged(table, name, bad))
            raise AuditInputError(
                f"the {role} column {name!r} must hold numbers; {n_bad} {'value is' if n_bad == 1 else 'values are'} not, the first "
                f"{value!r} in {where}")
        values = converted
    return values.to_numpy(float)


def check_range(table: Table, name: str, score: np.ndarray, score_range) -> None:
    """Scores outside ``score_range``: counted, the extremes and the first row named."""
    low, high = score_range
    outside = (score < low) | (score > high)
    if outside.any():
        where, value = _first(table, outside, name, _flagged(table, name, outside))
        raise AuditInputError(
            f"the score column {name!r} has {int(table.rows()[outside].sum())} values outside [{low:g}, {high:g}] "
            f"(min {score.min():g}, max {score.max():g}; the first, {float(value):g}, in {where}); "
            f"a threshold needs scores on a known scale: pass score_range=(low, high) (--score-range LOW HIGH) "
            "if the scores are on another one, e.g. deciles 1 to 10")


def check_weights(table: Table, name: str) -> np.ndarray:
    w = numeric(table, name, "weight")
    bad = w < 0
    if bad.any():
        where, value = _first(table, bad, name, _flagged(table, name, bad))
        raise AuditInputError(f"the weight column {name!r} has {int(table.rows()[bad].sum())} negative values, "
                              f"the first {float(value):g} in {where}; weights must be 0 or more")
    if not (w > 0).any():
        raise AuditInputError(f"the weight column {name!r} is 0 in every row; at least one row needs a "
                              "positive weight")
    return w


def group_codes(table: Table, name: str, role: str = "group") -> tuple[np.ndarray, pd.Index]:
    """A group (or strata) column as codes and sorted labels (text); one value, or one per row, is an error."""
    values = table.frame[name]
    # factorize the raw values first (a categorical's codes are already that), then only the distinct values become
    # text: converting 10 million cells to str cost 3 s a column, the distinct values nothing.
    if isinstance(values.dtype, pd.CategoricalDtype):
        raw_codes, raw = values.cat.codes.to_numpy(np.int64), values.cat.categories
    else:
        raw_codes, raw = pd.factorize(values.to_numpy())
    text_codes, labels = pd.factorize(np.asarray([str(v) for v in raw], dtype=object), sort=True)
    codes = text_codes[raw_codes]
    present = np.bincount(codes, minlength=len(labels)) > 0  # a categorical may list unused categories
    if not present.all():
        codes = (np.cumsum(present) - 1)[codes]
        labels = labels[present]
    n = table.n_rows
    if role == "group" and len(labels) < 2:
        raise AuditInputError(f"the group column {name!r} has one value, {labels[0]!r}, in all {n} rows: there "
                              "is no other group to compare it with")
    if role == "group" and len(labels) == n and n > 2:
        raise AuditInputError(
            f"the group column {name!r} has a different value in each of its {n} rows (e.g. "
            f"{listed(labels[:3])}): it looks like an identifier, not a group; give a column of group labels")
    if role == "group":
        _warn_near_duplicates(name, labels)
        if len(labels) > MANY_GROUPS:
            warnings.warn(AuditWarning(
                f"the group column {name!r} has {len(labels)} groups: time and report size grow with the number of "
                f"groups (16,281 rows in 5,000 groups took about 10 minutes and wrote a 58 MB JSON file), and most "
                f"groups will be too small to read; is it a group column?"), stacklevel=3)
    return codes.astype(np.int64), pd.Index(labels, name=name)


MANY_GROUPS = 500
"""A group column with more groups than this gets an ``AuditWarning``."""


def _warn_near_duplicates(name: str, labels) -> None:
    """Group names that differ only in case or surrounding spaces ('White' and 'White ') are audited as separate
    groups, as written; say so, since they are most often one group spelt two ways."""
    seen: dict[str, list[str]] = {}
    for label in labels:
        seen.setdefault(str(label).strip().casefold(), []).append(str(label))
    alike = [names for names in seen.values() if len(names) > 1]
    if alike:
        shown = "; ".join(", ".join(repr(n) for n in names) for names in alike[:3])
        warnings.warn(AuditWarning(
            f"the group column {name!r} has groups whose names differ only in case or surrounding spaces ({shown}"
            f"{'; ...' if len(alike) > 3 else ''}): they are audited as separate groups; clean the column if they "
            "are one group"), stacklevel=3)
