"""Repeated decisions in which only the approved reveal their outcomes: a simulation of the feedback loop.

fairlearn and scikit-learn fit, evaluate and post-process one model on one data set; neither simulates a model
that is retrained, round after round, on the outcomes its own decisions let it see (the "selective labels" of
lending, bail and hiring). This module is that loop, kept small so that a page can run it over many seeds:

- round 0: a model is fitted on a seed sample whose outcomes are all known;
- round t = 1..rounds: a fresh batch of applicants is drawn from the pool (without replacement), the current
  model decides on it, the outcomes of the approved applicants (``feedback="selective"``) or of every applicant
  in the batch (``feedback="full"``) join the training rows, and the model is fitted again;
- after every fit, the round's decision rule is applied to fixed evaluation rows, whose decisions are returned
  so that a page can measure any rate per group, with the true outcomes, on the same rows every round.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from faircode._choices import check_name
from faircode.metrics._paired import resample_counts
from faircode.metrics._repeated import MEAN_OVER_RUNS, ONE_RUN, mean_over_runs, single_run_range

FEEDBACK = ("selective", "full")


def threshold_rule(threshold: float = 0.5) -> Callable:
    """The decision rule that approves a row whose score is at least ``threshold``, whatever its group."""
    if not 0 <= threshold <= 1:
        raise ValueError(f"threshold must be a number from 0 to 1; got {threshold!r}")

    def decide(scores, group):
        return np.asarray(scores) >= threshold

    return decide


def random_rule(threshold: float = 0.5, *, random_state=0) -> Callable:
    """Approve at random as many rows as ``threshold_rule(threshold)`` would: the same numbers, any rows.

    Under selective feedback it switches off which rows the model learns from while keeping how many: the
    training rows grow as under the threshold, but with applicants drawn at random from each batch. (The
    decisions it returns on evaluation rows are random too; measure the model with ``Rounds.scores`` instead.)

    Examples
    --------
    >>> decide = random_rule(0.5, random_state=1)
    >>> int(decide([0.9, 0.8, 0.3, 0.2], ["a", "a", "b", "b"]).sum())
    2
    """
    if not 0 <= threshold <= 1:
        raise ValueError(f"threshold must be a number from 0 to 1; got {threshold!r}")
    rng = np.random.default_rng(random_state)

    def decide(scores, group):
        scores = np.asarray(scores, float)
        approve = np.zeros(len(scores), bool)
        approve[rng.choice(len(scores), int((scores >= threshold).sum()), replace=False)] = True
        return approve

    return decide


def parity_rule(threshold: float = 0.5) -> Callable:
    """Group-specific thresholds that equalise the selection rate among the rows decided at once.

    The rule approves the same share of the rows as ``threshold_rule(threshold)`` would, and takes that share
    from each group separately: the highest-scored ``round(share * group size)`` rows of each group (ties broken
    by position). Each group's selection rate is then the same, up to that rounding, on every set of rows it
    decides (a batch, the evaluation rows): demographic parity by construction, round by round. fairlearn's
    ``ThresholdOptimizer`` picks such thresholds on the training rows and applies them to new ones, where the
    parity is only approximate; this rule sets them on the rows it decides, the most favourable case for
    equalising one round.

    Examples
    --------
    >>> decide = parity_rule(0.5)
    >>> decide([0.9, 0.8, 0.6, 0.3, 0.2, 0.1], ["a", "a", "a", "b", "b", "b"]).tolist()
    [True, True, False, True, True, False]
    """
    if not 0 <= threshold <= 1:
        raise ValueError(f"threshold must be a number from 0 to 1; got {threshold!r}")

    def decide(scores, group):
        scores, group = np.asarray(scores, float), np.asarray(group)
        share = (scores >= threshold).mean()
        approve = np.zeros(len(scores), bool)
        for g in np.unique(group):
            rows = np.flatnonzero(group == g)
            k = round(float(share) * len(rows))
            approve[rows[np.argsort(-scores[rows], kind="stable")[:k]]] = True
        return approve

    return decide


@dataclass(frozen=True)
class Rounds:
    """What one run of ``simulate_rounds`` did."""

    decisions: np.ndarray  # (rounds + 1, n_evaluate) bool: each round's decisions on the evaluation rows
    scores: np.ndarray  # (rounds + 1, n_evaluate) float: each round's model's scores of the evaluation rows
    seen: np.ndarray  # (rounds + 1, n_groups) int: training rows per group after each round's fit
    groups: np.ndarray  # the group labels, in the order of ``seen``'s columns


def simulate_rounds(X, y, group, *, pool, evaluate, seed_size: int, batch_size: int, rounds: int,
                    make_model: Callable, feedback: str = "selective", decide: Callable | None = None,
                    random_state=0) -> Rounds:
    """Simulate rounds of decisions in which a model learns only from the outcomes it reveals.

    Parameters
    ----------
    X : array of shape (n, d)
        Features of every row.
    y : array of shape (n,) of 0/1
        Outcomes, 1 the favourable one (repaid, not charged again): a row is approved when ``decide`` says so.
    group : array of shape (n,)
        Group of each row, passed to ``decide`` and counted in ``seen``.
    pool : array of int
        Row positions applicants are drawn from: first the seed sample, then one batch per round, all
        without replacement (so ``seed_size + rounds * batch_size`` must not exceed ``len(pool)``).
    evaluate : array of int
        Row positions every round's rule decides on (e.g. the audit's test rows); they should not overlap
        ``pool``.
    seed_size, batch_size, rounds : int
        Rows of the seed sample (every outcome known), applicants per round, and rounds after the seed.
    make_model : callable
        Returns a fresh unfitted estimator with ``fit`` and ``predict_proba`` (called once per fit).
    feedback : {"selective", "full"}, default "selective"
        Whose outcomes join the training rows: the approved applicants' only, or every applicant's (the
        benchmark: a lender that somehow learns every outcome).
    decide : callable, optional
        ``decide(scores, group) -> bool array``: which rows to approve given the model's scores (probability
        of the favourable outcome) and their groups. Default: ``threshold_rule(0.5)``.
    random_state : int or numpy.random.Generator, default 0
        Seed of the draws of the seed sample and the batches.

    Returns
    -------
    Rounds
        ``decisions[t]`` are round t's decisions on the evaluation rows (round 0: the seed model's), taken by
        ``decide`` from ``scores[t]``, the round-t model's scores of them (so that a page can apply another rule
        to the same model);
        ``seen[t, k]`` counts the training rows of group ``groups[k]`` the round-t model was fitted on.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(400, 2)); y = (X[:, 0] + rng.normal(size=400) > 0).astype(int)
    >>> group = (X[:, 1] > 0).astype(int)
    >>> run = simulate_rounds(X, y, group, pool=np.arange(300), evaluate=np.arange(300, 400), seed_size=40,
    ...                       batch_size=50, rounds=3, make_model=LogisticRegression, feedback="full")
    >>> run.decisions.shape, run.seen.sum(axis=1).tolist()
    ((4, 100), [40, 90, 140, 190])
    """
    feedback = check_name(feedback, FEEDBACK, "feedback", plural="feedback modes")
    decide = threshold_rule(0.5) if decide is None else decide
    X, y, group = np.asarray(X), np.asarray(y), np.asarray(group)
    pool, evaluate = np.asarray(pool), np.asarray(evaluate)
    for name, value in (("seed_size", seed_size), ("batch_size", batch_size), ("rounds", rounds)):
        if not isinstance(value, (int, np.integer)) or value < (0 if name == "rounds" else 1):
            raise ValueError(f"{name} must be a {'non-negative' if name == 'rounds' else 'positive'} integer; "
                             f"got {value!r}")
    needed = seed_size + rounds * batch_size
    if needed > len(pool):
        raise ValueError(f"the pool holds {len(pool)} rows; a seed of {seed_size} and {rounds} rounds of "
                         f"{batch_size} need {needed}")
    groups = np.unique(group)
    rng = np.random.default_rng(random_state)
    order = rng.permutation(pool)
    seen = list(order[:seed_size])
    if len(np.unique(y[seen])) < 2:
        raise ValueError(f"the seed sample of {seed_size} rows holds one outcome only; draw a larger seed sample "
                         f"(or another random_state)")
    decisions, scores, counts = [], [], []

    def fit_and_evaluate():
        model = make_model().fit(X[seen], y[seen])
        scores.append(model.predict_proba(X[evaluate])[:, 1])
        decisions.append(np.asarray(decide(scores[-1], group[evaluate]), bool))
        counts.append([(group[seen] == g).sum() for g in groups])
        return model

    model = fit_and_evaluate()
    for t in range(rounds):
        batch = order[seed_size + t * batch_size: seed_size + (t + 1) * batch_size]
        approve = np.asarray(decide(model.predict_proba(X[batch])[:, 1], group[batch]), bool)
        seen += list(batch[approve] if feedback == "selective" else batch)
        model = fit_and_evaluate()
    return Rounds(decisions=np.array(decisions), scores=np.array(scores), seen=np.array(counts), groups=groups)


RATES = {"selection": None, "TPR": 1, "FPR": 0}  # rate -> the outcome it conditions on (None: every row)


def rates_by_round(decisions, y, member, *, n_boot: int = 200, random_state=0) -> dict:
    """Each round's selection rate, TPR and FPR in a group, in the rest and their gap, on resamples of the rows.

    Parameters
    ----------
    decisions : array of shape (rounds + 1, n) of bool
        Each round's decisions on the same n evaluation rows (``Rounds.decisions``).
    y : array of shape (n,) of 0/1
        The evaluation rows' outcomes, 1 the favourable one.
    member : array of shape (n,) of 0/1
        1 for the rows of the group, 0 for the rest.
    n_boot : int, default 200
        Bootstrap resamples of the rows. The same ``random_state`` gives the same resamples for every call, so
        that runs measured with it can be compared resample by resample (paired).
    random_state : int, default 0
        Seed of the resamples.

    Returns
    -------
    dict
        ``(side, rate) -> array (rounds + 1, 1 + n_boot)`` for side ``group``, ``rest`` and ``gap`` (group minus
        rest; 0 means parity) and rate ``selection``, ``TPR`` and ``FPR``; column 0 is the rows themselves, the
        other columns the resamples (NaN where a resample holds no row of a rate's denominator).

    Examples
    --------
    >>> out = rates_by_round([[1, 0, 1, 1]], [1, 0, 1, 0], [1, 1, 0, 0], n_boot=5)
    >>> float(out["gap", "selection"][0, 0]), float(out["group", "TPR"][0, 0])
    (-0.5, 1.0)
    """
    decisions = np.atleast_2d(np.asarray(decisions, float))
    y, member = np.asarray(y), np.asarray(member)
    n = decisions.shape[1]
    if y.shape != (n,) or member.shape != (n,):
        raise ValueError(f"decisions cover {n} rows; y and member must have {n} entries each, got {y.shape} and "
                         f"{member.shape}")
    counts = np.vstack([np.ones(n), resample_counts(n, n_boot, random_state)]).T  # rows x (1 + n_boot); column 0 every row once
    out = {}
    for side, inside in (("group", member == 1), ("rest", member == 0)):
        for rate, label in RATES.items():
            among = (inside & (y == label) if label is not None else inside).astype(float)
            with np.errstate(invalid="ignore", divide="ignore"):
                out[side, rate] = (decisions * among) @ counts / (among @ counts)
    for rate in RATES:
        out["gap", rate] = out["group", rate] - out["rest", rate]
    return out


def round_bands(values, confidence: float = 0.95, *, question: str = MEAN_OVER_RUNS):
    """Per round: the mean over runs on the rows themselves, and an interval answering ``question``.

    ``values`` has the shape ``(runs, rounds + 1, 1 + n_boot)`` of a measure stacked over runs (column 0 the rows
    themselves, columns 1.. the resamples, shared by every run as ``rates_by_round`` draws them). For each round,
    ``question="mean over runs"`` gives ``faircode.metrics.mean_over_runs`` (an interval for the average over
    runs: the test rows and the run-to-run spread both counted) and ``question="one run"`` gives
    ``faircode.metrics.single_run_range`` (how far one run may fall). Returns three arrays of length
    ``rounds + 1``: mean, lower, upper. (It once returned the percentile range of all runs' resamples
    pooled, which answers neither question.)

    Examples
    --------
    >>> values = np.array([[[0.2, 0.1, 0.3]], [[0.4, 0.3, 0.5]]])  # 2 runs, 1 round, 2 resamples
    >>> mean, low, high = round_bands(values)
    >>> round(float(mean[0]), 3), bool(low[0] < 0.3 < high[0])
    (0.3, True)
    """
    values = np.asarray(values, float)
    if values.ndim != 3 or values.shape[2] < 3:
        raise ValueError(f"values must have the shape (runs, rounds + 1, 1 + n_boot) with n_boot >= 2; got "
                         f"{values.shape}")
    summarise = {MEAN_OVER_RUNS: mean_over_runs, ONE_RUN: single_run_range}
    how = summarise[check_name(question, tuple(summarise), "question")]
    bands = [how(values[:, t, 0], values[:, t, 1:], confidence=confidence) for t in range(values.shape[1])]
    return tuple(np.array([getattr(b, k) for b in bands]) for k in ("estimate", "lower", "upper"))
