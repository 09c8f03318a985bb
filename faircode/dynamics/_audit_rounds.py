"""The round simulation on an audit: its settings, and runs over many seeds measured on the audit's test rows.

The pages on feedback loops and on repeated decisions run the same loop on the same audits; the settings and the
loop over seeds live here once, so that the two pages measure the same thing.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

from faircode.data._audits import load_audit
from faircode._choices import check_name
from faircode.dynamics._rounds import (
    parity_rule,
    random_rule,
    rates_by_round,
    simulate_rounds,
    threshold_rule,
)


@dataclass(frozen=True)
class RoundSettings:
    """How an audit's decisions are simulated over rounds."""

    attribute: str  # the protected attribute whose mask marks the group
    favourable: int  # the audit's label (0 or 1) that benefits the person
    threshold: float  # approve when the estimated probability of the favourable outcome is at least this
    seed_size: int
    batch_size: int
    rounds: int


ROUND_SETTINGS = {
    # UCI's cost matrix charges 5 for a bad risk approved and 1 for a good one refused: approving is the cheaper
    # decision when P(good) >= 5/6. The seed sample and seven batches use the 800 training rows.
    "German Credit Lending": RoundSettings("age", 1, 5 / 6, seed_size=100, batch_size=100, rounds=7),
    # The favourable outcome is not being charged again; release when its estimated probability is >= 0.5.
    "Pretrial Risk Assessment": RoundSettings("race", 0, 0.5, seed_size=200, batch_size=500, rounds=8),
}
RULES = {"threshold": threshold_rule, "parity": parity_rule, "random": random_rule}
OUTCOMES = ("recorded", "logistic")


def _rule(rule: str, threshold: float, seed):
    """The decision rule of one run (``random_rule`` gets a generator of its own per seed)."""
    if rule == "random":
        return random_rule(threshold, random_state=[seed, 2])
    return RULES[rule](threshold)


@dataclass(frozen=True)
class AuditRounds:
    """Runs of one rule and one feedback mode on an audit, one per seed, measured on its test rows."""

    decided: dict  # (side, rate) -> (seeds, rounds + 1, 1 + n_boot): the rule's decisions (``rates_by_round``)
    own: dict  # the same for the round's model at the single threshold (the gap the rule has to correct)
    seen: np.ndarray  # (seeds, rounds + 1, 2): training outcomes of the rest (0) and of the group (1)
    y: np.ndarray  # the test rows' outcomes, 1 the favourable one; (seeds, n) for outcome="logistic"
    member: np.ndarray  # the test rows' group mask


def run_audit_rounds(audit: str, *, rule: str = "threshold", feedback: str = "selective", seeds=range(10),
                     n_boot: int = 200, outcome: str = "recorded") -> AuditRounds:
    """Simulate rounds on an audit with its ``ROUND_SETTINGS``, once per seed.

    The model is a logistic regression on the audit's S2 features (scaled once on the training rows, so that
    hundreds of fits stay fast); the seed sample and the batches come from the training rows, and every round's
    model decides on the test rows. Every run is measured on the same bootstrap resamples of the test rows
    (``rates_by_round`` with its default seed), so runs of different rules, feedback modes and seeds can be
    compared resample by resample.

    Parameters
    ----------
    audit : str
        An audit of ``ROUND_SETTINGS``.
    rule : {"threshold", "parity", "random"}
        ``threshold_rule``, ``parity_rule`` or ``random_rule`` (seeded with ``[seed, 2]``) at the audit's
        threshold. With ``"random"`` the decisions in ``decided`` are random; ``own`` measures the model.
    feedback : {"selective", "full"}
        Whose outcomes join the training rows (see ``simulate_rounds``).
    seeds : iterable of int
        One run per seed (the seed sample and the order of the batches).
    n_boot : int, default 200
        Bootstrap resamples of the test rows.
    outcome : {"recorded", "logistic"}, default "recorded"
        The outcomes the loop learns from and is measured on: the audit's own, or, to switch misspecification
        off, outcomes drawn from a logistic regression fitted to every row of the audit on the same scaled
        features, so that the loop's model (a logistic regression on those features) is correctly specified.
        Each seed draws its own outcomes for every row (from ``numpy.random.default_rng([seed, 1])``), so that
        the mean over seeds averages over the draw too; ``y`` is then an array of shape (seeds, test rows).

    Examples
    --------
    >>> r = run_audit_rounds("German Credit Lending", seeds=[0, 1], n_boot=3, outcome="logistic")
    >>> r.decided["gap", "selection"].shape, r.y.shape
    ((2, 8, 4), (2, 200))
    """
    audit = check_name(audit, tuple(ROUND_SETTINGS), "audit", note=" (the audits with round settings)")
    rule = check_name(rule, tuple(RULES), "rule")
    outcome = check_name(outcome, OUTCOMES, "outcome")
    s = ROUND_SETTINGS[audit]
    data = load_audit(audit)
    X = StandardScaler().fit(data.X.iloc[data.idx_train]).transform(data.X)
    y = data.y.to_numpy() if s.favourable == 1 else 1 - data.y.to_numpy()
    member = data.masks[s.attribute].to_numpy()
    test = data.idx_test
    if outcome == "logistic":
        truth = LogisticRegression(max_iter=2000).fit(X, y).predict_proba(X)[:, 1]
    decided, own, seen, outcomes = [], [], [], []
    for seed in seeds:
        if outcome == "logistic":
            y = (np.random.default_rng([seed, 1]).random(len(truth)) < truth).astype(int)
        outcomes.append(y[test])
        run = simulate_rounds(X, y, member, pool=data.idx_train, evaluate=test, seed_size=s.seed_size,
                              batch_size=s.batch_size, rounds=s.rounds, feedback=feedback,
                              decide=_rule(rule, s.threshold, seed),
                              make_model=lambda: LogisticRegression(max_iter=2000),
                              random_state=seed)
        decided.append(rates_by_round(run.decisions, y[test], member[test], n_boot=n_boot))
        own.append(rates_by_round(run.scores >= s.threshold, y[test], member[test], n_boot=n_boot))
        seen.append(run.seen)
    if not seen:
        raise ValueError(f"seeds must hold at least one seed; got {seeds!r}")

    def stack(runs):
        return {k: np.stack([r[k] for r in runs]) for k in runs[0]}

    y = outcomes[0] if outcome == "recorded" else np.stack(outcomes)
    return AuditRounds(decided=stack(decided), own=stack(own), seen=np.stack(seen), y=y, member=member[test])
