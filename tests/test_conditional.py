"""faircode.metrics.conditional_gaps: brute-force agreement, Simpson's paradox, intervals, errors."""
import doctest
import re

import numpy as np
import pandas as pd
import pytest

import faircode.metrics._conditional
from faircode.metrics import conditional_gaps, format_gaps, gaps_to_reference


@pytest.fixture
def data():
    """Two groups spread unevenly over four strata; stratum 'd' has no row of group 'b'."""
    rng = np.random.default_rng(11)
    n = 600
    group = rng.choice(["a", "b"], size=n, p=[0.6, 0.4])
    stratum = np.where(group == "a", rng.choice(list("abcd"), size=n, p=[0.1, 0.2, 0.4, 0.3]),
                       rng.choice(list("abc"), size=n, p=[0.5, 0.3, 0.2]))
    level = pd.Series(stratum).map({"a": 0.1, "b": 0.3, "c": 0.5, "d": 0.7}).to_numpy()
    y = (rng.random(n) < level).astype(int)
    y_pred = (rng.random(n) < level + 0.1 * (group == "a")).astype(int)
    return pd.DataFrame({"group": group, "stratum": stratum, "y": y, "y_pred": y_pred,
                         "w": rng.uniform(0.5, 2.0, size=n)})


def _brute_force(frame, metric, weights):
    """Pooled and conditional gap of group b to a, straight from pandas group-bys."""
    def rate(rows):
        if metric == "selection_rate":
            return np.average(rows["y_pred"], weights=rows["w"]) if len(rows) else np.nan
        positives = rows[rows["y"] == 1]
        return np.average(positives["y_pred"], weights=positives["w"]) if len(positives) else np.nan

    pooled = rate(frame[frame["group"] == "b"]) - rate(frame[frame["group"] == "a"])
    total, weight_sum, used = 0.0, 0.0, 0
    for _, rows in frame.groupby("stratum"):
        within = rate(rows[rows["group"] == "b"]) - rate(rows[rows["group"] == "a"])
        if np.isnan(within):
            continue
        who = {"stratum": rows, "group": rows[rows["group"] == "b"], "reference": rows[rows["group"] == "a"]}
        share = who[weights]["w"].sum()
        total, weight_sum, used = total + share * within, weight_sum + share, used + 1
    return pooled, total / weight_sum, used


@pytest.mark.parametrize("weights", ["stratum", "group", "reference"])
@pytest.mark.parametrize("weighted", [False, True])
def test_point_values_equal_a_brute_force_computation(data, weights, weighted):
    frame = data if weighted else data.assign(w=1.0)
    gaps = conditional_gaps(data["y"], data["y_pred"], sensitive_features=data["group"], strata=data["stratum"],
                            reference="a", metrics=["selection_rate", "tpr"], weights=weights,
                            sample_weight=frame["w"] if weighted else None)
    for metric in ("selection_rate", "tpr"):
        pooled, conditional, used = _brute_force(frame, metric, weights)
        row = gaps.loc[("b", metric)]
        assert row["pooled"] == pytest.approx(pooled, abs=1e-12)
        assert row["conditional"] == pytest.approx(conditional, abs=1e-12)
        assert row["strata_used"] == used == 3
        assert row["strata_left_out"] == 1


@pytest.mark.parametrize("weighted", [False, True])
def test_pooled_gap_equals_gaps_to_reference(data, weighted):
    """Also with weights, whose scaled sums for the label-conditional rates must not be added across strata."""
    args = dict(sensitive_features={"group": data["group"]}, reference="a",
                metrics=["selection_rate", "tpr", "fpr", "precision"],
                sample_weight=data["w"] if weighted else None)
    gaps = conditional_gaps(data["y"], data["y_pred"], strata=data["stratum"], **args)
    plain = gaps_to_reference(data["y"], data["y_pred"], **args)
    np.testing.assert_allclose(gaps["pooled"], plain["difference"], atol=1e-12)
    assert gaps["count"].tolist() == plain["count"].tolist()
    assert gaps["reference_count"].tolist() == plain["reference_count"].tolist()


def test_simpsons_paradox_gives_opposite_signs():
    """Group b is selected more often within every stratum but less often overall: most of its rows are in the
    stratum where everyone is rarely selected."""
    rows = []
    for stratum, group, size, selected in [("hard", "a", 200, 20), ("hard", "b", 800, 160),
                                           ("easy", "a", 800, 560), ("easy", "b", 200, 160)]:
        rows += [(stratum, group, int(i < selected)) for i in range(size)]
    frame = pd.DataFrame(rows, columns=["stratum", "group", "selected"])
    gaps = conditional_gaps(frame["selected"], frame["selected"], sensitive_features=frame["group"],
                            strata=frame["stratum"], reference="a", n_boot=500, random_state=1)
    row = gaps.loc[("b", "selection_rate")]
    assert row["pooled"] == pytest.approx(320 / 1000 - 580 / 1000)
    # Within strata: hard 0.2 - 0.1, easy 0.8 - 0.7, each stratum half of the rows.
    assert row["conditional"] == pytest.approx(0.1)
    assert row["pooled_upper"] < 0 < row["conditional_lower"]


def test_intervals_contain_the_point_values_and_are_reproducible(data):
    args = dict(sensitive_features=data["group"], strata=pd.Categorical(data["stratum"]), reference="a",
                metrics=["selection_rate", "tpr"], n_boot=400, random_state=3)
    gaps = conditional_gaps(data["y"], data["y_pred"], **args)
    for name in ("pooled", "conditional"):
        assert (gaps[f"{name}_lower"] <= gaps[name]).all() and (gaps[name] <= gaps[f"{name}_upper"]).all()
        assert (gaps[f"{name}_upper"] - gaps[f"{name}_lower"] > 0).all()
    assert list(gaps.columns[:6]) == ["pooled", "pooled_lower", "pooled_upper",
                                      "conditional", "conditional_lower", "conditional_upper"]
    pd.testing.assert_frame_equal(gaps, conditional_gaps(data["y"], data["y_pred"], **args))
    narrow = conditional_gaps(data["y"], data["y_pred"], **{**args, "confidence": 0.5})
    assert (narrow["conditional_upper"] - narrow["conditional_lower"]
            < gaps["conditional_upper"] - gaps["conditional_lower"]).all()


def test_small_strata_are_counted():
    group = ["a"] * 40 + ["b"] * 40 + ["a"] * 40 + ["b"] * 5
    stratum = ["x"] * 80 + ["y"] * 45
    gaps = conditional_gaps([0] * 125, [1, 0] * 62 + [1], sensitive_features=group, strata=stratum)
    assert gaps["reference"].iloc[0] == "a"
    assert gaps["strata_used"].iloc[0] == 2 and gaps["strata_too_small"].iloc[0] == 1


BASE = dict(y_true=[0, 1, 1, 0], y_pred=[0, 1, 0, 1], sensitive_features=["a", "a", "b", "b"],
            strata=["x", "y", "x", "y"])


@pytest.mark.parametrize("changes, message", [
    (dict(reference="c"), "unknown group 'c'; the groups are: 'a', 'b'"),
    (dict(strata=["x", "y", "x"]), "strata has 3 rows but y_true has 4; they must have the same length"),
    (dict(strata={"band": ["x", "y", "x", "y"], "size": [1, 2, 3]}),
     "strata column 'size' has 3 rows but y_true has 4"),
    (dict(strata=["x", None, "x", "y"]), "strata has 1 missing values; give every row a stratum"),
    (dict(strata={}), "strata is empty"),
    (dict(weights="rows"), "unknown weights 'rows'; the weightings are: 'stratum', 'group', 'reference'"),
    (dict(metrics=["recall"]), "unknown metric 'recall'; the metrics are: 'selection_rate', 'tpr'"),
    (dict(sensitive_features=["a"] * 4), "a gap needs at least two groups; sensitive_features has 1 group"),
    (dict(n_boot=0), "n_boot must be a positive integer or None; got 0"),
    (dict(min_count=-1), "min_count must be a non-negative integer; got -1"),
    (dict(confidence=95), "confidence must lie strictly between 0 and 1; got 95"),
    (dict(y_pred=[0, 1, 2, 1]), "y_pred must hold binary labels 0 and 1"),
])
def test_bad_inputs_say_what_arrived(changes, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        conditional_gaps(**{**BASE, **changes})


def test_no_stratum_with_both_groups_gives_nan():
    gaps = conditional_gaps([0, 1, 1, 0], [0, 1, 0, 1], sensitive_features=["a", "a", "b", "b"],
                            strata=["x", "x", "y", "y"], reference="a")
    assert np.isnan(gaps["conditional"].iloc[0])
    assert gaps["strata_used"].iloc[0] == 0 and gaps["strata_left_out"].iloc[0] == 2


@pytest.mark.parametrize("metric, fairlearn_metric", [("selection_rate", "selection_rate"),
                                                     ("tpr", "true_positive_rate"),
                                                     ("fpr", "false_positive_rate")])
def test_within_stratum_gaps_match_fairlearn_control_features(data, metric, fairlearn_metric):
    """fairlearn's MetricFrame(control_features=...) gives each group's rate within each stratum; the conditional
    gap is their row-weighted mean difference, and fairlearn's per-stratum difference() is its size."""
    import fairlearn.metrics as flm

    frame = data[data["stratum"] != "d"]  # stratum d has no row of group b: fairlearn's frame would hold NaN
    mf = flm.MetricFrame(metrics=getattr(flm, fairlearn_metric), y_true=frame["y"], y_pred=frame["y_pred"],
                         sensitive_features=frame["group"], control_features=frame["stratum"])
    within = mf.by_group.unstack("group")
    gaps = conditional_gaps(frame["y"], frame["y_pred"], sensitive_features=frame["group"],
                            strata=frame["stratum"], reference="a", metrics=[metric], min_count=0)
    share = frame["stratum"].value_counts().reindex(within.index)
    expected = np.average(within["b"] - within["a"], weights=share)
    assert gaps.loc[("b", metric), "conditional"] == pytest.approx(expected, abs=1e-12)
    # The size of each within-stratum gap is fairlearn's difference() per control stratum.
    np.testing.assert_allclose((within["b"] - within["a"]).abs(), mf.difference(), atol=1e-12)
    pooled = flm.MetricFrame(metrics=getattr(flm, fairlearn_metric), y_true=frame["y"], y_pred=frame["y_pred"],
                             sensitive_features=frame["group"]).by_group
    assert gaps.loc[("b", metric), "pooled"] == pytest.approx(pooled["b"] - pooled["a"], abs=1e-12)


def test_reference_checks_and_flags_are_those_of_gaps_to_reference(data):
    """Same default reference (the group with the most rows), the same too-small and few-events flags."""
    args = dict(sensitive_features=data["group"], metrics=["tpr", "fpr"], min_count=200, min_events=40)
    gaps = conditional_gaps(data["y"], data["y_pred"], strata=data["stratum"], **args)
    plain = gaps_to_reference(data["y"], data["y_pred"], **args)
    assert gaps["reference"].tolist() == plain["reference"].tolist() == ["a", "a"]
    for column in ("too_small", "few_events", "denominator"):
        assert gaps[column].tolist() == plain[column].tolist()
    assert gaps["too_small"].any() and gaps["few_events"].any()


def test_strata_with_few_events_are_counted_and_formatted():
    # Stratum x: 40 negatives per group, no false positive in group b's; stratum y: plenty on both sides.
    rng = np.random.default_rng(4)
    y = np.concatenate([np.zeros(80, int), rng.integers(0, 2, 400)])
    y_pred = np.concatenate([np.r_[np.ones(10, int), np.zeros(30, int)], np.zeros(40, int),
                             rng.integers(0, 2, 400)])
    group = np.r_[["a"] * 40, ["b"] * 40, rng.choice(["a", "b"], 400)]
    stratum = np.r_[["x"] * 80, ["y"] * 400]
    gaps = conditional_gaps(y, y_pred, sensitive_features={"g": group}, strata=stratum, reference="a",
                            metrics=["fpr"], n_boot=200)
    row = gaps.loc[("b", "fpr")]
    assert row["strata_used"] == 2 and row["strata_few_events"] == 1 and row["strata_too_small"] == 0
    assert not row["few_events"] and row["weights"] == "stratum"
    text = format_gaps(gaps)
    assert list(text.columns) == ["pooled", "conditional", "strata_used", "count", "reference_count"]
    assert text.loc[("b", "fpr"), "conditional"] == (
        f"{row['conditional']:.3f} [{row['conditional_lower']:.3f}, {row['conditional_upper']:.3f}] "
        "(1 with few events of 2 strata)")
    assert text.loc[("b", "fpr"), "pooled"] == (
        f"{row['pooled']:.3f} [{row['pooled_lower']:.3f}, {row['pooled_upper']:.3f}]")
    small = conditional_gaps(y, y_pred, sensitive_features={"g": group}, strata=stratum, reference="a",
                             metrics=["fpr"], min_count=500)
    assert format_gaps(small).loc[("b", "fpr"), "pooled"].startswith("too small (negatives=")
    none = conditional_gaps([0, 1, 1, 0], [0, 1, 0, 1], sensitive_features=["a", "a", "b", "b"],
                            strata=["x", "x", "y", "y"], reference="a", min_count=0)
    assert format_gaps(none)["conditional"].iloc[0] == "undefined (no stratum has both rates)"


def test_the_table_keeps_its_meaning_in_columns_through_a_csv_round_trip(data, tmp_path):
    gaps = conditional_gaps(data["y"], data["y_pred"], sensitive_features={"group": data["group"]},
                            strata=data["stratum"], weights="group", n_boot=100)
    gaps.to_csv(tmp_path / "gaps.csv")
    again = pd.read_csv(tmp_path / "gaps.csv", index_col=["group", "metric"])
    assert not gaps.attrs
    pd.testing.assert_frame_equal(format_gaps(again), format_gaps(gaps))
    assert again["weights"].iloc[0] == "group"


def test_docstring_example_runs():
    result = doctest.testmod(faircode.metrics._conditional, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
