"""The site helpers on small inputs written inline: links, fence options, provenance, audit pages."""
import hashlib

import pytest

from _site_helpers import ROOT  # noqa: F401 - puts the repository root on sys.path
from scripts.site import (audits_named, code_regions, load_audits, pinned_versions, provenance,
                          unlink_missing_pages)
from scripts.site._fences import SKETCH_TITLE, normalize_fences

PAGES = {"explainers/equalized-odds.md", "Benefits Denial/DATA.md"}


def _unlink(markdown, page="explainers/label-shift.md"):
    return unlink_missing_pages(markdown, page, PAGES.__contains__)


@pytest.mark.parametrize("markdown, expected, unlinked", [
    ("[Equalized Odds](equalized-odds.md)", "[Equalized Odds](equalized-odds.md)", []),
    ("[Predictive Parity](predictive-parity.md): precision.", "Predictive Parity: precision.",
     ["explainers/predictive-parity.md"]),
    ("[Parity](predictive-parity.md#limits \"title\")", "Parity", ["explainers/predictive-parity.md"]),
    ("[card](../Benefits%20Denial/DATA.md)", "[card](../Benefits%20Denial/DATA.md)", []),
    ("[card](<../Benefits Denial/DATA.md>)", "[card](<../Benefits Denial/DATA.md>)", []),
    ("[write-up](<../Benefits Denial/benefits-denial.md>)", "write-up", ["Benefits Denial/benefits-denial.md"]),
    ("![a figure](figures/missing.md)", "![a figure](figures/missing.md)", []),
    ("[site](https://example.org/page.md)", "[site](https://example.org/page.md)", []),
    ("`[Odds](odds.md)` and [Odds](odds.md)", "`[Odds](odds.md)` and Odds", ["explainers/odds.md"]),
    ("```python\nprint('[Odds](odds.md)')\n```\n", "```python\nprint('[Odds](odds.md)')\n```\n", []),
    ("[*Odds* and [more]](odds.md)", "*Odds* and [more]", ["explainers/odds.md"]),
])
def test_links_to_missing_pages_become_their_text(markdown, expected, unlinked):
    assert _unlink(markdown) == (expected, unlinked)


def test_code_regions_cover_fences_and_spans_but_not_prose():
    markdown = "a `b` c\n````md\n```\nx\n```\n````\nd ``e ` f`` g\n"
    regions = code_regions(markdown)
    covered = "".join(markdown[lo:hi] for lo, hi in regions)
    assert covered == "`b`" + "````md\n```\nx\n```\n````\n" + "``e ` f``"


def test_unclosed_fence_runs_to_the_end():
    assert code_regions("text\n```\n[a](b.md)\n") == [(5, 19)]


@pytest.mark.parametrize("source, expected", [
    ('```python output="table"\nx = 1\n```', "```python\nx = 1\n```"),
    ("```python output=table\nx = 1\n```", "```python\nx = 1\n```"),
    ("```python norun\nx = 1\n```", f'```python title="{SKETCH_TITLE}"\nx = 1\n```'),
    ("```bash\nls\n```", "```bash\nls\n```"),
    ('````markdown\n```python output="a"\n```\n````', '````markdown\n```python output="a"\n```\n````'),
    ("text with ```python output=\"a\"``` inline", "text with ```python output=\"a\"``` inline"),
])
def test_fence_options_are_rewritten_only_on_openers(source, expected):
    assert normalize_fences(source) == expected


def test_audits_named_reads_string_constants_only():
    script = ('# Benefits Denial is mentioned in a comment\nfrom faircode.benchmark import load_audit\n'
              'AUDIT = "German Credit Lending"\ndata = load_audit(AUDIT)\n')
    assert audits_named(script, ["Benefits Denial", "German Credit Lending"]) == ["German Credit Lending"]
    assert audits_named('open("Benefits Denial/adult.csv")', ["Benefits Denial"]) == ["Benefits Denial"]


def test_pinned_versions_come_from_the_lock_main_libraries_first(tmp_path):
    lock = tmp_path / "requirements.lock"
    lock.write_text("# pins\nfairlearn==0.15.0\nmatplotlib==3.11.2\nnumpy==2.4.6\npandas==3.1.1\n"
                    "scikit-learn==1.9.1\nscipy==1.17.1\nPyYAML==6.0.4\nrequests==2.34.2\n", encoding="utf-8")
    script = "import yaml\nfrom sklearn.metrics import recall_score\nimport faircode\nfrom . import x\n"
    assert pinned_versions(lock, script) == [
        ("fairlearn", "0.15.0"), ("scikit-learn", "1.9.1"), ("pandas", "3.1.1"), ("numpy", "2.4.6"),
        ("scipy", "1.17.1"), ("matplotlib", "3.11.2"), ("PyYAML", "6.0.4")]


def test_provenance_hashes_the_data_of_the_audits_a_script_names(tmp_path):
    (tmp_path / "A").mkdir()
    (tmp_path / "A" / "rows.csv").write_bytes(b"x,y\n1,0\n")
    (tmp_path / "B").mkdir()
    (tmp_path / "B" / "other.csv").write_bytes(b"z\n")
    script = tmp_path / "page.py"
    script.write_text('load_audit("A")\n', encoding="utf-8")
    facts = provenance(tmp_path, script, {"A": tmp_path / "A", "B": tmp_path / "B"})
    assert facts.data == [("A/rows.csv", hashlib.sha256(b"x,y\n1,0\n").hexdigest())]
    assert facts.libraries == []  # no requirements.lock in this root


def test_audit_pages_put_the_write_up_first_and_the_data_card_last(tmp_path):
    folder = tmp_path / "Some Audit"
    folder.mkdir()
    (folder / "audit.toml").write_text('outcome = "y"\n', encoding="utf-8")
    (folder / "DATA.md").write_text("# Whatever heading\n", encoding="utf-8")
    (folder / "some-audit.md").write_text("# Some Audit: what the methods find\n", encoding="utf-8")
    (tmp_path / "Not An Audit").mkdir()
    (tmp_path / "Not An Audit" / "page.md").write_text("# Page\n", encoding="utf-8")
    [audit] = load_audits(tmp_path)
    assert audit.name == "Some Audit"
    assert [(p.src_uri, p.title) for p in audit.pages] == [
        ("Some Audit/some-audit.md", "Some Audit: what the methods find"), ("Some Audit/DATA.md", "Data card")]
    assert audit.writeups[0].script_uri == "Some Audit/code/some-audit.py"
