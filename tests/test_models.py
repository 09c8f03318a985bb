import re
import warnings

import numpy as np
import pytest
from sklearn.base import is_classifier

from faircode.benchmark import load_audit
from faircode.models import MODELS, build_model


@pytest.fixture(scope="module")
def german():
    return load_audit("German Credit Lending", strategy="baseline")


def test_the_four_families_exist():
    assert set(MODELS) >= {"logistic_regression", "random_forest", "gradient_boosting", "decision_tree"}


@pytest.mark.parametrize("name", MODELS)
def test_models_are_unfitted_seeded_and_deterministic(name, german):
    X, y, train, test = german.X, german.y, german.idx_train, german.idx_test
    model = build_model(name, german.random_state)
    assert is_classifier(model)
    with pytest.raises(Exception, match="not fitted"):
        model.predict(X.iloc[test])
    first = model.fit(X.iloc[train], y.iloc[train]).predict_proba(X.iloc[test])
    second = build_model(name, german.random_state).fit(X.iloc[train], y.iloc[train]).predict_proba(X.iloc[test])
    assert np.array_equal(first, second)
    assert 0.65 < (first.argmax(axis=1) == y.iloc[test].to_numpy()).mean() <= 1


def test_logistic_regression_converges_without_warnings():
    adult = load_audit("Benefits Denial", strategy="baseline")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        build_model("logistic_regression", adult.random_state).fit(adult.X.iloc[adult.idx_train],
                                                                  adult.y.iloc[adult.idx_train])


def test_unknown_model_lists_the_models():
    with pytest.raises(ValueError, match=re.escape("unknown model 'svm'; the models are: 'logistic_regression'")):
        build_model("svm", 0)


@pytest.mark.parametrize("args, message", [
    (("decision_tree", "seven"), "random_state must be an int seed from 0 to 2**32 - 1; got str 'seven'"),
    (("decision_tree", 7.0), "random_state must be an int seed from 0 to 2**32 - 1; got float 7.0"),
    (("decision_tree", -1), "random_state must be an int seed from 0 to 2**32 - 1; got int -1"),
    (("decision_tree", True), "random_state must be an int seed from 0 to 2**32 - 1; got bool True"),
    ((["decision_tree"], 0), "model must be one name (a str), not a list; got ['decision_tree']. The models are: "
                             "'logistic_regression', 'random_forest', 'gradient_boosting', 'decision_tree'"),
])
def test_bad_arguments_fail_at_build_time(args, message):
    with pytest.raises(ValueError) as err:
        build_model(*args)
    assert str(err.value) == message


def test_numpy_integer_seeds_are_accepted():
    assert build_model("random_forest", np.int64(3)).random_state == 3
