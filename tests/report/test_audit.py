"""faircode.audit's numbers against independent computations: pandas group-bys, faircode.metrics on rows, DeLong
on rows, Clopper-Pearson from scipy's beta quantiles."""
import numpy as np
import pandas as pd
import pytest
from scipy.stats import beta

from faircode.auc import delong_auc
from faircode.metrics import conditional_gaps, disaggregate
from faircode.report import AuditInputError, audit

N_BOOT = 200


@pytest.fixture(scope="module")
def table():
    rng = np.random.default_rng(3)
    n = 3000
    race = rng.choice(["a", "b", "c"], n, p=[0.6, 0.34, 0.06])
    sex = rng.choice(["f", "m"], n)
    y = rng.binomial(1, np.where(race == "b", 0.45, 0.3))
    p = np.clip(0.25 + 0.4 * y + rng.normal(0, 0.2, n) + 0.05 * (sex == "m"), 0, 1).round(3)
    band = rng.choice(["low", "high"], n)
    return pd.DataFrame({"y": y, "p": p, "race": race, "sex": sex, "band": band, "w": rng.choice([1.0, 2.0], n)})


@pytest.fixture(scope="module")
def report(table):
    return audit(table, label="y", score="p", threshold=[0.4, 0.6], groups=["race", "sex"], intersections=True,
                 n_boot=N_BOOT, min_count=30, strata="band")


def _by_hand(table, column, t):
    """Rates per group from a pandas group-by of the rows (the definitions written out)."""
    pred = (table["p"] >= t).astype(int)
    rows = []
    for group, part in table.assign(pred=pred).groupby(column):
        y, d = part["y"], part["pred"]
        tp, fp = int(((y == 1) & (d == 1)).sum()), int(((y == 0) & (d == 1)).sum())
        fn, tn = int(((y == 1) & (d == 0)).sum()), int(((y == 0) & (d == 0)).sum())

        def share(a, b):
            return a / b if b else np.nan

        rows.append({"group": str(group), "selection_rate": share(tp + fp, len(part)), "base_rate": y.mean(),
                     "tpr": share(tp, tp + fn), "fpr": share(fp, fp + tn), "fnr": share(fn, tp + fn),
                     "precision": share(tp, tp + fp), "npv": share(tn, tn + fn), "accuracy": share(tp + tn, len(part))})
    return pd.DataFrame(rows).set_index("group")


@pytest.mark.parametrize("column", ["race", "sex"])
@pytest.mark.parametrize("t", [0.4, 0.6])
def test_rates_equal_a_group_by(report, table, column, t):
    expected = _by_hand(table, column, t)
    got = report.rates.query("column == @column and threshold == @t").pivot(index="group", columns="metric",
                                                                             values="estimate")
    pd.testing.assert_frame_equal(got[expected.columns], expected, check_names=False, rtol=1e-12, atol=0)


def test_intersections_equal_a_group_by(report, table):
    combo = table.assign(cell=table["race"] + " & " + table["sex"])
    expected = _by_hand(combo, "cell", 0.6)
    got = report.rates.query("column == 'race & sex' and threshold == 0.6").pivot(index="group", columns="metric",
                                                                                 values="estimate")
    pd.testing.assert_frame_equal(got[expected.columns], expected, check_names=False, rtol=1e-12, atol=0)
    small = report.rates.query("column == 'race & sex' and threshold == 0.6 and metric == 'tpr'")
    counts = combo[combo["y"] == 1].groupby("cell").size()
    assert small.set_index("group")["too_small"].to_dict() == (counts < 30).to_dict()


def test_gaps_are_differences_to_the_reference_with_paired_intervals(report):
    rates = report.rates.query("column == 'race' and threshold == 0.4").set_index(["group", "metric"])["estimate"]
    gaps = report.gaps.query("column == 'race' and threshold == 0.4")
    assert set(gaps["reference"]) == {"a"}  # the largest group by default
    for row in gaps.itertuples():
        assert row.difference == pytest.approx(rates[(row.group, row.metric)] - rates[("a", row.metric)], abs=1e-12)
        assert row.difference_lower <= row.difference <= row.difference_upper
    # a paired interval is narrower than one combining the two rates' marginal intervals
    bootstrap = gaps[gaps["interval"] == "bootstrap (paired)"]
    assert len(bootstrap) > 0


def test_counts_and_points_match_faircode_disaggregate(table, report):
    pred = (table["p"] >= 0.6).astype(int)
    expected = disaggregate(table["y"], pred, sensitive_features=table["race"], metrics=["tpr", "fpr", "npv"],
                            min_count=30).rates.reset_index()
    got = report.rates.query("column == 'race' and threshold == 0.6 and metric in ['tpr', 'fpr', 'npv']")
    merged = got.merge(expected, left_on=["group", "metric"], right_on=["race", "metric"])
    assert len(merged) == 9
    np.testing.assert_array_equal(merged["count_x"], merged["count_y"])
    np.testing.assert_array_equal(merged["events_x"], merged["events_y"])
    np.testing.assert_allclose(merged["estimate"], merged["rate"], rtol=1e-12)


def test_undefined_rate_is_nan_not_zero():
    df = pd.DataFrame({"y": [0] * 40 + [1, 0] * 20, "d": [1, 0] * 40, "g": ["x"] * 40 + ["z"] * 40})
    report = audit(df, label="y", decision="d", groups="g", n_boot=N_BOOT)
    tpr = report.rates.query("column == 'g' and metric == 'tpr'").set_index("group")
    assert np.isnan(tpr.loc["x", "estimate"]) and tpr.loc["x", "count"] == 0
    assert np.isnan(tpr.loc["x", "lower"])
    gap = report.gaps.query("metric == 'tpr'").iloc[0]
    assert np.isnan(gap["difference"])
    assert report.to_dict()["rates"][2]["estimate"] is None or any(
        r["estimate"] is None for r in report.to_dict()["rates"] if r["metric"] == "tpr")


def test_few_events_get_exact_intervals_and_combined_gap_intervals():
    # group x: 2 false positives among 60 negatives (few events); group z: 20 among 60
    y = np.zeros(120, int)
    d = np.r_[np.ones(2), np.zeros(58), np.ones(20), np.zeros(40)].astype(int)
    df = pd.DataFrame({"y": y, "d": d, "g": ["x"] * 60 + ["z"] * 60})
    report = audit(df, label="y", decision="d", groups="g", reference={"g": "z"}, n_boot=N_BOOT)
    fpr = report.rates.query("column == 'g' and metric == 'fpr'").set_index("group")
    assert fpr.loc["x", "few_events"] and fpr.loc["x", "interval"] == "exact"
    assert fpr.loc["x", "lower"] == pytest.approx(beta.ppf(0.025, 2, 59))
    assert fpr.loc["x", "upper"] == pytest.approx(beta.ppf(0.975, 3, 58))
    gap = report.gaps.query("metric == 'fpr'").iloc[0]
    assert gap["interval"] == "exact (combined)"
    level = np.sqrt(0.95)
    lo_x, hi_x = beta.ppf((1 - level) / 2, 2, 59), beta.ppf(1 - (1 - level) / 2, 3, 58)
    lo_z, hi_z = beta.ppf((1 - level) / 2, 20, 41), beta.ppf(1 - (1 - level) / 2, 21, 40)
    assert gap["difference_lower"] == pytest.approx(lo_x - hi_z)
    assert gap["difference_upper"] == pytest.approx(hi_x - lo_z)
    assert np.isnan(gap["p_value"])


def test_auc_per_group_equals_delong_on_rows(report, table):
    for group, part in table.groupby("race"):
        expected = delong_auc(part["y"], part["p"])
        got = report.auc.query("column == 'race' and group == @group").iloc[0]
        for key in ("auc", "se", "lower", "upper"):
            assert got[key] == pytest.approx(expected[key], rel=1e-9)


def test_calibration_has_exact_intervals(report, table):
    cal = report.calibration.query("column == 'sex' and group == 'f'")
    part = table[table["sex"] == "f"]
    edges = np.linspace(0, 1, 11)
    which = np.clip(np.searchsorted(edges, part["p"], side="right") - 1, 0, 9)
    for row, (_, rows) in zip(cal.itertuples(), part.groupby(which)):
        k, n = int(rows["y"].sum()), len(rows)
        assert row.count == n and row.observed == pytest.approx(k / n)
        assert row.mean_score == pytest.approx(rows["p"].mean())
        assert row.lower == pytest.approx(beta.ppf(0.025, k, n - k + 1) if k else 0.0)


def test_conditional_gaps_equal_faircode_conditional_gaps(report, table):
    pred = (table["p"] >= 0.4).astype(int)
    expected = conditional_gaps(table["y"], pred, sensitive_features=table["race"], strata=table["band"],
                                reference="a", metrics=["selection_rate", "fpr"], min_count=30)
    got = report.conditional.query("column == 'race' and threshold == 0.4").set_index(["group", "metric"])
    for (group, metric), row in expected.iterrows():
        assert got.loc[(group, metric), "conditional"] == pytest.approx(row["conditional"], abs=1e-12)
        assert got.loc[(group, metric), "lower"] <= got.loc[(group, metric), "upper"]


def test_weighted_rates_equal_faircode_weighted_rates(table):
    report = audit(table, label="y", score="p", threshold=0.5, groups="race", sample_weight="w", n_boot=N_BOOT)
    pred = (table["p"] >= 0.5).astype(int)
    expected = disaggregate(table["y"], pred, sensitive_features=table["race"], sample_weight=table["w"],
                            metrics=["selection_rate", "tpr", "precision"]).rates.reset_index()
    got = report.rates.query("column == 'race'").merge(expected, left_on=["group", "metric"],
                                                       right_on=["race", "metric"])
    assert len(got) == 9
    np.testing.assert_allclose(got["estimate"], got["rate"], rtol=1e-12)


def test_same_input_gives_identical_bytes_and_the_seed_matters(table):
    args = dict(label="y", score="p", threshold=0.5, groups="race", n_boot=N_BOOT)
    first, second = audit(table, **args), audit(table, **args)
    assert first.to_json() == second.to_json()
    assert audit(table, **args, random_state=1).to_json() != first.to_json()


def test_without_bootstrap_every_interval_is_exact(table):
    report = audit(table, label="y", score="p", threshold=0.5, groups="race", n_boot=0)
    assert set(report.rates["interval"]) == {"exact"}
    assert set(report.gaps["interval"]) == {"exact (combined)"}
    assert report.gaps["difference_lower"].notna().all()


def test_comparisons_count_the_estimable_gaps(report):
    comparisons = report.comparisons
    gaps = report.gaps
    estimable = ~gaps["too_small"] & gaps["difference"].notna()
    assert comparisons["gaps_listed"] == int(estimable.sum())
    assert comparisons["count"] == int((estimable & (gaps["metric"] != "fnr")).sum())  # FNR gap = -TPR gap
    assert f"{comparisons['count']} distinct gaps were compared" in comparisons["note"]


def test_selection_ratio_under_four_fifths_is_marked():
    df = pd.DataFrame({"y": [1, 0] * 100, "d": [1] * 50 + [0] * 50 + [1] * 30 + [0] * 70,
                       "g": ["x"] * 100 + ["z"] * 100})
    report = audit(df, label="y", decision="d", groups="g", reference="x", n_boot=N_BOOT)
    ff = report.four_fifths.set_index(["direction", "group"])
    row = ff.loc[("positive favourable", "z")]
    assert row["comparator"] == "x"
    assert row["ratio"] == pytest.approx(0.6) and row["below_four_fifths"]
    assert row["ratio_lower"] < 0.6 < row["ratio_upper"]


def _three_groups():
    # the reference (largest group) "big" is not the highest: "top" selects 0.6, "big" 0.36, "low" 0.3
    sizes, rates = {"big": 500, "top": 200, "low": 200}, {"big": 0.36, "top": 0.6, "low": 0.3}
    parts = []
    for g, n in sizes.items():
        k = int(round(rates[g] * n))
        parts.append(pd.DataFrame({"y": [1, 0] * (n // 2), "d": [1] * k + [0] * (n - k), "g": g}))
    return pd.concat(parts, ignore_index=True)


def test_four_fifths_compares_every_group_with_the_highest_not_the_reference():
    report = audit(_three_groups(), label="y", decision="d", groups="g", n_boot=N_BOOT)
    assert report.meta["references"]["g"] == "big"
    ff = report.four_fifths[report.four_fifths["direction"] == "positive favourable"].set_index("group")
    assert set(ff["comparator"]) == {"top"}
    # the reference itself is compared with the highest group: 0.36 / 0.6 = 0.6, under four fifths
    assert ff.loc["big", "ratio"] == pytest.approx(0.6) and ff.loc["big", "below_four_fifths"]
    assert ff.loc["big", "ratio_upper"] < 0.8
    assert ff.loc["low", "ratio"] == pytest.approx(0.5)
    assert ff.loc["top", "ratio"] == 1.0 and ff.loc["top", "is_comparator"]
    assert "'top'" in report.to_markdown()
    assert "chosen because its rate is highest in these data" in report.to_markdown()  # the interval's limit


def test_four_fifths_for_an_unfavourable_positive_uses_the_favourable_rate():
    report = audit(_three_groups(), label="y", decision="d", groups="g", n_boot=N_BOOT)
    ff = report.four_fifths[report.four_fifths["direction"] == "positive unfavourable"].set_index("group")
    # favourable rates 1 - s: big 0.64, top 0.4, low 0.7 (highest): top 0.4 / 0.7
    assert set(ff["comparator"]) == {"low"}
    assert ff.loc["top", "ratio"] == pytest.approx(0.4 / 0.7)
    assert ff.loc["big", "ratio"] == pytest.approx(0.64 / 0.7) and not ff.loc["big", "below_four_fifths"]
    assert "a ratio above 1.25 is the corresponding sign" not in report.to_markdown()


def test_spread_has_no_bootstrap_interval():
    report = audit(_three_groups(), label="y", decision="d", groups="g", n_boot=N_BOOT)
    assert not [c for c in report.spread.columns if c.endswith(("_lower", "_upper"))]
    spread = report.to_dict()["spread"][0]
    assert spread["min_over_max"] == pytest.approx(0.5) and "ratio_lower" not in spread
    assert "without an interval" in report.to_markdown()


def test_p_values_go_below_the_bootstrap_resolution_and_holm_can_reject():
    # a gap of 0.3 on 500 rows a group: far beyond any resample, p far below 2 / (n_boot + 1)
    report = audit(_three_groups(), label="y", decision="d", groups="g", n_boot=N_BOOT)
    gap = report.gaps.set_index(["group", "metric"]).loc[("top", "selection_rate")]
    assert gap["p_value"] < 1e-6 < 2 / (N_BOOT + 1)
    assert gap["holm"]
    assert "a lead" not in report.comparisons["note"]


def test_conditional_gap_of_a_tiny_group_is_too_small_without_interval():
    rng = np.random.default_rng(0)
    n = 600
    df = pd.DataFrame({"y": rng.integers(0, 2, n), "d": rng.integers(0, 2, n),
                       "g": ["a"] * (n - 1) + ["lonely"], "s": rng.choice(["u", "v"], n)})
    df.loc[n - 1, "s"] = "u"
    df = pd.concat([df, df.assign(g="b")[: n // 2]], ignore_index=True)
    report = audit(df, label="y", decision="d", groups="g", strata="s", n_boot=N_BOOT)
    cond = report.conditional.set_index(["group", "metric"])
    row = cond.loc[("lonely", "selection_rate")]
    assert row["too_small"] and np.isnan(row["lower"]) and np.isnan(row["upper"])
    assert not cond.loc[("b", "selection_rate"), "too_small"]
    assert not np.isnan(cond.loc[("b", "selection_rate"), "lower"])


def test_interval_labels_say_what_was_computed():
    df = _three_groups()
    df.loc[df["g"] == "low", "y"] = 0  # no positives: TPR undefined
    df.loc[df.index[df["g"] == "top"][:3], "y"] = 1
    df["w"] = np.where(np.arange(len(df)) % 2, 1.0, 2.0)
    df["d2"] = df["d"]
    df.loc[df["g"] == "top", "d2"] = np.r_[np.ones(2), np.zeros(198)]  # few events: exact intervals
    report = audit(df, label="y", decision="d2", groups="g", sample_weight="w", n_boot=N_BOOT)
    rates = report.rates.set_index(["column", "group", "metric"])
    assert rates.loc[("g", "low", "tpr"), "interval"] == "none"
    assert rates.loc[("g", "top", "selection_rate"), "interval"] == "exact (Kish effective n)"
    gaps = report.gaps.set_index(["group", "metric"])
    assert gaps.loc[("low", "tpr"), "interval"] == "none"
    assert gaps.loc[("top", "selection_rate"), "interval"] == "exact (combined, Kish effective n)"
    assert "Kish effective n" in report.to_markdown()
    unweighted = audit(df, label="y", decision="d2", groups="g", n_boot=N_BOOT).rates
    assert unweighted.set_index(["column", "group", "metric"]).loc[("g", "top", "selection_rate"), "interval"] == "exact"


def test_intersections_section_links_its_explainer():
    df = _three_groups().assign(h=lambda d: np.where(np.arange(len(d)) % 2, "u", "v"))
    both = audit(df, label="y", decision="d", groups=["g", "h"], intersections=True, n_boot=0)
    assert "subgroup-fairness-and-the-worst-off-group" in both.to_markdown()
    assert "subgroup-fairness-and-the-worst-off-group" in both.to_html()
    single = audit(df, label="y", decision="d", groups=["g", "h"], n_boot=0)
    assert "subgroup-fairness-and-the-worst-off-group" not in single.to_markdown()


def test_relative_links_are_explained_unless_a_docs_url_is_given():
    report = audit(_three_groups(), label="y", decision="d", groups="g", n_boot=0)
    assert "--docs-url" in report.to_html() and "/explainers/equalized-odds/" in report.to_html()
    html = report.to_html(docs_url="https://example.org/site")
    assert "--docs-url" not in html and "https://example.org/site/explainers/equalized-odds/" in html


def test_docstring_examples_run():
    import doctest

    import faircode.report._audit

    result = doctest.testmod(faircode.report._audit)
    assert result.attempted > 0 and result.failed == 0
