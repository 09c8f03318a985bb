"""faircode: the shared package of The Fair Code Project's explainer pages.

Audit data (``load_audit``, ``list_audits``), model builder (``build_model``), and, in submodules, metrics,
splits and the benchmark harness.
"""
from faircode._audits import AuditData, DataFileError, list_audits, load_audit
from faircode.models import MODELS, build_model

__all__ = ["AuditData", "DataFileError", "MODELS", "build_model", "list_audits", "load_audit"]
