"""The benchmark harness: the audits' data as every page loads it, and the strategy comparison.

``load_audit`` lives here because the pages say "same loader, encoding and split as the benchmark harness".
Run the comparison with ``python -m faircode.benchmark``.
"""
from faircode._audits import STRATEGIES, AuditData, DataFileError, list_audits, load_audit

__all__ = ["AuditData", "DataFileError", "STRATEGIES", "list_audits", "load_audit"]
