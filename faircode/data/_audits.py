"""Audit data: find the audits, load and verify their data, encode features, split and mark groups."""
from __future__ import annotations

import dataclasses
import functools
import hashlib
import io
import os
import pathlib

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from faircode._choices import FEATURE_STRATEGIES, canonical_strategy, check_name
from faircode.data._manifest import MANIFEST, Manifest, Sample, read_manifest

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]
# Tests and experiments may point faircode at another folder of audits.
ROOT_ENV = "FAIRCODE_AUDIT_ROOT"



class DataFileError(RuntimeError):
    """An audit's data file is missing or does not match the checksum its manifest records."""


@dataclasses.dataclass
class AuditData:
    """One audit's data, ready for a model. See ``load_audit``."""

    name: str
    strategy: str
    X: pd.DataFrame
    y: pd.Series
    X_all: pd.DataFrame
    raw: pd.DataFrame
    idx_train: np.ndarray
    idx_test: np.ndarray
    masks: dict
    random_state: int
    manifest: Manifest
    # The population the rows come from (``manifest.samples``); every attribute above describes its rows only.
    sample: str = ""

    @property
    def groups(self) -> dict:
        """Name of the group each mask marks, e.g. ``{"sex": "women", ...}``."""
        return {column: attr.group for column, attr in self.manifest.protected.items()}


def audit_root() -> pathlib.Path:
    return pathlib.Path(os.environ.get(ROOT_ENV, REPO_ROOT))


def _checked_root(root) -> pathlib.Path:
    """The audits' root folder (default ``audit_root()``), or a ValueError naming a root that is not a folder."""
    if root is None:
        root, origin = audit_root(), f" (from ${ROOT_ENV})" if os.environ.get(ROOT_ENV) else ""
    else:
        origin = ""
    try:
        root = pathlib.Path(root)
    except TypeError:
        raise ValueError(f"root must be a path to a folder of audits; got {type(root).__name__} {root!r}") from None
    if not root.is_dir():
        raise ValueError(f"audit root {str(root)!r}{origin} is not a folder; give the folder that holds the audit "
                         f"folders (each with an {MANIFEST})")
    return root


def list_audits(root: pathlib.Path | None = None) -> list[str]:
    """Names of the audits: every folder at the root that holds an ``audit.toml``, sorted."""
    return sorted(p.parent.name for p in _checked_root(root).glob(f"*/{MANIFEST}"))


def _audit_folder(name, root) -> pathlib.Path:
    """The folder of a named audit under ``root``, or a ValueError listing the audits there."""
    root = _checked_root(root)
    audits = list_audits(root)
    if not audits:
        raise ValueError(f"unknown audit {name!r}: the audit root {str(root)!r} holds no audit folder (one with "
                         f"an {MANIFEST})")
    return root / check_name(name, audits, "audit")


def get_manifest(name: str, root: pathlib.Path | None = None) -> Manifest:
    return read_manifest(_audit_folder(name, root) / MANIFEST)


def _canonical_strategy(strategy) -> str:
    return canonical_strategy(strategy, FEATURE_STRATEGIES,
                              note=" (S3, S4 and reweighing are fitted by the benchmark harness on S2's features)")


def strategy_columns(manifest: Manifest, strategy: str) -> tuple:
    """The raw columns a strategy lets a model see: baseline every column, S1 no protected, S2 core only."""
    strategy = _canonical_strategy(strategy)
    if strategy == "baseline":
        return manifest.feature_columns
    if strategy == "S1":
        return manifest.proxies + manifest.core
    return manifest.core


def read_verified(manifest: Manifest) -> pd.DataFrame:
    """Read the audit's CSV after checking it against the SHA-256 its manifest records."""
    path = manifest.data_path
    how = f"rebuild it with `{manifest.rebuild}` (scripts/build_data.py) from the raw {manifest.raw_file}"
    if not path.is_file():
        raise DataFileError(f"data file {path} is missing; expected SHA-256 {manifest.data_sha256}; {how}")
    content = path.read_bytes()
    actual = hashlib.sha256(content).hexdigest()
    if actual != manifest.data_sha256:
        raise DataFileError(f"data file {path} has SHA-256 {actual}, expected {manifest.data_sha256}; {how}")
    # na_filter=False keeps "?" and every other spelling as it is; numeric columns are inferred. A data file
    # named *.gz is a gzip-compressed CSV (the checksum is of the compressed bytes).
    frame = pd.read_csv(io.BytesIO(content), na_filter=False,
                        compression="gzip" if path.name.endswith(".gz") else None)
    missing = [c for c in (*manifest.feature_columns, *manifest.unused, manifest.outcome) if c not in frame]
    if missing:
        raise DataFileError(f"data file {path} lacks columns {missing} that {manifest.folder / MANIFEST} names; {how}")
    if manifest.unit:
        repeated = frame[manifest.unit][frame[manifest.unit].duplicated()]
        if len(repeated):
            raise DataFileError(
                f"data file {path} holds {len(repeated):,} row(s) whose {manifest.unit} already appears in an earlier "
                f"row (first: {repeated.iloc[0]}); {manifest.folder / MANIFEST} declares one row per "
                f"{manifest.unit}, so that no split can put one {manifest.unit} in both train and test; {how}")
    return frame


def _is_text(series: pd.Series) -> bool:
    return not pd.api.types.is_numeric_dtype(series)


def _code_alphabetically(series: pd.Series) -> pd.Series:
    """Each value's position among the sorted distinct values (0..k-1)."""
    codes, _ = pd.factorize(series, sort=True)
    return pd.Series(codes.astype("int64"), index=series.index, name=series.name)


def _one_hot(frame: pd.DataFrame, columns) -> pd.DataFrame:
    """Numeric columns as they are; each text column as 0/1 columns ``column=value``, values in alphabetical order.

    One-hot rather than ordinal codes, so that linear models get no invented order; trees handle it too.
    """
    return pd.concat([pd.get_dummies(frame[c], prefix=c, prefix_sep="=", dtype="uint8") if _is_text(frame[c])
                      else frame[c] for c in columns], axis=1)


def _mask(frame: pd.DataFrame, attr) -> pd.Series:
    """0/1 per row (1 = the named group); with ``unknown`` values, a nullable Int64 mask that is missing there.

    Missing rather than 0: counting "country not recorded" as "born in the United States" (or as born abroad)
    would put people in a group nobody observed them in. faircode's metrics refuse missing group values, but
    ``mask == 1`` is False there, so code that compares the mask must keep ``mask.notna()`` rows first.
    """
    values = frame[attr.column]
    if attr.below is not None:
        if _is_text(values):
            raise ValueError(f"protected.{attr.column}: `below` needs a numeric column, got text values")
        marked = values < attr.below
    elif attr.equals:
        marked = values.isin(attr.equals)
    else:
        marked = ~values.isin(attr.not_in)
    if not attr.unknown:
        return marked.astype("int64").rename(attr.column)
    return marked.astype("Int64").mask(values.isin(attr.unknown)).rename(attr.column)


def stratified_split(y, *, test_size: float, random_state: int):
    """The audits' split recipe: seeded, stratified on the outcome; sorted row positions (train, test)."""
    train, test = train_test_split(np.arange(len(y)), test_size=test_size, stratify=np.asarray(y),
                                   random_state=random_state)
    return np.sort(train), np.sort(test)


def in_sample(sample: Sample, frame: pd.DataFrame, *, where="") -> np.ndarray:
    """Boolean array over ``frame``'s rows: True where the row belongs to ``sample``.

    A date rule reads ``sample.column`` as dates (``YYYY-MM-DD``); a value that is not a date is a DataFileError
    naming it (``where`` names the file in the message).
    """
    if not sample.filtered:
        return np.ones(len(frame), dtype=bool)
    values = frame[sample.column].astype(str)
    dates = pd.to_datetime(values, format="%Y-%m-%d", errors="coerce")
    if dates.isna().any():
        bad = sorted(set(values[dates.isna()]))[:5]
        raise DataFileError(f"{where or 'data'}: sample {sample.name!r} reads {sample.column!r} as dates "
                            f"(YYYY-MM-DD), but it holds {bad}")
    return (dates <= pd.Timestamp(sample.on_or_before)).to_numpy()


@functools.lru_cache(maxsize=None)
def _read(name: str, root: str) -> tuple:
    """The audit's manifest and its verified data file (every row), read once per process."""
    manifest = get_manifest(name, pathlib.Path(root))
    return manifest, read_verified(manifest)


def _check_sample(manifest: Manifest, sample) -> str:
    """The sample's name (the manifest's default for None), or a ValueError listing the audit's samples."""
    if sample is None:
        return manifest.default_sample.name
    return check_name(sample, manifest.sample_names, "sample", note=f" (of the audit {manifest.name!r}; default "
                                                                      f"{manifest.default_sample.name!r})")


@dataclasses.dataclass(frozen=True)
class _Prepared:
    manifest: Manifest
    raw: pd.DataFrame
    y: pd.Series
    X_all: pd.DataFrame
    encoded: pd.DataFrame
    idx_train: np.ndarray
    idx_test: np.ndarray
    masks: dict


@functools.lru_cache(maxsize=None)
def _prepare(name: str, root: str, sample: str) -> _Prepared:
    """Everything that does not depend on the strategy, for one sample's rows, computed once per process.

    The rows are the sample's, renumbered 0..n-1 in file order; the outcome, codes, one-hot columns, the split
    and the masks are all computed on them, so the split never holds a row outside the sample.
    """
    manifest, full = _read(name, root)
    keep = in_sample(manifest.sample(sample), full, where=str(manifest.data_path))
    raw = full if keep.all() else full[keep].reset_index(drop=True)
    outcome = raw[manifest.outcome].astype(str)
    if manifest.positive not in set(outcome):
        raise DataFileError(f"{manifest.data_path}: outcome column {manifest.outcome!r} never equals "
                            f"{manifest.positive!r} in sample {sample!r}; values seen: {sorted(set(outcome))}")
    y = (outcome == manifest.positive).astype("int64").rename(manifest.outcome)
    features = [c for c in raw.columns if c != manifest.outcome]
    X_all = pd.DataFrame({c: _code_alphabetically(raw[c]) if _is_text(raw[c]) else raw[c] for c in features})
    encoded = _one_hot(raw, manifest.feature_columns)
    idx_train, idx_test = stratified_split(y, test_size=manifest.test_size, random_state=manifest.random_state)
    masks = {column: _mask(raw, attr) for column, attr in manifest.protected.items()}
    return _Prepared(manifest, raw, y, X_all, encoded, idx_train, idx_test, masks)


def warm_cache(root=None) -> list[str]:
    """Read, verify and encode every audit under `root` now, each of its samples, into the per-process cache;
    return the audits' names.

    The page build calls this once in the process its pages are forked from (``[tool.pagebuild] warm``), so
    each page's ``load_audit`` starts from data already read instead of parsing the CSV again.
    """
    root = pathlib.Path(root) if root is not None else audit_root()
    names = list_audits(root)
    for name in names:
        manifest, _ = _read(name, str(root))
        for sample in manifest.sample_names:
            _prepare(name, str(root), sample)
    return names


def load_audit(name: str, strategy: str = "S2", *, sample: str | None = None, root=None) -> AuditData:
    """Load an audit's data for a feature strategy, on one of its samples.

    Parameters
    ----------
    name : str
        The audit, e.g. ``"Benefits Denial"`` or ``"German Credit Lending"`` (see ``list_audits()``).
    strategy : {"S2", "S1", "baseline", "S0"}, default "S2"
        Which columns ``X`` holds: ``baseline``/``S0`` every column the manifest lists (protected included),
        ``S1`` protected columns dropped but proxies kept, ``S2`` core features only.
    sample : str, optional
        Which rows: a population the manifest declares (``[[samples]]`` in ``audit.toml``, with its rule and
        why); default the manifest's default sample. Pretrial Risk Assessment has ``"two-year-window"`` (the
        default: defendants screened on or before 2014-04-01, who could all be followed for two years whatever
        their outcome) and ``"propublica"`` (every row of ProPublica's filtered two-year file). An audit that
        declares none has one sample, ``"all"``, every row of its data file.
    root : path, optional
        Folder holding the audit folders; default the repository root (or ``$FAIRCODE_AUDIT_ROOT``).

    Returns
    -------
    AuditData
        For the sample's rows only, renumbered 0..n-1 in file order: ``X`` (model-ready: numeric columns as
        they are, text columns one-hot as ``column=value``), ``y`` (0/1), ``X_all`` (every raw column but the
        outcome, text coded 0..k-1 alphabetically), ``raw`` (the CSV's rows as read), ``idx_train``/``idx_test``
        (the audit's fixed, seeded, outcome-stratified split of the sample's rows, sorted row positions),
        ``masks`` (0/1 Series per protected attribute, 1 = the group the manifest names), ``random_state`` and
        ``sample`` (its name). Loading is cached per process; each call returns fresh copies.

    Raises
    ------
    ValueError
        For an unknown audit, strategy or sample, listing the valid names.

    Examples
    --------
    >>> data = load_audit("German Credit Lending")
    >>> len(data.idx_train), len(data.idx_test)
    (800, 200)
    >>> load_audit("Pretrial Risk Assessment", sample="propublica").sample
    'propublica'
    """
    canonical = _canonical_strategy(strategy)
    folder = _audit_folder(name, root)  # checked before the cache, whose key must be hashable
    chosen = _check_sample(_read(name, str(folder.parent))[0], sample)
    prepared = _prepare(name, str(folder.parent), chosen)
    manifest = prepared.manifest
    keep = set(strategy_columns(manifest, canonical))
    columns = [c for c in prepared.encoded.columns if c.split("=", 1)[0] in keep]
    return AuditData(
        name=manifest.name, strategy=canonical, X=prepared.encoded[columns].copy(), y=prepared.y.copy(),
        X_all=prepared.X_all.copy(), raw=prepared.raw.copy(), idx_train=prepared.idx_train.copy(),
        idx_test=prepared.idx_test.copy(), masks={k: v.copy() for k, v in prepared.masks.items()},
        random_state=manifest.random_state, manifest=manifest, sample=chosen)
