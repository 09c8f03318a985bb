"""The profile as JSON (one object, versioned by ``schema_version``, documented by ``profile.schema.json``),
Markdown and a self-contained HTML page, with the audit report's conventions: an undefined number is ``null``,
never 0; nothing depends on the time, the machine or the file's folder, so the same input gives the same bytes."""
from __future__ import annotations

import json

from faircode.profiling import _texts
from faircode.profiling._document import build
from faircode.report._render_html import blocks_to_html
from faircode.report._render_json import _plain, records
from faircode.report._render_markdown import blocks_to_markdown

SCHEMA = "faircode-profile"
SCHEMA_VERSION = "1.0.0"
"""Version of the JSON profile's schema: the major number changes when a field is removed or changes meaning."""

INTERVALS = {
    "share": "exact (Clopper-Pearson)",
    "difference": "Newcombe's hybrid score interval for two independent proportions (method 10, Newcombe 1998)",
    "proxy_test": "Pearson's chi-squared test of independence, categories with an expected count under 5 pooled; "
                  "Holm's correction over all tests",
    "proxy_auc": "cross-fitted over two random halves of the rows (no interval)",
    "cramers_v": "bias-corrected (Bergsma 2013)",
}


def to_dict(report) -> dict:
    meta = report.meta
    out = {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "input": _plain({k: meta[k] for k in ("source", "rows_read", "rows_dropped_missing", "dropped_by_column",
                                               "rows_used", "label", "positive_label", "groups", "variables",
                                               "missing_values", "possible_missing_markers")}),
        "settings": _plain({**{k: meta[k] for k in ("confidence", "min_count", "random_state", "half_rows",
                                                     "references")}, "intervals": INTERVALS}),
        "notes": {"missing": _texts.missing_note(meta["missing_values"]), "sizes": _texts.SIZES.format(**meta),
                  "base_rates": _texts.BASE_RATES.format(**meta), "missing_by_group": _texts.MISSING,
                  "proxies": _texts.PROXIES.format(**meta)},
        "links": {key: _texts.link(key, None) for key in _texts.SECTIONS},
        "sizes": records(report.sizes, ["column", "group", "count", "share", "lower", "upper", "too_small"]),
        "base_rates": records(report.base_rates, ["column", "group", "count", "positives", "estimate", "lower",
                                                  "upper", "reference", "difference", "difference_lower",
                                                  "difference_upper", "too_small"]),
        "missing_overall": records(report.missing_overall, ["variable", "count", "missing", "share", "lower",
                                                            "upper"]),
        "missing": records(report.missing, ["column", "variable", "group", "count", "missing", "share", "lower",
                                            "upper", "reference", "difference", "difference_lower",
                                            "difference_upper", "too_small"]),
        "proxies": records(report.proxies, ["variable", "kind", "column", "group", "count", "too_small", "direction",
                                            "auc", "auc_half_1", "auc_half_2", "cramers_v", "categories",
                                            "categories_tested", "chi2", "df", "p_value", "counted", "holm"]),
        "comparisons": _plain(report.comparisons),
        "drift": None,
    }
    if meta["against"] is not None:
        out["drift"] = {
            "against": _plain(meta["against"]),
            "groups": records(report.drift_groups, ["column", "group", "count", "share", "against_count",
                                                    "against_share", "change", "change_lower", "change_upper"]),
            "base_rates": records(report.drift_base_rates, ["column", "group", "count", "estimate", "against_count",
                                                            "against_estimate", "change", "change_lower",
                                                            "change_upper"]),
            "missing": records(report.drift_missing, ["variable", "missing", "share", "against_missing",
                                                      "against_share", "change", "change_lower", "change_upper"]),
        }
    return out


def to_json(report) -> str:
    return json.dumps(to_dict(report), indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def to_markdown(report, *, docs_url=None) -> str:
    return blocks_to_markdown(build(report, docs_url=docs_url))


def to_html(report, *, docs_url=None) -> str:
    return blocks_to_html(build(report, docs_url=docs_url))
