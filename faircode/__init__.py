"""faircode: the shared package of The Fair Code Project's explainer pages.

- audit data: ``load_audit``, ``list_audits`` (also importable from ``faircode.benchmark``, which re-exports
  them for the harness);
- models: ``build_model``;
- metrics (``faircode.metrics``): rates per group and intersection with counts, gaps (also conditional on
  strata), bootstrap intervals;
- splits (``faircode.splits``): systematic sampling in blocks, group x label stratified folds;
- decisions over rounds (``faircode.dynamics``): a model retrained on the outcomes its own decisions reveal;
- recourse (``faircode.recourse``): the cheapest change of actionable features that turns a linear model's refusal
  into an approval;
- the strategy comparison: ``python -m faircode.benchmark``;
- auditing one's own predictions (``faircode.report``): ``audit`` and ``python -m faircode audit``;
- describing a table before a model (``faircode.profiling``): ``profile`` and ``python -m faircode profile``.
"""
from faircode.data import AuditData, DataFileError, list_audits, load_audit
from faircode.metrics import (
    DEFAULT_METRICS,
    INTERVALS,
    METRICS,
    Disaggregation,
    conditional_gaps,
    disaggregate,
    format_gaps,
    format_rates,
    gaps_between_groups,
    gaps_to_reference,
    group_rates,
)
from faircode.models import MODELS, build_model
from faircode.profiling import ProfileReport, profile
from faircode.report import AuditInputError, AuditReport, audit
from faircode.splits import group_label_cells, group_label_folds, systematic_labels, systematic_split

__all__ = [
    "AuditData", "AuditInputError", "AuditReport", "DataFileError", "DEFAULT_METRICS", "Disaggregation", "INTERVALS", "METRICS", "MODELS", "build_model",
    "conditional_gaps", "disaggregate", "format_gaps", "format_rates", "gaps_between_groups", "gaps_to_reference", "group_label_cells",
    "audit", "group_label_folds", "profile", "ProfileReport", "group_rates", "list_audits", "load_audit", "systematic_labels", "systematic_split",
]
