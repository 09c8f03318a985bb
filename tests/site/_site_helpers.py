"""Helpers of the site tests: a copy of the site's sources around fixture pages, a build, a quiet HTTP handler."""
import http.server
import os
import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# What a copy of the repository needs to build the site around fixture pages instead of the real ones.
SITE_SOURCES = ("mkdocs.yml", "site_src", "site_theme", "requirements.lock", "scripts/site", "scripts/layout.py")
# A ceiling that only stops a hung build, not an estimate: the repository's site takes about a minute on an idle
# 2-core machine and took over five (300 s was too little) while other builds shared the machine.
BUILD_TIMEOUT_S = 1800


def make_site_root(dest: pathlib.Path, pages: pathlib.Path | None = FIXTURES / "root") -> pathlib.Path:
    """Copy the site's own sources into ``dest`` and lay the fixture pages (or none) beside them."""
    for name in SITE_SOURCES:
        source, target = ROOT / name, dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target)
    if pages is not None:
        shutil.copytree(pages, dest, dirs_exist_ok=True)
    return dest


def build_site(root: pathlib.Path, site_dir: pathlib.Path, check: bool = True) -> subprocess.CompletedProcess:
    """Run ``mkdocs build --strict`` on the mkdocs.yml in ``root``, writing the site to ``site_dir``."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONWARNINGS="ignore")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(root / "mkdocs.yml"), "-d", str(site_dir)],
        cwd=root, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S,
    )
    if check and result.returncode != 0:
        raise AssertionError(f"mkdocs build --strict failed in {root}:\n{result.stdout}\n{result.stderr}")
    return result


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the signature http.server defines
        pass
