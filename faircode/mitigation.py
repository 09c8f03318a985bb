"""Mitigations that fairlearn and scikit-learn do not provide, written here (each module says why).

- ``reject_option_predict``: reject option classification (Kamiran, Karim and Zhang, 2012).

Reweighing lives with the benchmark that uses it: ``faircode.benchmark.reweighing_weights``.
"""
from faircode._reject_option import reject_option_predict

__all__ = ["reject_option_predict"]
