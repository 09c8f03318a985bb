"""A measure repeated over runs (seeds, splits, simulated policies), each run scored on resamples of its test rows.

Pages that simulate (thin a group, resample a class, run a lending policy) fit one model per seed and score it on
the whole test set and on bootstrap resamples of it shared by every run (resample b draws the same test rows in
each run). Two different questions are asked of such runs, and each has its own interval here:

``mean_over_runs``
    What is the effect on average over runs? An interval for the expected value of the measure over the runs'
    random draws, in the population the test rows come from. It adds two sources of uncertainty: the test rows
    (the spread, across the shared resamples, of the runs' average within each resample) and which runs were
    drawn (the variance of the runs' estimates over R). Use it for a sentence about an average effect.
``single_run_range``
    What may ONE run show? A prediction range for the value a new run (a new seed, a new policy draw) has in the
    population: the run-to-run variance counted in full, plus the uncertainty of the mean it is centred on. Use it
    to say how far one seed's result may fall; "it holds zero" does not say that the effect is zero on average.

Both read the total standard error on a t distribution whose degrees of freedom come from the Welch-Satterthwaite
formula (the test-row part counts as known, the run part has R - 1 degrees of freedom), so that few runs widen
them. The percentile range of all runs' resamples pooled, which faircode once printed beside the mean, answers
neither question: as an interval for the mean it is far too wide, and with ten runs it holds a new run's value
only about 82% of the time (it spans little more than the runs' own minimum and maximum).
``tests/test_repeated.py`` checks the coverage of both by simulation. Neither fairlearn nor scikit-learn nor
scipy summarises repeated runs on shared resamples, so faircode does.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

__all__ = ["RunsInterval", "mean_over_runs", "single_run_range"]

MEAN_OVER_RUNS = "mean over runs"
ONE_RUN = "one run"


@dataclass(frozen=True)
class RunsInterval:
    """An interval from repeated runs; unpacks as ``estimate, lower, upper`` like faircode's other intervals.

    ``question`` names what it answers: ``"mean over runs"`` (``mean_over_runs``) or ``"one run"``
    (``single_run_range``). ``estimate`` is the mean of the runs' estimates either way. ``se`` is the standard
    error the interval uses, ``df`` the degrees of freedom of its t quantile, ``test_se`` the test-row standard
    error of the mean, ``run_sd`` the standard deviation of the runs' estimates, ``runs`` the number of runs and
    ``resamples`` the number of shared resamples used (those where every run's measure is defined).
    """

    question: str
    estimate: float
    lower: float
    upper: float
    se: float
    df: float
    test_se: float
    run_sd: float
    runs: int
    resamples: int

    def __iter__(self):
        return iter((self.estimate, self.lower, self.upper))


def _confidence(confidence) -> float:
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
        raise ValueError(f"confidence must be a number strictly between 0 and 1, e.g. 0.95; got {confidence!r}")
    return float(confidence)


def _parts(estimates, samples):
    """The runs' estimates, and the test-row variance of their mean from the shared resamples."""
    values = np.asarray(estimates, dtype=float)
    if values.ndim != 1 or len(values) == 0:
        raise ValueError(f"estimates must be a non-empty sequence of numbers, one per run; got shape {values.shape}")
    if not np.isfinite(values).all():
        raise ValueError(f"estimates must all be finite numbers; got {int((~np.isfinite(values)).sum())} NaN or "
                         f"infinite among {len(values)}")
    rows = [np.asarray(s, dtype=float).ravel() for s in samples]
    if len(rows) != len(values):
        raise ValueError(f"samples must hold one array per run: {len(values)} estimates but {len(rows)} sample arrays")
    lengths = sorted({len(r) for r in rows})
    if len(lengths) != 1:
        raise ValueError(
            f"samples must hold the same number of resamples for every run (resample b of every run drawn on the "
            f"same test rows); got runs with {', '.join(map(str, lengths))} resamples")
    matrix = np.vstack(rows)
    usable = np.isfinite(matrix).all(axis=0)
    if usable.sum() < 2:
        raise ValueError(f"samples hold {int(usable.sum())} resample(s) where every run's measure is finite, among "
                         f"{matrix.shape[1]}; at least 2 are needed")
    test_var = float(np.var(matrix[:, usable].mean(axis=0), ddof=1))
    return values, test_var, int(usable.sum())


def _interval(question, values, test_var, run_part, resamples, confidence) -> RunsInterval:
    """Mean plus or minus a t quantile; Welch-Satterthwaite degrees of freedom (the run part has R - 1)."""
    runs = len(values)
    total = test_var + run_part
    if run_part > 0:
        df = total**2 / (run_part**2 / (runs - 1))
        quantile = float(stats.t.ppf((1 + confidence) / 2, df))
    else:
        df = float("inf")
        quantile = float(stats.norm.ppf((1 + confidence) / 2))
    mean, se = float(values.mean()), float(np.sqrt(total))
    run_sd = float(np.std(values, ddof=1)) if runs > 1 else 0.0
    return RunsInterval(question, mean, mean - quantile * se, mean + quantile * se, se, float(df),
                        float(np.sqrt(test_var)), run_sd, runs, resamples)


def mean_over_runs(estimates, samples, *, confidence: float = 0.95) -> RunsInterval:
    """The mean of a measure over runs, with an interval for that mean.

    Estimand: the expected value of the measure over the runs' random draws (seeds, splits, policies), in the
    population the test rows come from. Two things make the printed mean uncertain:

    - the test rows: every run is scored on the same test set, so their errors move together. The runs must be
      scored on shared resamples (resample b draws the same test rows in every run); the variance over
      resamples of the runs' average within each resample is the test-row variance of the mean;
    - which runs were drawn: the variance of the runs' estimates divided by the number of runs.

    The interval is the mean plus or minus a t quantile times the square root of their sum, with
    Welch-Satterthwaite degrees of freedom. With one run there is no run-to-run spread to estimate: the interval
    is the test-row part alone on a normal quantile, and it then speaks for that one run only.

    Parameters
    ----------
    estimates : sequence of float
        The measure on the whole test set, one value per run.
    samples : sequence of array-like
        The measure on each run's bootstrap resamples, one 1-d array per run, in the order of ``estimates``,
        every run with the same number of resamples drawn on the same test rows. A resample where any run's
        measure is NaN (an empty denominator) is left out for every run.
    confidence : float, default 0.95
        Coverage of the interval, strictly between 0 and 1.

    Returns
    -------
    RunsInterval
        ``question="mean over runs"``; unpacks as ``(estimate, lower, upper)``.

    Examples
    --------
    >>> result = mean_over_runs([0.2, 0.4], [[0.1, 0.2, 0.3], [0.3, 0.4, 0.5]])
    >>> round(result.estimate, 3), round(result.test_se, 3), round(result.run_sd, 3)
    (0.3, 0.1, 0.141)
    """
    confidence = _confidence(confidence)
    values, test_var, resamples = _parts(estimates, samples)
    run_part = float(np.var(values, ddof=1)) / len(values) if len(values) > 1 else 0.0
    return _interval(MEAN_OVER_RUNS, values, test_var, run_part, resamples, confidence)


def single_run_range(estimates, samples, *, confidence: float = 0.95) -> RunsInterval:
    """A range for the value ONE new run of the same kind has in the population (a prediction range).

    Estimand: the measure of one more run (a new seed, split or policy draw) in the population the test rows
    come from. Its distance from the runs' mean has the run-to-run variance in full, plus the variance of the
    mean itself (the test rows, and the runs' variance over R); the range is the mean plus or minus a t quantile
    times the square root of that sum, with Welch-Satterthwaite degrees of freedom. It says how far one seed's
    result may fall; it is not an interval for the mean over runs (``mean_over_runs``), and a range that holds
    zero does not say that the effect is zero on average.

    Parameters
    ----------
    estimates, samples, confidence
        As for ``mean_over_runs``; at least two runs, since one run shows no run-to-run spread.

    Returns
    -------
    RunsInterval
        ``question="one run"``; unpacks as ``(estimate, lower, upper)`` with ``estimate`` the mean over runs.

    Examples
    --------
    >>> result = single_run_range([0.2, 0.4], [[0.1, 0.2, 0.3], [0.3, 0.4, 0.5]])
    >>> round(result.se, 3)
    0.2
    """
    confidence = _confidence(confidence)
    values, test_var, resamples = _parts(estimates, samples)
    if len(values) < 2:
        raise ValueError(f"single_run_range needs at least 2 runs to see how runs differ; got {len(values)}")
    run_part = float(np.var(values, ddof=1)) * (1 + 1 / len(values))
    return _interval(ONE_RUN, values, test_var, run_part, resamples, confidence)
