"""The fit cache (faircode/benchmark/_fitcache.py) and the harness's use of it: every part of the key recomputes when it
changes, a hit returns the same rows as a fresh fit, the switch turns it off, parallel processes fit once."""
import multiprocessing
import pathlib
import shutil

import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression

from faircode.benchmark import _fitcache
from faircode.benchmark import _harness, run_benchmark
from faircode.models import build_model

AUDIT = "German Credit Lending"
ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture
def cache_env(tmp_path, monkeypatch):
    """A fresh cache folder and a log of the keys computed; returns a function that reads the log."""
    log = tmp_path / "computed.log"
    monkeypatch.setenv(_fitcache.ENV, str(tmp_path / "fits"))
    monkeypatch.setenv(_fitcache.LOG_ENV, str(log))

    def computed():
        lines = log.read_text().splitlines() if log.exists() else []
        return [line.split()[1] for line in lines if line.startswith("computed ")]
    return computed


def _run(**kwargs):
    options = dict(strategies=["S2"], models=["logistic_regression"], n_boot=20, n_jobs=1)
    options.update(kwargs)
    return run_benchmark([options.pop("audit", AUDIT)], **options)


# ---- the key -------------------------------------------------------------------------------------------

def _key(**change):
    parts = dict(audit=AUDIT, data_sha256="a" * 64, features=["age", "duration"], train="t1", test="v1",
                 strategy="S2", estimator=_fitcache.estimator_spec(build_model("logistic_regression", 42)),
                 seed=42, n_boot=1000)
    parts.update(change)
    return _fitcache.fit_key(**parts)


@pytest.mark.parametrize("change", [
    {"data_sha256": "b" * 64},
    {"features": ["age"]},
    {"train": "t2"},
    {"test": "v2"},
    {"estimator": _fitcache.estimator_spec(LogisticRegression())},                        # another class
    {"estimator": _fitcache.estimator_spec(build_model("logistic_regression", 42).set_params(
        logisticregression__C=0.5))},                                                      # another parameter
    {"seed": 43},
])
def test_each_part_of_the_key_changes_it(change):
    assert _key() == _key()
    assert _key(**change) != _key()


def test_faircode_source_its_paths_and_pinned_versions_are_in_the_key(tmp_path, monkeypatch):
    package = tmp_path / "faircode"
    shutil.copytree(ROOT / "faircode", package, ignore=shutil.ignore_patterns("__pycache__"))
    lock = tmp_path / "requirements.lock"
    lock.write_text("numpy==2.4.6\nscikit-learn==1.9.1\n")
    monkeypatch.setattr(_fitcache, "PACKAGE", package)
    monkeypatch.setattr(_fitcache, "LOCK_FILE", lock)
    try:
        _fitcache.source_digest.cache_clear()
        _fitcache.versions_digest.cache_clear()
        before = _key()
        metrics = package / "metrics" / "__init__.py"
        metrics.write_text(metrics.read_text() + "\n# changed\n")
        _fitcache.source_digest.cache_clear()
        after_source = _key()
        # The same source under another module path (a module moved to a subpackage) is a new key too.
        (package / "models.py").rename(package / "metrics" / "models.py")
        _fitcache.source_digest.cache_clear()
        after_move = _key()
        lock.write_text("numpy==2.4.6\nscikit-learn==1.9.2\n")
        _fitcache.versions_digest.cache_clear()
        after_versions = _key()
    finally:
        _fitcache.source_digest.cache_clear()
        _fitcache.versions_digest.cache_clear()
    assert len({before, after_source, after_move, after_versions}) == 4


# ---- the harness through the cache ---------------------------------------------------------------------

def test_a_hit_returns_the_rows_a_fresh_fit_gives(cache_env, monkeypatch, tmp_path):
    first = _run()
    assert len(cache_env()) == 1
    second = _run()
    assert len(cache_env()) == 1  # read, not fitted again
    assert (tmp_path / "computed.log").read_text().splitlines()[-1] == f"read {cache_env()[0]}"
    pd.testing.assert_frame_equal(second, first, check_exact=True)
    monkeypatch.setenv(_fitcache.ENV, "off")
    fresh = _run()
    assert len(cache_env()) == 2  # off: computed, and nothing read
    pd.testing.assert_frame_equal(fresh, first, check_exact=True)


def test_a_change_to_each_input_recomputes(cache_env, monkeypatch, tmp_path):
    _run()
    assert len(cache_env()) == 1
    _run(seeds=2)                      # the second split: other rows and another seed
    assert len(cache_env()) == 2
    _run(strategies=["S1"])            # other feature columns
    _run(n_boot=21)                    # another measurement
    assert len(cache_env()) == 4
    # Another estimator parameter for the same model name.
    monkeypatch.setattr(_harness, "build_model", lambda name, seed: build_model(name, seed).set_params(
        logisticregression__C=0.5))
    _run()
    assert len(cache_env()) == 5
    monkeypatch.undo()
    monkeypatch.setenv(_fitcache.ENV, str(tmp_path / "fits"))
    monkeypatch.setenv(_fitcache.LOG_ENV, str(tmp_path / "computed.log"))
    # faircode's source and the pinned versions, as the key sees them.
    for name in ("source_digest", "versions_digest"):
        with monkeypatch.context() as patch:
            patch.setattr(_fitcache, name, lambda: "changed")
            _run()
    assert len(cache_env()) == 7
    _run()
    assert len(cache_env()) == 7  # back to the original inputs: read again


def test_changed_data_recomputes(cache_env, monkeypatch, tmp_path):
    """A copy of the audit with one outcome flipped (and its manifest's checksum updated) is another key."""
    import hashlib

    audits = tmp_path / "audits"
    folder = audits / AUDIT
    shutil.copytree(ROOT / AUDIT, folder, ignore=shutil.ignore_patterns("*.md", "code", "figures"))
    monkeypatch.setenv("FAIRCODE_AUDIT_ROOT", str(audits))
    _run()
    assert len(cache_env()) == 1
    manifest = folder / "audit.toml"
    data_file = next(folder.glob("*.csv"))
    old_sha = hashlib.sha256(data_file.read_bytes()).hexdigest()
    lines = data_file.read_text().splitlines(keepends=True)
    last = lines[-1].rstrip("\n").split(",")
    outcome_values = sorted({line.rstrip("\n").split(",")[-1] for line in lines[1:]})
    last[-1] = next(v for v in outcome_values if v != last[-1])
    lines[-1] = ",".join(last) + "\n"
    data_file.write_text("".join(lines))
    manifest.write_text(manifest.read_text().replace(old_sha, hashlib.sha256(data_file.read_bytes()).hexdigest()))
    _run()
    assert len(cache_env()) == 2


def _run_in_child(cache_folder, log):
    import os

    os.environ[_fitcache.ENV] = cache_folder
    os.environ[_fitcache.LOG_ENV] = log
    _run(models=["random_forest"])


def test_parallel_processes_fit_once(cache_env, tmp_path):
    """Two processes asking for the same cell at once: one fits it, the other waits and reads it."""
    context = multiprocessing.get_context("fork")
    children = [context.Process(target=_run_in_child, args=(str(tmp_path / "fits"), str(tmp_path / "computed.log")))
                for _ in range(2)]
    for child in children:
        child.start()
    for child in children:
        child.join(60)
    assert [child.exitcode for child in children] == [0, 0]
    assert len(cache_env()) == 1


def test_the_switch(monkeypatch, tmp_path):
    for value in ("off", "OFF", "0", "false", "no"):
        monkeypatch.setenv(_fitcache.ENV, value)
        assert _fitcache.open_cache() is None
    monkeypatch.setenv(_fitcache.ENV, "on")
    assert _fitcache.location() == ROOT / ".cache" / "fits"
    monkeypatch.delenv(_fitcache.ENV)
    assert _fitcache.location() == ROOT / ".cache" / "fits"
    monkeypatch.setenv(_fitcache.ENV, str(tmp_path))
    assert _fitcache.location() == tmp_path
    afile = tmp_path / "file"
    afile.write_text("")
    monkeypatch.setenv(_fitcache.ENV, str(afile))
    with pytest.raises(ValueError, match="is a file; expected 'off', 'on' or the path of a folder"):
        _fitcache.location()
