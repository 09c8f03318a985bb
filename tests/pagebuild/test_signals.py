"""However the build ends (SIGTERM from CI or `timeout`, Ctrl-C, SIGKILL), no page process or anything a page
started outlives it; an interrupted build says so in one line, without a traceback. A page that finished takes
what it left running with it."""
import contextlib
import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not pathlib.Path("/proc/self/stat").exists(), reason="reads process states from /proc")

HANGING_PAGE = """# Hangs

```python
import os, pathlib, subprocess, time
child = subprocess.Popen(["sleep", "60"])
pathlib.Path("pids.tmp").write_text(f"{os.getpid()} {child.pid}")
os.replace("pids.tmp", "pids")
time.sleep(60)
```
"""


def _alive(pid):
    """Whether a process exists and is not a zombie (an exited child nobody has reaped yet)."""
    try:
        stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def _states(pids):
    """Each process's state and what it waits in, and its children's, for a failure message."""
    lines = []
    for pid in pids:
        proc = pathlib.Path(f"/proc/{pid}")
        try:
            stat = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
            wchan = (proc / "wchan").read_text() or "-"
            children = " ".join(p.read_text() for p in proc.glob("task/*/children")).split()
        except FileNotFoundError:
            lines.append(f"{pid}: gone")
            continue
        lines.append(f"{pid}: state {stat}, waiting in {wchan}, children {children or 'none'}")
    return "; ".join(lines)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL], ids=lambda s: s.name)
def test_no_page_process_outlives_the_build(tmp_path, signum):
    (tmp_path / "explainers").mkdir()
    (tmp_path / "pyproject.toml").write_text("[tool.pagebuild]\ntimeout = 60\npreload = []\n")
    (tmp_path / "explainers/hangs.md").write_text(HANGING_PAGE)
    # Ctrl-C at a terminal: SIGINT's default action. A shell starts a background job (`cmd &`, as a CI runner
    # may) with SIGINT ignored, and Python then installs no KeyboardInterrupt handler, so the build would rightly
    # ignore it; the test must not depend on how pytest itself was started.
    build = subprocess.Popen([sys.executable, "-m", "scripts.pagebuild", "build", "-q", "--root", str(tmp_path)],
                             cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={"PYTHONPATH": str(REPO), "PATH": os.environ["PATH"]},
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    pids = []
    try:
        deadline = time.monotonic() + 20
        while not (tmp_path / "pids").exists():
            assert build.poll() is None and time.monotonic() < deadline, build.communicate()
            time.sleep(0.02)
        pids = [int(pid) for pid in (tmp_path / "pids").read_text().split()]
        build.send_signal(signum)
        try:
            _, err = build.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the build had not exited 30 s after {signum.name}: {_states([build.pid, *pids])}")
        deadline = time.monotonic() + 3
        while any(map(_alive, pids)) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not [pid for pid in pids if _alive(pid)], "the page's process or its child outlived the build"
        assert build.returncode == (-signum if signum == signal.SIGKILL else 128 + signum)
        if signum != signal.SIGKILL:
            assert "Traceback" not in err
            assert err.strip() == (f"build interrupted by {signum.name}: the running pages were stopped; pages "
                                   "that finished were written, the others left as they were")
        assert not (tmp_path / "explainers/code/hangs.py").exists()
    finally:
        build.kill()
        build.communicate()  # reap it and close its pipes, so no later test meets a stray Popen's warnings
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def test_what_a_finished_page_left_running_is_stopped_with_it(bare_site):
    bare_site.add("leaves.md", "```python\nimport pathlib, subprocess\n"
                               "pathlib.Path('pid').write_text(str(subprocess.Popen(['sleep', '60']).pid))\n```\n")
    pid = None
    try:
        assert bare_site.build().ok
        pid = int((bare_site.root / "pid").read_text())
        deadline = time.monotonic() + 3
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not _alive(pid), "a process the page started outlived the page's run"
    finally:
        if pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
