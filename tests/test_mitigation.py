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
