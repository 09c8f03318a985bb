"""Decisions at a fixed capacity (faircode.benchmark._capacity) and the harness on an audit that decides so."""
import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from faircode.benchmark import run_benchmark
from faircode.benchmark._capacity import group_shares, top_share, top_share_by_group
from faircode.benchmark._strategies import fit_strategy

READMISSION = "Healthcare Readmission"


def test_top_share_flags_the_highest_scores_and_breaks_ties_at_random_with_a_seed():
    assert top_share([0.2, 0.9, 0.5, 0.9, 0.1], 0.4).tolist() == [0, 1, 0, 1, 0]
    assert top_share(np.arange(1000) / 1000, 0.1).sum() == 100
    tied = np.r_[np.full(1000, 0.5), np.zeros(1000)]
    first = top_share(tied, 0.25)
    assert first.sum() == 500 and first[1000:].sum() == 0
    assert np.array_equal(first, top_share(tied, 0.25))  # seeded: the same rows every time
    # Not the first rows in file order: among 1,000 tied rows, about half of those taken lie in the second half.
    assert 200 < first[500:1000].sum() < 300
    assert not np.array_equal(first, top_share(tied, 0.25, random_state=1))


@pytest.mark.parametrize("bad", [0, 1, 1.5, -0.1, True, "0.1", None])
def test_a_capacity_that_is_not_a_share_is_refused(bad):
    with pytest.raises(ValueError, match=r"capacity must be the share of rows flagged, strictly between 0 and 1; "
                                         rf"got {bad!r}"):
        top_share([0.1, 0.2], bad)


def _population(n=40_000, seed=0):
    rng = np.random.default_rng(seed)
    group = rng.integers(0, 2, n)
    y = rng.random(n) < np.where(group == 1, 0.15, 0.08)
    # Group 1's readmitted patients score lower than group 0's: one threshold gives them a lower TPR.
    scores = rng.normal(y * np.where(group == 1, 0.8, 1.6), 1.0)
    return scores, y.astype(int), group


def test_tpr_parity_shares_equalise_tpr_at_the_total_capacity():
    scores, y, group = _population()
    shares = group_shares(scores, y, group, 0.10, "true_positive_rate_parity")
    flags = top_share_by_group(scores, group, shares)
    assert abs(flags.mean() - 0.10) < 0.001
    tpr = [flags[(group == g) & (y == 1)].mean() for g in (0, 1)]
    assert abs(tpr[0] - tpr[1]) < 0.01
    # One threshold for everyone leaves a TPR gap that the shares remove.
    single = top_share(scores, 0.10)
    assert single[(group == 0) & (y == 1)].mean() - single[(group == 1) & (y == 1)].mean() > 0.1


def test_parity_shares_are_the_capacity_for_every_group():
    scores, y, group = _population()
    assert group_shares(scores, y, group, 0.2, "demographic_parity") == {0: 0.2, 1: 0.2}


def test_equalized_odds_at_a_capacity_is_refused():
    scores, y, group = _population(1000)
    with pytest.raises(ValueError, match=r"can meet \['demographic_parity', 'true_positive_rate_parity'\]; got "
                                         r"'equalized_odds'"):
        group_shares(scores, y, group, 0.1, "equalized_odds")


def test_fit_strategy_at_a_capacity_flags_that_share_and_refuses_s3():
    scores, y, group = _population(4000)
    X = np.column_stack([scores, group])
    for strategy in ("S2", "reweighing", "S4"):
        fitted = fit_strategy(strategy, LogisticRegression(), X, y, sensitive_features=group,
                              constraint="true_positive_rate_parity", capacity=0.25)
        # S4 flags its fitted share of each group, so its total moves with the group mix of the rows decided.
        assert fitted.predict(X, group).sum() == pytest.approx(1000, abs=0 if strategy != "S4" else 20)
    with pytest.raises(ValueError, match="S3 .* cannot decide at a fixed capacity"):
        fit_strategy("S3", LogisticRegression(), X, y, sensitive_features=group, capacity=0.25)


@pytest.fixture(scope="module")
def small_readmission(tmp_path_factory):
    """The readmission audit on its first 6,000 patients (a folder of its own, checksum recorded): same columns,
    same manifest, a tenth of the fitting time."""
    import gzip
    import hashlib
    import shutil

    from faircode.data._audits import get_manifest

    manifest = get_manifest(READMISSION)
    root = tmp_path_factory.mktemp("audits")
    folder = root / READMISSION
    shutil.copytree(manifest.folder, folder, ignore=shutil.ignore_patterns("code", "figures", "*.md"))
    lines = gzip.decompress(manifest.data_path.read_bytes()).splitlines(keepends=True)
    data = gzip.compress(b"".join(lines[:6001]), mtime=0)
    (folder / manifest.data).write_bytes(data)
    text = (folder / "audit.toml").read_text().replace(manifest.data_sha256, hashlib.sha256(data).hexdigest())
    (folder / "audit.toml").write_text(text)
    return root


def test_harness_decides_the_readmission_audit_at_its_capacity_without_s3(small_readmission):
    table = run_benchmark([READMISSION], ["S2", "S4"], ["logistic_regression"], n_jobs=1, n_boot=20,
                          root=small_readmission)
    info = table.attrs["audits"][READMISSION]
    assert info["capacity"] == 0.1 and info["strategies"] == ["S2", "S4"]
    # Rows whose race is not recorded are left out of every strategy's rows (the mitigation needs the group).
    assert info["unknown_target_rows"] == 130
    race = table[table["attribute"] == "race"].set_index("strategy")
    n_test = race["n_test"].iloc[0]
    assert n_test == race["n_group"].iloc[0] + race["n_rest"].iloc[0]
    flagged = race["sel_group"] * race["n_group"] + race["sel_rest"] * race["n_rest"]
    assert np.allclose(flagged / n_test, 0.1, atol=0.002)


def test_harness_refuses_s3_when_asked_for_on_a_capacity_audit(small_readmission):
    with pytest.raises(ValueError, match=r"audit 'Healthcare Readmission' decides at a fixed capacity \(0.1 of the "
                                         r"people ranked highest\); S3"):
        run_benchmark([READMISSION], ["S3"], ["logistic_regression"], n_jobs=1, n_boot=20, root=small_readmission)


def test_group_labels_may_be_text_in_an_object_array():
    scores, y, group = _population(2000)
    labels = np.where(group == 1, "b", "a").astype(object)
    shares = group_shares(scores, y, labels, 0.1, "true_positive_rate_parity")
    assert set(shares) == {"a", "b"}
    assert top_share_by_group(scores, labels, shares).sum() == pytest.approx(200, abs=6)
    with pytest.raises(ValueError, match=r"groups \['c'\] have no share"):
        top_share_by_group(scores, np.where(group == 1, "c", "a").astype(object), shares)
