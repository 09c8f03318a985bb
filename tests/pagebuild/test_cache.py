"""The cache's promise: a page runs again exactly when something it depends on changes (its code, faircode/,
an audit's data or manifest, requirements.lock), and never for a change to anything else."""
import pytest

from _build_helpers import PAGE

COUNTING = 'with open("runs.log", "a") as log:\n    log.write("ran\\n")\nprint("ran")'


@pytest.fixture
def repo(bare_site):
    """A root with a faircode package, an audit folder (manifest, data, a prose page) and a lock file."""
    root = bare_site.root
    (root / "faircode").mkdir()
    (root / "faircode/__init__.py").write_text("")
    (root / "faircode/_rates.py").write_text("RATE = 1\n")
    audit = root / "Fixture Audit"
    audit.mkdir()
    (audit / "audit.toml").write_text('outcome = "y"\n')
    (audit / "data.csv").write_text("y,group\n1,a\n0,b\n")
    (audit / "notes.md").write_text("# Notes\n\nProse only.\n")
    (root / "requirements.lock").write_text("numpy==2.0.0\n")
    (root / "README.md").write_text("# Readme\n")
    bare_site.add("counted.md", PAGE.format(name="counted", code=COUNTING))
    assert bare_site.build().ran == ["explainers/counted.md"]
    assert bare_site.build().ran == []
    return bare_site


def _runs(site):
    return (site.root / "runs.log").read_text().split()


@pytest.mark.parametrize("changed", ["faircode/_rates.py", "faircode/_new_module.py", "Fixture Audit/data.csv",
                                     "Fixture Audit/audit.toml", "requirements.lock"])
def test_a_change_to_a_dependency_runs_the_page_again(repo, changed):
    path = repo.root / changed
    path.write_text((path.read_text() if path.exists() else "") + "# changed\n")
    summary = repo.build()
    assert summary.ran == ["explainers/counted.md"] and _runs(repo) == ["ran", "ran"]
    assert repo.build().ran == []  # and once only


@pytest.mark.parametrize("changed", ["README.md", "Fixture Audit/notes.md", "faircode/__pycache__/_rates.cpython-311.pyc",
                                     "Fixture Audit/figures/notes-1.png", "Fixture Audit/code/notes.py"])
def test_a_change_to_anything_else_runs_nothing(repo, changed):
    path = repo.root / changed
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes((path.read_bytes() if path.exists() else b"") + b"\n")
    assert repo.build(only=[str(repo.root / "explainers/counted.md")]).ran == []
    assert _runs(repo) == ["ran"]


def test_no_cache_turns_faircode_s_fit_cache_off_in_each_page(site):
    """`check --no-cache` (what CI runs) must compute every fit: the page's process gets FAIRCODE_FIT_CACHE=off."""
    site.add("env.md", PAGE.format(name="env", code='import os\nprint(os.environ.get("FAIRCODE_FIT_CACHE"))'))
    summary = site.build(use_cache=False)
    assert summary.ran == ["explainers/env.md"]
    page = (site.root / "explainers/env.md").read_text()
    assert "\noff\n" in page
