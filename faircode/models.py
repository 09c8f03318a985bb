"""The model families the audits compare, as unfitted, seeded scikit-learn estimators."""
from __future__ import annotations

import numpy as np

from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from faircode._choices import check_name

__all__ = ["MODELS", "build_model"]


def _logistic_regression(random_state):
    # Scaled so that lbfgs converges on the raw money and hour columns without a ConvergenceWarning.
    return make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000, random_state=random_state))


def _random_forest(random_state):
    # n_jobs=1: the build runs pages in parallel on every core already, and a forest of 100 trees with
    # leaves of at least 5 rows fits Adult in a few seconds on one core.
    return RandomForestClassifier(n_estimators=100, min_samples_leaf=5, n_jobs=1, random_state=random_state)


def _gradient_boosting(random_state):
    # The histogram version: the same model family as GradientBoostingClassifier, an order of magnitude faster.
    return HistGradientBoostingClassifier(max_iter=100, early_stopping=False, random_state=random_state)


def _decision_tree(random_state):
    # Leaves of at least 20 rows keep a single tree from memorising the training rows.
    return DecisionTreeClassifier(min_samples_leaf=20, random_state=random_state)


_BUILDERS = {
    "logistic_regression": _logistic_regression,
    "random_forest": _random_forest,
    "gradient_boosting": _gradient_boosting,
    "decision_tree": _decision_tree,
}
MODELS = tuple(_BUILDERS)


def build_model(name: str, random_state: int = 0):
    """Return an unfitted, seeded scikit-learn estimator of the named family.

    Parameters
    ----------
    name : {"logistic_regression", "random_forest", "gradient_boosting", "decision_tree"}
        The model family.
    random_state : int
        Seed for every random choice the estimator makes (0 to 2**32 - 1, as scikit-learn accepts); the same
        seed gives the same fitted model. Anything else (a string, a float, None) is an error here, at build
        time, rather than at fit.

    Examples
    --------
    >>> build_model("decision_tree", 7).random_state
    7
    """
    name = check_name(name, MODELS, "model")
    if (isinstance(random_state, bool) or not isinstance(random_state, (int, np.integer))
            or not 0 <= random_state < 2**32):
        raise ValueError(f"random_state must be an int seed from 0 to 2**32 - 1; got {type(random_state).__name__} "
                         f"{random_state!r}")
    return _BUILDERS[name](int(random_state))


def _fit_weighted(model, X, y, weights):
    """Fit `model` with sample weights, routed to the last step when it is a Pipeline (used by the benchmark's
    reweighing and S3 and by group DRO)."""
    if isinstance(model, Pipeline):
        return model.fit(X, y, **{f"{model.steps[-1][0]}__sample_weight": weights})
    return model.fit(X, y, sample_weight=weights)
