"""Vectorised bootstrap of per-cell confusion sums.

fairlearn's MetricFrame resamples the data frame and recomputes every metric once per resample, which takes
minutes for 1,000 resamples. Every rate here is a ratio of weighted sums over rows, and rows that share their
cell, label, prediction and weight are interchangeable, so a resample is fully described by how many times it
draws each such *category*. Drawing n rows with replacement gives multinomial category counts, so we draw those
counts directly (``Generator.multinomial``) and turn them into sums with one matrix product. The result has
exactly the distribution of resampling row indices, at a cost that grows with the number of categories (a few per
cell without weights) instead of the number of rows. With nearly one category per row (distinct sample weights)
that saves nothing, so there the row indices are drawn and counted instead, with the same distribution. Either
way the resamples are drawn in blocks of at most 64 MiB.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from faircode.metrics._definitions import KINDS

# Columns of the per-cell sums: the weight of each kind of row (TN, FP, FN, TP), twice. W_* use the sample
# weights as given. L_* divide each weight by the largest weight among the cell's rows with the same label, so
# that rates conditional on the label (TPR, FPR, FNR, TNR) are computed from exact integer counts whenever a
# cell's weights are constant within a label: reweighting a group's classes (label shift) then leaves those
# rates unchanged to the last digit.
SCALES = ("W", "L")
SUMS = tuple(f"{scale}_{kind}" for scale in SCALES for kind in KINDS)

# Upper bound on the size of one block of multinomial draws, to keep memory flat for large n_boot.
_BLOCK_BYTES = 64 * 2**20
# Above this many categories per row drawn, counting drawn row indices beats numpy's multinomial.
_MULTINOMIAL_MAX_CATEGORIES = 0.05


@dataclass(frozen=True)
class Categories:
    """Distinct (cell, label, prediction, weight) combinations, sorted by cell."""

    cell: np.ndarray  # cell of each category
    count: np.ndarray  # number of rows in each category
    values: np.ndarray  # (K, len(SUMS)) contribution of one row of the category to its cell's sums
    bounds: np.ndarray  # categories of cell g are bounds[g]:bounds[g + 1]
    n_cells: int
    kind: np.ndarray  # 2 * label + prediction of each category: 0 TN, 1 FP, 2 FN, 3 TP
    weight: np.ndarray  # the weight of each of the category's rows (1 without weights)
    values_total: np.ndarray  # (K, len(SUMS)) contribution of one row to the sums over all rows together


def _contributions(cat_w, kind, scale):
    """What one row of each category adds to the sums: its weight in its kind's W_* column and its weight
    divided by ``scale`` in its kind's L_* column."""
    one_hot = np.arange(len(KINDS)) == kind[:, None]
    return np.hstack([one_hot * cat_w[:, None], one_hot * (cat_w / scale)[:, None]])


def categorize(codes: np.ndarray, y: np.ndarray, y_pred: np.ndarray, w: np.ndarray | None, n_cells: int):
    """Group rows into categories and compute what one row of each contributes to its cell's sums."""
    key = codes.astype(np.int64) * 4 + y.astype(np.int64) * 2 + y_pred.astype(np.int64)
    if w is None:
        uniq, count = np.unique(key, return_counts=True)
        cat_w = np.ones(len(uniq))
    else:
        keep = w > 0
        pairs, count = np.unique(np.column_stack([key[keep], w[keep]]), axis=0, return_counts=True)
        uniq, cat_w = pairs[:, 0].astype(np.int64), pairs[:, 1]
    cell, label, pred = uniq // 4, (uniq // 2) % 2, uniq % 2
    # Largest weight per (cell, label), the scale of the L_* sums.
    scale = np.zeros(n_cells * 2)
    np.maximum.at(scale, cell * 2 + label, cat_w)
    # The sums over all rows together (the overall row) need the largest weight per label over all cells.
    scale_total = np.zeros(2)
    np.maximum.at(scale_total, label, cat_w)
    bounds = np.searchsorted(cell, np.arange(n_cells + 1))
    kind = label * 2 + pred
    return Categories(cell=cell, count=count, values=_contributions(cat_w, kind, scale[cell * 2 + label]),
                      bounds=bounds, n_cells=n_cells, kind=kind, weight=cat_w,
                      values_total=_contributions(cat_w, kind, scale_total[label]))


def point_sums(cats: Categories, total: bool = False) -> np.ndarray:
    """Per-cell sums on the data as observed, shape (n_cells, len(SUMS)); with ``total``, one more row last:
    the sums over all rows."""
    sums = np.zeros((cats.n_cells + int(total), len(SUMS)))
    np.add.at(sums, cats.cell, cats.count[:, None] * cats.values)
    if total:
        sums[-1] = cats.count @ cats.values_total
    return sums


def kind_totals(cats: Categories) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per cell and kind (TN, FP, FN, TP): rows, sum of weights, sum of squared weights; each (n_cells, 4)."""
    at = cats.cell * 4 + cats.kind
    size = cats.n_cells * 4
    out = [np.bincount(at, weights=cats.count * cats.weight ** p, minlength=size).reshape(cats.n_cells, 4)
           for p in (0, 1, 2)]
    return out[0].round().astype(np.int64), out[1], out[2]


def _draw(rng: np.random.Generator, n: int, count: np.ndarray, n_boot: int):
    """Yield blocks of category counts for n draws with replacement, n_boot resamples in all."""
    k = len(count)
    if k <= _MULTINOMIAL_MAX_CATEGORIES * n:
        block = max(1, min(n_boot, _BLOCK_BYTES // (8 * k)))
        pvals = count / count.sum()
        for start in range(0, n_boot, block):
            yield start, rng.multinomial(n, pvals, size=min(block, n_boot - start))
        return
    # Nearly one category per row (e.g. distinct weights): numpy's multinomial costs a binomial draw per
    # category, so drawing row indices and counting them is cheaper; the counts have the same distribution.
    row_category = np.repeat(np.arange(k), count)
    block = max(1, min(n_boot, _BLOCK_BYTES // (8 * max(k, n))))
    for start in range(0, n_boot, block):
        size = min(block, n_boot - start)
        rows = row_category[rng.integers(0, n, size=(size, n))]
        rows += (np.arange(size) * k)[:, None]
        yield start, np.bincount(rows.ravel(), minlength=size * k).reshape(size, k)


def bootstrap_sums(cats: Categories, n_boot: int, rng: np.random.Generator, stratify: bool,
                   total: bool = False) -> np.ndarray:
    """Per-cell sums for each of ``n_boot`` resamples, shape (n_boot, n_cells, len(SUMS)).

    Without ``stratify`` every resample draws as many rows as the data has from all rows (cells vary in size,
    as in fairlearn's MetricFrame); with it, each cell draws its own number of rows from its own rows. With
    ``total``, one more cell last holds the sums over all rows of the same resamples (the cells' draws are the
    same with or without it).
    """
    out = np.zeros((n_boot, cats.n_cells + int(total), len(SUMS)))
    b = cats.bounds
    if stratify:
        for g in range(cats.n_cells):
            count = cats.count[b[g]:b[g + 1]]
            if count.sum() == 0:
                continue
            for start, draws in _draw(rng, int(count.sum()), count, n_boot):
                out[start:start + len(draws), g] = draws @ cats.values[b[g]:b[g + 1]]
                if total:
                    out[start:start + len(draws), -1] += draws @ cats.values_total[b[g]:b[g + 1]]
        return out
    for start, draws in _draw(rng, int(cats.count.sum()), cats.count, n_boot):
        for g in range(cats.n_cells):
            out[start:start + len(draws), g] = draws[:, b[g]:b[g + 1]] @ cats.values[b[g]:b[g + 1]]
        if total:
            out[start:start + len(draws), -1] = draws @ cats.values_total
    return out


def percentile_interval(samples: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval along axis 0, ignoring NaN resamples (numpy's default 'linear' quantile rule); NaN
    where every resample is NaN (a rate undefined in all of them).

    The same numbers as ``np.nanquantile(samples, [alpha, 1 - alpha], axis=0)`` (tested), written out because
    nanquantile loops over the columns in Python as soon as one resample is NaN, which made every interval
    call four times slower (200 calls on 1,000 x 8 x 4 resamples with 1% NaN: 2.4 s against 0.6 s), and warns
    on an all-NaN column.
    """
    ordered = np.sort(samples, axis=0)  # NaN sorts last
    valid = (~np.isnan(samples)).sum(axis=0)
    alpha = (1.0 - confidence) / 2.0
    ends = []
    for q in (alpha, 1.0 - alpha):
        pos = q * np.maximum(valid - 1, 0)
        low = np.floor(pos).astype(np.int64)
        high = np.minimum(low + 1, np.maximum(valid - 1, 0))
        frac = pos - low
        lo_val = np.take_along_axis(ordered, low[None], axis=0)[0]
        hi_val = np.take_along_axis(ordered, high[None], axis=0)[0]
        value = lo_val + frac * (hi_val - lo_val)
        ends.append(np.where(valid > 0, value, np.nan))
    return ends[0], ends[1]


def make_rng(random_state) -> np.random.Generator:
    """A numpy Generator from an int seed or a Generator; anything else is an error."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool):
        return np.random.default_rng(int(random_state))
    raise ValueError(
        f"random_state must be an int seed or a numpy.random.Generator; got {type(random_state).__name__}"
    )
