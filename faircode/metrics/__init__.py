"""Disaggregated evaluation: rates per group and per intersection with their counts, gaps, bootstrap intervals.

What fairlearn's ``MetricFrame`` gives and faircode adds:

- an undefined rate (its denominator is zero) is NaN, never 0;
- every rate carries the number of rows in its denominator, and a rate whose count is under ``min_count`` is
  flagged, and printed by ``format_rates`` as ``too small (n=12)`` rather than as a number;
- gaps against a reference group as well as the spread across groups, difference and ratio side by side;
- percentile bootstrap intervals on every rate and every gap, from the same resamples, computed thousands of
  times faster than ``MetricFrame(n_boot=...)`` (see ``scripts/benchmarks/bench_metrics.py``), with an option
  to resample within groups; or exact (Clopper-Pearson) or Wilson intervals on the rates (``interval=``);
- a rate resting on few events (fewer than ``min_events`` rows on either side of its numerator, e.g. 0 false
  positives among 31 negatives) is flagged ``few_events``; under the bootstrap it gets the exact interval, since
  the bootstrap's collapses there (an exact or Wilson interval asked for is always the one given, and every
  rate's ``interval`` column names its method); gaps involving it are flagged too, and the formatters show both
  flags;
- a conditional (standardised) gap, ``conditional_gaps``: the within-stratum gaps of each group to a reference,
  averaged with each stratum's share of rows as weight, beside the pooled gap, with intervals from the same
  resamples;
- a measure repeated over runs (seeds, splits, policies), each scored on shared bootstrap resamples of its
  test rows, with an interval for each of the two questions one asks of it: ``mean_over_runs`` (an interval
  for the mean over runs, from the test rows and the run-to-run spread) and ``single_run_range`` (a range for
  what one new run may show);
- a measure computed once per random train/test split of one data set, ``over_resplits``: the mean with
  Nadeau and Bengio's corrected interval (what a model fitted on that many rows of the population would show)
  and, beside it, the plain t interval over the splits (which speaks of these rows only);
- ``resample_counts``: the bootstrap as a matrix of how often each row appears in each resample, to share one
  set of resamples between many decision rules so that every comparison between them is paired (scipy's
  ``bootstrap`` draws afresh for every statistic), and ``resampled_gap``, a group's selection rate, TPR or FPR
  minus the rest's in every resample at once;
- cross-group AUC (xAUC, ``cross_group_auc``): one group's positives ranked against another group's negatives,
  which scikit-learn and fairlearn do not compute;
- an overall row over all rows (``overall=True``, like ``MetricFrame.overall``), and in ``disaggregate`` a
  separate metric set for the gaps (``gap_metrics``), e.g. a base rate shown for context but not compared.
"""
from faircode.metrics._binomial import INTERVALS
from faircode.metrics._conditional import CONDITIONAL_WEIGHTS, conditional_gaps
from faircode.metrics._disaggregate import Disaggregation, disaggregate
from faircode.metrics._format import format_gaps, format_rates
from faircode.metrics._gaps import gaps_between_groups, gaps_to_reference
from faircode.metrics._paired import resample_counts, resampled_gap
from faircode.metrics._rates import DEFAULT_METRICS, METRICS, group_rates
from faircode.metrics._ranking import cross_group_auc
from faircode.metrics._repeated import RunsInterval, mean_over_runs, single_run_range
from faircode.metrics._resplits import SplitsInterval, over_resplits

__all__ = [
    "CONDITIONAL_WEIGHTS",
    "DEFAULT_METRICS",
    "INTERVALS",
    "METRICS",
    "RunsInterval",
    "SplitsInterval",
    "Disaggregation",
    "conditional_gaps",
    "cross_group_auc",
    "disaggregate",
    "format_gaps",
    "format_rates",
    "gaps_between_groups",
    "gaps_to_reference",
    "group_rates",
    "mean_over_runs",
    "over_resplits",
    "resample_counts",
    "resampled_gap",
    "single_run_range",
]
