"""DeLong AUC intervals against a direct computation from every positive-negative pair."""
import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from faircode.auc import delong_auc, delong_difference


def _direct(y, scores):
    """AUCs and DeLong covariance from the full matrix of pairwise comparisons (psi = 1, 1/2 on a tie, 0)."""
    pos, neg = y == 1, y == 0
    v10, v01 = [], []
    for s in scores:
        psi = (s[pos][:, None] > s[neg][None, :]) + 0.5 * (s[pos][:, None] == s[neg][None, :])
        v10.append(psi.mean(axis=1))
        v01.append(psi.mean(axis=0))
    v10, v01 = np.array(v10), np.array(v01)
    cov = np.cov(v10) / pos.sum() + np.cov(v01) / neg.sum()
    return v10.mean(axis=1), cov


@pytest.fixture
def sample():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 120)
    a = np.round(y + rng.normal(0, 1.2, 120), 1)  # rounded: ties within and across classes
    b = np.round(0.5 * y + rng.normal(0, 1, 120), 1)
    return y, a, b


def test_auc_and_se_match_direct_computation(sample):
    y, a, b = sample
    auc, cov = _direct(y, [a, b])
    one = delong_auc(y, a)
    assert one["auc"] == pytest.approx(roc_auc_score(y, a), abs=1e-12)
    assert one["se"] == pytest.approx(np.sqrt(cov[0, 0]), rel=1e-10)
    assert one["lower"] == pytest.approx(auc[0] - 1.959963984540054 * np.sqrt(cov[0, 0]), rel=1e-10)
    diff = delong_difference(y, a, b)
    assert diff["difference"] == pytest.approx(auc[0] - auc[1], abs=1e-12)
    assert diff["se"] == pytest.approx(np.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]), rel=1e-10)
    assert 0 < diff["p_value"] < 1


def test_perfect_score_has_zero_width_interval():
    out = delong_auc([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9])
    assert (out["auc"], out["lower"], out["upper"]) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize("y, score, message", [
    ([0, 1, 2, 1], [0.1, 0.2, 0.3, 0.4], "0/1"),
    ([0, 1, 1, 1], [0.1, 0.2, 0.3, 0.4], "1 negative"),
    ([0, 0, 1, 1], [0.1, 0.2, 0.3], "got shape"),
])
def test_bad_input_is_named(y, score, message):
    with pytest.raises(ValueError, match=message):
        delong_auc(y, score)


def test_bad_confidence_is_named():
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        delong_auc([0, 0, 1, 1], [0.1, 0.2, 0.3, 0.4], confidence=95)
