"""Mitigations written in faircode, each against a direct computation."""
import numpy as np
import pytest

from faircode.mitigation import reject_option_predict


def _by_hand(scores, groups, deprived, width, threshold, favourable):
    """The rule row by row, as Kamiran et al. state it."""
    out = []
    for s, g in zip(scores, groups):
        if threshold - width < s < threshold + width:
            out.append(favourable if g == deprived else 1 - favourable)
        else:
            out.append(1 if s > threshold else 0)
    return out


@pytest.mark.parametrize("width", [0.0, 0.03, 0.1, 0.25, 1.0])
@pytest.mark.parametrize("threshold", [0.5, 0.3])
@pytest.mark.parametrize("favourable", [1, 0])
def test_reject_option_matches_the_rule_row_by_row(width, threshold, favourable):
    rng = np.random.default_rng(3)
    scores = rng.uniform(0, 1, 500)
    groups = rng.choice(["f", "m", "x"], 500)
    got = reject_option_predict(scores, sensitive_features=groups, deprived="f", width=width,
                                threshold=threshold, favourable=favourable)
    assert got.tolist() == _by_hand(scores, groups, "f", width, threshold, favourable)


def test_zero_width_is_the_plain_threshold_and_a_band_moves_selection_rates():
    rng = np.random.default_rng(0)
    scores, groups = rng.uniform(0, 1, 400), rng.choice(["a", "b"], 400)
    plain = reject_option_predict(scores, sensitive_features=groups, deprived="a", width=0)
    assert plain.tolist() == (scores > 0.5).astype(int).tolist()
    wide = reject_option_predict(scores, sensitive_features=groups, deprived="a", width=0.2)
    a = groups == "a"
    assert wide[a].mean() > plain[a].mean() and wide[~a].mean() < plain[~a].mean()


@pytest.mark.parametrize("kwargs, message", [
    ({"deprived": "z"}, "deprived group 'z' is not among the groups of sensitive_features: ['a', 'b']"),
    ({"width": -0.1}, "width must be a finite number >= 0; got -0.1"),
    ({"width": float("nan")}, "width must be a finite number >= 0; got nan"),
    ({"favourable": 2}, "favourable must be 0 or 1; got 2"),
])
def test_bad_input_says_what_arrived(kwargs, message):
    args = {"deprived": "a", "width": 0.1} | kwargs
    with pytest.raises(ValueError) as err:
        reject_option_predict([0.2, 0.6], sensitive_features=["a", "b"], **args)
    assert str(err.value) == message


def test_lengths_and_scores_are_checked():
    with pytest.raises(ValueError, match=r"equal length; got shapes \(2,\) and \(3,\)"):
        reject_option_predict([0.2, 0.6], sensitive_features=["a", "b", "a"], deprived="a", width=0.1)
    with pytest.raises(ValueError, match="scores must be finite numbers; got 1 NaN or infinite"):
        reject_option_predict([0.2, np.nan], sensitive_features=["a", "b"], deprived="a", width=0.1)


def test_paired_changes_match_a_loop_over_explicit_resamples():
    from faircode.mitigation import paired_changes

    rng = np.random.default_rng(5)
    n, n_boot = 300, 200
    y = rng.integers(0, 2, n)
    groups = rng.choice(["f", "m"], n)
    rules = {"base": rng.integers(0, 2, n), "other": rng.integers(0, 2, n)}
    table = paired_changes(y, rules, sensitive_features=groups, group="f", base="base", n_boot=n_boot,
                           random_state=3)
    draws = np.random.default_rng(3).integers(0, n, size=(n_boot, n))  # the documented resamples

    def stats(d, rows):
        f = groups[rows] == "f"
        return d[rows][f].mean() - d[rows][~f].mean(), (d[rows] == y[rows]).mean()

    changes = np.array([np.subtract(stats(rules["other"], r), stats(rules["base"], r)) for r in draws])
    expected_point = np.subtract(stats(rules["other"], np.arange(n)), stats(rules["base"], np.arange(n)))
    row = table.loc["other"]
    assert row["parity_change"] == pytest.approx(expected_point[0])
    assert row["accuracy_change"] == pytest.approx(expected_point[1])
    for k, name in enumerate(("parity", "accuracy")):
        low, high = np.quantile(changes[:, k], [0.025, 0.975])
        assert row[f"{name}_lower"] == pytest.approx(low, abs=1e-5)
        assert row[f"{name}_upper"] == pytest.approx(high, abs=1e-5)
    assert table.loc["base"].abs().max() == 0


def test_paired_changes_bad_input():
    from faircode.mitigation import paired_changes

    with pytest.raises(ValueError, match=r"base 'z' is not a key of predictions; the keys are: \['a'\]"):
        paired_changes([1, 0], {"a": [1, 0]}, sensitive_features=["f", "m"], group="f", base="z")
    with pytest.raises(ValueError, match=r"group 'q' must hold some rows and not all of them"):
        paired_changes([1, 0], {"a": [1, 0]}, sensitive_features=["f", "m"], group="q", base="a")


@pytest.mark.parametrize("module", ["mitigation._reject_option", "metrics._paired", "mitigation._group_dro"])
def test_docstring_examples_run(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(f"faircode.{module}"), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def _two_group_data():
    rng = np.random.default_rng(0)
    x = rng.normal(0, 1, 600)
    g = np.where(np.arange(600) < 450, "big", "small")
    # The groups need different cut-offs on x; one logistic regression on x must compromise.
    y = (x + rng.normal(0, 0.5, 600) > np.where(g == "big", 0.0, 1.0)).astype(int)
    return x[:, None], y, g


def test_group_dro_reaches_the_minimax_of_a_brute_force_search():
    from sklearn.linear_model import LogisticRegression

    from faircode.mitigation._group_dro import group_log_loss
    from faircode.mitigation import fit_group_dro

    X, y, g = _two_group_data()
    codes = (g == "small").astype(int)
    worst = []
    for w in np.linspace(0, 1, 101):  # every mix of the two groups' total weights
        weights = np.where(g == "big", w / 450, (1 - w) / 150) * 600
        model = LogisticRegression().fit(X, y, sample_weight=weights)
        worst.append(group_log_loss(y, model.predict_proba(X)[:, 1], codes, 2).max())
    model, history = fit_group_dro(LogisticRegression(), X, y, sensitive_features=g, rounds=60, step=2.0)
    dro_worst = group_log_loss(y, model.predict_proba(X)[:, 1], codes, 2).max()
    plain = LogisticRegression().fit(X, y)
    assert dro_worst <= min(worst) + 0.005
    assert dro_worst < group_log_loss(y, plain.predict_proba(X)[:, 1], codes, 2).max()
    # The first update, by hand.
    q1 = history["q"][0] * np.exp(2.0 * history["loss"][0])
    assert np.allclose(history["q"][1], q1 / q1.sum())
    assert np.allclose(history["q"][0], [0.5, 0.5])


@pytest.mark.parametrize("kwargs, message", [
    ({"sensitive_features": ["a"] * 6}, r"at least 2 groups in sensitive_features; got \['a'\]"),
    ({"rounds": 0}, "rounds must be an int >= 1; got 0"),
    ({"step": -1.0}, "step must be a finite number > 0; got -1.0"),
])
def test_group_dro_bad_input(kwargs, message):
    from sklearn.linear_model import LogisticRegression

    from faircode.mitigation import fit_group_dro

    args = {"sensitive_features": ["a", "a", "a", "b", "b", "b"]} | kwargs
    with pytest.raises(ValueError, match=message):
        fit_group_dro(LogisticRegression(), [[0], [1], [2], [0], [1], [2]], [0, 1, 1, 0, 0, 1], **args)
