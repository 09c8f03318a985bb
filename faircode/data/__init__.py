"""The audits' data: find the audits, read their manifests, load and verify their data, write their data cards.

- ``list_audits``, ``get_manifest``: the audits under the root (a folder holding an ``audit.toml``, ``MANIFEST``)
  and one audit's manifest, read and checked (``read_manifest`` reads one file);
- ``load_audit``: an audit's data ready for a model (``AuditData``: features for a strategy, outcome, the fixed
  seeded split, the group masks), its data file verified against the manifest's checksum (``DataFileError``
  otherwise); also importable from ``faircode`` and ``faircode.benchmark``;
- ``stratified_split``: the split recipe ``load_audit`` uses (seeded, stratified on the outcome, sorted row
  positions), for a page or the harness that re-splits an audit's rows with another seed;
- ``warm_cache``: every audit read once, for the page build's fork server (``[tool.pagebuild] warm``);
- ``data_card``, ``write_data_cards``: each audit's generated ``DATA.md``.
"""
from faircode.data._audits import (AuditData, DataFileError, get_manifest, list_audits, load_audit,
                                   stratified_split, warm_cache)
from faircode.data._datacard import data_card, write_data_cards
from faircode.data._manifest import MANIFEST, Manifest, read_manifest

__all__ = [
    "MANIFEST", "AuditData", "DataFileError", "Manifest", "data_card", "get_manifest", "list_audits", "load_audit",
    "read_manifest", "stratified_split", "warm_cache", "write_data_cards",
]
