"""Splits for fairness evaluation.

- ``systematic_labels`` / ``systematic_split``: sort by stratifying variables, deal each block of 8 rows out
  as 4 train, 1 leaderboard, 3 holdout (or any allocation), the design of a prediction challenge's sets;
- ``group_label_folds``: cross-validation folds stratified by group x label, built on scikit-learn's
  ``StratifiedKFold`` / ``RepeatedStratifiedKFold``; ``group_label_cells`` names the cells they balance.
"""
from faircode.splits._splits import (
    DEFAULT_ALLOCATION,
    group_label_cells,
    group_label_folds,
    systematic_labels,
    systematic_split,
)

__all__ = [
    "DEFAULT_ALLOCATION",
    "group_label_cells",
    "group_label_folds",
    "systematic_labels",
    "systematic_split",
]
