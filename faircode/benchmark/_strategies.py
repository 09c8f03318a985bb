"""The benchmark's strategies: what a model may see and how it is corrected.

``baseline``/``S0``, ``S1`` and ``S2`` are feature sets that :func:`faircode.benchmark.load_audit` builds; the
mitigations fitted here all use the S2 features (no protected column, no proxy) and receive the protected
attribute only as ``sensitive_features`` (or, for reweighing, only through the sample weights):

- ``S3``: fairlearn's :class:`~fairlearn.reductions.ExponentiatedGradient` (in-processing) under a named
  constraint;
- ``S4``: fairlearn's :class:`~fairlearn.postprocessing.ThresholdOptimizer` (per-group thresholds), its
  thresholds fitted on training rows the base model did not see;
- ``reweighing``: Kamiran and Calders' reweighing (pre-processing), which fairlearn does not provide.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
from fairlearn.postprocessing import ThresholdOptimizer
from fairlearn.reductions import DemographicParity, EqualizedOdds, ExponentiatedGradient, TruePositiveRateParity
from pandas.errors import Pandas4Warning
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.model_selection import train_test_split

from faircode._choices import FEATURE_STRATEGIES, MITIGATIONS, STRATEGIES, canonical_strategy, check_name
from faircode.benchmark._capacity import check_capacity, group_shares, top_share, top_share_by_group
from faircode.models import _fit_weighted

__all__ = ["STRATEGIES", "FEATURE_STRATEGIES", "MITIGATIONS", "CONSTRAINTS", "canonical_strategy",
           "reweighing_weights", "fit_strategy"]


#: Constraint names shared by S3 (reductions moment) and S4 (ThresholdOptimizer ``constraints=``).
CONSTRAINTS = {
    "demographic_parity": DemographicParity,
    "true_positive_rate_parity": TruePositiveRateParity,
    "equalized_odds": EqualizedOdds,
}

# ExponentiatedGradient refits its base estimator once per iteration; 50 (fairlearn's default) makes S3 the
# slowest cell of the grid by far, and its gap stops moving well before that on these audits.
EG_MAX_ITER = 20
EG_EPS = 0.01


def _check_constraint(constraint: str) -> None:
    check_name(constraint, tuple(CONSTRAINTS), "constraint")


def reweighing_weights(y, *, sensitive_features) -> np.ndarray:
    """Kamiran and Calders' reweighing weights, one per row.

    Each row of group ``g`` with label ``y`` gets ``w(g, y) = P(g) P(y) / P(g, y)``, the weight that makes
    group and label statistically independent in the weighted training data. fairlearn has no pre-processing
    reweighing, hence this function.

    Parameters
    ----------
    y : array-like of shape (n,)
        Labels.
    sensitive_features : array-like of shape (n,)
        Group of each row (any hashable values).

    Returns
    -------
    numpy.ndarray of shape (n,)
        The weights. All equal to 1 means group and label are already independent (parity in the labels).

    Raises
    ------
    ValueError
        If the lengths differ or there is only one group.

    References
    ----------
    Kamiran, F. and Calders, T. (2012). Data preprocessing techniques for classification without
    discrimination. Knowledge and Information Systems 33(1), 1-33.

    Examples
    --------
    >>> reweighing_weights([1, 0, 0, 1], sensitive_features=["a", "a", "b", "b"]).tolist()
    [1.0, 1.0, 1.0, 1.0]
    >>> reweighing_weights([1, 1, 0, 0], sensitive_features=["a", "a", "a", "b"]).round(3).tolist()
    [0.75, 0.75, 1.5, 0.5]
    """
    y = np.asarray(y)
    groups = np.asarray(sensitive_features)
    if y.shape != groups.shape or y.ndim != 1:
        raise ValueError(f"y and sensitive_features must be 1-d and of equal length; got shapes {y.shape} "
                         f"and {groups.shape}")
    _, g = np.unique(groups, return_inverse=True)
    _, lab = np.unique(y, return_inverse=True)
    if g.max(initial=0) < 1:
        raise ValueError(f"reweighing needs at least 2 groups in sensitive_features; got {np.unique(groups)}")
    n = len(y)
    joint = np.zeros((g.max() + 1, lab.max() + 1))
    np.add.at(joint, (g, lab), 1.0)
    expected = joint.sum(axis=1, keepdims=True) * joint.sum(axis=0, keepdims=True) / n
    # Every (g, y) cell that holds a row has joint > 0, so the division is safe where it is used.
    return (expected[g, lab] / joint[g, lab]).astype(float)


def _rows(X, rows):
    """Rows `rows` (positions) of a DataFrame or an array."""
    return X.iloc[rows] if hasattr(X, "iloc") else np.asarray(X)[rows]


class _ReusePredictions(ClassifierMixin, BaseEstimator):
    """`estimator` fitted with sample weights, whose ``predict`` answers a repeated call on the same array object
    with the answer it already computed.

    fairlearn 0.15's ExponentiatedGradient predicts each model it fits on the training rows twice in a row (for
    its error, then for its constraint violations, in ``_Lagrangian.best_h``). With gradient boosting on Benefits
    Denial the second prediction was a sixth of S3's time; it is the same answer for the same array, so it is
    reused, and every number stays the same. The fitted model is ``estimator_``; ``forget()``, called once the
    fit is over, drops the array and stops the reuse.
    """

    def __init__(self, estimator):
        self.estimator = estimator

    def fit(self, X, y, sample_weight=None):
        self.estimator_ = _fit_weighted(clone(self.estimator), X, y, sample_weight)
        self.classes_ = self.estimator_.classes_
        self._last, self._reuse = None, True
        return self

    def predict(self, X):
        if not getattr(self, "_reuse", False):
            return self.estimator_.predict(X)
        if self._last is not None and self._last[0] is X:
            return self._last[1]
        prediction = np.asarray(self.estimator_.predict(X))
        prediction.setflags(write=False)  # shared by both callers: neither may change it in place
        self._last = (X, prediction)
        return prediction

    def forget(self):
        self._last, self._reuse = None, False


class FittedStrategy:
    """A fitted strategy: ``predict(X, sensitive)`` gives 0/1 predictions; ``estimator`` is what was fitted.

    With a ``capacity`` the predictions flag that share of the rows given to ``predict``, those the model scores
    highest (``faircode.benchmark._capacity.top_share``); for S4, ``shares`` holds the share of each group to flag
    instead.
    """

    def __init__(self, strategy, estimator, random_state, uses_sensitive, capacity=None, shares=None):
        self.strategy = strategy
        self.estimator = estimator
        self.random_state = random_state
        self.uses_sensitive = uses_sensitive
        self.capacity = capacity
        self.shares = shares

    def predict(self, X, sensitive):
        """0/1 predictions for X; `sensitive` goes to S4 as sensitive_features and is ignored otherwise."""
        if self.capacity is not None:
            scores = self.estimator.predict_proba(X)[:, 1]
            if self.shares is not None:
                return top_share_by_group(scores, sensitive, self.shares, random_state=self.random_state)
            return top_share(scores, self.capacity, random_state=self.random_state)
        if self.strategy == "S4":
            out = self.estimator.predict(X, sensitive_features=sensitive, random_state=self.random_state)
        elif self.strategy == "S3":
            out = self.estimator.predict(X, random_state=self.random_state)
        else:
            out = self.estimator.predict(X)
        return np.asarray(out).astype(int)


def fit_strategy(strategy: str, model, X, y, *, sensitive_features=None, constraint: str = "demographic_parity",
                 random_state: int = 0, threshold_fraction: float = 0.5, capacity: float | None = None
                 ) -> FittedStrategy:
    """Fit `model` on (X, y) under `strategy`.

    Parameters
    ----------
    strategy : str
        One of :data:`STRATEGIES` (or ``"S0"``). For the feature strategies `X` must already hold that
        strategy's columns; for ``S3``, ``S4`` and ``reweighing`` it must hold the S2 columns.
    model : sklearn estimator
        Unfitted; cloned by fairlearn where it needs copies.
    X : DataFrame or array of shape (n, p)
        Training features. The protected attribute is never one of them for the mitigations. An array is
        faster (scikit-learn and fairlearn validate it more cheaply) and gives the same fit.
    y : array-like
        0/1 training labels.
    sensitive_features : array-like, keyword-only
        The protected attribute of each training row; required by the mitigations, unused otherwise.
    constraint : str
        For S3 and S4: ``"demographic_parity"``, ``"true_positive_rate_parity"`` or ``"equalized_odds"``.
    random_state : int
        Seeds S4's split of the training rows and the randomised predictions of S3 and S4.
    threshold_fraction : float
        For S4: the share of training rows held back from the base model to fit the thresholds on.
    capacity : float, optional
        Decide at a fixed capacity instead of at the model's own 0.5 threshold: ``predict`` flags this share of
        the rows it is given, those scored highest. S4 then fits, on its held-back rows, the share of each group
        to flag so that the constraint holds at that total share (``demographic_parity`` or
        ``true_positive_rate_parity``; see ``faircode.benchmark._capacity.group_shares``). S3 is refused: its
        randomised mixture of classifiers gives decisions, not a score to rank.

    Returns
    -------
    FittedStrategy
        For S3, ``estimator`` is the fitted ExponentiatedGradient; each of its ``predictors_`` holds the model
        it fitted as ``estimator_`` (fairlearn's DummyClassifier where an iteration's labels were all equal).
    """
    strategy = canonical_strategy(strategy)
    y = np.asarray(y)
    if capacity is not None:
        capacity = check_capacity(capacity)
        if strategy == "S3":
            raise ValueError("S3 (ExponentiatedGradient) cannot decide at a fixed capacity: it returns decisions from a "
                             "randomised mixture of classifiers, not a score to rank; use S4 or reweighing")
    if strategy in FEATURE_STRATEGIES:
        return FittedStrategy(strategy, model.fit(X, y), random_state, uses_sensitive=False, capacity=capacity)
    if sensitive_features is None:
        raise ValueError(f"strategy {strategy!r} needs sensitive_features (the protected attribute of each row)")
    sensitive = np.asarray(sensitive_features)
    if strategy == "reweighing":
        weights = reweighing_weights(y, sensitive_features=sensitive)
        return FittedStrategy(strategy, _fit_weighted(model, X, y, weights), random_state, uses_sensitive=False,
                              capacity=capacity)
    _check_constraint(constraint)
    if strategy == "S3":
        eg = ExponentiatedGradient(_ReusePredictions(model), CONSTRAINTS[constraint](), eps=EG_EPS,
                                   max_iter=EG_MAX_ITER, sample_weight_name="sample_weight")
        with warnings.catch_warnings():
            # fairlearn 0.15's parity moments enlarge a pandas Series with .at, which pandas 3 deprecates; the
            # result is unaffected and the fix belongs upstream, so silence only that warning, only from fairlearn.
            warnings.filterwarnings("ignore", category=Pandas4Warning, module=r"fairlearn\.")
            eg.fit(X, y, sensitive_features=sensitive)
        for predictor in eg.predictors_:
            if isinstance(predictor, _ReusePredictions):
                predictor.forget()  # the training rows need not stay in memory with the fitted strategy
        return FittedStrategy(strategy, eg, random_state, uses_sensitive=False)
    # S4: thresholds must be fitted on rows the base model has not memorised, or they correct a training-set
    # picture of its errors. Stratify the split on group and label so both parts hold every cell.
    cells = pd.Series(sensitive).astype(str).to_numpy() + "|" + y.astype(str)
    base_rows, threshold_rows = train_test_split(np.arange(len(y)), test_size=threshold_fraction,
                                                 stratify=cells, random_state=random_state)
    base_rows.sort()
    threshold_rows.sort()
    model.fit(_rows(X, base_rows), y[base_rows])
    if capacity is not None:
        scores = model.predict_proba(_rows(X, threshold_rows))[:, 1]
        shares = group_shares(scores, y[threshold_rows], sensitive[threshold_rows], capacity, constraint)
        return FittedStrategy(strategy, model, random_state, uses_sensitive=True, capacity=capacity, shares=shares)
    to = ThresholdOptimizer(estimator=model, constraints=constraint, prefit=True, predict_method="predict_proba")
    to.fit(_rows(X, threshold_rows), y[threshold_rows], sensitive_features=sensitive[threshold_rows])
    return FittedStrategy(strategy, to, random_state, uses_sensitive=True)
