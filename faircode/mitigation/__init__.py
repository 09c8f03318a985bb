"""Mitigations that fairlearn and scikit-learn do not provide, written here (each module says why).

- ``fit_group_dro``: group distributionally robust training, the worst group's loss instead of the average
  (Sagawa et al., 2020);
- ``reject_option_predict``: reject option classification (Kamiran, Karim and Zhang, 2012);
- ``paired_changes``: the change of each rule's parity gap and accuracy against a baseline rule on the same
  rows, with paired bootstrap intervals from one set of resamples shared by every rule (for sweeps of a
  mitigation's strength).

Reweighing lives with the benchmark that uses it: ``faircode.benchmark.reweighing_weights``.
"""
from faircode.mitigation._group_dro import fit_group_dro
from faircode.metrics._paired import paired_changes
from faircode.mitigation._reject_option import reject_option_predict

__all__ = ["fit_group_dro", "paired_changes", "reject_option_predict"]
