"""The benchmark harness: strategies' feature sets, what the mitigations see, determinism, the CLI, reweighing."""
from __future__ import annotations

import hashlib
import re
import pathlib

import joblib
import numpy as np
import pandas as pd
import pytest

from faircode.benchmark import list_audits, load_audit
from faircode.benchmark import _strategies
from faircode.benchmark.__main__ import main
from faircode.data._audits import stratified_split
from faircode.benchmark._harness import Target, check_grid, manifest_target, run_benchmark
from faircode.benchmark._report import format_results, write_csv
from faircode.benchmark._strategies import fit_strategy, reweighing_weights
from faircode.models import build_model

REPO = pathlib.Path(__file__).resolve().parent.parent
CREDIT = "German Credit Lending"
TINY = "Tiny Credit"


def _write_tiny_audit(root, name, edit_manifest=lambda text: text):
    """A 300-row audit folder cut from German Credit, with its own manifest (passed through `edit_manifest`)."""
    folder = root / name
    folder.mkdir()
    frame = pd.read_csv(REPO / CREDIT / "german_credit.csv", dtype=str, keep_default_na=False)
    rows = np.sort(np.random.default_rng(5).choice(len(frame), size=300, replace=False))
    csv = frame.iloc[rows].to_csv(index=False, lineterminator="\n").encode()
    (folder / "tiny.csv").write_bytes(csv)
    manifest = (REPO / CREDIT / "audit.toml").read_text()
    manifest = "\n".join(
        f'name = "{name}"' if line.startswith("name =") else
        'data = "tiny.csv"' if line.startswith("data =") else
        f'data_sha256 = "{hashlib.sha256(csv).hexdigest()}"' if line.startswith("data_sha256 =") else line
        for line in manifest.splitlines())
    (folder / "audit.toml").write_text(edit_manifest(manifest) + "\n")


@pytest.fixture(scope="module")
def tiny_root(tmp_path_factory):
    """A 300-row audit folder cut from German Credit, with its own manifest and checksum."""
    root = tmp_path_factory.mktemp("audits")
    _write_tiny_audit(root, TINY)
    return root


def _prefixes(columns):
    return {c.split("=", 1)[0] for c in columns}


# ---- feature sets -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("audit", ["German Credit Lending", "Benefits Denial", "Pretrial Risk Assessment"])
def test_feature_sets_drop_protected_then_proxies(audit):
    manifest = load_audit(audit).manifest
    protected, proxies = set(manifest.protected), set(manifest.proxies)
    baseline = _prefixes(load_audit(audit, "S0").X.columns)
    s1 = _prefixes(load_audit(audit, "S1").X.columns)
    s2 = _prefixes(load_audit(audit, "S2").X.columns)
    assert protected <= baseline and proxies <= baseline
    assert not s1 & protected and proxies <= s1
    assert not s2 & (protected | proxies) and s2 == set(manifest.core)


def test_mitigations_see_s2_features_and_protected_only_as_sensitive_features(tiny_root, monkeypatch):
    seen = []
    for cls in (_strategies.ExponentiatedGradient, _strategies.ThresholdOptimizer):
        original = cls.fit

        def recording_fit(self, X, y, *, _original=original, **kwargs):
            seen.append((type(self).__name__, np.asarray(X, dtype=float), kwargs.get("sensitive_features")))
            return _original(self, X, y, **kwargs)

        monkeypatch.setattr(cls, "fit", recording_fit)
    results = run_benchmark([TINY], ["S3", "S4"], ["logistic_regression"], n_jobs=1, n_boot=50, root=tiny_root)
    assert [name for name, _, _ in seen] == ["ExponentiatedGradient", "ThresholdOptimizer"]
    data = load_audit(TINY, root=tiny_root)
    age = data.masks["age"].to_numpy()
    train_age = age[data.idx_train]
    assert "age" not in _prefixes(data.X.columns) and not _prefixes(data.X.columns) & set(data.manifest.proxies)
    # The harness hands the fits plain arrays: their values must be the S2 matrix's training rows, no column added.
    s2_train = data.X.to_numpy(dtype=float)[data.idx_train]
    np.testing.assert_array_equal(seen[0][1], s2_train)
    threshold_rows = {tuple(row) for row in seen[1][1]}
    assert seen[1][1].shape[1] == s2_train.shape[1] and threshold_rows <= {tuple(row) for row in s2_train}
    for name, _, sensitive in seen:
        assert sensitive is not None and set(np.unique(sensitive)) == {0, 1}, name
    # ExponentiatedGradient gets every training row's group; ThresholdOptimizer those of its held-back half.
    np.testing.assert_array_equal(seen[0][2], train_age)
    assert len(seen[1][2]) == len(train_age) // 2
    assert set(results["target"]) == {"age: demographic_parity"}


def test_fitted_base_models_never_get_the_protected_column(tiny_root):
    data = load_audit(TINY, root=tiny_root)
    train = data.idx_train
    sex = data.masks["sex"].to_numpy()[train]
    X, y = data.X.iloc[train], data.y.iloc[train]
    eg = fit_strategy("S3", build_model("decision_tree", 1), X, y, sensitive_features=sex).estimator
    to = fit_strategy("S4", build_model("random_forest", 1), X, y, sensitive_features=sex).estimator
    # The pipeline's weights are routed to its last step.
    rw = fit_strategy("reweighing", build_model("logistic_regression", 1), X, y, sensitive_features=sex).estimator
    for fitted in [getattr(p, "estimator_", p) for p in eg.predictors_] + [to.estimator_, rw]:
        assert list(fitted.feature_names_in_) == list(data.X.columns)


@pytest.mark.filterwarnings("ignore::pandas.errors.Pandas4Warning")  # fairlearn's own, see _strategies.py
def test_s3_reuses_the_repeated_training_prediction_and_fits_as_fairlearn_alone_does(tiny_root, monkeypatch):
    from fairlearn.reductions import DemographicParity, ExponentiatedGradient
    from sklearn.tree import DecisionTreeClassifier

    data = load_audit(TINY, root=tiny_root)
    X = data.X.to_numpy(dtype=float)[data.idx_train]
    y = data.y.to_numpy()[data.idx_train]
    age = data.masks["age"].to_numpy()[data.idx_train]
    calls = []
    original = DecisionTreeClassifier.predict
    monkeypatch.setattr(DecisionTreeClassifier, "predict",
                        lambda self, X, *a, **k: calls.append(len(X)) or original(self, X, *a, **k))
    plain = ExponentiatedGradient(build_model("decision_tree", 3), DemographicParity(), eps=_strategies.EG_EPS,
                                  max_iter=_strategies.EG_MAX_ITER).fit(X, y, sensitive_features=age)
    plain_calls, calls[:] = len(calls), []
    eg = fit_strategy("S3", build_model("decision_tree", 3), X, y, sensitive_features=age).estimator
    assert eg.n_oracle_calls_ == plain.n_oracle_calls_ and len(calls) * 2 <= plain_calls
    fitted = [p for p in eg.predictors_ if isinstance(p, _strategies._ReusePredictions)]
    assert fitted and all(p._last is None for p in fitted)  # no training rows kept after the fit
    np.testing.assert_array_equal(eg.weights_.to_numpy(), plain.weights_.to_numpy())
    np.testing.assert_array_equal(eg._pmf_predict(X), plain._pmf_predict(X))
    assert all(p._last is None for p in fitted)  # and none remembered by later predictions


# ---- reweighing -------------------------------------------------------------------------------------------

def test_reweighing_matches_hand_computation():
    # Group a holds labels 1, 1, 0 and group b holds 1, 0, 0, 0, 0; the weights worked out by hand:
    groups = ["a", "a", "a", "b", "b", "b", "b", "b"]
    y = [1, 1, 0, 1, 0, 0, 0, 0]
    # n = 8; P(a) = 3/8, P(b) = 5/8; P(y=1) = 3/8, P(y=0) = 5/8.
    # w(a,1) = (3/8)(3/8) / (2/8) = 9/16; w(a,0) = (3/8)(5/8) / (1/8) = 15/8
    # w(b,1) = (5/8)(3/8) / (1/8) = 15/8; w(b,0) = (5/8)(5/8) / (4/8) = 25/32
    expected = [9 / 16, 9 / 16, 15 / 8, 15 / 8, 25 / 32, 25 / 32, 25 / 32, 25 / 32]
    np.testing.assert_allclose(reweighing_weights(y, sensitive_features=groups), expected, rtol=1e-12)


def test_reweighing_makes_label_independent_of_group():
    rng = np.random.default_rng(0)
    groups = rng.integers(0, 3, 500)
    y = (rng.random(500) < 0.2 + 0.2 * groups).astype(int)
    w = reweighing_weights(y, sensitive_features=groups)
    weighted_rate = [np.average(y[groups == g], weights=w[groups == g]) for g in range(3)]
    np.testing.assert_allclose(weighted_rate, y.mean(), rtol=1e-12)
    assert w.sum() == pytest.approx(len(y))


def test_reweighing_rejects_one_group_and_bad_shapes():
    with pytest.raises(ValueError, match="at least 2 groups"):
        reweighing_weights([0, 1, 1], sensitive_features=["a", "a", "a"])
    with pytest.raises(ValueError, match=r"equal length; got shapes \(3,\) and \(2,\)"):
        reweighing_weights([0, 1, 1], sensitive_features=["a", "b"])


# ---- the grid -------------------------------------------------------------------------------------------

def test_every_strategy_runs_on_the_compas_audit_under_its_equalized_odds_target():
    results = run_benchmark(["Pretrial Risk Assessment"], models=["decision_tree"], n_jobs=1, n_boot=20)
    assert list(results["strategy"].unique()) == ["baseline", "S1", "S2", "S3", "S4", "reweighing"]
    assert set(results["attribute"]) == {"race", "sex", "age"}
    mitigated = results[results["strategy"].isin(["S3", "S4", "reweighing"])]
    assert set(mitigated["target"]) == {"race: equalized_odds"}
    assert (results["n_test"] == 1061).all() and results["accuracy"].between(0.55, 0.8).all()


# SHA-256 of the sorted test row positions (little-endian int64) that every committed page was built on: the
# audit's own split (seed 0 here means the manifest's random_state) and the benchmark's first re-split (+1). A
# change to the split recipe, to scikit-learn's splitter or to the data's row order changes them.
COMMITTED_TEST_SPLITS = {
    ("German Credit Lending", 0): (200, "91391db54de4a8b173a6e206e617718d2701342f8d23c9bba7c7f442031282ed"),
    ("German Credit Lending", 1): (200, "43a3e422c36a94d40404fc7d8e339709695821643169bdb5ca45133935a4ebc3"),
    ("Benefits Denial", 0): (6513, "d0ed700f08e255398f879cfe159432cba6e94b694367c2689942bb4d70fcb8a1"),
    ("Benefits Denial", 1): (6513, "b70851da80d64393736898a1662065e0ddebbc77ea8e23504fe76c7f8c0757c3"),
    # The default sample, 'two-year-window' (ProPublica's sample, 'propublica', is checked in test_audits.py).
    ("Pretrial Risk Assessment", 0): (1061, "01dea1350baac5c95934226d5bf99dcbacbaae3c6c997e93f6ceaa22dfa09164"),
    ("Pretrial Risk Assessment", 1): (1061, "e4655097d77a7ff5178f579ac08b780f7b862b132043bdbd43cb9035c5316058"),
}


def _digest(rows) -> str:
    return hashlib.sha256(np.asarray(rows, dtype="<i8").tobytes()).hexdigest()


@pytest.mark.parametrize("audit, offset", sorted(COMMITTED_TEST_SPLITS))
def test_split_recipe_reproduces_the_committed_splits(audit, offset):
    data = load_audit(audit)
    size, digest = COMMITTED_TEST_SPLITS[audit, offset]
    if offset == 0:
        train, test = data.idx_train, data.idx_test
    else:  # the re-split run_benchmark makes for its second seed
        train, test = stratified_split(data.y, test_size=data.manifest.test_size,
                                       random_state=data.random_state + offset)
    assert len(test) == size and _digest(test) == digest
    np.testing.assert_array_equal(np.sort(np.concatenate([train, test])), np.arange(len(data.y)))


def test_the_split_check_fails_on_another_split():
    """The digests above tell splits apart: the next seed's split, or one row swapped, gives another digest."""
    data = load_audit(CREDIT)
    _, other = stratified_split(data.y, test_size=data.manifest.test_size, random_state=data.random_state + 2)
    swapped = data.idx_test.copy()
    swapped[0] = data.idx_train[0]
    committed = {digest for _, digest in COMMITTED_TEST_SPLITS.values()}
    assert _digest(other) not in committed and _digest(np.sort(swapped)) not in committed


def test_results_identical_across_runs_and_worker_counts(tiny_root):
    grid = dict(audits=[TINY], strategies=["S0", "S3", "S4", "reweighing"],
                models=["decision_tree"], seeds=2, n_boot=100, root=tiny_root)
    first = run_benchmark(**grid, n_jobs=1)
    again = run_benchmark(**grid, n_jobs=2)
    pd.testing.assert_frame_equal(first, again, check_exact=True)
    # 4 strategies x 1 model x 2 seeds x 2 protected attributes, and the second seed really re-splits.
    assert len(first) == 16
    by_seed = first[first["attribute"] == "age"].groupby("seed")
    assert by_seed["accuracy"].apply(tuple).nunique() == 2


def test_whole_cli_on_tiny_audit(tiny_root, monkeypatch, tmp_path, capsys):
    monkeypatch.setenv("FAIRCODE_AUDIT_ROOT", str(tiny_root))
    csv = tmp_path / "out.csv"
    assert main(["--audit", TINY, "--model", "logistic_regression", "--jobs", "1", "--bootstrap", "100",
                 "--csv", str(csv)]) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert "== Tiny Credit ==" in out and "target age (under 30) under demographic parity" in out
    assert "parity gap [95% CI]" in out and "S4 " in out and "reweighing " in out
    assert "[6/6] Tiny Credit | reweighing | logistic_regression" in captured.err
    table = pd.read_csv(csv)
    assert len(table) == 6 * 2
    assert set(table["strategy"]) == {"baseline", "S1", "S2", "S3", "S4", "reweighing"}
    assert (table["parity_lo"] <= table["parity_gap"]).all() and (table["parity_gap"] <= table["parity_hi"]).all()
    assert main(["--audit", TINY, "--strategy", "S0", "--model", "decision_tree", "--jobs", "1", "--quiet",
                 "--markdown"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and "| baseline | decision_tree |" in captured.out and "### Tiny Credit" in captured.out


def test_several_seeds_show_mean_and_spread(tiny_root):
    results = run_benchmark([TINY], ["S2"], ["decision_tree"], seeds=3, n_jobs=1, n_boot=50, root=tiny_root)
    text = format_results(results)
    assert "3 splits (seeds 42, 43, 44)" in text and "±" in text
    row = results[results["attribute"] == "age"]["accuracy"]
    assert f"{row.mean():.3f} ± {row.std():.3f}" in text


def test_the_report_reads_only_columns_so_a_csv_of_the_results_prints_the_same(tiny_root, tmp_path):
    results = run_benchmark([TINY], ["S2", "S3", "S4"], ["decision_tree"], n_jobs=1, n_boot=50,
                            threshold_fraction=0.4, root=tiny_root)
    assert set(results["group"]) == {"under 30", "women"} and set(results["n_boot"]) == {50}
    write_csv(results, tmp_path / "results.csv")
    again = pd.read_csv(tmp_path / "results.csv", keep_default_na=False)
    text = format_results(results)
    assert "held back" in text and "40% of the training rows" in text and "from 50 bootstrap resamples" in text
    assert format_results(again) == text
    results.attrs.clear()
    assert format_results(results) == text


def test_csv_bytes_are_stable(tiny_root, tmp_path):
    results = run_benchmark([TINY], ["S4"], ["decision_tree"], n_jobs=1, n_boot=50, root=tiny_root)
    write_csv(results, tmp_path / "a.csv")
    write_csv(run_benchmark([TINY], ["S4"], ["decision_tree"], n_jobs=1, n_boot=50, root=tiny_root),
              tmp_path / "b.csv")
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()


# ---- bad names ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, message", [
    (dict(strategies=["S9"]), "unknown strategy 'S9'; the strategies are: 'baseline', 'S0', 'S1', 'S2', 'S3', "
                              "'S4', 'reweighing'"),
    (dict(models=["svm"]), "unknown model 'svm'; the models are: 'logistic_regression', 'random_forest', "
                           "'gradient_boosting', 'decision_tree'"),
    (dict(audits=["Nope"]), "unknown audit 'Nope'; the audits are: " + ", ".join(repr(a) for a in list_audits())),
    (dict(seeds=0), "seeds must be a whole number of splits from 1 to 100; got 0"),
    (dict(seeds=10**6), "seeds must be a whole number of splits from 1 to 100; got 1000000"),
    (dict(n_jobs=0), "n_jobs must be a positive number of workers, or negative (-1: every core), or None; got 0"),
    (dict(n_boot=0), "n_boot must be a positive whole number of bootstrap resamples; got 0"),
    (dict(models=[["svm"]]), "model must be one name (a str), not a list; got ['svm']. The models are: "
                             "'logistic_regression', 'random_forest', 'gradient_boosting', 'decision_tree'"),
    (dict(strategies=[["S2"]]), "strategy must be one name (a str), not a list; got ['S2']. The strategies are: "
                                "'baseline', 'S0', 'S1', 'S2', 'S3', 'S4', 'reweighing'"),
])
def test_bad_names_are_rejected_with_the_valid_ones(kwargs, message):
    with pytest.raises(ValueError) as err:
        check_grid(**kwargs)
    assert str(err.value) == message


def test_cli_bad_name_exits_with_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--strategy", "S5"])
    assert exit_.value.code == 2
    assert "unknown strategy 'S5'; the strategies are: 'baseline', 'S0'" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--bootstrap", "0"], "argument --bootstrap: expected a number of at least 1; got 0"),
    (["--jobs", "0"], "argument --jobs: expected a non-zero number (a count of workers, or -1 for every core); got 0"),
    (["--seeds", "101"], "argument --seeds: expected a number from 1 to 100; got 101"),
    (["--seeds", "many"], "argument --seeds: expected a whole number; got 'many'"),
    (["--csv", "{tmp}/no such folder/out.csv"], "argument --csv: cannot write '{tmp}/no such folder/out.csv': "
                                                 "No such file or directory"),
    (["--csv", "{tmp}"], "argument --csv: cannot write '{tmp}': {tmp} is a folder"),
])
def test_cli_rejects_bad_sizes_and_paths_before_any_fit(argv, message, tmp_path, monkeypatch, capsys):
    def no_fit(*args, **kwargs):
        raise AssertionError("run_benchmark was called")

    monkeypatch.setattr("faircode.benchmark.__main__.run_benchmark", no_fit)
    with pytest.raises(SystemExit) as exit_:
        main([arg.format(tmp=tmp_path) for arg in argv])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: python -m faircode.benchmark") and err.rstrip().endswith(
        "error: " + message.format(tmp=tmp_path))
    assert list(tmp_path.iterdir()) == []  # the writability check leaves no file behind


def test_cli_checks_a_writable_csv_without_leaving_a_file(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr("faircode.benchmark.__main__.run_benchmark", lambda *a, **k: calls.append(k) or pd.DataFrame())
    monkeypatch.setattr("faircode.benchmark.__main__.format_results", lambda *a, **k: "")
    monkeypatch.setattr("faircode.benchmark.__main__.write_csv", lambda *a, **k: None)
    assert main(["--audit", CREDIT, "--csv", str(tmp_path / "out.csv"), "--quiet", "--jobs", "2"]) == 0
    assert calls[0]["n_jobs"] == 2 and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("fraction", [0, 1, 1.5, "half", True])
def test_bad_threshold_fraction_fails_before_any_fit(fraction, tiny_root, monkeypatch):
    monkeypatch.setattr("faircode.benchmark._harness._fit_and_measure", None)  # a fit would fail differently
    with pytest.raises(ValueError, match=re.escape("threshold_fraction must be a share strictly between 0 and 1 "
                                                   f"of the training rows; got {fraction!r}")):
        run_benchmark([TINY], ["S4"], ["decision_tree"], n_jobs=1, threshold_fraction=fraction, root=tiny_root)


def test_bad_target_and_constraint(tiny_root):
    with pytest.raises(ValueError, match="target attribute 'race' is not a protected attribute of audit "
                                         "'Tiny Credit'; its protected attributes are: 'age', 'sex'"):
        run_benchmark([TINY], ["S3"], ["decision_tree"], targets={TINY: Target("race", "demographic_parity")},
                      n_jobs=1, root=tiny_root)
    with pytest.raises(ValueError, match="unknown constraint 'parity'; the constraints are: 'demographic_parity'"):
        run_benchmark([TINY], ["S3"], ["decision_tree"], targets={TINY: ("age", "parity")}, n_jobs=1,
                      root=tiny_root)


def test_grid_runs_under_an_enclosing_joblib_backend(tiny_root):
    # The Dask/Ray recipe in the CLI's docstring relies on the harness taking the backend from the context.
    grid = dict(audits=[TINY], strategies=["S2", "S4"], models=["decision_tree"], n_boot=100, root=tiny_root)
    with joblib.parallel_config(backend="threading"):
        threaded = run_benchmark(**grid, n_jobs=2)
    pd.testing.assert_frame_equal(threaded, run_benchmark(**grid, n_jobs=1), check_exact=True)


# ---- the target comes from the manifest -----------------------------------------------------------------

def test_target_is_read_from_the_manifest_and_can_be_overridden(tmp_path):
    def sex_under_tpr(text):
        assert 'attribute = "age"\nconstraint = "demographic_parity"' in text
        return text.replace('attribute = "age"\nconstraint = "demographic_parity"',
                            'attribute = "sex"\nconstraint = "true_positive_rate_parity"')

    _write_tiny_audit(tmp_path, TINY, sex_under_tpr)
    grid = dict(audits=[TINY], strategies=["S4"], models=["decision_tree"], n_jobs=1, n_boot=20, root=tmp_path)
    results = run_benchmark(**grid)
    assert set(results["target"]) == {"sex: true_positive_rate_parity"}
    assert results.attrs["audits"][TINY]["target"] == Target("sex", "true_positive_rate_parity")
    overridden = run_benchmark(**grid, targets={TINY: ("age", "equalized_odds")})
    assert set(overridden["target"]) == {"age: equalized_odds"}


def test_manifest_without_target_falls_back_to_first_attribute_under_parity(tmp_path):
    def no_target_sex_first(text):
        start, end = text.index("[protected.age]"), text.index("[protected.sex]")
        text = text[:start] + text[end:text.index("# What the mitigation")] + text[start:end] + \
            text[text.index("[features]"):]
        assert "[target]" not in text and text.index("[protected.sex]") < text.index("[protected.age]")
        return text

    _write_tiny_audit(tmp_path, TINY, no_target_sex_first)
    manifest = load_audit(TINY, root=tmp_path).manifest
    assert manifest.target == {} and list(manifest.protected) == ["sex", "age"]
    assert manifest_target(manifest) == Target("sex", "demographic_parity")
    results = run_benchmark([TINY], ["reweighing"], ["decision_tree"], n_jobs=1, n_boot=20, root=tmp_path)
    assert set(results["target"]) == {"sex: demographic_parity"}



def test_a_gap_that_rounds_to_zero_prints_without_a_minus_sign(tiny_root):
    results = run_benchmark([TINY], ["S2"], ["decision_tree"], n_jobs=1, n_boot=20, root=tiny_root)
    results.loc[0, ["parity_gap", "parity_lo", "parity_hi"]] = [-0.0004, -0.05, 0.0004]
    text = format_results(results)
    assert "+0.000 [-0.050, +0.000]" in text and "-0.000" not in text


def test_rows_of_unknown_group_are_in_neither_side_of_the_gaps():
    """A missing mask value (Benefits Denial's country "?") counts neither in the named group nor in the rest."""
    from faircode.benchmark._harness import _group_metrics

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 300)
    pred = rng.integers(0, 2, 300)
    mask = np.where(np.arange(300) < 100, 1.0, 0.0)
    mask[250:] = np.nan
    out = _group_metrics(y, pred, mask, n_boot=20, random_state=0)
    assert (out["n_group"], out["n_rest"]) == (100, 150)
    known = ~np.isnan(mask)
    assert out["sel_rest"] == pytest.approx(pred[known & (mask == 0)].mean())
    # The same as measuring on the known rows only.
    assert out == _group_metrics(y[known], pred[known], mask[known].astype(int), n_boot=20, random_state=0)


def test_rows_whose_target_group_is_unknown_are_left_out_of_every_strategy():
    data = load_audit("Benefits Denial")
    unknown = data.masks["native.country"].isna().to_numpy()
    table = run_benchmark(["Benefits Denial"], strategies=["S2", "reweighing"], models=["logistic_regression"],
                          n_jobs=1, n_boot=20, targets={"Benefits Denial": Target("native.country",
                                                                                  "demographic_parity")})
    assert table.attrs["audits"]["Benefits Denial"]["unknown_target_rows"] == unknown.sum() == 583
    assert set(table["n_test"]) == {int((~unknown[data.idx_test]).sum())}
    assert set(table["n_train"]) == {int((~unknown[data.idx_train]).sum())}
