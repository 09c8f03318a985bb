"""The published site: page discovery, navigation and provenance used by the MkDocs hooks (``hooks.py``)."""
from scripts.site._links import code_regions, unlink_missing_pages
from scripts.site._pages import (THEMES, Audit, AuditPage, Explainer, PageMetadataError, load_audits,
                                 load_explainers)
from scripts.site._provenance import Provenance, audits_named, pinned_versions, provenance, sha256_file

__all__ = ["THEMES", "Audit", "AuditPage", "Explainer", "PageMetadataError", "Provenance", "audits_named",
           "code_regions", "load_audits", "load_explainers", "pinned_versions", "provenance", "sha256_file",
           "unlink_missing_pages"]
