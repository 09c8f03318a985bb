"""The result of ``faircode.audit``: its tables, and the report in JSON, Markdown and HTML."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd


@dataclass
class AuditReport:
    """What ``faircode.audit`` measured.

    Tables (pandas DataFrames, long: one row per column of groups, threshold, group and metric):
    ``rates`` (every group's rates with intervals, counts and flags; the column ``overall`` holds all rows),
    ``gaps`` (difference and ratio of each group's rate to its column's reference, paired intervals, bootstrap
    p-value, Holm's flag), ``spread`` (the lowest selection rate over the highest, over groups large enough: point values, no
    interval), ``four_fifths`` (29 CFR 1607.4(D)'s ratio: each group's rate over the highest group's, for a
    favourable positive on the selection rate and for an unfavourable one on 1 - selection rate, with intervals), and with a score ``auc``, ``calibration`` and ``curves``; with
    strata, ``conditional``. ``meta`` says what was read and how it was measured.
    """

    meta: dict
    rates: pd.DataFrame
    gaps: pd.DataFrame
    spread: pd.DataFrame
    four_fifths: pd.DataFrame
    conditional: pd.DataFrame | None = None
    auc: pd.DataFrame | None = None
    calibration: pd.DataFrame | None = None
    curves: pd.DataFrame | None = None

    @property
    def comparisons(self) -> dict:
        """How many gaps were compared, and what that means for reading their intervals."""
        from faircode.report._texts import comparisons

        return comparisons(self)

    def to_dict(self) -> dict:
        """The report as JSON-ready data (schema ``faircode/report/audit.schema.json``)."""
        from faircode.report._render_json import to_dict

        return to_dict(self)

    def to_json(self, *, gate=None) -> str:
        """The report as JSON text, versioned by its ``schema_version``; the same input gives the same bytes.
        ``gate``, a ``check`` result, adds its outcome."""
        from faircode.report._render_json import to_json

        return to_json(self, gate)

    def to_markdown(self, *, docs_url: str | None = None, gate=None) -> str:
        """The report as Markdown; each section links to the explainer page that teaches it."""
        from faircode.report._render_markdown import to_markdown

        return to_markdown(self, docs_url=docs_url, gate=gate)

    def to_html(self, *, docs_url: str | None = None, gate=None) -> str:
        """A self-contained HTML page (inline CSS, figures as inline SVG, no external request)."""
        from faircode.report._render_html import to_html

        return to_html(self, docs_url=docs_url, gate=gate)

    def check(self, conditions, *, when: str = "interval"):
        """Evaluate ``--fail-on`` conditions such as ``"fpr_gap > 0.05"``; see ``faircode.report.check``."""
        from faircode.report._gate import check

        return check(self, conditions, when=when)
