"""Decisions over time: a model retrained on the outcomes its own decisions reveal.

- ``simulate_rounds``: rounds of decisions in which only the approved reveal their outcomes (``feedback=
  "selective"``) or everyone does (``"full"``), the model refitted after each round, each round's decision rule
  applied to fixed evaluation rows;
- ``threshold_rule``: the default decision rule, one threshold for every group;
- ``rates_by_round``: each round's selection rate, TPR and FPR per group and their gap, on bootstrap resamples
  of the evaluation rows (the same resamples for every run measured with the same seed).
"""
from faircode._rounds import (
    FEEDBACK,
    RATES,
    Rounds,
    rates_by_round,
    simulate_rounds,
    threshold_rule,
)

__all__ = ["FEEDBACK", "RATES", "Rounds", "rates_by_round", "simulate_rounds", "threshold_rule"]
