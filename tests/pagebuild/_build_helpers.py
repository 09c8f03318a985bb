"""Helpers of the page-build tests: a throwaway repository root built with the real build, and a page template."""
import pathlib

from scripts.pagebuild import Reporter, load_config, run

FIXTURES = pathlib.Path(__file__).parent / "fixtures"


# The fork server preloads what the fixture pages import, not the project's whole list (scikit-learn's
# ensembles, fairlearn): one test process has one server, and the test that starts it pays for its imports.
PRELOAD = 'preload = ["numpy", "pandas", "matplotlib.pyplot", "sklearn.linear_model"]\n'


class Site:
    """A temporary repository root with an ``explainers/`` folder, built with the real build."""

    def __init__(self, root, settings=PRELOAD):
        self.root = root
        (root / "explainers").mkdir()
        (root / "pyproject.toml").write_text("[tool.pagebuild]\ntimeout = 60\n" + settings)

    def add(self, name, text=None):
        """Copy a fixture page (or write ``text``) as ``explainers/<name>``; return its path."""
        path = self.root / "explainers" / name
        path.write_text(text if text is not None else (FIXTURES / name).read_text())
        return path

    def build(self, **options):
        options.setdefault("reporter", Reporter(quiet=True))
        return run(load_config(self.root), parallel=2, **options)

    def check(self, **options):
        return self.build(write=False, **options)

    def snapshot(self):
        """Bytes of every file under explainers/ (pages, scripts, figures)."""
        folder = self.root / "explainers"
        return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


#: A page with one block whose output shows between one marker pair.
PAGE = """---
title: {name}
---

<!-- output: out -->
<!-- end output -->

```python output="out"
{code}
```
"""
