"""The benchmark grid: every audit x strategy x model x seed, fitted in parallel through joblib.

Each cell fits on the training rows of its split and measures on the test rows: accuracy, balanced accuracy
and, per protected attribute, the selection rate of each side and four gaps with bootstrap intervals. A
"gap" is the rate in the group the audit names (mask = 1: women, applicants under 30, ...) minus the rate in
everyone else, so 0 means parity and a negative parity gap means the named group is selected less often.

An audit whose manifest declares a ``[decision] capacity`` (Healthcare Readmission: a programme with room for a
tenth of the patients) is decided at that capacity: each cell flags that share of its test rows, those its model
scores highest, and S4 fits the share of each group to flag at the same total (``_capacity``); S3 is left out
there, because ExponentiatedGradient gives decisions from a randomised mixture, not a score to rank. Rows whose
group on the mitigations' target attribute is unknown are left out of that audit's training and test rows, for
every strategy alike.

Determinism: every random choice (split, model, S4's threshold split, randomised predictions, bootstrap) is
seeded from the cell's own seed, never from the order the cells run in, so the results do not depend on
``n_jobs`` or on the joblib backend.
"""
from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import sys
import time

import joblib
import numpy as np
import pandas as pd
from sklearn.metrics import accuracy_score, balanced_accuracy_score
from threadpoolctl import threadpool_limits

from faircode.benchmark import _fitcache
from faircode.data._audits import list_audits, load_audit, stratified_split
from faircode._choices import check_name
from faircode.data._manifest import MANIFEST
from faircode.benchmark._strategies import (CONSTRAINTS, FEATURE_STRATEGIES, STRATEGIES, canonical_strategy,
                                            fit_strategy)
from faircode.metrics import gaps_to_reference
from faircode.models import MODELS, build_model

__all__ = ["DEFAULT_MODELS", "GAPS", "MAX_SEEDS", "N_BOOT", "Target", "check_grid", "manifest_target",
           "run_benchmark"]

#: A linear model and a tree ensemble: both families, and the grid on Benefits Denial stays within minutes.
#: gradient_boosting is valid but slow under S3 (ExponentiatedGradient refits it every iteration).
DEFAULT_MODELS = ("logistic_regression", "random_forest")

#: The four gaps reported per protected attribute, by the rate each compares.
GAPS = {"parity": "selection rate", "tpr": "true positive rate", "fpr": "false positive rate",
        "precision": "precision"}
_CONSTRAINT_GAPS = {"demographic_parity": ("parity",), "true_positive_rate_parity": ("tpr",),
                    "equalized_odds": ("tpr", "fpr")}

N_BOOT = 1000
#: The most splits one run accepts: 100 re-splits of the largest grid already take hours on one machine.
MAX_SEEDS = 100
THRESHOLD_FRACTION = 0.5


@dataclasses.dataclass(frozen=True)
class Target:
    """Which protected attribute the mitigations (S3, S4, reweighing) act on, and under which constraint."""

    attribute: str
    constraint: str

    @property
    def gaps(self) -> tuple:
        """The reported gaps that the constraint aims to close, e.g. ``("parity",)``."""
        return _CONSTRAINT_GAPS[self.constraint]


def manifest_target(manifest) -> Target:
    """The target an audit's manifest names in its ``[target]`` table (``attribute``, ``constraint``).

    An audit whose manifest has no ``[target]`` table gets its first protected attribute under demographic
    parity; a table without ``constraint`` gets demographic parity too.

    Parameters
    ----------
    manifest : faircode manifest
        ``load_audit(...).manifest``, or the manifest of an audit folder.

    Returns
    -------
    Target
    """
    table = getattr(manifest, "target", None) or {}
    if table:
        return Target(table["attribute"], table.get("constraint", "demographic_parity"))
    return Target(next(iter(manifest.protected)), "demographic_parity")


def _target_for(data, targets) -> Target:
    """The override in `targets` for this audit if there is one, else its manifest's target; validated."""
    target = targets[data.name] if data.name in targets else manifest_target(data.manifest)
    if not isinstance(target, Target):
        target = Target(*target)
    if not isinstance(target.attribute, str) or target.attribute not in data.masks:
        valid = ", ".join(repr(a) for a in data.masks)
        raise ValueError(f"target attribute {target.attribute!r} is not a protected attribute of audit "
                         f"{data.name!r}; its protected attributes are: {valid}")
    check_name(target.constraint, tuple(CONSTRAINTS), "constraint")
    return target


# ---- metrics (faircode.metrics: counts behind every rate, vectorised bootstrap) ------------------------

_METRIC_OF_GAP = {"parity": "selection_rate", "tpr": "tpr", "fpr": "fpr", "precision": "precision"}


def _group_metrics(y, pred, mask, *, n_boot, random_state):
    """Selection rates, group sizes and each gap (named group minus the rest) with a 95% bootstrap interval.

    Rows whose group is unknown (a missing mask value) are in neither group and are left out.
    """
    known = ~pd.isna(mask)
    y, pred, mask = y[known], pred[known], np.asarray(mask)[known].astype(int)
    gaps = gaps_to_reference(y, pred, sensitive_features=mask, reference=0, metrics=list(_METRIC_OF_GAP.values()),
                             n_boot=n_boot, random_state=random_state)
    gaps = gaps.droplevel(0)
    out = {"n_group": int((mask == 1).sum()), "n_rest": int((mask == 0).sum()),
           "sel_group": float(pred[mask == 1].mean()), "sel_rest": float(pred[mask == 0].mean()),
           # The smallest denominator behind any of the eight rates; under 30 the gaps are flagged as too small.
           "min_count": int(gaps[["count", "reference_count"]].to_numpy().min()),
           "too_small": bool(gaps["too_small"].any())}
    for gap, metric in _METRIC_OF_GAP.items():
        row = gaps.loc[metric]
        out[f"{gap}_gap"] = float(row["difference"])
        out[f"{gap}_lo"], out[f"{gap}_hi"] = float(row["difference_lower"]), float(row["difference_upper"])
    return out


# ---- one cell of the grid ------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class _Cell:
    audit: str
    strategy: str
    model: str
    seed: int
    target: Target
    # The share of the test rows flagged (the audit's [decision] capacity), or None: the model's 0.5 threshold.
    capacity: float | None = None


def _fit_and_measure(cell, X, y, masks, train, test, *, n_boot, threshold_fraction):
    """Fit one strategy x model on `train`, measure on `test`; returns (result rows, seconds)."""
    start = time.perf_counter()
    # A plain array, not a DataFrame: scikit-learn and fairlearn check a frame's columns on every fit and
    # predict, which made ExponentiatedGradient's many small fits a third slower, for the same numbers.
    X = np.asarray(X)
    sensitive = np.asarray(masks[cell.target.attribute])
    # One BLAS/OpenMP thread per fit: the grid is parallel across fits already, oversubscribed BLAS threads made
    # ExponentiatedGradient's many small fits 3x slower, and a fixed thread count keeps sums in a fixed order.
    # Nested joblib calls (scikit-learn's forests, fairlearn) run in this process, as they do in a loky worker.
    # joblib's Dask backend runs each task under parallel_config(backend="dask"), whose default n_jobs is -1, so
    # without this every nested call went back through the scheduler: each fit took about 5x longer on a Dask
    # worker than on a local one (scripts/benchmarks/bench_harness.py).
    with threadpool_limits(limits=1), joblib.parallel_config(backend="sequential"):
        fitted = fit_strategy(cell.strategy, build_model(cell.model, cell.seed), X[train], y[train],
                              sensitive_features=None if cell.strategy in FEATURE_STRATEGIES else sensitive[train],
                              constraint=cell.target.constraint, random_state=cell.seed,
                              threshold_fraction=threshold_fraction, capacity=cell.capacity)
        pred = fitted.predict(X[test], sensitive[test])
    seconds = time.perf_counter() - start
    common = {"audit": cell.audit, "strategy": cell.strategy, "model": cell.model, "seed": cell.seed,
              "target": "" if cell.strategy in FEATURE_STRATEGIES else
              f"{cell.target.attribute}: {cell.target.constraint}",
              "n_train": len(train), "n_test": len(test),
              "accuracy": accuracy_score(y[test], pred), "balanced_accuracy": balanced_accuracy_score(y[test], pred)}
    rows = []
    for attribute, mask in masks.items():
        row = dict(common, attribute=attribute)
        row.update(_group_metrics(y[test], pred, np.asarray(mask)[test], n_boot=n_boot, random_state=cell.seed))
        rows.append(row)
    return rows, seconds


# ---- the grid ------------------------------------------------------------------------------------------

def _names(given, default, check):
    """The checked names (a single str is one name), repeats dropped; ``default`` when none are given."""
    if given is None or (not isinstance(given, str) and len(given) == 0):
        return list(default)
    return list(dict.fromkeys(check(name) for name in ([given] if isinstance(given, str) else given)))


def _whole(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def check_grid(audits=None, strategies=None, models=None, *, seeds=1, root=None, n_jobs=-1, n_boot=N_BOOT):
    """Validate and complete the grid's names (defaults filled in, aliases resolved, repeats dropped), and
    check the run's sizes (``seeds`` from 1 to ``MAX_SEEDS``, ``n_jobs`` non-zero, ``n_boot`` positive), so
    that a bad argument fails before any fit.

    Raises ValueError naming the first unknown audit, strategy or model and listing the valid ones, or the
    bad size and what is accepted.
    """
    valid_audits = list_audits(root)
    audits = _names(audits, valid_audits, lambda name: check_name(name, valid_audits, "audit"))
    strategies = _names(strategies, STRATEGIES, canonical_strategy)
    models = _names(models, DEFAULT_MODELS, lambda name: check_name(name, MODELS, "model"))
    if not _whole(seeds) or not 1 <= seeds <= MAX_SEEDS:
        raise ValueError(f"seeds must be a whole number of splits from 1 to {MAX_SEEDS}; got {seeds!r}")
    if n_jobs is not None and (not _whole(n_jobs) or n_jobs == 0):
        raise ValueError(f"n_jobs must be a positive number of workers, or negative (-1: every core), or None; "
                         f"got {n_jobs!r}")
    if not _whole(n_boot) or n_boot < 1:
        raise ValueError(f"n_boot must be a positive whole number of bootstrap resamples; got {n_boot!r}")
    return audits, strategies, models


def run_benchmark(audits=None, strategies=None, models=None, *, seeds: int = 1, n_jobs: int | None = -1,
                  n_boot: int = N_BOOT, targets: dict | None = None, threshold_fraction: float = THRESHOLD_FRACTION,
                  progress=None, root=None):
    """Fit and measure every audit x strategy x model x seed.

    Parameters
    ----------
    audits : list of str, optional
        Audit names; default every audit (``list_audits()``). An audit with a ``[decision] capacity`` is decided
        at that capacity (see the module's docstring), without S3 unless ``strategies`` names it, which is an
        error there.
    strategies : list of str, optional
        From ``"baseline"`` (or ``"S0"``), ``"S1"``, ``"S2"``, ``"S3"``, ``"S4"``, ``"reweighing"``; default all.
    models : list of str, optional
        Names accepted by :func:`faircode.models.build_model`; default :data:`DEFAULT_MODELS`.
    seeds : int, default 1
        How many splits. The first is the audit's own split and seed (what the pages use); seed ``k`` re-splits
        the rows with the same stratified recipe at ``random_state + k`` and seeds the models with it too.
        Several seeds show how far a result moves from split to split. At most ``MAX_SEEDS``.
    n_jobs : int or None, default -1
        joblib workers (-1: all cores, or every core of the Dask cluster inside
        :func:`faircode.benchmark._distributed.dask_cluster`). ``None`` takes the count from an enclosing
        ``joblib.parallel_config``.
    n_boot : int, default 1000
        Bootstrap resamples of the test rows for each gap's 95% interval.
    targets : dict, optional
        Audit name -> :class:`Target` (or ``(attribute, constraint)``) for S3, S4 and reweighing; overrides
        the target in the audit's manifest (``[target]`` in ``audit.toml``, see :func:`manifest_target`).
    threshold_fraction : float, default 0.5
        S4: share of the training rows held back from the base model to fit the thresholds on.
    progress : callable, optional
        Called as ``progress(done, total, cell, seconds)`` after each cell, in grid order.
    root : path, optional
        Folder of audit folders, passed to ``load_audit``.

    Each cell's result rows go to the fit cache (``faircode.benchmark._fitcache``, ``.cache/fits/``), keyed by
    everything that decides them (:func:`cell_key`); a cell already there is read instead of fitted, and returns
    the same rows. ``FAIRCODE_FIT_CACHE=off`` computes every cell.

    Returns
    -------
    pandas.DataFrame
        One row per audit x strategy x model x seed x protected attribute, in grid order. Gap columns
        ``<gap>_gap``, ``<gap>_lo``, ``<gap>_hi`` for gap in parity, tpr, fpr, precision; ``group`` (the group
        the attribute's mask names), ``target`` (``attribute: constraint`` for S3, S4 and reweighing, empty for
        the feature strategies), ``n_boot`` and ``threshold_fraction``, so that a CSV of it keeps its meaning
        (``format_results`` reads only columns). ``attrs["audits"]`` repeats, per audit, the groups each mask
        names and the :class:`Target`, as a convenience.
    """
    strategies_given = strategies is not None
    audits, strategies, models = check_grid(audits, strategies, models, seeds=seeds, root=root, n_jobs=n_jobs,
                                            n_boot=n_boot)
    if isinstance(threshold_fraction, bool) or not isinstance(threshold_fraction, (int, float)) \
            or not 0 < threshold_fraction < 1:
        raise ValueError(f"threshold_fraction must be a share strictly between 0 and 1 of the training rows; got "
                         f"{threshold_fraction!r}")
    targets = dict(targets or {})

    jobs, cells, keys, info = [], [], [], {}
    for audit in audits:
        loaded = {s: load_audit(audit, s, root=root) for s in FEATURE_STRATEGIES}
        data = loaded["S2"]
        target = _target_for(data, targets)
        capacity = data.manifest.capacity
        audit_strategies = strategies
        if capacity is not None and "S3" in strategies:
            if strategies_given:
                raise ValueError(f"audit {data.name!r} decides at a fixed capacity ({capacity:g} of the people "
                                 "ranked highest); S3 (ExponentiatedGradient) gives decisions from a randomised "
                                 "mixture, not a score to rank, so it cannot be run there; leave S3 out for it")
            audit_strategies = [s for s in strategies if s != "S3"]
        y = data.y.to_numpy()
        # A mask with unknown rows as floats with NaN (the rest as they are), so that "unknown" survives indexing.
        masks = {attr: mask.to_numpy(dtype=float, na_value=np.nan) if mask.isna().any() else mask.to_numpy()
                 for attr, mask in data.masks.items()}
        splits = [(data.idx_train, data.idx_test)]
        splits += [stratified_split(y, test_size=data.manifest.test_size, random_state=data.random_state + k)
                   for k in range(1, seeds)]
        # A mitigation needs each training row's group and is judged on rows whose group is known: rows whose
        # target group is unknown are left out of every strategy's training and test rows (the same rows for all).
        known = data.masks[target.attribute].notna().to_numpy()
        if not known.all():
            splits = [(train[known[train]], test[known[test]]) for train, test in splits]
        # Plain arrays so that joblib memory-maps them once for its workers instead of pickling per cell.
        arrays = {s: loaded[s].X.to_numpy(dtype=float) for s in FEATURE_STRATEGIES}
        info[data.name] = {"groups": data.groups, "target": target,
                           "seeds": [data.random_state + k for k in range(seeds)], "capacity": capacity,
                           "strategies": list(audit_strategies), "unknown_target_rows": int((~known).sum())}
        # What decides every cell of this audit besides its own choices: the data (its verified checksum), the
        # manifest (groups, masks, split size) and the sample of its rows the audit was loaded with.
        audit_key = {"audit": data.name, "sample": data.sample, "data_sha256": data.manifest.data_sha256,
                     "manifest_sha256": hashlib.sha256((data.manifest.folder / MANIFEST).read_bytes()).hexdigest()}
        for k, (train, test) in enumerate(splits):
            rows = {"train": _fitcache.rows_digest(train), "test": _fitcache.rows_digest(test)}
            for strategy in audit_strategies:
                features = strategy if strategy in FEATURE_STRATEGIES else "S2"
                X = arrays[features]
                for model in models:
                    cell = _Cell(data.name, strategy, model, data.random_state + k, target, capacity)
                    cells.append(cell)
                    keys.append(cell_key(cell, list(loaded[features].X.columns), rows, audit_key,
                                         n_boot=n_boot, threshold_fraction=threshold_fraction))
                    jobs.append(joblib.delayed(_fit_and_measure)(
                        cell, X, y, masks, train, test,
                        n_boot=n_boot, threshold_fraction=threshold_fraction))

    # Start the costly cells first (S3 refits its model up to EG_MAX_ITER times; a forest under S3 on Benefits
    # Denial takes longer than all other cells together), so that the other workers fill in around them. The
    # rows are put back in grid order below, so the order of execution never shows in the results.
    order = sorted(range(len(cells)), key=lambda i: (cells[i].strategy != "S3", cells[i].model == "logistic_regression",
                                                     i))
    per_cell = [None] * len(cells)
    done = 0

    def record(i, value, seconds):
        nonlocal done
        per_cell[i] = value
        done += 1
        if progress is not None:
            progress(done, len(cells), cells[i], seconds)

    cache = _fitcache.open_cache()
    if cache is None:
        _compute(jobs, order, n_jobs, keys, record)
    else:
        _through_cache(cache, jobs, order, n_jobs, keys, record)
    table = pd.DataFrame([row for cell_rows in per_cell for row in cell_rows])
    # What the table means travels in its columns (a CSV keeps them): the group each mask names, the run's
    # resampling and S4 settings. attrs repeats the per-audit facts as objects, for convenience only.
    table.insert(table.columns.get_loc("attribute") + 1, "group",
                 [info[audit]["groups"][attribute] for audit, attribute in zip(table["audit"], table["attribute"])])
    table["n_boot"] = n_boot
    table["threshold_fraction"] = threshold_fraction
    table.attrs["audits"] = info
    return table


def cell_key(cell, features, rows, audit_key, *, n_boot, threshold_fraction) -> str:
    """The fit cache's key of one cell: everything that decides its result rows.

    The audit's data checksum and manifest (``audit_key``), the feature columns, the training and test rows
    (digests of ``rows``), the strategy and target, the estimator's class and parameters (as
    :func:`~faircode.models.build_model` makes it for the cell's seed), the seed, the bootstrap and threshold
    settings; :func:`faircode.benchmark._fitcache.fit_key` adds faircode's source and the pinned library versions.
    """
    return _fitcache.fit_key(
        kind="benchmark cell", **audit_key, features=list(features), **rows, strategy=cell.strategy,
        target=[cell.target.attribute, cell.target.constraint],
        estimator=_fitcache.estimator_spec(build_model(cell.model, cell.seed)), seed=cell.seed,
        n_boot=n_boot, threshold_fraction=threshold_fraction,
        # Only where there is one, so that the keys of audits decided at the 0.5 threshold stay as they were.
        **({"capacity": cell.capacity} if cell.capacity is not None else {}))


def _compute(jobs, indices, n_jobs, keys, record, cache=None):
    """Run ``jobs[i]`` for ``i`` in ``indices`` through joblib; each result goes to ``record`` as it arrives
    (and into ``cache`` when one is given); the keys computed are logged (``FAIRCODE_FIT_LOG``)."""
    if not indices:
        return
    results = joblib.Parallel(n_jobs=n_jobs, return_as="generator")(jobs[i] for i in indices)
    for i, (cell_rows, seconds) in zip(indices, results):
        if cache is not None:
            cache.put(keys[i], (cell_rows, seconds))
        _fitcache.log("computed", keys[i])
        record(i, cell_rows, seconds)


def _through_cache(cache, jobs, order, n_jobs, keys, record):
    """Read every stored cell; compute the others, each under its key's lock, and store them.

    A cell whose lock another process holds (a page computing the same fit right now) is left for last: once
    this run's own cells are done and their locks released, it waits for that lock and reads what the other
    process stored (computing it only if that process failed). Waiting with no lock held cannot deadlock.
    """
    later = []
    with contextlib.ExitStack() as held:
        todo = []
        for i in order:
            hit, value = cache.get(keys[i])
            if not hit:
                if not held.enter_context(cache.lock(keys[i], wait=False)):
                    later.append(i)
                    continue
                hit, value = cache.get(keys[i])  # stored by another process between the two looks
            if hit:
                _fitcache.log("read", keys[i])
                record(i, value[0], 0.0)
            else:
                todo.append(i)
        _compute(jobs, todo, n_jobs, keys, record, cache)
    for i in later:
        with cache.lock(keys[i]):
            hit, value = cache.get(keys[i])
            if hit:
                _fitcache.log("read", keys[i])
                record(i, value[0], 0.0)
            else:
                _compute(jobs, [i], n_jobs, keys, record, cache)


def print_progress(done, total, cell, seconds, stream=None):
    """Default progress line: ``[ 3/24] German Credit Lending | S3 | logistic_regression | seed 42 | 1.2 s``."""
    stream = stream or sys.stderr
    width = len(str(total))
    print(f"[{done:{width}d}/{total}] {cell.audit} | {cell.strategy} | {cell.model} | seed {cell.seed} | "
          f"{seconds:.1f} s", file=stream, flush=True)
