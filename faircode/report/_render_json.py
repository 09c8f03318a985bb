"""The report as JSON: one object, versioned (``schema_version``), documented by ``audit.schema.json``.

Numbers are plain JSON numbers; an undefined value (a rate with an empty denominator, an unbounded ratio, an
interval not computed) is ``null``, never 0. Nothing in it depends on the time, the machine or the path the file
was read from, so the same input and seed give the same bytes.
"""
from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd

from faircode.report._texts import SECTIONS, FOUR_FIFTHS_CAVEAT, SMALL, SPREAD_NOTE, UNDEFINED, bootstrap_note, link

SCHEMA = "faircode-audit"
SCHEMA_VERSION = "3.0.0"
"""Version of the JSON report's schema: the major number changes when a field is removed or changes meaning.
3.0.0: ``comparisons.count`` counts distinct gaps (a group's FNR gap is minus its TPR gap: one comparison;
``gaps_listed`` counts the rows), and Holm's correction runs over them (``gaps[].counted``); ``p_value`` uses the
large-sample standard error without weights; ``auc[].too_small``.
2.0.0: ``four_fifths`` compares each group with the highest-rate group (``comparator``), in both directions
(``direction``), no longer with the reference; ``spread`` has no interval; ``p_value`` is a normal-scale one."""


def _plain(value):
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_plain(v) for v in value]
    if value is pd.NA or value is pd.NaT:
        return None
    return str(value)


def records(table: pd.DataFrame | None, columns=None) -> list[dict]:
    if table is None:
        return []
    if columns is not None:
        table = table[[c for c in columns if c in table.columns]]
    return [{k: _plain(v) for k, v in row.items()} for row in table.to_dict("records")]


def to_dict(report, gate=None) -> dict:
    meta = report.meta
    out = {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "input": _plain({k: meta[k] for k in ("source", "rows_read", "rows_dropped_missing", "dropped_by_column",
                                               "rows_zero_weight", "rows_used", "label", "positive_label", "score",
                                               "decision", "thresholds", "score_range", "groups", "intersections",
                                               "strata", "sample_weight")}),
        "settings": _plain({k: meta[k] for k in ("n_boot", "confidence", "random_state", "min_count", "min_events",
                                                  "bootstrap", "references")}),
        "notes": {"intervals": bootstrap_note(meta), "small": SMALL.format(**meta), "undefined": UNDEFINED,
                  "four_fifths": FOUR_FIFTHS_CAVEAT, "spread": SPREAD_NOTE},
        "links": {key: link(key, None) for key in SECTIONS},
        "rates": records(report.rates, ["column", "threshold", "group", "metric", "estimate", "lower", "upper",
                                        "interval", "count", "events", "denominator", "too_small", "few_events"]),
        "gaps": records(report.gaps, ["column", "threshold", "group", "reference", "metric", "difference",
                                      "difference_lower", "difference_upper", "ratio", "ratio_lower", "ratio_upper",
                                      "interval", "count", "reference_count", "too_small", "few_events", "p_value",
                                      "counted", "holm"]),
        "four_fifths": records(report.four_fifths),
        "spread": records(report.spread.rename(columns={"difference": "max_minus_min", "ratio": "min_over_max"}),
                          ["column", "threshold", "metric", "max_minus_min", "min_over_max", "max_group",
                           "min_group", "n_groups", "few_events"]),
        "comparisons": _plain(report.comparisons),
        "conditional": records(report.conditional),
        "auc": records(report.auc, ["column", "group", "auc", "se", "lower", "upper", "positives", "negatives",
                                    "too_small"]),
        "calibration": records(report.calibration, ["column", "group", "bin", "count", "mean_score", "observed",
                                                    "lower", "upper", "too_small"]),
        "curves": records(report.curves, ["column", "group", "threshold", "selection_rate", "tpr", "fpr"]),
    }
    if gate is not None:
        out["gate"] = _plain(gate.to_dict())
    return out


def to_json(report, gate=None) -> str:
    return json.dumps(to_dict(report, gate), indent=1, ensure_ascii=False, allow_nan=False) + "\n"
