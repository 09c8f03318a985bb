"""The mitigation menu page (explainers/choosing-a-mitigation.md) prints the harness's numbers.

Its S3, S4 and reweighing rows must agree with ``python -m faircode.benchmark``. The page checks its own refits
against ``run_benchmark`` when it runs; this test checks the committed page's printed rows against a fresh run of
the harness on German Credit Lending's own split (the smallest audit: about 2 s, fit cache off), so that a page
left stale after the harness changed fails here.
"""
import re

import pytest

from faircode.benchmark import run_benchmark

PAGE = "explainers/choosing-a-mitigation.md"
AUDIT = "German Credit Lending"


def _own_split_rows(text):
    """The page's own-split table for AUDIT: method -> the row's cells, from the committed output region."""
    region = text[text.index("<!-- output: own-split -->"):]
    region = region[:region.index("<!-- end output -->")]
    part = region[region.index(f"{AUDIT}, seed"):]
    part = part[:part.index("</div>")]
    rows = {}
    for line in part.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("| ") and cells[0] not in ("method", ":--"):
            rows[cells[0]] = cells
    return rows


def _interval(row, gap):
    return f"{row[f'{gap}_gap']:+.3f} [{row[f'{gap}_lo']:+.3f}, {row[f'{gap}_hi']:+.3f}]"


@pytest.mark.parametrize("strategy", ["reweighing", "S3", "S4"])
def test_page_rows_equal_the_harness(repo_root, strategy):
    rows = _own_split_rows((repo_root / PAGE).read_text())
    harness = run_benchmark([AUDIT], [strategy], ["logistic_regression"], seeds=1, n_jobs=1)
    target = harness.attrs["audits"][AUDIT]["target"]
    row = harness[harness["attribute"] == target.attribute].iloc[0]
    # columns: method, stage, parity gap [95% CI], change in |gap|, accuracy, change in acc.
    printed = rows[strategy]
    assert printed[2] == _interval(row, "parity")
    assert printed[4] == f"{row['accuracy']:.3f}"
    assert re.fullmatch(r"[+-]\d\.\d{3} \[[+-]\d\.\d{3}, [+-]\d\.\d{3}\]", printed[3])
