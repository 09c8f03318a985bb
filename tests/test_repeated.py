"""The two intervals for repeated runs: their coverage by simulation, a direct computation, and their errors.

The simulation is the situation the pages are in: a test set drawn from a population, R runs (seeds) that each
move a model's threshold at random, every run scored on the whole test set and on B bootstrap resamples shared by
all runs. The measure is the true positive rate. Its population value in one run is known in closed form, and so
is its mean over the runs' random draws, so each interval can be checked against the quantity it claims to cover.
"""
import numpy as np
import pytest
from scipy import stats

from faircode.metrics import mean_over_runs, single_run_range

SHIFT = 1.0  # a positive's score is N(1, 1), a negative's N(0, 1)
CUT = 0.6  # the threshold before a run's own shift


def _experiment(rng, *, n, runs, spread, resamples=200, base_rate=0.4):
    """One simulated study: the runs' estimates, their shared-resample values and the runs' shifts."""
    y = rng.random(n) < base_rate
    score = rng.normal(SHIFT * y, 1.0)
    shifts = rng.normal(0.0, spread, runs)
    flagged = score[:, None] > CUT + shifts[None, :]  # (rows, runs)
    hits = (flagged & y[:, None]).astype(float)
    estimates = hits.sum(axis=0) / y.sum()
    draws = rng.integers(n, size=(resamples, n))
    offsets = (np.arange(resamples) * n)[:, None]
    counts = np.bincount((draws + offsets).ravel(), minlength=resamples * n).reshape(resamples, n).astype(float)
    samples = (counts @ hits / (counts @ y)[:, None]).T  # (runs, resamples)
    return estimates, samples, shifts


def _run_value(shift):
    """A run's true positive rate in the population."""
    return stats.norm.sf(CUT + shift - SHIFT)


def _mean_value(spread):
    """The mean of a run's population rate over the runs' random shifts."""
    return stats.norm.sf((CUT - SHIFT) / np.sqrt(1.0 + spread**2))


@pytest.mark.parametrize(
    ("n", "runs", "spread"),
    [
        (600, 10, 0.3),  # both sources matter
        (3000, 10, 0.5),  # the run-to-run spread dominates
        (3000, 4, 0.5),  # ... with few runs: the t quantile must widen the interval
        (400, 10, 0.0),  # every run the same: test rows only
    ],
)
def test_mean_over_runs_covers_the_mean_over_runs(n, runs, spread):
    rng = np.random.default_rng(20261201)
    target = _mean_value(spread)
    covered, studies = 0, 400
    for _ in range(studies):
        estimates, samples, _ = _experiment(rng, n=n, runs=runs, spread=spread)
        _, lower, upper = mean_over_runs(estimates, samples, confidence=0.95)
        covered += lower <= target <= upper
    # 400 studies: a true 95% gives 0.93-0.97 about 95% of the time; the seed is fixed, so the test is repeatable.
    assert 0.925 <= covered / studies <= 0.975, f"covered the mean over runs in {covered} of {studies} studies"


def test_single_run_range_covers_one_new_run_and_is_no_interval_for_the_mean():
    """The pooled range holds a new run's value about 95% of the time, and the mean far more often than 95%."""
    rng = np.random.default_rng(7)
    spread = 0.4
    new_run, pooled_holds_new_run, mean_inside, mean_interval_holds_new_run, studies = 0, 0, 0, 0, 400
    for _ in range(studies):
        estimates, samples, _ = _experiment(rng, n=1500, runs=10, spread=spread)
        _, lower, upper = single_run_range(estimates, samples, confidence=0.95)
        pooled = np.quantile(samples, [0.025, 0.975])  # the old pooled percentile range, for comparison
        fresh = _run_value(rng.normal(0.0, spread))  # a new seed's model, measured on the whole population
        new_run += lower <= fresh <= upper
        pooled_holds_new_run += pooled[0] <= fresh <= pooled[1]
        mean_inside += lower <= _mean_value(spread) <= upper
        _, mean_lower, mean_upper = mean_over_runs(estimates, samples)
        mean_interval_holds_new_run += mean_lower <= fresh <= mean_upper
    assert 0.925 <= new_run / studies <= 0.975, f"held a new run's value in {new_run} of {studies} studies"
    assert mean_inside == studies  # as an interval for the mean it is far too wide: it answers another question
    assert mean_interval_holds_new_run / studies < 0.7  # and the mean's interval says little about one run
    # The percentile range of the runs' resamples pooled spans little more than the ten runs' own extremes.
    assert pooled_holds_new_run / studies < 0.9, f"pooled range held a new run in {pooled_holds_new_run}"


def _four_runs():
    """Four runs' estimates and 150 shared resamples each."""
    rng = np.random.default_rng(5)
    estimates = rng.normal(0.3, 0.05, 4)
    return estimates, [rng.normal(e, 0.02, 150) for e in estimates]


def _welch_half_width(samples, run_part, runs, confidence):
    """Half-width and df of mean +/- t * sqrt(test variance + run part), Welch-Satterthwaite df."""
    test_var = np.var(np.mean(samples, axis=0), ddof=1)
    df = (test_var + run_part) ** 2 / (run_part**2 / (runs - 1))
    return stats.t.ppf((1 + confidence) / 2, df) * np.sqrt(test_var + run_part), df


def test_mean_over_runs_matches_a_direct_computation():
    estimates, samples = _four_runs()
    result = mean_over_runs(estimates, samples, confidence=0.9)
    half, df = _welch_half_width(samples, np.var(estimates, ddof=1) / 4, 4, 0.9)
    assert result.estimate == pytest.approx(np.mean(estimates))
    assert (result.lower, result.upper) == pytest.approx((np.mean(estimates) - half, np.mean(estimates) + half))
    assert result.df == pytest.approx(df)
    estimate, lower, upper = result  # unpacks like every other faircode interval
    assert lower < estimate < upper


def test_mean_over_runs_with_one_run_is_the_test_row_interval():
    samples = np.random.default_rng(1).normal(0.5, 0.1, 4000)
    result = mean_over_runs([0.5], [samples])
    assert result.run_sd == 0 and result.df == float("inf")
    assert result.upper - result.lower == pytest.approx(2 * 1.959964 * np.std(samples, ddof=1), rel=1e-4)


def test_a_resample_undefined_in_any_run_is_left_out_for_every_run():
    samples = [[0.1, 0.2, np.nan, 0.3], [0.2, 0.3, 0.9, 0.4]]
    result = mean_over_runs([0.2, 0.3], samples)
    same = mean_over_runs([0.2, 0.3], [[0.1, 0.2, 0.3], [0.2, 0.3, 0.4]])
    assert result.resamples == 3 and (result.lower, result.upper) == pytest.approx((same.lower, same.upper))


def test_single_run_range_matches_a_direct_computation():
    estimates, samples = _four_runs()
    result = single_run_range(estimates, samples, confidence=0.9)
    half, _ = _welch_half_width(samples, np.var(estimates, ddof=1) * (1 + 1 / 4), 4, 0.9)
    assert result.question == "one run" and mean_over_runs(estimates, samples).question == "mean over runs"
    assert (result.lower, result.upper) == pytest.approx((np.mean(estimates) - half, np.mean(estimates) + half))
    wider = mean_over_runs(estimates, samples, confidence=0.9)
    assert result.upper - result.lower > wider.upper - wider.lower


@pytest.mark.parametrize(
    ("estimates", "samples", "confidence", "message"),
    [
        ([0.1], [[0.1, 0.2]], 1.0, "strictly between 0 and 1"),
        ([0.1], [[0.1, 0.2]], True, "strictly between 0 and 1"),
        ([], [], 0.95, "non-empty sequence"),
        ([0.1, 0.2], [[0.1, 0.2]], 0.95, "2 estimates but 1 sample arrays"),
        ([0.1, 0.2], [[0.1, 0.2], [0.1]], 0.95, "same number of resamples for every run"),
        ([0.1], [[np.nan, np.nan, 0.3]], 0.95, "1 resample"),
        ([np.nan], [[0.1, 0.2]], 0.95, "1 NaN or infinite among 1"),
    ],
)
def test_mean_over_runs_bad_input_says_what_arrived(estimates, samples, confidence, message):
    with pytest.raises(ValueError, match=message):
        mean_over_runs(estimates, samples, confidence=confidence)


def test_single_run_range_needs_two_runs():
    with pytest.raises(ValueError, match="at least 2 runs.*got 1"):
        single_run_range([0.5], [[0.4, 0.5, 0.6]])
