"""The benchmark harness: the audits' data as every page loads it, and the strategy comparison.

``load_audit`` (defined in ``faircode.data._audits``) is re-exported here, so that the harness and the pages load an
audit with the same loader, encoding and split.
Run the comparison with ``python -m faircode.benchmark`` (``--help`` lists the options).
"""
from faircode.data import AuditData, DataFileError, list_audits, load_audit
from faircode._choices import FEATURE_STRATEGIES, MITIGATIONS, STRATEGIES
from faircode.benchmark._harness import DEFAULT_MODELS, Target, check_grid, run_benchmark
from faircode.benchmark._report import format_results, show_results, write_csv
from faircode.benchmark._strategies import fit_strategy, reweighing_weights

__all__ = [
    "AuditData", "DEFAULT_MODELS", "DataFileError", "FEATURE_STRATEGIES", "MITIGATIONS", "STRATEGIES",
    "Target", "check_grid", "fit_strategy", "format_results", "list_audits", "load_audit", "reweighing_weights",
    "run_benchmark", "show_results", "write_csv",
]
