"""faircode.metrics.resample_counts: the bootstrap as a count matrix shared by every rule compared."""
import numpy as np
import pytest

from faircode.metrics import resample_counts


def test_counts_are_the_documented_draws():
    n, n_boot, seed = 7, 40, 11
    counts = resample_counts(n, n_boot, random_state=seed)
    draws = np.random.default_rng(seed).integers(0, n, size=(n_boot, n))
    expected = np.stack([np.bincount(row, minlength=n) for row in draws])
    assert counts.shape == (n_boot, n)
    np.testing.assert_array_equal(counts, expected)


def test_a_rate_from_the_counts_equals_the_rate_on_the_resampled_rows():
    rng = np.random.default_rng(2)
    decision, group = rng.integers(0, 2, 50), rng.integers(0, 2, 50)
    counts = resample_counts(50, 30, random_state=4)
    rates = counts @ (decision * group) / (counts @ group)
    draws = np.random.default_rng(4).integers(0, 50, size=(30, 50))
    direct = [decision[rows][group[rows] == 1].mean() for rows in draws]
    np.testing.assert_allclose(rates, direct, rtol=1e-6)


@pytest.mark.parametrize("n, n_boot, name, shown", [(0, 10, "n", "0"), (5, -1, "n_boot", "-1"),
                                                    (5.5, 10, "n", "5.5"), (5, True, "n_boot", "True")])
def test_bad_sizes_are_refused(n, n_boot, name, shown):
    with pytest.raises(ValueError, match=rf"{name} must be a whole number of at least 1; got {shown}"):
        resample_counts(n, n_boot)


@pytest.mark.parametrize("metric, on", [("selection_rate", None), ("tpr", 1), ("fpr", 0)])
def test_resampled_gap_equals_the_gap_on_the_resampled_rows(metric, on):
    from faircode.metrics import resampled_gap

    rng = np.random.default_rng(7)
    y, pred, group = rng.integers(0, 2, 80), rng.integers(0, 2, 80), rng.random(80) < 0.4
    counts = resample_counts(80, 25, random_state=1)
    gaps = resampled_gap(counts, y, pred, group, metric)
    expected = []
    for rows in np.random.default_rng(1).integers(0, 80, size=(25, 80)):
        kept = rows if on is None else rows[y[rows] == on]
        inside = group[kept]
        expected.append(pred[kept][inside].mean() - pred[kept][~inside].mean())
    np.testing.assert_allclose(gaps, expected, rtol=1e-5)


def test_resampled_gap_bad_input():
    from faircode.metrics import resampled_gap

    with pytest.raises(ValueError, match=r"metric must be one of \['selection_rate', 'tpr', 'fpr'\]; got 'ppv'"):
        resampled_gap(np.ones((1, 2)), [0, 1], [0, 1], [True, False], "ppv")
    with pytest.raises(ValueError, match=r"one value per column of counts \(2\); got \(3,\), \(2,\) and \(2,\)"):
        resampled_gap(np.ones((1, 2)), [0, 1, 1], [0, 1], [True, False])
