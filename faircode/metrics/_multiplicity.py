"""Holm's step-down correction for many tests read together (``faircode audit``'s gaps, ``faircode profile``'s
proxy tests): it holds the chance of any false rejection at alpha, whatever the dependence between the tests."""
from __future__ import annotations

import numpy as np


def holm(p: np.ndarray, alpha: float) -> np.ndarray:
    """Holm's step-down rejections over the p-values given (NaN counts in the family and is never rejected)."""
    p = np.asarray(p, float)
    m = len(p)
    order = np.argsort(np.where(np.isnan(p), np.inf, p), kind="stable")
    reject = np.zeros(m, bool)
    for rank, i in enumerate(order):
        if np.isnan(p[i]) or p[i] > alpha / (m - rank):
            break
        reject[i] = True
    return reject
