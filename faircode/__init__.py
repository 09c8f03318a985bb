"""faircode: the shared package of The Fair Code Project's explainer pages.

One subpackage per concern, its implementation in underscore modules inside it and its public names (with
``__all__``) in its ``__init__.py``. A subpackage imports only those listed before it and the one-file modules
(the command line, ``__main__``, aside), so calls between subpackages go one way only:

- ``faircode.metrics``: rates per group and intersection with counts and exact, Wilson or bootstrap intervals,
  gaps (also conditional on strata), paired resamples, cross-group AUC, repeated runs and re-splits, Holm;
- ``faircode.data``: the audits (``load_audit``, ``list_audits``, also importable from here and from
  ``faircode.benchmark``), their manifests and data cards;
- ``faircode.splits``: systematic sampling in blocks, group x label stratified folds;
- ``faircode.mitigation``: group DRO, reject option classification, paired changes against a baseline rule;
- ``faircode.dynamics``: decisions over rounds, a model retrained on the outcomes its own decisions reveal;
- ``faircode.benchmark``: the strategy comparison (``python -m faircode.benchmark``), capacity decisions, and
  the fit cache of its fits;
- ``faircode.report``: auditing one's own predictions, ``audit`` and ``python -m faircode audit``;
- ``faircode.profiling``: describing a table before a model, ``profile`` and ``python -m faircode profile``;
- one-file public modules: ``faircode.models`` (``build_model``), ``faircode.auc`` (DeLong intervals on an
  AUC and on a difference of two), ``faircode.recourse`` (the cheapest change of actionable features that
  turns a linear model's refusal into an approval), ``faircode.display`` (``show``, how a page prints a table);
  ``_choices`` is the one private helper every subpackage shares (checking a name against its valid set).
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
