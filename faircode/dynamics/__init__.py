"""Decisions over time: a model retrained on the outcomes its own decisions reveal.

- ``simulate_rounds``: rounds of decisions in which only the approved reveal their outcomes (``feedback=
  "selective"``) or everyone does (``"full"``), the model refitted after each round, each round's decision rule
  applied to fixed evaluation rows;
- ``threshold_rule``: the default decision rule, one threshold for every group;
- ``random_rule``: as many approvals as the threshold gives, drawn at random (the same numbers, any rows);
- ``parity_rule``: group-specific thresholds that give every group the same selection rate among the rows
  decided at once (demographic parity by construction, round by round);
- ``rates_by_round``: each round's selection rate, TPR and FPR per group and their gap, on bootstrap resamples
  of the evaluation rows (the same resamples for every run measured with the same seed); ``round_bands``: a
  measure's mean over runs, round by round, with ``mean_over_runs``'s interval for it (or, asked for,
  ``single_run_range``'s range for one run);
- ``run_audit_rounds``: the loop on an audit with its ``ROUND_SETTINGS``, once per seed, measured on the audit's
  test rows (the decisions, and the model's own gap at the single threshold); ``outcome="logistic"`` replaces
  the audit's outcomes by draws from a logistic model of its features, so that the loop's model is correctly
  specified.
"""
from faircode.dynamics._audit_rounds import (
    ROUND_SETTINGS,
    AuditRounds,
    RoundSettings,
    run_audit_rounds,
)
from faircode.dynamics._rounds import (
    FEEDBACK,
    RATES,
    Rounds,
    parity_rule,
    random_rule,
    rates_by_round,
    round_bands,
    simulate_rounds,
    threshold_rule,
)

__all__ = [
    "FEEDBACK", "RATES", "ROUND_SETTINGS", "AuditRounds", "RoundSettings", "Rounds", "parity_rule", "random_rule",
    "rates_by_round", "round_bands", "run_audit_rounds", "simulate_rounds", "threshold_rule",
]
