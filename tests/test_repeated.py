"""pooled_interval against a direct computation, and its errors."""
import numpy as np
import pytest

from faircode.metrics import pooled_interval


def test_matches_a_direct_computation():
    rng = np.random.default_rng(5)
    estimates = rng.normal(0.3, 0.05, 4)
    samples = [rng.normal(e, 0.02, 150) for e in estimates]
    estimate, lower, upper = pooled_interval(estimates, samples, confidence=0.9)
    everything = np.sort(np.concatenate(samples))
    assert estimate == pytest.approx(np.mean(estimates))
    # 600 values: numpy's default (linear) quantile at 0.05 and 0.95 of the sorted pool.
    position = 0.05 * (len(everything) - 1)
    low = everything[int(position)] + (position % 1) * (everything[int(position) + 1] - everything[int(position)])
    assert lower == pytest.approx(low)
    assert lower < estimate < upper


def test_nan_resamples_are_left_out():
    with_nan = pooled_interval([0.5], [[0.0, 1.0, np.nan, np.nan]], confidence=0.5)
    without = pooled_interval([0.5], [[0.0, 1.0]], confidence=0.5)
    assert with_nan == without == (0.5, 0.25, 0.75)


@pytest.mark.parametrize(
    ("estimates", "samples", "confidence", "message"),
    [
        ([0.1], [[0.1]], 1.0, "strictly between 0 and 1"),
        ([0.1], [[0.1]], True, "strictly between 0 and 1"),
        ([], [], 0.95, "non-empty sequence"),
        ([0.1, 0.2], [[0.1]], 0.95, "2 estimates but 1 sample arrays"),
        ([0.1], [[np.nan, np.nan]], 0.95, "no finite value among 2"),
    ],
)
def test_bad_input_says_what_arrived(estimates, samples, confidence, message):
    with pytest.raises(ValueError, match=message):
        pooled_interval(estimates, samples, confidence=confidence)
