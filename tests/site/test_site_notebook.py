"""A notebook downloaded from the built site runs top to bottom from the unpacked source archive (nbclient)."""
import io
import json
import zipfile

import nbformat
import pytest

from _site_helpers import ROOT  # noqa: F401 - puts the repository root on sys.path
from scripts.site._archive import FOLDER
from scripts.site._notebooks import ARCHIVE_NAME

# A quick page with a table and a figure: the test pays for a kernel, imports and one page's work.
SLUG = "demographic-parity"


@pytest.mark.slow  # starts a Jupyter kernel and runs a page: about 10 s
def test_a_downloaded_notebook_runs_from_the_unpacked_archive(real_site, tmp_path):
    from nbclient import NotebookClient

    downloaded = real_site / "explainers" / "notebooks" / SLUG / f"{SLUG}.ipynb"
    recorded = nbformat.reads(downloaded.read_text(encoding="utf-8"), as_version=4)
    with zipfile.ZipFile(io.BytesIO((real_site / ARCHIVE_NAME).read_bytes())) as archive:
        archive.extractall(tmp_path)
    project = tmp_path / FOLDER
    for name in ("faircode/__init__.py", "requirements.lock", "Makefile", "pyproject.toml", "README.md",
                 f"explainers/{SLUG}.md", f"explainers/notebooks/{SLUG}.ipynb"):
        assert (project / name).is_file(), f"the archive lacks {name}"
    # The reader saves the download next to the pages and runs it there, away from this repository.
    target = project / "explainers" / "notebooks" / f"{SLUG}.ipynb"
    target.write_bytes(downloaded.read_bytes())
    notebook = nbformat.read(target, as_version=4)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    NotebookClient(notebook, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(target.parent)}}).execute()
    prose = "\n".join(c.source for c in recorded.cells if c.cell_type == "markdown")
    assert "## Why it matters" in prose or "## Why It Matters" in prose, "the notebook lacks the page's prose"
    assert ARCHIVE_NAME in recorded.cells[0].source and "make setup" in recorded.cells[0].source
    pairs = [(r, n) for r, n in zip(recorded.cells, notebook.cells) if r.cell_type == "code"]
    assert len(pairs) > 2
    for before, after in pairs:
        errors = [o for o in after.outputs if o.output_type == "error"]
        assert not errors, json.dumps(errors, indent=1)[:2000]
        if before.outputs:  # each cell the build recorded output for prints or draws again
            assert after.outputs, f"cell {after.id} printed nothing when run: {after.source[:200]}"
    assert any("image/png" in o.get("data", {}) for _, a in pairs for o in a.outputs) == \
        any("image/png" in o.get("data", {}) for b, _ in pairs for o in b.outputs)
