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
        "precision": black["y_pred"].sum(),
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
     "unknown metric 'recall'; the metrics are: selection_rate, tpr, fpr, fnr, tnr, precision, accuracy, "
     "base_rate"),
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


@pytest.mark.parametrize("module", ["_rates", "_gaps", "_format", "_splits", "_disaggregate"])
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
