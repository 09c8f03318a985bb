"""Issue 23 item 6: on a real audit's predictions (the Pretrial Risk Assessment's deployed COMPAS decile scores,
flagged at 5 or more as the pages read them), faircode.audit's per-group rates equal fairlearn's MetricFrame's.

The documented difference: where a rate is undefined (its denominator is empty: a TPR in a cell with no
positives), faircode reports NaN and fairlearn 0.0. This test checks both halves: equal wherever the rate is
defined, and NaN against 0.0 exactly where it is not.
"""
import numpy as np
import pandas as pd
import pytest
from fairlearn.metrics import (MetricFrame, false_negative_rate, false_positive_rate, selection_rate,
                               true_positive_rate)
from sklearn.metrics import accuracy_score, precision_score

from faircode import load_audit
from faircode.report import audit


def _npv(y_true, y_pred):
    predicted_negative = np.asarray(y_pred) == 0
    if not predicted_negative.any():
        return 0.0  # fairlearn-style: 0 for an empty denominator
    return float((np.asarray(y_true)[predicted_negative] == 0).mean())


FAIRLEARN = {"selection_rate": selection_rate, "tpr": true_positive_rate, "fpr": false_positive_rate,
             "fnr": false_negative_rate, "precision": lambda t, p: precision_score(t, p, zero_division=0.0),
             "npv": _npv, "accuracy": accuracy_score, "base_rate": lambda t, p: float(np.mean(t))}


@pytest.fixture(scope="module")
def predictions():
    data = load_audit("Pretrial Risk Assessment")
    return pd.DataFrame({"reoffended": data.y.to_numpy(), "decile": data.raw["decile_score"].to_numpy(),
                         "race": data.raw["race"].to_numpy(), "sex": data.raw["sex"].to_numpy()})


@pytest.mark.parametrize("columns", [["race"], ["race", "sex"]])
def test_rates_equal_metricframe_and_undefined_is_nan_not_zero(predictions, columns):
    report = audit(predictions, label="reoffended", score="decile", threshold=5, score_range=(1, 10),
                   groups=columns, intersections=True, n_boot=0, min_count=1)
    flagged = (predictions["decile"] >= 5).astype(int)
    frame = MetricFrame(metrics=FAIRLEARN, y_true=predictions["reoffended"], y_pred=flagged,
                        sensitive_features=predictions[columns])
    theirs = frame.by_group
    if len(columns) > 1:
        theirs.index = [" & ".join(map(str, i)) for i in theirs.index]
    name = " & ".join(columns)
    ours = report.rates[report.rates["column"] == name].pivot(index="group", columns="metric", values="estimate")
    ours = ours.loc[theirs.index, list(FAIRLEARN)]
    undefined = ours.isna()
    assert theirs.notna().all().all()
    np.testing.assert_allclose(ours.to_numpy()[~undefined.to_numpy()],
                               theirs.to_numpy(float)[~undefined.to_numpy()], rtol=1e-12, atol=0)
    # the documented difference: faircode's NaN is fairlearn's 0.0, and nowhere else do they differ
    assert (theirs.to_numpy(float)[undefined.to_numpy()] == 0.0).all()
    if len(columns) > 1:
        # Asian women: one defendant, not charged again, not flagged, so no positive: TPR and FNR undefined
        assert undefined.loc["Asian & Female", "tpr"] and undefined.loc["Asian & Female", "fnr"]
        assert undefined.to_numpy().sum() >= 2
    assert len(ours) == len(theirs) == (6 if len(columns) == 1 else 12)
