"""faircode.recourse against scipy's linear-programming solver and a brute-force search."""
import itertools

import numpy as np
import pytest
from scipy.optimize import linprog

from faircode.recourse import linear_recourse


def _by_linprog(score, x, coef, weights, lower, upper, threshold):
    """The same problem as a linear programme: changes d = up - down, both non-negative."""
    m = len(x)
    need = threshold - score
    if need <= 0:
        return 0.0
    cost = np.concatenate([weights, weights])
    a_ub = -np.concatenate([coef, -coef])[None, :]  # coef . d >= need
    bounds = [(0, max(u - v, 0)) for u, v in zip(upper, x)] + [(0, max(v - lo, 0)) for lo, v in zip(lower, x)]
    res = linprog(cost, A_ub=a_ub, b_ub=[-need], bounds=bounds, method="highs")
    assert res.status in (0, 2), res.message
    return res.fun if res.status == 0 else np.inf


@pytest.mark.parametrize("seed", range(6))
def test_cost_equals_the_linear_programme(seed):
    rng = np.random.default_rng(seed)
    n, m = 40, 3
    coef = rng.normal(0, 1, m)
    weights = rng.uniform(0.2, 2.0, m)
    lower, upper = np.full(m, -2.0), np.full(m, 2.0)
    x = rng.uniform(-2, 2, (n, m))
    scores = rng.normal(-1.5, 1.5, n)
    got = linear_recourse(scores, x, coef=coef, weights=weights, lower=lower, upper=upper)
    for i in range(n):
        want = _by_linprog(scores[i], x[i], coef, weights, lower, upper, 0.0)
        assert got["cost"][i] == pytest.approx(want, rel=1e-7, abs=1e-9)
        if np.isfinite(want):
            d = got.iloc[i, 1:].to_numpy()
            assert scores[i] + coef @ d >= -1e-9
            assert np.all(x[i] + d >= lower - 1e-12) and np.all(x[i] + d <= upper + 1e-12)


def test_cost_equals_a_brute_force_search_over_a_grid():
    # Integer coefficients, bounds and values, and needs that are whole: the optimum lies on the grid of
    # half-unit moves, so the exhaustive search finds it exactly.
    coef, weights = np.array([2.0, 1.0]), np.array([1.0, 0.25])
    lower, upper = np.array([0.0, 0.0]), np.array([4.0, 6.0])
    grid = np.arange(-6, 6.5, 0.5)
    for score, a, b in itertools.product([-1.0, -4.0, -9.0, -15.0, 0.5], [0.0, 2.0, 4.0], [0.0, 3.0, 6.0]):
        best = np.inf
        for d0, d1 in itertools.product(grid, grid):
            if lower[0] <= a + d0 <= upper[0] and lower[1] <= b + d1 <= upper[1]:
                if score + coef @ [d0, d1] >= 0:
                    best = min(best, weights @ np.abs([d0, d1]))
        got = linear_recourse([score], [[a, b]], coef=coef, weights=weights, lower=lower, upper=upper)
        assert got["cost"][0] == pytest.approx(best)


def test_per_person_bounds_forbid_a_direction():
    # The first feature's coefficient is negative, so lowering it helps; a lower bound at the current value
    # forbids that, and the change must go through the second feature.
    x = np.array([[5.0, 0.0]])
    got = linear_recourse([-1.0], x, coef=[-1.0, 0.5], weights=[1.0, 1.0], lower=x, upper=[[10.0, 10.0]])
    assert got["cost"][0] == pytest.approx(2.0)
    assert got.iloc[0, 1:].tolist() == pytest.approx([0.0, 2.0])


def test_approved_people_cost_nothing_and_unreachable_ones_cost_infinity():
    got = linear_recourse([0.0, 2.0, -100.0], np.zeros((3, 1)), coef=[1.0], weights=[1.0], lower=[0.0],
                          upper=[5.0])
    assert got["cost"].tolist() == [0.0, 0.0, np.inf]
    assert np.isnan(got["f0"][2])


@pytest.mark.parametrize("kwargs, message", [
    (dict(weights=[0.0]), "weights must be positive"),
    (dict(coef=[1.0, 2.0]), r"coef must hold one value per actionable feature \(1\); got 2"),
    (dict(lower=[3.0]), "lower bound must be at most its upper bound"),
    (dict(upper=[[1.0], [1.0]]), r"upper must hold one bound per actionable feature"),
    (dict(lower=[float("nan")]), "lower must not hold NaN"),
])
def test_bad_input_says_what_arrived(kwargs, message):
    args = dict(coef=[1.0], weights=[1.0], lower=[0.0], upper=[2.0]) | kwargs
    with pytest.raises(ValueError, match=message):
        linear_recourse([-1.0], [[1.0]], **args)


def test_a_value_outside_its_bounds_is_an_error():
    with pytest.raises(ValueError, match=r"row 0, feature 0 is 7.0, outside \[0.0, 2.0\]"):
        linear_recourse([-1.0], [[7.0]], coef=[1.0], weights=[1.0], lower=[0.0], upper=[2.0])
