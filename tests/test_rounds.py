"""The round simulation of faircode.dynamics, against a loop written out by hand."""
import re

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from faircode.dynamics import rates_by_round, simulate_rounds, threshold_rule


@pytest.fixture
def rows():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(600, 3))
    group = (rng.random(600) < 0.4).astype(int)
    y = (X[:, 0] - 0.5 * group + rng.normal(size=600) > 0).astype(int)
    return X, y, group


def _by_hand(X, y, group, pool, evaluate, seed_size, batch_size, rounds, threshold, feedback, random_state):
    """The loop as the docstring states it, one step at a time."""
    order = np.random.default_rng(random_state).permutation(pool)
    seen = list(order[:seed_size])
    decisions = []
    for t in range(rounds + 1):
        model = LogisticRegression().fit(X[seen], y[seen])
        decisions.append(model.predict_proba(X[evaluate])[:, 1] >= threshold)
        if t == rounds:
            break
        batch = order[seed_size + t * batch_size: seed_size + (t + 1) * batch_size]
        approved = model.predict_proba(X[batch])[:, 1] >= threshold
        seen += list(batch[approved]) if feedback == "selective" else list(batch)
    return np.array(decisions), len(seen)


@pytest.mark.parametrize("feedback", ["selective", "full"])
@pytest.mark.parametrize("threshold", [0.5, 0.7])
def test_simulate_rounds_matches_the_loop_by_hand(rows, feedback, threshold):
    X, y, group = rows
    pool, evaluate = np.arange(450), np.arange(450, 600)
    run = simulate_rounds(X, y, group, pool=pool, evaluate=evaluate, seed_size=50, batch_size=80, rounds=4,
                          make_model=LogisticRegression, feedback=feedback, decide=threshold_rule(threshold),
                          random_state=7)
    decisions, n_seen = _by_hand(X, y, group, pool, evaluate, 50, 80, 4, threshold, feedback, 7)
    assert np.array_equal(run.decisions, decisions)
    assert np.array_equal(run.decisions, run.scores >= threshold)
    assert run.seen[-1].sum() == n_seen
    assert run.seen[0].sum() == 50
    if feedback == "full":
        assert run.seen.sum(axis=1).tolist() == [50, 130, 210, 290, 370]
    else:  # only the approved join, so at most a batch per round
        assert np.all(np.diff(run.seen.sum(axis=1)) <= 80)


def test_selective_feedback_learns_nothing_from_a_rule_that_approves_no_one(rows):
    X, y, group = rows
    run = simulate_rounds(X, y, group, pool=np.arange(450), evaluate=np.arange(450, 600), seed_size=50,
                          batch_size=80, rounds=3, make_model=LogisticRegression,
                          decide=lambda scores, g: np.zeros(len(scores), bool))
    assert run.seen.sum(axis=1).tolist() == [50] * 4


def test_decide_gets_the_batch_groups(rows):
    X, y, group = rows
    calls = []

    def decide(scores, g):
        calls.append(np.asarray(g))
        return np.asarray(scores) >= 0.5

    simulate_rounds(X, y, group, pool=np.arange(450), evaluate=np.arange(450, 600), seed_size=50, batch_size=80,
                    rounds=2, make_model=LogisticRegression, decide=decide, random_state=3)
    order = np.random.default_rng(3).permutation(np.arange(450))
    # calls: evaluation rows, batch 1, evaluation rows, batch 2, evaluation rows
    assert np.array_equal(calls[1], group[order[50:130]])
    assert np.array_equal(calls[3], group[order[130:210]])
    assert np.array_equal(calls[0], group[450:600])


@pytest.mark.parametrize("kwargs, message", [
    ({"feedback": "partial"}, "unknown feedback 'partial'; the feedback modes are: 'selective', 'full'"),
    ({"rounds": 10}, "the pool holds 450 rows; a seed of 50 and 10 rounds of 80 need 850"),
    ({"seed_size": 0}, "seed_size must be a positive integer; got 0"),
    ({"rounds": -1}, "rounds must be a non-negative integer; got -1"),
])
def test_simulate_rounds_rejects_bad_input(rows, kwargs, message):
    X, y, group = rows
    options = {"pool": np.arange(450), "evaluate": np.arange(450, 600), "seed_size": 50, "batch_size": 80,
               "rounds": 3, "make_model": LogisticRegression} | kwargs
    with pytest.raises(ValueError, match=re.escape(message)):
        simulate_rounds(X, y, group, **options)


def test_seed_sample_with_one_outcome_is_an_error():
    X = np.zeros((20, 1))
    with pytest.raises(ValueError, match="the seed sample of 5 rows holds one outcome only"):
        simulate_rounds(X, np.ones(20, int), np.zeros(20), pool=np.arange(15), evaluate=np.arange(15, 20),
                        seed_size=5, batch_size=5, rounds=1, make_model=LogisticRegression)


def test_rates_by_round_against_a_direct_computation():
    rng = np.random.default_rng(2)
    decisions = rng.random((3, 200)) < 0.6
    y = (rng.random(200) < 0.5).astype(int)
    member = (rng.random(200) < 0.3).astype(int)
    out = rates_by_round(decisions, y, member, n_boot=20, random_state=4)
    for t in range(3):
        d = decisions[t]
        g, r = member == 1, member == 0
        assert out["group", "selection"][t, 0] == pytest.approx(d[g].mean())
        assert out["rest", "TPR"][t, 0] == pytest.approx(d[r & (y == 1)].mean())
        assert out["group", "FPR"][t, 0] == pytest.approx(d[g & (y == 0)].mean())
        assert out["gap", "TPR"][t, 0] == pytest.approx(d[g & (y == 1)].mean() - d[r & (y == 1)].mean())
    # resample 5 (column 6): the rows drawn, each as often as drawn
    draws = np.random.default_rng(4).integers(0, 200, size=(20, 200))[5]  # resample_counts' draws
    idx = np.sort(draws)
    d, yy, m = decisions[1][idx], y[idx], member[idx]
    assert out["gap", "selection"][1, 6] == pytest.approx(d[m == 1].mean() - d[m == 0].mean())
    assert out["rest", "FPR"][1, 6] == pytest.approx(d[(m == 0) & (yy == 0)].mean())
    # the same seed gives the same resamples: a second call agrees column by column
    again = rates_by_round(decisions, y, member, n_boot=20, random_state=4)
    assert np.array_equal(again["gap", "FPR"], out["gap", "FPR"], equal_nan=True)


def test_rates_by_round_rejects_rows_of_another_length():
    with pytest.raises(ValueError, match="decisions cover 4 rows; y and member must have 4 entries each"):
        rates_by_round([[1, 0, 1, 1]], [1, 0, 1], [1, 1, 0, 0])


def test_docstring_examples_run():
    import doctest

    import faircode.dynamics._rounds

    result = doctest.testmod(faircode.dynamics._rounds, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.8])
def test_parity_rule_equalises_selection_and_keeps_the_total(threshold):
    from faircode.dynamics import parity_rule

    rng = np.random.default_rng(5)
    group = rng.choice(["a", "b", "c"], 900)
    scores = rng.uniform(0, 1, 900) + 0.2 * (group == "a")
    approve = parity_rule(threshold)(scores, group)
    share = (scores >= threshold).mean()
    for g in ("a", "b", "c"):
        inside = group == g
        assert approve[inside].sum() == round(float(share) * inside.sum())
        # within a group, everyone approved scores at least as high as everyone refused
        if approve[inside].any() and (~approve[inside]).any():
            assert scores[inside & approve].min() >= scores[inside & ~approve].max()
    assert abs(approve.sum() - (scores >= threshold).sum()) <= 3


def test_parity_rule_rejects_a_threshold_outside_zero_to_one():
    from faircode.dynamics import parity_rule

    with pytest.raises(ValueError, match="threshold must be a number from 0 to 1; got 1.5"):
        parity_rule(1.5)


def test_run_audit_rounds_matches_simulate_rounds_on_the_audit():
    from sklearn.preprocessing import StandardScaler

    from faircode import load_audit
    from faircode.dynamics import ROUND_SETTINGS, parity_rule, run_audit_rounds

    got = run_audit_rounds("German Credit Lending", rule="parity", seeds=[3], n_boot=5)
    s = ROUND_SETTINGS["German Credit Lending"]
    data = load_audit("German Credit Lending")
    X = StandardScaler().fit(data.X.iloc[data.idx_train]).transform(data.X)
    y, member, test = data.y.to_numpy(), data.masks["age"].to_numpy(), data.idx_test
    run = simulate_rounds(X, y, member, pool=data.idx_train, evaluate=test, seed_size=s.seed_size,
                          batch_size=s.batch_size, rounds=s.rounds, decide=parity_rule(s.threshold),
                          make_model=lambda: LogisticRegression(max_iter=2000), random_state=3)
    young = member[test] == 1
    for t in range(s.rounds + 1):
        d, own = run.decisions[t], run.scores[t] >= s.threshold
        assert got.decided["group", "selection"][0, t, 0] == pytest.approx(d[young].mean())
        assert got.own["gap", "selection"][0, t, 0] == pytest.approx(own[young].mean() - own[~young].mean())
    assert np.array_equal(got.seen[0], run.seen)
    assert got.decided["gap", "TPR"].shape == (1, s.rounds + 1, 6)


def test_run_audit_rounds_with_one_threshold_decides_as_its_model():
    from faircode import load_audit
    from faircode.dynamics import run_audit_rounds

    got = run_audit_rounds("Pretrial Risk Assessment", seeds=[0], n_boot=3)
    assert np.array_equal(got.decided["gap", "FPR"], got.own["gap", "FPR"], equal_nan=True)
    data = load_audit("Pretrial Risk Assessment")
    # the favourable outcome is not being charged again, on the audit's test rows (whatever its default sample)
    assert np.array_equal(got.y, 1 - data.y.to_numpy()[data.idx_test])


@pytest.mark.parametrize("kwargs, message", [
    ({"audit": "Benefits Denial"}, ("unknown audit 'Benefits Denial'; the audits are: 'German Credit Lending', "
                                    "'Pretrial Risk Assessment' (the audits with round settings)")),
    ({"rule": "quota"}, "unknown rule 'quota'; the rules are: 'threshold', 'parity', 'random'"),
    ({"seeds": []}, "seeds must hold at least one seed; got []"),
])
def test_run_audit_rounds_rejects_bad_input(kwargs, message):
    from faircode.dynamics import run_audit_rounds

    options = {"audit": "German Credit Lending", "n_boot": 2} | kwargs
    with pytest.raises(ValueError, match=re.escape(message)):
        run_audit_rounds(options.pop("audit"), **options)


def test_round_bands_answer_the_question_asked_round_by_round():
    from faircode.dynamics import round_bands
    from faircode.metrics import mean_over_runs, single_run_range

    rng = np.random.default_rng(6)
    values = rng.normal(size=(4, 3, 51))
    for question, how in (("mean over runs", mean_over_runs), ("one run", single_run_range)):
        mean, low, high = round_bands(values, confidence=0.9, question=question)
        for t in range(3):
            expected = how(values[:, t, 0], values[:, t, 1:], confidence=0.9)
            assert mean[t] == pytest.approx(values[:, t, 0].mean())
            assert [low[t], high[t]] == pytest.approx([expected.lower, expected.upper])
    with pytest.raises(ValueError, match=re.escape("got (4, 3)")):
        round_bands(values[:, :, 0])
    with pytest.raises(ValueError, match="'mean over runs', 'one run'"):
        round_bands(values, question="pooled")


def test_random_rule_approves_as_many_as_the_threshold_and_any_rows():
    from faircode.dynamics import random_rule

    scores = np.linspace(0, 1, 101)
    picks = [random_rule(0.7, random_state=seed)(scores, np.zeros(101)) for seed in range(50)]
    assert all(p.sum() == (scores >= 0.7).sum() for p in picks)
    # any row can be drawn: over 50 draws every row of the lower scores is approved sometimes
    assert np.stack(picks)[:, :70].any(axis=0).mean() > 0.9


def test_run_audit_rounds_switches_the_mechanisms_off():
    from faircode.dynamics import ROUND_SETTINGS, run_audit_rounds

    rounds = ROUND_SETTINGS["German Credit Lending"].rounds
    drawn = run_audit_rounds("German Credit Lending", seeds=[0, 1], n_boot=2, outcome="logistic")
    recorded = run_audit_rounds("German Credit Lending", seeds=[0], n_boot=2)
    assert drawn.y.shape == (2, len(recorded.y)) and not np.array_equal(drawn.y[0], drawn.y[1])
    assert set(np.unique(drawn.y)) == {0, 1}
    rand = run_audit_rounds("German Credit Lending", seeds=[0], n_boot=2, rule="random")
    threshold = run_audit_rounds("German Credit Lending", seeds=[0], n_boot=2)
    assert rand.seen.shape == threshold.seen.shape == (1, rounds + 1, 2)
    assert np.array_equal(rand.seen[:, 0], threshold.seen[:, 0])  # the same seed sample
    with pytest.raises(ValueError, match="unknown outcome 'made up'"):
        run_audit_rounds("German Credit Lending", seeds=[0], n_boot=2, outcome="made up")
