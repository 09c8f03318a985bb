"""Disaggregated evaluation: rates per group and per intersection with their counts, gaps, bootstrap intervals.

What fairlearn's ``MetricFrame`` gives and faircode adds:

- an undefined rate (its denominator is zero) is NaN, never 0;
- every rate carries the number of rows in its denominator, and a rate whose count is under ``min_count`` is
  flagged, and printed by ``format_rates`` as ``too small (n=12)`` rather than as a number;
- gaps against a reference group as well as the spread across groups, difference and ratio side by side;
- percentile bootstrap intervals on every rate and every gap, from the same resamples, computed thousands of
  times faster than ``MetricFrame(n_boot=...)`` (see ``scripts/benchmarks/bench_metrics.py``), with an option
  to resample within groups.
"""
from faircode._disaggregate import Disaggregation, disaggregate
from faircode._format import format_gaps, format_rates
from faircode._gaps import gaps_between_groups, gaps_to_reference
from faircode._rates import DEFAULT_METRICS, METRICS, group_rates

__all__ = [
    "DEFAULT_METRICS",
    "METRICS",
    "Disaggregation",
    "disaggregate",
    "format_gaps",
    "format_rates",
    "gaps_between_groups",
    "gaps_to_reference",
    "group_rates",
]
