"""Files a page publishes (an HTML report): written by the page into the folder the build names, kept by the build
at ``<folder>/reports/<slug>/<name>``, checked, cleaned and cached like its figures."""
from _build_helpers import PAGE

REPORT = "explainers/reports/report-page/summary.html"

WRITER = """import os
import pathlib

folder = pathlib.Path(os.environ.get("PAGEBUILD_REPORTS", "explainers/reports/report-page"))
for name in {names!r}:
    (folder / name).write_text("<p>{value}</p>")
print("wrote", len({names!r}))"""


def _page(site, names=("summary.html",), value="one"):
    return site.add("report-page.md", PAGE.format(name="Report page", code=WRITER.format(names=list(names),
                                                                                          value=value)))


def test_a_published_file_lands_in_the_pages_reports_folder_and_rebuilds_identically(bare_site):
    _page(bare_site)
    summary = bare_site.build()
    assert summary.ok, summary.failures
    assert (bare_site.root / REPORT).read_text() == "<p>one</p>"
    assert REPORT in summary.written
    again = bare_site.build()
    assert again.ok and again.ran == [] and again.written == []
    fresh = bare_site.build(use_cache=False)
    assert fresh.ok and fresh.ran == ["explainers/report-page.md"] and fresh.written == []
    assert bare_site.check().ok and bare_site.check(use_cache=False).ok


def test_check_catches_an_edited_or_missing_report_and_writes_nothing(bare_site):
    _page(bare_site)
    bare_site.build()
    report = bare_site.root / REPORT
    report.write_text("<p>edited</p>")
    for options in ({}, {"use_cache": False}):
        differences = bare_site.check(**options).differences
        assert differences == [(REPORT, "report differs from what the page writes")]
    assert report.read_text() == "<p>edited</p>"
    report.unlink()
    assert bare_site.check().differences == [(REPORT, "report is missing")]
    summary = bare_site.build()  # the cached run no longer matches the disk: the page runs and writes it again
    assert summary.ran == ["explainers/report-page.md"] and report.read_text() == "<p>one</p>"


def test_a_report_the_page_no_longer_writes_is_removed(bare_site):
    _page(bare_site)
    bare_site.build()
    _page(bare_site, names=["other.html"])
    assert (REPORT, "report is no longer written by its page") in bare_site.check(use_cache=False).differences
    summary = bare_site.build()
    assert summary.ok and REPORT in summary.written
    assert sorted(p.name for p in (bare_site.root / "explainers/reports/report-page").iterdir()) == ["other.html"]
    _page(bare_site, names=[])
    assert bare_site.build().ok
    assert not (bare_site.root / "explainers/reports/report-page").exists()


def test_a_report_with_a_bad_name_fails_the_page_and_writes_nothing(bare_site):
    _page(bare_site, names=["notes.txt"])
    summary = bare_site.build()
    [(path, message)] = summary.failures
    assert path == "explainers/report-page.md"
    assert "'notes.txt'" in message and ".html" in message
    assert not (bare_site.root / "explainers/reports").exists()


def test_a_deleted_page_leaves_no_report(bare_site):
    page = _page(bare_site)
    bare_site.build()
    page.unlink()
    assert (REPORT, "was generated from explainers/report-page.md, which no longer exists") in \
        bare_site.check().differences
    assert REPORT in bare_site.build().written
    assert not (bare_site.root / "explainers/reports/report-page").exists()
