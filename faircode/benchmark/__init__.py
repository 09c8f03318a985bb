"""The benchmark harness: the audits' data as every page loads it, and the strategy comparison.

``load_audit`` (defined in ``faircode.data``) is re-exported here, so that the harness and the pages load an
audit with the same loader, encoding and split. Decisions at a fixed capacity, as the harness makes them on an
audit that decides so: ``top_share`` (the top share of rows by score), ``top_share_by_group`` and
``group_shares`` (per-group shares that meet a constraint at the same total). The harness's fits are kept in the
fit cache (``_fitcache``, ``.cache/fits/``).
Run the comparison with ``python -m faircode.benchmark`` (``--help`` lists the options).
"""
from faircode._choices import FEATURE_STRATEGIES, MITIGATIONS, STRATEGIES
from faircode.benchmark._capacity import group_shares, top_share, top_share_by_group
from faircode.benchmark._harness import DEFAULT_MODELS, Target, check_grid, run_benchmark
from faircode.benchmark._report import format_results, show_results, write_csv
from faircode.benchmark._strategies import fit_strategy, reweighing_weights
from faircode.data import AuditData, DataFileError, list_audits, load_audit

__all__ = [
    "AuditData", "DEFAULT_MODELS", "DataFileError", "FEATURE_STRATEGIES", "MITIGATIONS", "STRATEGIES",
    "Target", "check_grid", "fit_strategy", "format_results", "group_shares", "list_audits", "load_audit",
    "reweighing_weights", "run_benchmark", "show_results", "top_share", "top_share_by_group", "write_csv",
]
