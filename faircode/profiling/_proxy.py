"""How well one column alone tells each group from the rest: a cross-fitted AUC, Cramér's V and a chi-squared test.

The AUC is the chance that a row of the group scores above a row of the rest (ties count a half) when the column
alone is the score: 0.5 is no signal, 1 (or 0) separation. A score learnt from the data overstates what it
would do on new rows, so the rows are split once, at random, into two halves; the score is fitted on one half and
the AUC read on the other, both ways round, and the two AUCs averaged (cross-fitting). Under no association its
expectation is 0.5 whatever the number of categories.

- A categorical column (text; missing values are a category of their own) scores a row by its category's share of
  the group in the fitting half, smoothed by one row at the group's share there (a category not seen in the
  fitting half gets the group's share): a category seen once cannot score 0 or 1.
- A numeric column scores a row by its rank; the fitting half chooses the direction (higher or lower values for
  the group) and where missing values rank (below or above every value), so a column whose missingness marks the
  group counts as a proxy. Cost: one sort per half, then counts.

The test is Pearson's chi-squared test of independence between the column's categories (a numeric column cut at
its deciles by rank, missing values a category) and membership of the group, on all rows, with categories whose expected
count is under 5 pooled (rare categories make the chi-squared approximation too liberal). Cramér's V on the same
table, with Bergsma's (2013) bias correction, which removes most of the upward bias that many categories give the
plain V: 0 is no association. The p-values of all (column, group) pairs go through Holm's correction together.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import chi2 as chi2_distribution

DECILES = 10
MIN_EXPECTED = 5.0


@dataclass
class Encoded:
    """One column as the proxy measures read it."""

    name: str
    kind: str  # "numeric" or "categorical"
    categories: np.ndarray  # int codes 0..n_categories-1 of the test's table (deciles or values; missing last)
    n_categories: int
    present: np.ndarray | None = None  # numeric: bool, the value is not missing
    ranks: np.ndarray | None = None  # numeric: mid-rank of the value within its half (NaN where missing)


def halves(n: int, random_state: int) -> np.ndarray:
    """True for the rows of the first half: a seeded random half of the rows (the same seed, the same halves)."""
    first = np.zeros(n, bool)
    first[np.random.default_rng(random_state).permutation(n)[: n // 2]] = True
    return first


def _midranks(values: np.ndarray):
    """A function of a mask over ``values`` giving the mid-ranks of the values it selects among themselves (ties
    share the mean of their ranks, as ``scipy.stats.rankdata``), all from one sort of ``values``."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts = np.empty(len(ordered), bool)
    starts[:1] = True
    starts[1:] = ordered[1:] != ordered[:-1]
    tie = np.empty(len(values), np.int64)
    tie[order] = np.cumsum(starts) - 1
    n_ties = int(tie.max()) + 1

    def midranks(mask: np.ndarray) -> np.ndarray:
        chosen = tie[mask]
        counts = np.bincount(chosen, minlength=n_ties)
        return (np.cumsum(counts) - counts + (counts + 1) / 2)[chosen]

    return midranks


def encode(name: str, values: pd.Series, missing: np.ndarray, first: np.ndarray) -> Encoded:
    """A column's categories for the test and, for a numeric column (a DataFrame's datetimes included), its ranks
    within each half."""
    if pd.api.types.is_datetime64_any_dtype(values):
        values = (values - values.min()).dt.total_seconds()
    if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
        x = values.to_numpy(float, na_value=np.nan)
        present = ~missing & np.isfinite(x)
        bins = np.full(len(x), -1, np.int64)
        ranks = np.full(len(x), np.nan)
        n_bins = 0
        if present.any():
            midranks = _midranks(x[present])
            # deciles by mid-rank, so that tied values share a bin and a value held by most rows (a 0 in 92% of
            # them) still leaves the others their own bins; then only the bins used, numbered 0..n_bins-1
            whole = midranks(np.ones(present.sum(), bool))
            used, bins[present] = np.unique(np.minimum(((whole - 0.5) * DECILES / present.sum()).astype(np.int64),
                                                       DECILES - 1), return_inverse=True)
            n_bins = len(used)
            for half in (first, ~first):
                ranks[half & present] = midranks(half[present])
        bins[~present] = n_bins
        return Encoded(name, "numeric", bins, n_bins + 1, present, ranks)
    codes, uniques = pd.factorize(values.to_numpy(), use_na_sentinel=True)
    codes = codes.astype(np.int64)
    codes[missing | (codes < 0)] = len(uniques)
    return Encoded(name, "categorical", codes, len(uniques) + 1)


def _ranked_auc(score, pos, neg) -> float:
    """AUC of a score that takes one value per category, from the positives and negatives in each category."""
    total = pos.sum() * neg.sum()
    if total == 0:
        return np.nan
    _, level = np.unique(score, return_inverse=True)
    p = np.bincount(level, weights=pos)
    q = np.bincount(level, weights=neg)
    below = np.cumsum(q) - q
    return float((p * (below + 0.5 * q)).sum() / total)


def _categorical_auc(enc: Encoded, groups: np.ndarray, n_groups: int, first: np.ndarray) -> np.ndarray:
    """Cross-fitted AUC of every group (one against the rest): shape (2, n_groups), one row per evaluated half."""
    tables = [np.bincount(enc.categories[h] * n_groups + groups[h], minlength=enc.n_categories * n_groups)
              .reshape(enc.n_categories, n_groups).astype(float) for h in (first, ~first)]
    out = np.full((2, n_groups), np.nan)
    for e, (fit, ev) in enumerate(((tables[1], tables[0]), (tables[0], tables[1]))):
        fit_rows, ev_rows = fit.sum(axis=1), ev.sum(axis=1)
        for j in range(n_groups):
            prior = fit[:, j].sum() / max(fit.sum(), 1.0)
            score = (fit[:, j] + prior) / (fit_rows + 1.0)
            out[e, j] = _ranked_auc(score, ev[:, j], ev_rows - ev[:, j])
    return out


def _numeric_options(enc: Encoded, groups: np.ndarray, n_groups: int, half: np.ndarray):
    """AUC in one half of every group under the four readings of a numeric column: (higher, missing lowest),
    (higher, missing highest), (lower, missing lowest), (lower, missing highest), shape (4, n_groups); and the
    Mann-Whitney U of the group's present values less its value under no association (> 0: the group's are
    higher)."""
    shown = half & enc.present
    gone = half & ~enc.present
    n1 = np.bincount(groups[shown], minlength=n_groups).astype(float)
    n0 = shown.sum() - n1
    rank_sum = np.bincount(groups[shown], weights=enc.ranks[shown], minlength=n_groups)
    p0 = np.bincount(groups[gone], minlength=n_groups).astype(float)
    q0 = gone.sum() - p0
    pairs = n1 * n0
    with np.errstate(invalid="ignore", divide="ignore"):
        wins = np.where(pairs > 0, rank_sum - n1 * (n1 + 1) / 2, 0.0)  # Mann-Whitney U of the present values
        total = (n1 + p0) * (n0 + q0)
        ties = 0.5 * p0 * q0
        options = np.array([(wins + n1 * q0 + ties) / total, (wins + p0 * n0 + ties) / total,
                            (pairs - wins + n1 * q0 + ties) / total, (pairs - wins + p0 * n0 + ties) / total])
    options[:, total == 0] = np.nan
    return options, wins - pairs / 2


def _numeric_auc(enc: Encoded, groups: np.ndarray, n_groups: int, first: np.ndarray):
    a, excess_a = _numeric_options(enc, groups, n_groups, first)
    b, excess_b = _numeric_options(enc, groups, n_groups, ~first)
    cols = np.arange(n_groups)
    pick_a = np.argmax(np.nan_to_num(a, nan=-1.0), axis=0)  # the first best reading on ties: a fixed order
    pick_b = np.argmax(np.nan_to_num(b, nan=-1.0), axis=0)
    excess = excess_a + excess_b
    direction = np.where(excess > 0, "higher", np.where(excess < 0, "lower", None))
    return np.array([a[pick_b, cols], b[pick_a, cols]]), direction


def chi2_test(pos: np.ndarray, neg: np.ndarray) -> dict:
    """Pearson's chi-squared test of a 2 x k table (group, rest) x category, rare categories pooled, and the
    bias-corrected Cramér's V of the table tested."""
    keep = (pos + neg) > 0
    pos, neg = pos[keep].astype(float), neg[keep].astype(float)
    n_pos, n_neg = pos.sum(), neg.sum()
    total = n_pos + n_neg
    result = {"categories": int(len(pos)), "categories_tested": 0, "chi2": np.nan, "df": 0, "p_value": np.nan,
              "cramers_v": np.nan}
    if n_pos == 0 or n_neg == 0 or len(pos) < 2:
        return result
    rows = pos + neg
    rare = rows * min(n_pos, n_neg) / total < MIN_EXPECTED
    if rare.any():
        pooled_pos, pooled_neg = pos[rare].sum(), neg[rare].sum()
        pos, neg, rows = pos[~rare], neg[~rare], rows[~rare]
        if len(rows) and (pooled_pos + pooled_neg) * min(n_pos, n_neg) / total < MIN_EXPECTED:
            big = int(np.argmax(rows))  # too few even pooled: into the largest category
            pos[big] += pooled_pos
            neg[big] += pooled_neg
        else:
            pos, neg = np.append(pos, pooled_pos), np.append(neg, pooled_neg)
        rows = pos + neg
    k = len(rows)
    result["categories_tested"] = int(k)
    if k < 2:
        return result
    e_pos, e_neg = rows * n_pos / total, rows * n_neg / total
    stat = float((((pos - e_pos) ** 2) / e_pos).sum() + (((neg - e_neg) ** 2) / e_neg).sum())
    phi2 = stat / total
    phi2_corrected = max(0.0, phi2 - (k - 1) / (total - 1))
    k_corrected = k - (k - 1) ** 2 / (total - 1)
    r_corrected = 2 - 1 / (total - 1)
    denominator = min(k_corrected - 1, r_corrected - 1)
    result.update(chi2=stat, df=k - 1, p_value=float(chi2_distribution.sf(stat, k - 1)),
                  cramers_v=float(np.sqrt(phi2_corrected / denominator)) if denominator > 0 else np.nan)
    return result


def proxy_rows(enc: Encoded, column: str, groups: np.ndarray, index: pd.Index, first: np.ndarray) -> list[dict]:
    """One row per group of ``column``: the cross-fitted AUC of ``enc`` alone for that group, and the test."""
    n_groups = len(index)
    if enc.kind == "numeric":
        halves_auc, direction = _numeric_auc(enc, groups, n_groups, first)
    else:
        halves_auc, direction = _categorical_auc(enc, groups, n_groups, first), [None] * n_groups
    table = np.bincount(enc.categories * n_groups + groups, minlength=enc.n_categories * n_groups).reshape(
        enc.n_categories, n_groups)
    rows = []
    for j, group in enumerate(index):
        pos = table[:, j]
        test = chi2_test(pos, table.sum(axis=1) - pos)
        pair = halves_auc[:, j]
        rows.append({"variable": enc.name, "kind": enc.kind, "column": column, "group": str(group),
                     "count": int(pos.sum()), "direction": direction[j],
                     "auc": float(np.nanmean(pair)) if not np.isnan(pair).all() else np.nan,
                     "auc_half_1": float(pair[0]), "auc_half_2": float(pair[1]), **test})
    return rows
