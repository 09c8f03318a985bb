"""The committed figures are drawn for the site's content column: at most 7.2 in wide, saved at the build's dpi.

A figure fills a column about 690 to 950 px wide; at 7.2 in and 12 pt (scripts/pagebuild/figures.mplstyle) its
text shows at least at the body text's size. A wider figure is shrunk more, and its text with it.
"""
import pathlib
import tomllib

import pytest
from PIL import Image

ROOT = pathlib.Path(__file__).resolve().parents[1]
MAX_WIDTH_INCHES = 7.2
FIGURES = sorted(p for folder in [ROOT / "explainers", *(m.parent for m in ROOT.glob("*/audit.toml"))]
                 for p in (folder / "figures").glob("*.png"))


def _dpi() -> int:
    with open(ROOT / "pyproject.toml", "rb") as handle:
        return int(tomllib.load(handle)["tool"]["pagebuild"]["dpi"])


@pytest.mark.parametrize("path", FIGURES, ids=[p.name for p in FIGURES])
def test_figure_is_drawn_for_the_column(path):
    dpi = _dpi()
    with Image.open(path) as image:
        width, _ = image.size
        saved_dpi = image.info.get("dpi", (None,))[0]
    assert saved_dpi is not None and round(saved_dpi) == dpi, f"{path.name}: saved at {saved_dpi} dpi, expected {dpi}"
    assert width <= MAX_WIDTH_INCHES * dpi + 1, (
        f"{path.relative_to(ROOT)} is {width / dpi:.2f} in wide; draw it at most {MAX_WIDTH_INCHES} in wide "
        "(figsize) so that its text stays legible in the site's column (CONTRIBUTING.md, Figures)")
