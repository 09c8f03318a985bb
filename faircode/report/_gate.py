"""``--fail-on``: conditions on an audit's gaps, ratios and rates that fail a CI job.

A condition reads ``<metric> <op> <limit>``: ``fpr_gap > 0.05`` (a group's FPR minus the reference's),
``abs(tpr_gap) > 0.05`` (either direction), ``selection_ratio < 0.8`` (selection rate over the reference's; any
``<rate>_ratio`` too), ``fnr > 0.4`` (a group's own rate), ``auc < 0.7``; ``op`` is one of ``>``, ``>=``, ``<``,
``<=``. ``four_fifths_ratio < 0.8`` is 29 CFR 1607.4(D)'s ratio, each group's selection rate over the highest
group's (the ``four_fifths`` table, every group but the highest, the reference included), and
``unfavourable_four_fifths_ratio < 0.8`` the same on 1 - selection rate, for a positive prediction that is
unfavourable. Metric names are read case-insensitively. It is checked for every group of every column (not the reference, nor a group too small to estimate) at
every threshold. A group too small (a rate's denominator, or an AUC's positives or negatives, under ``min_count``)
is never checked, so it can never fail the job: both messages count those estimates.

``when="interval"`` (the default) fails only when the whole interval lies beyond the limit: the data show the
gap is over 0.05. ``when="point"`` fails when the estimate does: cheaper to trip, and it trips on noise, most of
all in small groups. A condition whose interval is undefined is reported as not evaluated, and does not fail.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

from faircode.report._errors import AuditInputError, closest, listed
from faircode.report._texts import NAMES

WHEN = ("interval", "point")
FOUR_FIFTHS = {"four_fifths_ratio": "positive favourable", "unfavourable_four_fifths_ratio": "positive unfavourable"}
_ALIASES = {"ppv": "precision", "selection": "selection_rate"}
_PATTERN = re.compile(r"^\s*(abs\(\s*)?([A-Za-z_]+)\s*(\))?\s*(>=|<=|>|<)\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*$")


@dataclass(frozen=True)
class Condition:
    text: str
    table: str  # "gaps", "rates" or "auc"
    column: str  # the table's column holding the estimate
    metric: str | None  # the rate; None for auc
    op: str
    limit: float
    absolute: bool


def _metric_names(rate_metrics, gap_metrics) -> list[str]:
    names = [*rate_metrics, *(f"{m}_gap" for m in gap_metrics), *(f"{m}_ratio" for m in gap_metrics),
             "selection_ratio", *FOUR_FIFTHS, "auc"]
    return names + [f"{a}{suffix}" for a in _ALIASES for suffix in ("", "_gap", "_ratio")]


def parse(text: str) -> Condition:
    """One condition, or an error saying what form it must take and naming the closest metric."""
    from faircode.report._audit import GAP_METRICS, RATE_METRICS

    match = _PATTERN.match(text) if isinstance(text, str) else None
    if not match or bool(match.group(1)) != bool(match.group(3)):
        raise AuditInputError(f"cannot read the condition {text!r}: expected '<metric> <op> <number>' such as "
                              "'fpr_gap > 0.05', 'abs(tpr_gap) > 0.05' or 'selection_ratio < 0.8', with op one of "
                              ">, >=, <, <=")
    absolute, name, op, limit = bool(match.group(1)), match.group(2).lower(), match.group(4), float(match.group(5))
    if name in FOUR_FIFTHS:
        return Condition(text.strip(), "four_fifths", "ratio", FOUR_FIFTHS[name], op, limit, absolute)
    if name == "selection_ratio":
        name = "selection_rate_ratio"
    for suffix, table, column in (("_gap", "gaps", "difference"), ("_ratio", "gaps", "ratio"), ("", "rates", "estimate")):
        base = name[: len(name) - len(suffix)] if suffix and name.endswith(suffix) else (name if not suffix else None)
        if base is None:
            continue
        base = _ALIASES.get(base, base)
        valid = GAP_METRICS if table == "gaps" else RATE_METRICS
        if base in valid:
            return Condition(text.strip(), table, column, base, op, limit, absolute)
    if name == "auc":
        return Condition(text.strip(), "auc", "auc", None, op, limit, absolute)
    names = _metric_names(RATE_METRICS, GAP_METRICS)
    raise AuditInputError(f"unknown metric {name!r} in the condition {text!r}{closest(name, names)}; the metrics "
                          f"are: {listed(names, limit=40)}")


def _beyond(cond: Condition, estimate, lower, upper, when: str) -> bool | None:
    """True when the condition holds (the job should fail), None when it cannot be judged."""
    ops = {">": np.greater, ">=": np.greater_equal, "<": np.less, "<=": np.less_equal}
    test, c = ops[cond.op], cond.limit
    if when == "point":
        if math.isnan(estimate):
            return None
        value = abs(estimate) if cond.absolute else estimate
        return bool(test(value, c))
    if math.isnan(lower) or math.isnan(upper):
        return None
    if not cond.absolute:
        # the whole interval beyond the limit: its nearest end to the limit's side is beyond it
        return bool(test(lower, c)) if cond.op in (">", ">=") else bool(test(upper, c))
    if cond.op in (">", ">="):  # |x| > c everywhere on [lower, upper]
        return bool(test(lower, c) or test(-upper, c))
    return bool(test(upper, c) and test(-lower, c))  # |x| < c everywhere


@dataclass
class GateResult:
    """The conditions checked, the rows that failed them, and the rows that could not be judged."""

    conditions: list
    when: str
    failures: list = field(default_factory=list)
    not_evaluated: list = field(default_factory=list)
    checked: int = 0
    skipped_too_small: int = 0

    @property
    def passed(self) -> bool:
        return not self.failures

    @property
    def exit_code(self) -> int:
        return 0 if self.passed else 1

    def message(self) -> str:
        if self.passed:
            extra = f"; {len(self.not_evaluated)} not evaluated (undefined)" if self.not_evaluated else ""
            if self.skipped_too_small:
                extra += (f"; {self.skipped_too_small} estimates of groups too small to estimate were not "
                          "checked (see the report's tables)")
            return (f"faircode audit: PASS, {len(self.conditions)} condition(s) on {self.checked} estimates "
                    f"({self.when}){extra}")
        skipped = (f"; {self.skipped_too_small} estimates of groups too small to estimate were not checked"
                   if self.skipped_too_small else "")
        beyond = "the whole interval" if self.when == "interval" else "the estimate"
        lines = [f"faircode audit: FAIL, {len(self.failures)} of {self.checked} estimates meet a --fail-on condition "
                 f"({beyond} beyond the limit){skipped}:"]
        for f in self.failures:
            at = "" if f["threshold"] is None else f" at threshold {f['threshold']:g}"
            ref = f" vs {f['reference']!r}" if f.get("reference") else ""
            ends = ["unbounded" if v is None else f"{v:.3f}" for v in (f["lower"], f["upper"])]
            interval = "" if f["lower"] is None and f["upper"] is None else f" [{ends[0]}, {ends[1]}]"
            lines.append(f"  {f['condition']}: {f['column']} = {f['group']!r}{ref}{at}: {f['metric']} "
                         f"{f['estimate']:.3f}{interval}")
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"when": self.when, "conditions": [c.text for c in self.conditions], "passed": self.passed,
                "checked": self.checked, "skipped_too_small": self.skipped_too_small, "failures": self.failures, "not_evaluated": self.not_evaluated}


def _number(x):
    x = float(x)
    return None if math.isnan(x) else (x if math.isfinite(x) else None)


def check(report, conditions, *, when: str = "interval") -> GateResult:
    """Check conditions (a string or a list of them) on an ``AuditReport``; see the module's docstring."""
    if when not in WHEN:
        raise AuditInputError(f"when must be one of {listed(WHEN)}; got {when!r}")
    if isinstance(conditions, str):
        conditions = [conditions]
    parsed = [parse(c) for c in conditions]
    result = GateResult(conditions=parsed, when=when)
    for cond in parsed:
        if cond.table == "gaps":
            rows = report.gaps[report.gaps["metric"] == cond.metric]
            lo, hi, label = f"{cond.column}_lower", f"{cond.column}_upper", f"{NAMES[cond.metric]} {cond.column}"
        elif cond.table == "four_fifths":
            ff = report.four_fifths
            rows = ff[(ff["direction"] == cond.metric) & ~ff["is_comparator"]].rename(columns={"comparator": "reference"})
            lo, hi = "ratio_lower", "ratio_upper"
            label = ("four-fifths ratio to the highest" if cond.metric == "positive favourable" else
                     "four-fifths ratio of 1 - selection rate to the highest")
        elif cond.table == "rates":
            rows = report.rates[(report.rates["metric"] == cond.metric) & (report.rates["column"] != "overall")]
            lo, hi, label = "lower", "upper", NAMES[cond.metric]
        else:
            if report.auc is None:
                raise AuditInputError(f"the condition {cond.text!r} needs a score; this audit has decisions only")
            rows = report.auc[report.auc["column"] != "overall"]
            lo, hi, label = "lower", "upper", "AUC"
        for row in rows.to_dict("records"):
            if row.get("too_small", False):
                result.skipped_too_small += 1
                continue
            estimate = float(row[cond.column])
            lower = float(row.get(lo, np.nan)) if lo in row else np.nan
            upper = float(row.get(hi, np.nan)) if hi in row else np.nan
            if cond.column == "ratio" and math.isinf(upper):
                upper = math.inf
            verdict = _beyond(cond, estimate, lower, upper, when)
            result.checked += 1
            record = {"condition": cond.text, "column": row["column"], "group": str(row["group"]),
                      "reference": row.get("reference"), "threshold": row.get("threshold"), "metric": label,
                      "estimate": _number(estimate), "lower": _number(lower), "upper": _number(upper)}
            if record["threshold"] is not None and isinstance(record["threshold"], float) and math.isnan(record["threshold"]):
                record["threshold"] = None
            if verdict is None:
                result.not_evaluated.append(record)
            elif verdict:
                if record["upper"] is None and math.isinf(upper):
                    record["upper"] = None
                result.failures.append(record)
    return result
