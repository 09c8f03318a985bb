"""The rates faircode computes, one record each: every table of them (sums, counts, events, names) derives from here.

Every rate is a share of rows of some kinds among rows of other kinds, where a row's kind is where it falls in the
confusion matrix (true/false negative/positive). A rate that conditions on the true label (TPR, FPR, FNR, TNR) is
computed from sums whose weights are scaled per label (see ``_bootstrap``); the others from the weights as given.
"""
from __future__ import annotations

from dataclasses import dataclass

KINDS = ("TN", "FP", "FN", "TP")
"""The four kinds of row; a row's position is ``2 * label + prediction``."""

ROWS = {
    "n": ("TN", "FP", "FN", "TP"),
    "positives": ("FN", "TP"),
    "negatives": ("TN", "FP"),
    "predicted positives": ("FP", "TP"),
    "predicted negatives": ("TN", "FN"),
}
"""The sets of rows a rate can be taken among, by the name tables give their count."""

CONDITIONING = {"n": "nothing", "positives": "label", "negatives": "label", "predicted positives": "prediction",
                "predicted negatives": "prediction"}
"""What a rate taken among each set of rows conditions on."""


@dataclass(frozen=True)
class Metric:
    """One rate: the share of rows of the kinds in ``events`` among the rows named by ``among``."""

    name: str
    events: tuple[str, ...]  # kinds of row in the numerator
    among: str  # key of ROWS: the denominator's rows

    @property
    def denominator(self) -> tuple[str, ...]:
        return ROWS[self.among]

    @property
    def conditioning(self) -> str:
        """``label``, ``prediction`` or ``nothing``."""
        return CONDITIONING[self.among]


_RECORDS = (
    Metric("selection_rate", ("FP", "TP"), "n"),
    Metric("tpr", ("TP",), "positives"),
    Metric("fpr", ("FP",), "negatives"),
    Metric("fnr", ("FN",), "positives"),
    Metric("tnr", ("TN",), "negatives"),
    Metric("precision", ("TP",), "predicted positives"),
    Metric("npv", ("TN",), "predicted negatives"),
    Metric("accuracy", ("TN", "TP"), "n"),
    Metric("base_rate", ("FN", "TP"), "n"),
)
DEFINITIONS = {m.name: m for m in _RECORDS}
"""Name -> record, in the order tables show the rates."""

METRICS = tuple(DEFINITIONS)
"""Names of the rates faircode computes, in the order tables show them."""

DEFAULT_METRICS = ("selection_rate", "tpr", "fpr", "fnr", "precision", "accuracy")


def kind_positions(kinds) -> list[int]:
    """Positions of kinds of row in ``KINDS`` (columns of per-kind tallies)."""
    return [KINDS.index(k) for k in kinds]
