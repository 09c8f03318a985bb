"""Point estimates of faircode.metrics: fairlearn agreement, NaN for undefined rates, label shift, errors."""
import functools
import re

import numpy as np
import pandas as pd
import pytest
from fairlearn.metrics import (
    MetricFrame,
    false_negative_rate,
    false_positive_rate,
    selection_rate,
    true_negative_rate,
    true_positive_rate,
)
from sklearn.metrics import accuracy_score, precision_score

from faircode.metrics import (
    METRICS,
    disaggregate,
    format_gaps,
    format_rates,
    gaps_between_groups,
    gaps_to_reference,
    group_rates,
)

FAIRLEARN = {
    "selection_rate": selection_rate,
    "tpr": true_positive_rate,
    "fpr": false_positive_rate,
    "fnr": false_negative_rate,
    "tnr": true_negative_rate,
    # zero_division=0 is what fairlearn/scikit-learn fall back to (with a warning) for an undefined precision.
    "precision": functools.partial(precision_score, zero_division=0),
    # The negative predictive value is the precision of the negative class.
    "npv": functools.partial(precision_score, pos_label=0, zero_division=0),
    "accuracy": accuracy_score,
}


@pytest.fixture
def data():
    """Three races x two sexes; one intersection has no true positives, so its TPR is undefined."""
    rng = np.random.default_rng(7)
    n = 900
    race = rng.choice(["Black", "Other", "White"], size=n, p=[0.2, 0.1, 0.7])
    sex = rng.choice(["Female", "Male"], size=n)
    base = np.where(sex == "Male", 0.35, 0.15)
    y = (rng.random(n) < base).astype(int)
    y[(race == "Other") & (sex == "Female")] = 0
    score = 0.4 * y + rng.random(n) * 0.8
    y_pred = (score > 0.6).astype(int)
    weight = rng.uniform(0.5, 2.0, size=n)
    return pd.DataFrame({"race": race, "sex": sex, "y": y, "y_pred": y_pred, "w": weight})


def _fairlearn_by_group(data, features, weighted):
    params = {name: {"sample_weight": data["w"].to_numpy()} for name in FAIRLEARN} if weighted else None
    frame = MetricFrame(metrics=FAIRLEARN, y_true=data["y"], y_pred=data["y_pred"],
                        sensitive_features=data[features], sample_params=params)
    return frame


@pytest.mark.parametrize("features", [["race"], ["race", "sex"]])
@pytest.mark.parametrize("weighted", [False, True])
def test_rates_equal_fairlearn_where_defined(data, features, weighted):
    frame = _fairlearn_by_group(data, features, weighted)
    table = group_rates(data["y"], data["y_pred"], sensitive_features=data[features],
                        metrics=list(FAIRLEARN), sample_weight=data["w"] if weighted else None, min_count=0)
    ours = table["rate"].unstack("metric")[list(FAIRLEARN)]
    theirs = frame.by_group.reindex(ours.index)[list(FAIRLEARN)].astype(float)
    counts = table["count"].unstack("metric")[list(FAIRLEARN)]
    defined = counts > 0
    np.testing.assert_allclose(ours.where(defined).to_numpy(float), theirs.where(defined).to_numpy(float),
                               rtol=1e-12, atol=0, equal_nan=True)
    # Where the denominator is 0 faircode says NaN; fairlearn says 0 (or NaN for an empty intersection).
    assert ours.where(~defined).isna().all().all()
    if features == ["race", "sex"]:
        assert counts.loc[("Other", "Female"), "tpr"] == 0
        assert theirs.loc[("Other", "Female"), "tpr"] == 0.0


def test_between_groups_equals_fairlearn_difference_and_ratio(data):
    metrics = ["selection_rate", "tpr", "fpr", "accuracy"]
    frame = MetricFrame(metrics={m: FAIRLEARN[m] for m in metrics}, y_true=data["y"], y_pred=data["y_pred"],
                        sensitive_features=data["race"])
    gaps = gaps_between_groups(data["y"], data["y_pred"], sensitive_features=data["race"], metrics=metrics,
                               min_count=0)
    np.testing.assert_allclose(gaps["difference"], frame.difference()[metrics], rtol=1e-12)
    np.testing.assert_allclose(gaps["ratio"], frame.ratio()[metrics], rtol=1e-12)


def test_counts_are_the_denominators(data):
    table = group_rates(data["y"], data["y_pred"], sensitive_features=data["race"], metrics=list(METRICS))
    black = data[data["race"] == "Black"]
    expected = {
        "selection_rate": len(black), "accuracy": len(black), "base_rate": len(black),
        "tpr": black["y"].sum(), "fnr": black["y"].sum(),
        "fpr": (black["y"] == 0).sum(), "tnr": (black["y"] == 0).sum(),
        "precision": black["y_pred"].sum(), "npv": (black["y_pred"] == 0).sum(),
    }
    assert table.loc["Black", "count"].to_dict() == expected


def test_intersections_include_empty_cells_as_nan():
    table = group_rates([1, 0, 1, 0], [1, 0, 0, 0],
                        sensitive_features={"a": ["x", "x", "y", "y"], "b": ["p", "q", "p", "p"]},
                        metrics=["selection_rate"], min_count=0)
    assert table.loc[("y", "q", "selection_rate"), "count"] == 0
    assert np.isnan(table.loc[("y", "q", "selection_rate"), "rate"])
    assert len(table) == 4


def test_label_shift_leaves_tpr_and_fpr_gaps_unchanged(data):
    """Reweighting one group's positives and negatives moves its base rate but not TPR, FPR or their gaps."""
    women = (data["sex"] == "Female").to_numpy()
    y = data["y"].to_numpy()
    weight = np.where(women & (y == 1), 2.37, np.where(women, 0.613, 1.0))
    args = dict(sensitive_features=data["sex"], metrics=["tpr", "fpr", "fnr", "tnr", "base_rate", "precision"])
    plain = gaps_to_reference(data["y"], data["y_pred"], reference="Male", **args)
    shifted = gaps_to_reference(data["y"], data["y_pred"], reference="Male", sample_weight=weight, **args)
    for metric in ["tpr", "fpr", "fnr", "tnr"]:
        assert shifted.loc[("Female", metric), "difference"] == plain.loc[("Female", metric), "difference"]
        assert shifted.loc[("Female", metric), "ratio"] == plain.loc[("Female", metric), "ratio"]
    # ...while the base rate and precision do move.
    for metric in ["base_rate", "precision"]:
        assert abs(shifted.loc[("Female", metric), "difference"] - plain.loc[("Female", metric), "difference"]) > 0.01
    rates = group_rates(data["y"], data["y_pred"], sample_weight=weight, **args)["rate"]
    base = group_rates(data["y"], data["y_pred"], **args)["rate"]
    assert rates.loc[("Female", "tpr")] == base.loc[("Female", "tpr")]


def test_gaps_to_reference_difference_and_ratio(data):
    rates = group_rates(data["y"], data["y_pred"], sensitive_features=data["race"], metrics=["tpr", "fpr"])
    gaps = gaps_to_reference(data["y"], data["y_pred"], sensitive_features=data["race"],
                             metrics=["tpr", "fpr"], reference="White")
    for race in ["Black", "Other"]:
        for metric in ["tpr", "fpr"]:
            mine, ref = rates.loc[(race, metric), "rate"], rates.loc[("White", metric), "rate"]
            assert gaps.loc[(race, metric), "difference"] == mine - ref
            assert gaps.loc[(race, metric), "ratio"] == mine / ref
    assert set(gaps["reference"]) == {"White"}
    default = gaps_to_reference(data["y"], data["y_pred"], sensitive_features=data["race"], metrics=["tpr"])
    assert set(default["reference"]) == {"White"}  # the largest group


def test_small_cells_are_flagged_and_printed_as_too_small(data):
    table = group_rates(data["y"], data["y_pred"], sensitive_features=data[["race", "sex"]], min_count=30)
    assert (table["too_small"] == (table["count"] < 30)).all()
    text = format_rates(table)
    count = table.loc[("Other", "Female", "precision"), "count"]
    assert 0 < count < 30
    assert text.loc[("Other", "Female"), "precision"] == f"too small (predicted positives={count})"
    assert text.loc[("Other", "Female"), "tpr"] == "too small (positives=0)"
    big = table.loc[("White", "Male", "accuracy")]
    assert not big["too_small"]
    assert text.loc[("White", "Male"), "accuracy"] == f"{big['rate']:.3f}"
    for cell in text[list(table.index.unique("metric"))].to_numpy().ravel():
        assert re.fullmatch(r"\d\.\d{3}|too small \(.+=\d+\)", cell), cell


def test_format_with_intervals_and_gaps(data):
    table = group_rates(data["y"], data["y_pred"], sensitive_features=data["sex"], metrics=["tpr"], n_boot=50)
    row = table.loc[("Male", "tpr")]
    assert format_rates(table, digits=2).loc["Male", "tpr"] == (
        f"{row['rate']:.2f} [{row['lower']:.2f}, {row['upper']:.2f}]")
    gaps = gaps_to_reference(data["y"], data["y_pred"], sensitive_features=data["sex"], metrics=["fpr"],
                             reference="Male", min_count=1000)
    assert format_gaps(gaps).loc[("Female", "fpr"), "difference"].startswith("too small (negatives=")
    spread = gaps_between_groups(data["y"], data["y_pred"], sensitive_features=data["race"], metrics=["accuracy"],
                                 min_count=400)
    assert spread.loc["accuracy", "n_groups"] == 1 and np.isnan(spread.loc["accuracy", "difference"])
    assert format_gaps(spread).loc["accuracy", "difference"] == "too few groups (1)"


@pytest.mark.parametrize("kwargs, message", [
    (dict(y_true=[0, 1, 1], y_pred=[0, 1], sensitive_features=["a", "b", "b"]),
     "y_pred has 2 rows but y_true has 3"),
    (dict(y_true=[0, 1, 1], y_pred=[0, 1, 1], sensitive_features=["a", "b"]),
     "sensitive feature 'sensitive_feature_0' has 2 rows but y_true has 3"),
    (dict(y_true=[0, 1, 2], y_pred=[0, 1, 1], sensitive_features=["a", "b", "b"]),
     "y_true must hold binary labels 0 and 1 (or True/False); found the values 0, 1, 2"),
    (dict(y_true=["no", "yes", "yes"], y_pred=[0, 1, 1], sensitive_features=["a", "b", "b"]),
     "y_true must hold binary labels 0 and 1"),
    (dict(y_true=[0, 1, 1], y_pred=[0, 1, 1], sensitive_features=["a", "b", "b"], metrics=["recall"]),
     "unknown metric 'recall'; the metrics are: 'selection_rate', 'tpr', 'fpr', 'fnr', 'tnr', 'precision', "
     "'npv', 'accuracy', 'base_rate'"),
    (dict(y_true=[0, 1, 1], y_pred=[0, 1, 1], sensitive_features=["a", None, "b"]),
     "sensitive feature 'sensitive_feature_0' has 1 missing values"),
    (dict(y_true=[0, 1, 1], y_pred=[0, 1, 1], sensitive_features=["a", "b", "b"], sample_weight=[1, -1, 1]),
     "sample_weight must be finite and non-negative"),
    (dict(y_true=[0, 1, 1], y_pred=[0, 1, 1], sensitive_features=["a", "b", "b"], min_count=-1),
     "min_count must be a non-negative integer; got -1"),
    (dict(y_true=[0, 1, 1], y_pred=[0, 1, 1], sensitive_features=["a", "b", "b"], n_boot=0),
     "n_boot must be a positive integer or None; got 0"),
    (dict(y_true=[0, 1, 1], y_pred=[0, 1, 1], sensitive_features=["a", "b", "b"], confidence=95),
     "confidence must lie strictly between 0 and 1; got 95"),
])
def test_bad_inputs_say_what_arrived(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        group_rates(**kwargs)


def test_gap_needs_two_groups():
    with pytest.raises(ValueError, match=re.escape("a gap needs at least two groups; sensitive_features has 1 "
                                                   "group with rows ('a')")):
        gaps_between_groups([0, 1, 1], [0, 1, 0], sensitive_features=["a", "a", "a"])
    with pytest.raises(ValueError, match="a gap needs at least two groups"):
        gaps_to_reference([0, 1, 1], [0, 1, 0], sensitive_features=["a", "a", "a"])


def test_unknown_reference_lists_groups():
    with pytest.raises(ValueError, match=re.escape("unknown group 'c'; the groups are: 'a', 'b'")):
        gaps_to_reference([0, 1, 1], [0, 1, 0], sensitive_features=["a", "b", "b"], reference="c")


def test_format_rejects_other_tables():
    with pytest.raises(ValueError, match="expected the DataFrame returned by group_rates"):
        format_rates(pd.DataFrame({"x": [1]}))


@pytest.mark.parametrize("module", ["metrics._rates", "metrics._gaps", "metrics._format", "splits._splits",
                                    "metrics._disaggregate"])
def test_docstring_examples_run(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"faircode.{module}"), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_disaggregate_equals_the_three_calls(data):
    args = dict(sensitive_features=data[["race", "sex"]], metrics=["tpr", "fpr"], n_boot=30, stratify=True,
                random_state=4, sample_weight=data["w"])
    result = disaggregate(data["y"], data["y_pred"], reference=("White", "Male"), **args)
    pd.testing.assert_frame_equal(result.rates, group_rates(data["y"], data["y_pred"], **args))
    pd.testing.assert_frame_equal(result.gaps, gaps_to_reference(data["y"], data["y_pred"],
                                                                 reference=("White", "Male"), **args))
    pd.testing.assert_frame_equal(result.spread, gaps_between_groups(data["y"], data["y_pred"], **args))


# ---- few events, exact and Wilson intervals ------------------------------------------------------------------

@pytest.fixture
def no_false_positive():
    """Cell 'a' has 31 negatives and no false positive; cell 'b' is large with errors on both sides."""
    rng = np.random.default_rng(3)
    y_b = (rng.random(400) < 0.4).astype(int)
    pred_b = np.where(rng.random(400) < 0.8, y_b, 1 - y_b)
    y = np.concatenate([np.zeros(31, int), np.ones(9, int), y_b])
    y_pred = np.concatenate([np.zeros(31, int), np.ones(9, int), pred_b])
    group = np.array(["a"] * 40 + ["b"] * 400)
    return y, y_pred, group


def test_no_errors_out_of_31_gets_an_exact_interval_and_a_flag(no_false_positive):
    y, y_pred, group = no_false_positive
    args = dict(sensitive_features={"g": group}, metrics=["fpr", "accuracy"], n_boot=300, random_state=1)
    table = group_rates(y, y_pred, **args)
    row = table.loc[("a", "fpr")]
    assert row["count"] == 31 and row["events"] == 0 and not row["too_small"] and row["few_events"]
    # Without the fallback the percentile bootstrap collapses to [0, 0]...
    plain = group_rates(y, y_pred, min_events=0, **args).loc[("a", "fpr")]
    assert plain["lower"] == plain["upper"] == 0.0 and plain["interval"] == "bootstrap"
    # ...with it the interval is the exact one: upper end solves (1 - p)^31 = 0.025.
    assert row["interval"] == "exact" and row["lower"] == 0.0
    assert row["upper"] == pytest.approx(1 - 0.025 ** (1 / 31), rel=1e-12)
    assert row["upper"] > 0.1
    # The large cell keeps its bootstrap interval.
    assert table.loc[("b", "fpr"), "interval"] == "bootstrap" and not table.loc[("b", "fpr"), "few_events"]
    # Accuracy 40/40 in cell a: few on the failure side.
    assert table.loc[("a", "accuracy"), "few_events"] and table.loc[("a", "accuracy"), "events"] == 40
    text = format_rates(table)
    assert text.loc["a", "fpr"] == f"0.000 [0.000, {row['upper']:.3f}] (0/31, exact)"
    assert text.loc["b", "fpr"].count("(") == 0


def test_a_binomial_interval_asked_for_is_the_one_given_even_on_few_events(no_false_positive):
    """interval="wilson" (or "exact") is honoured on every rate, few events or not, and every label says so."""
    from scipy.stats import norm

    y, y_pred, group = no_false_positive
    for interval in ("wilson", "exact"):
        table = group_rates(y, y_pred, sensitive_features={"g": group}, metrics=["fpr"], interval=interval)
        assert (table["interval"] == interval).all()
        row = table.loc[("a", "fpr")]
        assert row["few_events"] and row["events"] == 0 and row["count"] == 31
        text = format_rates(table)
        assert text.loc["a", "fpr"] == f"0.000 [0.000, {row['upper']:.3f}] (0/31, {interval})"
        assert "exact" not in " ".join(text["fpr"]) or interval == "exact"
    # Wilson's upper end on 0 of 31: z^2 / (31 + z^2), below the exact 0.112.
    z = norm.ppf(0.975)
    wilson = group_rates(y, y_pred, sensitive_features={"g": group}, metrics=["fpr"], interval="wilson")
    assert wilson.loc[("a", "fpr"), "upper"] == pytest.approx(z * z / (31 + z * z), rel=1e-12)
    assert wilson.loc[("a", "fpr"), "upper"] < 1 - 0.025 ** (1 / 31)


def test_gaps_involving_a_few_event_rate_are_flagged_and_shown_without_interval(no_false_positive):
    y, y_pred, group = no_false_positive
    args = dict(sensitive_features={"g": group}, metrics=["fpr", "tpr"], n_boot=300, random_state=1)
    gaps = gaps_to_reference(y, y_pred, reference="b", **args)
    assert gaps.loc[("a", "fpr"), "few_events"]
    assert gaps.loc[("a", "tpr"), "too_small"]  # 9 positives: too small comes first in the text
    assert format_gaps(gaps).loc[("a", "tpr"), "difference"] == "too small (positives=9)"
    text = format_gaps(gaps)
    difference = gaps.loc[("a", "fpr"), "difference"]
    assert text.loc[("a", "fpr"), "difference"] == f"{difference:.3f} (few events, no interval)"
    spread = gaps_between_groups(y, y_pred, **args)
    assert spread.loc["fpr", "few_events"]
    assert format_gaps(spread).loc["fpr", "ratio"].endswith("(few events, no interval)")
    unflagged = gaps_to_reference(y, y_pred, reference="b", min_events=0, **args)
    assert not unflagged["few_events"].any()
    assert "few events" not in " ".join(format_gaps(unflagged)["difference"])


def test_exact_and_wilson_intervals_match_their_formulas():
    from scipy.stats import beta, norm

    y = np.array([1] * 7 + [0] * 33 + [1] * 20 + [0] * 20)
    y_pred = np.array([1] * 3 + [0] * 4 + [1] * 2 + [0] * 31 + [1] * 15 + [0] * 5 + [1] * 6 + [0] * 14)
    group = np.array(["a"] * 40 + ["b"] * 40)
    for interval in ("exact", "wilson"):
        table = group_rates(y, y_pred, sensitive_features=group, metrics=["tpr", "selection_rate"],
                            interval=interval, confidence=0.9, min_events=0)
        assert (table["interval"] == interval).all()
        for (cell, metric), row in table.iterrows():
            x, n = row["events"], row["count"]
            if interval == "exact":
                low = beta.ppf(0.05, x, n - x + 1) if x > 0 else 0.0
                high = beta.ppf(0.95, x + 1, n - x) if x < n else 1.0
            else:
                z = norm.ppf(0.95)
                centre = (x + z * z / 2) / (n + z * z)
                half = z / (n + z * z) * np.sqrt(x * (n - x) / n + z * z / 4)
                low, high = centre - half, centre + half
            assert row["lower"] == pytest.approx(low, rel=1e-9) and row["upper"] == pytest.approx(high, rel=1e-9)
            assert row["lower"] <= row["rate"] <= row["upper"]
    # Without n_boot the bootstrap gives no interval; the exact interval needs none.
    assert "lower" not in group_rates(y, y_pred, sensitive_features=group).columns


def test_weighted_exact_interval_uses_the_effective_sample_size():
    y = np.array([0] * 40 + [0] * 40)
    y_pred = np.array([1] * 4 + [0] * 36 + [1] * 4 + [0] * 36)
    group = np.array(["a"] * 40 + ["b"] * 40)
    w = np.where(np.arange(80) % 2 == 0, 1.0, 3.0)
    table = group_rates(y, y_pred, sensitive_features=group, metrics=["fpr"], sample_weight=w,
                        interval="exact", min_events=0)
    plain = group_rates(y, y_pred, sensitive_features=group, metrics=["fpr"], interval="exact", min_events=0)
    row = table.loc[("a", "fpr")]
    n_eff = w[:40].sum() ** 2 / (w[:40] ** 2).sum()  # 32 rows' worth of information, not 40
    from scipy.stats import beta
    x = row["rate"] * n_eff
    assert row["lower"] == pytest.approx(beta.ppf(0.025, x, n_eff - x + 1), rel=1e-9)
    assert row["upper"] - row["lower"] > plain.loc[("a", "fpr"), "upper"] - plain.loc[("a", "fpr"), "lower"]
    assert row["count"] == 40


# ---- overall row and separate gap metrics ---------------------------------------------------------------------

@pytest.mark.parametrize("weighted", [False, True])
def test_overall_row_equals_metricframe_overall_and_leaves_cells_unchanged(data, weighted):
    metrics = ["selection_rate", "tpr", "fpr", "accuracy"]
    frame = _fairlearn_by_group(data, ["race", "sex"], weighted)
    args = dict(sensitive_features=data[["race", "sex"]], metrics=metrics, n_boot=100, random_state=3,
                sample_weight=data["w"] if weighted else None)
    with_overall = group_rates(data["y"], data["y_pred"], overall=True, **args)
    without = group_rates(data["y"], data["y_pred"], **args)
    top = with_overall.iloc[:len(metrics)]
    assert top.index.droplevel("metric").unique().tolist() == [("overall", "")]
    np.testing.assert_allclose(top["rate"].to_numpy(), frame.overall[metrics].to_numpy(float), rtol=1e-12)
    assert top.loc[("overall", "", "accuracy"), "count"] == len(data)
    pd.testing.assert_frame_equal(with_overall.iloc[len(metrics):], without, check_index_type=False)
    # The overall row's resamples are the cells' resamples added up (weighted sums; label-scaled ones differ).
    from faircode.metrics._bootstrap import SUMS, bootstrap_sums, categorize
    from faircode.metrics._inputs import encode_groups

    groups = encode_groups(data[["race", "sex"]], len(data))
    w = data["w"].to_numpy() if weighted else None
    cats = categorize(groups.codes, data["y"].to_numpy(), data["y_pred"].to_numpy(), w, groups.n_cells)
    sums = bootstrap_sums(cats, 50, np.random.default_rng(0), stratify=False, total=True)
    plain_columns = [i for i, name in enumerate(SUMS) if name.startswith("W_")]
    np.testing.assert_allclose(sums[:, -1, plain_columns], sums[:, :-1, plain_columns].sum(axis=1), rtol=1e-12)
    cells_only = bootstrap_sums(cats, 50, np.random.default_rng(0), stratify=False)
    np.testing.assert_array_equal(sums[:, :-1], cells_only)
    assert (top["lower"] <= top["rate"]).all() and (top["rate"] <= top["upper"]).all()
    assert format_rates(with_overall).index[0] == ("overall", "")


def test_disaggregate_overall_and_gap_metrics(data):
    args = dict(sensitive_features=data["race"], n_boot=40, random_state=2, reference="White")
    result = disaggregate(data["y"], data["y_pred"], metrics=["base_rate", "fpr", "fnr"], gap_metrics=["fpr"],
                          overall="everyone", **args)
    assert result.rates.index.unique("metric").tolist() == ["base_rate", "fpr", "fnr"]
    assert result.gaps.index.unique("metric").tolist() == ["fpr"]
    assert result.spread.index.tolist() == ["fpr"]
    assert result.overall.index.tolist() == ["base_rate", "fpr", "fnr"]
    assert result.overall.loc["base_rate", "rate"] == pytest.approx(data["y"].mean(), rel=1e-12)
    assert "everyone" not in result.gaps.index.get_level_values("race")
    pd.testing.assert_frame_equal(result.gaps, gaps_to_reference(data["y"], data["y_pred"], metrics=["fpr"], **args))
    rest = {k: v for k, v in args.items() if k != "reference"}
    pd.testing.assert_frame_equal(result.spread, gaps_between_groups(data["y"], data["y_pred"], metrics=["fpr"],
                                                                     **rest))
    with pytest.raises(ValueError, match=re.escape("these rates have no overall row; call disaggregate(..., "
                                                   "overall=True)")):
        disaggregate(data["y"], data["y_pred"], metrics=["fpr"], **args).overall


def test_disaggregation_unpacks_and_names_its_overall_row(data):
    args = dict(sensitive_features=data["race"], metrics=["fpr"], reference="White")
    result = disaggregate(data["y"], data["y_pred"], overall="everyone", **args)
    rates, gaps, spread = result
    assert rates is result.rates and gaps is result.gaps and spread is result.spread
    assert result.overall_label == "everyone"
    assert disaggregate(data["y"], data["y_pred"], **args).overall_label is None


def test_tables_keep_their_meaning_through_a_csv_round_trip(data, tmp_path):
    """No meaning rides in DataFrame.attrs: the interval method, flags and reference are columns."""
    args = dict(sensitive_features={"race": data["race"]}, metrics=["tpr", "fpr"], n_boot=50, min_events=30)
    for table, formatter, levels in [
        (group_rates(data["y"], data["y_pred"], overall=True, **args), format_rates, ["race", "metric"]),
        (gaps_to_reference(data["y"], data["y_pred"], **args), format_gaps, ["race", "metric"]),
        (gaps_between_groups(data["y"], data["y_pred"], **args), format_gaps, ["metric"]),
    ]:
        assert not table.attrs
        table.to_csv(tmp_path / "table.csv")
        again = pd.read_csv(tmp_path / "table.csv", index_col=levels)
        pd.testing.assert_frame_equal(formatter(again), formatter(table), check_dtype=False)


@pytest.mark.parametrize("kwargs, message", [
    (dict(interval="bca"), "unknown interval 'bca'; the intervals are: bootstrap, exact, wilson"),
    (dict(min_events=-2), "min_events must be a non-negative integer; got -2"),
    (dict(overall=3), "overall must be True, False or a non-empty label (str); got 3"),
    (dict(overall="a"), "the overall row's label 'a' is also a group; pass overall='<another label>'"),
])
def test_bad_new_options_say_what_arrived(kwargs, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        group_rates([0, 1, 1], [0, 1, 1], sensitive_features=["a", "b", "b"], **kwargs)


def test_a_list_where_a_metric_name_is_expected_says_so():
    with pytest.raises(ValueError, match=re.escape("metric must be one name (a str), not a list; got ['tpr']. "
                                                   "The metrics are: 'selection_rate'")):
        group_rates([0, 1], [0, 1], sensitive_features=["a", "b"], metrics=[["tpr"]])


def test_bad_gap_metrics():
    with pytest.raises(ValueError, match=re.escape("unknown metric 'ppv'; the metrics are: 'selection_rate'")):
        disaggregate([0, 1, 1, 0], [0, 1, 1, 1], sensitive_features=["a", "b", "b", "a"], gap_metrics=["ppv"])


def test_categorical_features_keep_their_category_order():
    """Bands come out youngest first, as their categories say; plain labels are sorted alphabetically."""
    order = ["young", "middle", "old"]
    band = pd.Categorical(["old", "young", "middle"] * 40, categories=order, ordered=True)
    sex = np.array(["m", "f"] * 60)
    y, pred = np.tile([0, 1], 60), np.tile([1, 1, 0], 40)
    for features in ({"band": band}, pd.Series(band, name="band"), pd.DataFrame({"band": band})):
        table = group_rates(y, pred, sensitive_features=features, metrics=["selection_rate"])
        assert list(table.index.get_level_values("band")) == order
    both = group_rates(y, pred, sensitive_features={"band": band, "sex": sex}, metrics=["selection_rate"])
    assert list(both.index.droplevel("metric")) == [(b, s) for b in order for s in ["f", "m"]]
    as_text = group_rates(y, pred, sensitive_features={"band": np.asarray(band)}, metrics=["selection_rate"])
    assert list(as_text.index.get_level_values("band")) == ["middle", "old", "young"]
    gaps = gaps_to_reference(y, pred, sensitive_features={"band": band}, reference="middle",
                             metrics=["selection_rate"])
    assert list(gaps.index.get_level_values("band")) == ["young", "old"]


def test_every_metric_is_one_record_and_the_tables_follow_it():
    """One record per rate (kinds of row counted, among which rows); counts, events and denominators follow."""
    from faircode.metrics._bootstrap import SUMS
    from faircode.metrics._definitions import DEFINITIONS, KINDS, ROWS

    assert tuple(DEFINITIONS) == METRICS and len(METRICS) == 9
    assert set(SUMS) == {f"{scale}_{kind}" for scale in ("W", "L") for kind in KINDS}
    rng = np.random.default_rng(2)
    y, y_pred = rng.integers(0, 2, 300), rng.integers(0, 2, 300)
    kind = pd.Series(np.asarray(KINDS)[2 * y + y_pred])
    table = group_rates(y, y_pred, sensitive_features=["all"] * 300, metrics=list(METRICS), min_count=0)
    for name, record in DEFINITIONS.items():
        assert set(record.events) < set(record.denominator) and record.among in ROWS
        row = table.loc[("all", name)]
        assert row["denominator"] == record.among
        assert row["count"] == kind.isin(record.denominator).sum()
        assert row["events"] == kind.isin(record.events).sum()
        assert row["rate"] == row["events"] / row["count"]
