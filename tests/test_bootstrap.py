"""Bootstrap intervals: agreement with fairlearn within Monte Carlo error, coverage, determinism."""
import warnings

import numpy as np
import pandas as pd
import pytest
from fairlearn.metrics import MetricFrame, selection_rate, true_positive_rate

from faircode.metrics import _bootstrap
from faircode.metrics._bootstrap import SUMS, bootstrap_sums, categorize, percentile_interval
from faircode.metrics._inputs import encode_groups
from faircode.metrics import disaggregate, gaps_between_groups, gaps_to_reference, group_rates

QUANTILES = (0.05, 0.95)


def _sample(rng, n, share_a=0.4, base=(0.3, 0.4), tpr=(0.7, 0.8), fpr=(0.2, 0.1)):
    """Rows of two groups with known base rates, TPRs and FPRs."""
    group = np.where(rng.random(n) < share_a, "a", "b")
    k = (group == "b").astype(int)
    y = (rng.random(n) < np.take(base, k)).astype(int)
    y_pred = (rng.random(n) < np.where(y == 1, np.take(tpr, k), np.take(fpr, k))).astype(int)
    return y, y_pred, group


def _weight(sums):
    """The total weight (rows, without weights) behind sums (..., len(SUMS)): its W_* columns added up."""
    return sums[..., [i for i, name in enumerate(SUMS) if name.startswith("W_")]].sum(axis=-1)


def _quantile_se(ours_big, q, n_boot):
    """Monte Carlo standard error of a bootstrap quantile from n_boot resamples: sqrt(q(1-q)/B) / density,
    with 1/density estimated as the slope of the quantile function of a large bootstrap."""
    h = 0.02
    lo, hi = np.nanquantile(ours_big, [q - h, q + h], axis=0)
    return np.sqrt(q * (1 - q) / n_boot) * (hi - lo) / (2 * h)


def test_intervals_agree_with_fairlearn_within_monte_carlo_error():
    y, y_pred, group = _sample(np.random.default_rng(3), 600)
    n_fl, n_big = 100, 5_000
    frame = MetricFrame(metrics={"selection_rate": selection_rate, "tpr": true_positive_rate}, y_true=y,
                        y_pred=y_pred, sensitive_features=group, n_boot=n_fl, ci_quantiles=list(QUANTILES),
                        random_state=11)
    args = dict(sensitive_features=group, metrics=["selection_rate", "tpr"], min_count=0)
    rates = group_rates(y, y_pred, n_boot=n_big, confidence=0.9, random_state=5, **args)
    spread = gaps_between_groups(y, y_pred, n_boot=n_big, confidence=0.9, random_state=5, **args)
    # The replicates behind our intervals, to estimate each quantile's Monte Carlo error.
    codes = encode_groups(group, len(y)).codes
    cats = categorize(codes, y, y_pred, None, 2)
    sums = bootstrap_sums(cats, n_big, np.random.default_rng(5), stratify=False)
    from faircode.metrics._rates import rates_from_sums
    reps = rates_from_sums(sums, ["selection_rate", "tpr"])  # (B, cell, metric)
    spread_reps = reps.max(axis=1) - reps.min(axis=1)
    for i, (q, column) in enumerate(zip(QUANTILES, ("lower", "upper"))):
        theirs = frame.by_group_ci[i]
        ours = rates[column].unstack("metric").loc[theirs.index, theirs.columns]
        se = np.sqrt(_quantile_se(reps, q, n_fl) ** 2 + _quantile_se(reps, q, n_big) ** 2)
        # 4 standard errors, plus one step of the rate's lattice (1/count) for the discreteness of small counts.
        step = 1 / rates["count"].unstack("metric").loc[theirs.index, theirs.columns].to_numpy()
        assert np.all(np.abs(ours.to_numpy() - theirs.to_numpy()) <= 4 * se + step)
        their_gap = frame.difference_ci()[i]
        se_gap = np.sqrt(_quantile_se(spread_reps, q, n_fl) ** 2 + _quantile_se(spread_reps, q, n_big) ** 2)
        ours_gap = spread.loc[list(their_gap.index), f"difference_{column}"].to_numpy()
        assert np.all(np.abs(ours_gap - their_gap.to_numpy()) <= 4 * se_gap + step.max(axis=0))


@pytest.mark.parametrize("stratify", [False, True])
def test_intervals_cover_the_truth_at_the_nominal_rate(stratify):
    """90% intervals on rates and on a gap, over many simulated data sets, cover the true value about 90% of
    the time: within 3 binomial standard deviations of the nominal rate."""
    rng = np.random.default_rng(2024)
    n_sims, confidence = 300, 0.9
    base, tpr, fpr, share_a = (0.3, 0.4), (0.7, 0.8), (0.2, 0.1), 0.4
    truth = {
        ("a", "tpr"): tpr[0], ("b", "tpr"): tpr[1], ("a", "fpr"): fpr[0],
        ("a", "selection_rate"): base[0] * tpr[0] + (1 - base[0]) * fpr[0],
    }
    true_gap = tpr[0] - tpr[1]
    hits = {key: 0 for key in truth} | {"gap": 0}
    for _ in range(n_sims):
        y, y_pred, group = _sample(rng, 800, share_a, base, tpr, fpr)
        seed = int(rng.integers(2**31))
        # Rates and gaps from one bootstrap (disaggregate gives the tables group_rates and gaps_to_reference
        # would, from the same resamples), so each simulated data set is resampled once.
        result = disaggregate(y, y_pred, sensitive_features=group, reference="b",
                              metrics=["selection_rate", "tpr", "fpr"], n_boot=250, confidence=confidence,
                              stratify=stratify, random_state=seed)
        rates = result.rates
        for key, value in truth.items():
            hits[key] += rates.loc[key, "lower"] <= value <= rates.loc[key, "upper"]
        gap = result.gaps.loc[("a", "tpr")]
        hits["gap"] += gap["difference_lower"] <= true_gap <= gap["difference_upper"]
    tolerance = 3 * np.sqrt(confidence * (1 - confidence) / n_sims)
    coverage = {key: count / n_sims for key, count in hits.items()}
    assert all(abs(c - confidence) <= tolerance for c in coverage.values()), coverage


def test_stratified_resamples_keep_cell_sizes_and_plain_ones_keep_the_total():
    y, y_pred, group = _sample(np.random.default_rng(0), 500)
    codes = encode_groups(group, len(y)).codes
    cats = categorize(codes, y, y_pred, None, 2)
    sizes = np.bincount(codes)
    strat = bootstrap_sums(cats, 50, np.random.default_rng(1), stratify=True)
    assert np.all(_weight(strat) == sizes)
    plain = bootstrap_sums(cats, 50, np.random.default_rng(1), stratify=False)
    assert np.all(_weight(plain).sum(axis=1) == len(y))
    assert len(np.unique(_weight(plain[:, 0]))) > 1


def test_same_seed_same_intervals_and_blocking_does_not_change_them(monkeypatch):
    y, y_pred, group = _sample(np.random.default_rng(0), 500)
    w = np.random.default_rng(1).uniform(0.5, 2, len(y))
    args = dict(sensitive_features=group, sample_weight=w, n_boot=64, random_state=9)
    first = group_rates(y, y_pred, **args)
    pd.testing.assert_frame_equal(first, group_rates(y, y_pred, **args))
    monkeypatch.setattr(_bootstrap, "_BLOCK_BYTES", 8 * 500 * 3)  # blocks of 3 resamples
    pd.testing.assert_frame_equal(first, group_rates(y, y_pred, **args))
    other = group_rates(y, y_pred, **(args | {"random_state": 10}))
    assert not np.array_equal(first["lower"], other["lower"])


def test_percentile_interval_matches_numpy_nanquantile():
    rng = np.random.default_rng(4)
    samples = rng.normal(size=(101, 6))
    samples[rng.random(samples.shape) < 0.2] = np.nan
    samples[:, 5] = np.nan
    lower, upper = percentile_interval(samples, 0.9)
    with np.errstate(all="ignore"):
        expected = np.array([np.nanquantile(samples[:, j], [0.05, 0.95]) for j in range(5)])
    np.testing.assert_allclose(lower[:5], expected[:, 0], rtol=1e-12)
    np.testing.assert_allclose(upper[:5], expected[:, 1], rtol=1e-12)
    assert np.isnan(lower[5]) and np.isnan(upper[5])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the all-NaN column gives NaN without a warning
        percentile_interval(samples, 0.9)


def test_bad_random_state():
    with pytest.raises(ValueError, match="random_state must be an int seed or a numpy.random.Generator; got str"):
        group_rates([0, 1], [0, 1], sensitive_features=["a", "b"], n_boot=5, random_state="x")


@pytest.mark.parametrize("share", [1.0, 0.0])
def test_both_resampling_routes_give_multinomial_cell_counts(monkeypatch, share):
    """Drawing category counts (share=1) or row indices (share=0) gives each cell's weighted total the mean
    and variance of resampling rows: mean = total, variance = n * var(row contribution)."""
    monkeypatch.setattr(_bootstrap, "_MULTINOMIAL_MAX_CATEGORIES", share)
    rng = np.random.default_rng(8)
    n, n_boot = 400, 4000
    group = np.where(rng.random(n) < 0.3, "a", "b")
    y, y_pred = rng.integers(0, 2, n), rng.integers(0, 2, n)
    w = rng.choice([0.5, 1.0, 2.5], n)
    codes = encode_groups(group, n).codes
    sums = bootstrap_sums(categorize(codes, y, y_pred, w, 2), n_boot, np.random.default_rng(1), stratify=False)
    contribution = np.where(codes == 0, w, 0.0)  # each row's contribution to cell a's total weight
    mean, var = contribution.sum(), n * contribution.var()
    observed = _weight(sums[:, 0])
    assert abs(observed.mean() - mean) <= 4 * np.sqrt(var / n_boot)
    # The sample variance of B draws has a relative standard error of about sqrt(2 / B).
    assert abs(observed.var() / var - 1) <= 4 * np.sqrt(2 / n_boot)


def _few_event_cells(rng, n_cells, n, p):
    """n_cells independent cells of n negatives each, each row a false positive with probability p."""
    y = np.zeros(n_cells * n, int)
    y_pred = (rng.random(n_cells * n) < p).astype(int)
    return y, y_pred, np.repeat(np.arange(n_cells), n)


def test_few_event_rates_get_at_least_nominal_coverage_where_the_bootstrap_falls_short():
    """FPR of 31 negatives at true rates 0.02-0.1 (0-3 errors a cell): over 1,000 simulated cells per rate, the
    exact interval (the default for these few-event cells) covers at least the nominal 95%, allowing 3 Monte
    Carlo standard errors, while the plain percentile bootstrap (min_events=0) falls far short."""
    rng = np.random.default_rng(11)
    n_cells, n, confidence = 1000, 31, 0.95
    tolerance = 3 * np.sqrt(confidence * (1 - confidence) / n_cells)
    for p in (0.02, 0.05, 0.1):
        y, y_pred, cell = _few_event_cells(rng, n_cells, n, p)
        args = dict(sensitive_features=cell, metrics=["fpr"], confidence=confidence, min_count=0)
        exact = group_rates(y, y_pred, interval="exact", **args)
        covered = ((exact["lower"] <= p) & (p <= exact["upper"])).mean()
        assert covered >= confidence - tolerance, (p, covered)
        boot = group_rates(y, y_pred, n_boot=200, stratify=True, random_state=1, **args)
        few = boot["few_events"].to_numpy()
        assert few.mean() > 0.5 and (boot.loc[few, "interval"] == "exact").all()
        np.testing.assert_array_equal(boot.loc[few, "upper"], exact.loc[few, "upper"])
        plain = group_rates(y, y_pred, n_boot=200, stratify=True, random_state=1, min_events=0, **args)
        plain_covered = ((plain["lower"] <= p) & (p <= plain["upper"])).mean()
        assert plain_covered < confidence - tolerance, (p, plain_covered)


def test_exact_interval_coverage_is_at_least_nominal_for_every_rate():
    """Exact coverage from the binomial probabilities, over a grid of true rates and cell sizes."""
    from scipy.stats import binom

    from faircode.metrics._binomial import clopper_pearson

    for n in (5, 31, 100):
        x = np.arange(n + 1)
        lower, upper = clopper_pearson(x, np.full(n + 1, n), 0.9)
        for p in np.linspace(0.001, 0.999, 199):
            coverage = binom.pmf(x, n, p)[(lower <= p) & (p <= upper)].sum()
            assert coverage >= 0.9 - 1e-12, (n, p, coverage)


def test_stratified_overall_resamples_are_the_cells_added_up():
    y, y_pred, group = _sample(np.random.default_rng(0), 500)
    codes = encode_groups(group, len(y)).codes
    cats = categorize(codes, y, y_pred, None, 2)
    sums = bootstrap_sums(cats, 40, np.random.default_rng(2), stratify=True, total=True)
    np.testing.assert_allclose(sums[:, -1], sums[:, :-1].sum(axis=1), rtol=1e-12)
    assert np.all(_weight(sums[:, -1]) == len(y))
