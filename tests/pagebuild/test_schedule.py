"""Which page starts first (recorded and committed durations) and what the fork server warms for every page."""
import json
import pathlib
import subprocess
import sys

import pytest

from scripts.pagebuild import Reporter
from scripts.pagebuild._cli import main
from scripts.pagebuild._durations import longest_first, read_durations, write_durations
from scripts.pagebuild._execute import Job

from _build_helpers import PAGE

REPO = pathlib.Path(__file__).resolve().parents[2]


class Starts(Reporter):
    """A quiet reporter that remembers the order pages started in."""

    def __init__(self):
        super().__init__(quiet=True)
        self.order = []

    def start(self, job):
        self.order.append(pathlib.Path(job.path).stem)


def _jobs(*names):
    return [Job(f"explainers/{n}.md", f"explainers/code/{n}.py", [], 60.0, "config") for n in names]


def test_longest_first_prefers_the_cache_then_the_committed_file_and_unknown_pages_lead():
    jobs = _jobs("a", "b", "c", "d")
    order = longest_first(jobs, recorded={"explainers/a.md": 1.0, "explainers/b.md": 9.0},
                          committed={"explainers/a.md": 50.0, "explainers/c.md": 5.0})
    assert [pathlib.Path(j.path).stem for j in order] == ["d", "b", "c", "a"]


def test_durations_file_round_trips_and_bad_content_names_what_arrived(tmp_path):
    path = tmp_path / "durations.json"
    assert read_durations(path) == {}
    assert write_durations(path, {"explainers/b.md": 2.04, "explainers/a.md": 12.96})
    assert not write_durations(path, {"explainers/a.md": 12.96, "explainers/b.md": 2.04})  # unchanged
    assert read_durations(path) == {"explainers/a.md": 13.0, "explainers/b.md": 2.0}
    assert list(json.loads(path.read_text())["pages"]) == ["explainers/a.md", "explainers/b.md"]
    path.write_text('{"format": 1, "pages": {"explainers/a.md": "slow"}}')
    with pytest.raises(ValueError, match=r"durations\.json.*expected.*got.*slow"):
        read_durations(path)
    path.write_text("{not json")
    with pytest.raises(ValueError, match="not JSON"):
        read_durations(path)


def test_build_starts_the_longest_page_first_from_the_committed_durations(site):
    for name in ("alpha", "beta", "gamma"):
        site.add(f"{name}.md", PAGE.format(name=name, code=f"print({name!r})"))
    (site.root / ".pagebuild-durations.json").write_text(json.dumps(
        {"format": 1, "pages": {"explainers/alpha.md": 1.0, "explainers/beta.md": 30.0, "explainers/gamma.md": 7.0}}))
    starts = Starts()
    assert site.build(reporter=starts).ok
    assert starts.order == ["beta", "gamma", "alpha"]


def test_no_cache_rebuild_still_orders_by_the_cache_s_recorded_times(site):
    for name in ("alpha", "beta"):
        site.add(f"{name}.md", PAGE.format(name=name, code="import time\ntime.sleep(0.6 if __file__.endswith"
                                                           "('beta.py') else 0.0)\nprint('done')"))
    assert site.build().ok  # records the times: beta is the slow one
    starts = Starts()
    assert site.build(use_cache=False, reporter=starts).ok
    assert starts.order == ["beta", "alpha"]


def test_a_broken_durations_file_warns_and_the_build_goes_on(site):
    site.add("alpha.md", PAGE.format(name="alpha", code="print(1)"))
    (site.root / ".pagebuild-durations.json").write_text("[1, 2]")
    summary = site.build()
    assert summary.ok and summary.ran == ["explainers/alpha.md"]
    assert any("pagebuild-durations.json" in w and "page order" in w for w in summary.warnings)


def test_durations_command_writes_the_cache_s_times_for_existing_pages(site, capsys):
    site.add("alpha.md", PAGE.format(name="alpha", code="print(1)"))
    site.add("beta.md", PAGE.format(name="beta", code="print(2)"))
    assert site.build().ok
    (site.root / "explainers/beta.md").unlink()
    assert main(["durations", "--root", str(site.root)]) == 0
    pages = read_durations(site.root / ".pagebuild-durations.json")
    assert list(pages) == ["explainers/alpha.md"] and pages["explainers/alpha.md"] >= 0
    assert "1 page(s), rewritten" in capsys.readouterr().out


WARM_MODULE = """
STATE = []


def warm():
    STATE.append("warmed in the server")


def broken():
    raise RuntimeError("the warm call failed")
"""


def _build_in_new_process(root):
    """A build in a process of its own, so it starts its own fork server (one per process)."""
    return subprocess.run([sys.executable, "-m", "scripts.pagebuild", "build", "-q", "--root", str(root)],
                          cwd=REPO, capture_output=True, text=True, env={"PYTHONPATH": str(REPO), "PATH": ""})


@pytest.mark.parametrize("call, expected", [("warm", "['warmed in the server']"), ("broken", "[]")])
def test_pages_inherit_what_the_warm_calls_loaded_and_a_failing_call_is_skipped(tmp_path, call, expected):
    (tmp_path / "explainers").mkdir()
    (tmp_path / "pyproject.toml").write_text(f'[tool.pagebuild]\ntimeout = 60\npreload = []\nwarm = ["warmprobe:{call}"]\n')
    (tmp_path / "warmprobe.py").write_text(WARM_MODULE)
    (tmp_path / "explainers/probe.md").write_text(PAGE.format(name="probe", code="import warmprobe\n"
                                                                               "print(warmprobe.STATE)"))
    done = _build_in_new_process(tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"```text\n{expected}\n```" in (tmp_path / "explainers/probe.md").read_text()


def test_a_page_of_another_root_imports_its_own_module_not_the_warmed_one(tmp_path):
    roots = []
    for name in ("first", "second"):
        root = tmp_path / name
        (root / "explainers").mkdir(parents=True)
        (root / "pyproject.toml").write_text('[tool.pagebuild]\ntimeout = 60\npreload = []\nwarm = ["warmprobe:warm"]\n')
        (root / "warmprobe.py").write_text(WARM_MODULE + f"\nROOT = {name!r}\n")
        (root / "explainers/probe.md").write_text(PAGE.format(
            name="probe", code="import warmprobe\nprint(warmprobe.ROOT, warmprobe.STATE)"))
        roots.append(root)
    # Both builds in one process: the second root's page runs in a child of the first root's server.
    script = ("import sys\nfrom scripts.pagebuild import Reporter, load_config, run\n"
              "for root in sys.argv[1:]:\n"
              "    assert run(load_config(root), reporter=Reporter(quiet=True), parallel=1).ok\n")
    done = subprocess.run([sys.executable, "-c", script, *map(str, roots)], cwd=REPO, capture_output=True,
                          text=True, env={"PYTHONPATH": str(REPO), "PATH": ""})
    assert done.returncode == 0, done.stderr
    assert "first ['warmed in the server']" in (roots[0] / "explainers/probe.md").read_text()
    assert "second []" in (roots[1] / "explainers/probe.md").read_text()
