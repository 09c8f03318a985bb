"""Audit a table of one's own predictions: ``faircode.audit`` and ``python -m faircode audit``.

- ``audit``: rates per group with intervals, gaps and ratios to a reference with paired intervals from one
  bootstrap on counts, few-event and too-small cells marked, the four-fifths ratio, AUC and calibration per group;
- ``AuditReport``: its tables and the report as JSON (``SCHEMA_VERSION``), Markdown and self-contained HTML;
- ``check``: ``--fail-on`` conditions for a CI gate;
- ``AuditInputError``: every bad input, with what arrived and what was expected.
"""
from faircode.report._audit import GAP_METRICS, RATE_METRICS, audit
from faircode.report._errors import AuditInputError, AuditWarning
from faircode.report._gate import GateResult, check
from faircode.report._render_json import SCHEMA_VERSION
from faircode.report._result import AuditReport

__all__ = ["AuditInputError", "AuditReport", "AuditWarning", "GAP_METRICS", "GateResult", "RATE_METRICS", "SCHEMA_VERSION", "audit",
           "check"]
