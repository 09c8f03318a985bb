"""What the report infers from its gaps and scores: p-values without Monte Carlo noise, Holm's correction over
distinct comparisons (a TPR gap and its FNR gap are one), AUC and calibration cells of small groups marked, and
the gate skipping them."""
import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm

from faircode.report import audit, check

N_BOOT = 200


@pytest.fixture(scope="module")
def table():
    rng = np.random.default_rng(7)
    n = 4000
    g = rng.choice(["a", "b", "c", "tiny"], n, p=[0.55, 0.3, 0.143, 0.007])
    y = rng.binomial(1, np.where(g == "b", 0.45, 0.35))
    score = np.clip(0.3 + 0.35 * y + rng.normal(0, 0.22, n) + 0.06 * (g == "b"), 0, 1).round(2)
    return pd.DataFrame({"y": y, "p": score, "g": g})


def _audit(table, seed=0):
    return audit(table, label="y", score="p", threshold=0.5, groups="g", reference="a", n_boot=N_BOOT,
                 random_state=seed)


def test_p_value_is_the_two_proportion_z_test_and_does_not_depend_on_the_seed(table):
    first, second = _audit(table, 0), _audit(table, 1)
    gaps = first.gaps.set_index(["group", "metric"])
    b, a = table[(table["g"] == "b") & (table["y"] == 0)], table[(table["g"] == "a") & (table["y"] == 0)]
    p1, p0 = (b["p"] >= 0.5).mean(), (a["p"] >= 0.5).mean()
    z = (p1 - p0) / np.sqrt(p1 * (1 - p1) / len(b) + p0 * (1 - p0) / len(a))
    assert gaps.loc[("b", "fpr"), "p_value"] == pytest.approx(2 * norm.sf(abs(z)), rel=1e-9)
    pd.testing.assert_series_equal(first.gaps["p_value"], second.gaps["p_value"])
    pd.testing.assert_series_equal(first.gaps["holm"], second.gaps["holm"])
    assert first.comparisons == second.comparisons
    assert not (first.gaps["difference_lower"] == second.gaps["difference_lower"]).all()  # the resamples differ


def test_a_tpr_gap_and_its_fnr_gap_are_one_comparison(table):
    report = _audit(table)
    gaps = report.gaps.set_index(["group", "metric"])
    for group in ("b", "c"):
        tpr, fnr = gaps.loc[(group, "tpr")], gaps.loc[(group, "fnr")]
        assert fnr["difference"] == pytest.approx(-tpr["difference"])
        assert tpr["counted"] and not fnr["counted"] and fnr["holm"] == tpr["holm"]
    assert not gaps.loc[("tiny", "tpr"), "counted"]  # too small: not compared
    counted = report.gaps["counted"]
    assert report.comparisons["count"] == int(counted.sum()) == 2 * 6
    assert report.comparisons["gaps_listed"] == 2 * 7
    assert report.comparisons["holm_rejections"] == int((report.gaps["holm"] & counted).sum())
    assert report.comparisons["expected_by_chance"] == pytest.approx(0.05 * 12)
    assert "the 2 FNR gaps listed are minus the TPR gaps" in report.comparisons["note"]


def test_auc_of_a_small_group_is_marked_too_small_and_not_gated(table):
    report = _audit(table)
    auc = report.auc.set_index(["column", "group"])
    tiny = auc.loc[("g", "tiny")]
    assert tiny["too_small"] and min(tiny["positives"], tiny["negatives"]) < 30
    assert not np.isnan(tiny["auc"])  # the estimate stays in the table and the JSON
    assert not auc.loc[("g", "a"), "too_small"]
    side = "positives" if tiny["positives"] <= tiny["negatives"] else "negatives"
    assert f"too small ({side}={tiny[side]})" in report.to_markdown()
    # a condition every group meets on its point estimate: the tiny group is skipped, not failed
    result = check(report, "auc > 0", when="point")
    assert result.skipped_too_small == 1 and "tiny" not in {f["group"] for f in result.failures}
    assert "1 estimates of groups too small to estimate were not checked" in result.message()
    assert report.to_dict()["auc"][0]["too_small"] is False


def test_calibration_cell_of_a_small_bin_says_too_small(table):
    report = _audit(table)
    cal = report.calibration
    small = cal[cal["too_small"] & (cal["group"] == "tiny")]
    assert len(small), "a bin with fewer than 30 rows"
    row = small.iloc[0]
    assert f"(n={row['count']}, too small)" in report.to_markdown()
    assert f"(n={row['count']}, too small)" in report.to_html()
    large = cal[~cal["too_small"]].iloc[0]
    assert f"(n={large['count']})" in report.to_markdown()
