"""The audit's rows read with Dask: a ``dask.dataframe.DataFrame``, a Parquet folder or a glob of Parquet files.

Only the columns the audit needs are read, and the workers count the rows of each distinct combination of them (a
groupby over label, score or decision, groups, strata and weight, missing values kept): memory is bounded by one
partition of those columns plus the distinct combinations. The counts come back as a ``Table`` whose ``frame``
holds each combination once and ``count`` its rows; every check of ``_read`` and every count of ``_counts`` takes
them as the rows they stand for, so the audit is the in-memory one on the same rows. The first row holding a bad
value, which the counts cannot tell, is found by a second pass over the partitions, made only for the error.
"""
from __future__ import annotations

import contextlib
import glob
import os
import pathlib
import warnings

import numpy as np
import pandas as pd

from faircode.report._errors import AuditInputError, closest
from faircode.report._read import (
    PARQUET_SUFFIXES,
    Columns,
    Table,
    _check_duplicates,
    _check_names,
)

ENGINES = ("auto", "pandas", "dask")
ROWS = "__faircode_rows__"


@contextlib.contextmanager
def _quiet():
    """Dask's Parquet reader calls ``reset_index(inplace=True)``, which pandas 3.1 deprecates: not ours to fix,
    and not the user's (the warning would be an error under ``-W error``)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The inplace keyword in DataFrame.reset_index")
        yield


def is_dask(data) -> bool:
    """A Dask DataFrame, told without importing Dask."""
    return type(data).__module__.startswith("dask") and hasattr(data, "npartitions")


def _is_glob(data) -> bool:
    return isinstance(data, str) and any(c in data for c in "*?[")


def wanted(data, engine: str) -> bool:
    """Whether ``data`` is read with Dask: always for a Dask DataFrame or a glob, for a Parquet folder unless
    ``engine`` is "pandas", for a Parquet file with ``engine="dask"``."""
    if engine not in ENGINES:
        raise AuditInputError(f"engine must be one of {', '.join(map(repr, ENGINES))}; got {engine!r}"
                              f"{closest(str(engine), ENGINES)}")
    if is_dask(data) or _is_glob(data):
        if engine == "pandas":
            raise AuditInputError(f"engine='pandas' reads a pandas DataFrame or one file or folder; "
                                  f"{'a Dask DataFrame' if is_dask(data) else repr(data)} needs engine='dask'")
        return True
    if engine == "pandas" or not isinstance(data, (str, os.PathLike)):
        return False
    path = pathlib.Path(data)
    if engine == "dask":
        if not path.exists() or not (path.is_dir() or path.suffix.lower() in PARQUET_SUFFIXES):
            if path.exists():
                raise AuditInputError(f"engine='dask' reads Parquet (a file, a folder or a glob); {path} is not "
                                      "Parquet: read it with engine='pandas'")
            return False  # open_source names the missing file and the closest one
        return True
    return path.is_dir()


def read_counted(data, columns: Columns) -> Table:
    """The rows of ``data`` counted by the distinct values of the columns ``columns`` names."""
    import dask.dataframe as dd

    needed = columns.needed()
    if is_dask(data):
        frame, source, label, from_file = data, "DataFrame", "the DataFrame", False
    else:
        path = str(data)
        if _is_glob(path) and not glob.glob(path):
            raise AuditInputError(f"no file matches {path!r}")
        try:
            frame = dd.read_parquet(path)
        except Exception as err:  # pyarrow and dask raise several types for what is not Parquet
            raise AuditInputError(f"{path} could not be read as Parquet: {err}") from err
        source, label, from_file = pathlib.Path(path).name, path, True
    names = [str(c) for c in frame.columns]
    _check_names(columns, names, label)
    _check_duplicates(frame.columns, needed, label)
    frame = frame[needed]
    with _quiet():
        counted = frame.groupby(needed, dropna=False, observed=True, sort=False).size().compute()
    counted = counted.reset_index(name=ROWS)
    count = counted.pop(ROWS).to_numpy(np.int64)
    if count.sum() == 0:
        raise AuditInputError(f"{label} has {'a header' if from_file else 'columns'} but no rows: there is "
                              "nothing to audit")
    return Table(frame=counted, source=source, from_file=from_file, rows_read=int(count.sum()), count=count,
                 locate=lambda predicate, name: _locate(frame, predicate, name))


def _locate(frame, predicate, name):
    """The first row of ``frame`` for which ``predicate`` holds: its position among all rows, its index label
    and ``name``'s value there (one pass over the partitions, each giving its length and its first such row)."""
    import dask

    def first(part: pd.DataFrame):
        hit = np.flatnonzero(np.asarray(predicate(part), bool))
        if len(hit) == 0:
            return len(part), None
        return len(part), (int(hit[0]), part.index[hit[0]], part[name].iloc[hit[0]])

    with _quiet():
        parts = dask.compute(*[dask.delayed(first)(p) for p in frame.to_delayed()])
    before = 0
    for length, found in parts:
        if found is not None:
            return before + found[0], found[1], found[2]
        before += length
    raise AssertionError("a value flagged in the counts was not found in the rows")  # pragma: no cover
