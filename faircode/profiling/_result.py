"""The result of ``faircode.profile``: its tables, and the profile in JSON, Markdown and HTML."""
from __future__ import annotations

from dataclasses import dataclass

import pandas as pd


@dataclass
class ProfileReport:
    """What ``faircode.profile`` measured.

    Tables (pandas DataFrames, long): ``sizes`` (rows and share of each group of each group column, exact
    intervals, ``too_small``), ``base_rates`` (with a label: each group's base rate, exact interval, and its gap to
    the reference group with Newcombe's interval), ``missing_overall`` (each column's missing share) and
    ``missing`` (by group, with gaps to the reference), ``proxies`` (each column against each group: cross-fitted
    AUC, Cramér's V, chi-squared p-value, Holm's flag) and, with ``reference_data``, ``drift_groups``,
    ``drift_base_rates`` and ``drift_missing`` (the change from the earlier table, Newcombe's interval).
    ``meta`` says what was read and how it was measured.
    """

    meta: dict
    sizes: pd.DataFrame
    base_rates: pd.DataFrame | None
    missing: pd.DataFrame | None
    missing_overall: pd.DataFrame
    proxies: pd.DataFrame
    drift_groups: pd.DataFrame | None = None
    drift_base_rates: pd.DataFrame | None = None
    drift_missing: pd.DataFrame | None = None

    @property
    def comparisons(self) -> dict:
        """How many proxy tests were made, and how many survive Holm's correction."""
        from faircode.profiling._texts import comparisons

        return comparisons(self)

    def to_dict(self) -> dict:
        """The profile as JSON-ready data (schema ``faircode/profiling/profile.schema.json``)."""
        from faircode.profiling._render import to_dict

        return to_dict(self)

    def to_json(self) -> str:
        """The profile as JSON text, versioned by its ``schema_version``; the same input gives the same bytes."""
        from faircode.profiling._render import to_json

        return to_json(self)

    def to_markdown(self, *, docs_url: str | None = None) -> str:
        """The profile as Markdown; each section links to the explainer page that teaches it."""
        from faircode.profiling._render import to_markdown

        return to_markdown(self, docs_url=docs_url)

    def to_html(self, *, docs_url: str | None = None) -> str:
        """A self-contained HTML page in the audit report's style (inline CSS, no external request)."""
        from faircode.profiling._render import to_html

        return to_html(self, docs_url=docs_url)
