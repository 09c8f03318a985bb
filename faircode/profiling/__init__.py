"""Describe a table before a model: ``faircode.profile`` and ``python -m faircode profile``.

- ``profile``: group sizes and shares with exact intervals (small groups flagged), base rates by group, missing
  values by group, each column's strength as a proxy for each group (cross-fitted AUC, Cramér's V, Holm-corrected
  tests), and the drift from an earlier file (changes with Newcombe's intervals);
- ``ProfileReport``: its tables and the profile as JSON (``SCHEMA_VERSION``), Markdown and self-contained HTML.
Bad input raises ``faircode.AuditInputError``, as for ``faircode.audit``.
"""
from faircode.profiling._profile import profile
from faircode.profiling._render import SCHEMA_VERSION
from faircode.profiling._result import ProfileReport

__all__ = ["ProfileReport", "SCHEMA_VERSION", "profile"]
