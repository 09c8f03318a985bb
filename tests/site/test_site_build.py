"""The site built around fixture pages: navigation from front matter, related links, provenance, notebooks."""
import filecmp
import hashlib
import json
import re
import zipfile

import pytest
from bs4 import BeautifulSoup

from _site_helpers import ROOT, build_site, make_site_root
from scripts.site import PageMetadataError, load_explainers

PAGE = "explainers/fixture-selection-rate/index.html"


def _soup(site, rel):
    return BeautifulSoup((site / rel).read_text(encoding="utf-8"), "html.parser")


def _article(site, rel):
    return _soup(site, rel).select_one("article")


def test_navigation_follows_front_matter(fixture_site):
    _, site = fixture_site
    tabs = [a.get_text(strip=True) for a in _soup(site, "index.html").select(".md-tabs__link")]
    # Themes in CONTRIBUTING's order; themes without a page have no tab; audits last.
    assert tabs == ["Home", "Concept index", "Evaluation design", "Metrics", "Audits"]
    sidebar = [a.get_text(" ", strip=True) for a in _soup(site, PAGE).select(".md-nav--primary .md-nav__link")]
    assert "Fixture Audit write-up" in sidebar and "Data card" in sidebar


def test_home_page_reaches_every_page_in_one_click(fixture_site):
    _, site = fixture_site
    links = {a["href"] for a in _article(site, "index.html").select("a[href]")}
    assert {"explainers/fixture-holdout/", "explainers/fixture-selection-rate/", "concepts/",
            "audits/fixture-audit/", "audits/fixture-audit/data/"} <= links
    text = _article(site, "index.html").get_text(" ", strip=True)
    assert text.count("No page yet.") == 4  # uncertainty, shift and robustness, sources of bias, mitigation


def test_audit_pages_have_short_addresses_and_their_old_addresses_send_the_reader_on(fixture_site):
    _, site = fixture_site
    assert _article(site, "audits/fixture-audit/index.html").select_one("h1").get_text(strip=True)
    assert _article(site, "audits/fixture-audit/data/index.html") is not None
    assert (site / "audits/fixture-audit/tiny.csv").is_file()
    spaced = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file() and " " in str(p))
    assert spaced == ["Fixture Audit/DATA/index.html", "Fixture Audit/fixture-audit/index.html"]
    for old, new in (("Fixture Audit/DATA/", "audits/fixture-audit/data/"),
                     ("Fixture Audit/fixture-audit/", "audits/fixture-audit/")):
        refresh = _soup(site, old + "index.html").select_one('meta[http-equiv="refresh"]')["content"]
        target = refresh.split("url=", 1)[1]
        assert (site / old / target / "index.html").resolve() == (site / new / "index.html").resolve()


def test_concept_index_lists_every_definition(fixture_site):
    _, site = fixture_site
    entries = [(dt.get_text(strip=True), dd.get_text(" ", strip=True))
               for dt, dd in zip(_article(site, "concepts/index.html").select("dt"),
                                 _article(site, "concepts/index.html").select("dd"))]
    assert entries == [
        ("Fixture Holdout", "A second test page, in another theme, with no generated script. (evaluation design)"),
        ("Fixture Selection Rate",
         "A test page that compares how often a model says yes in each of two groups. (metrics)"),
    ]


def test_links_to_missing_pages_become_text(fixture_site):
    _, site = fixture_site
    article = _article(site, PAGE)
    related = article.find(id="related-concepts").find_next("ul")
    assert [a["href"] for a in related.select("a")] == ["../fixture-holdout/"]
    text = related.get_text(" ", strip=True)
    assert "Equalized Odds: a page that does not exist yet" in text
    assert "Calibration Within Groups, with an anchor" in text
    assert "[Equalized Odds](equalized-odds.md)" in related.select_one("code").get_text()
    writeup = _article(site, "audits/fixture-audit/index.html")
    assert [a.get_text() for a in writeup.select("p a")] == ["Fixture Selection Rate", "data card"]
    assert "Disaggregated Evaluation" in writeup.get_text()


def test_fence_options_of_the_build_render_as_code(fixture_site):
    _, site = fixture_site
    article = _article(site, PAGE)
    assert "```" not in article.get_text()
    code = [pre.get_text() for pre in article.select("pre")]
    assert any('load_audit("Fixture Audit")' in c for c in code)
    assert article.select_one(".highlight .filename").get_text() == "Sketch: shown, not run by the build"


def test_run_it_yourself_names_archive_commands_notebook_and_inputs(fixture_site):
    root, site = fixture_site
    heading = _article(site, PAGE).find(id="run-it-yourself")
    section = BeautifulSoup("".join(str(el) for el in heading.find_next_siblings()), "html.parser")
    text = section.get_text(" ", strip=True)
    commands = section.select_one("pre").get_text()
    assert "make setup" in commands
    assert "OMP_NUM_THREADS=1 PYTHONPATH=. .venv/bin/python explainers/code/fixture-selection-rate.py" in commands
    assert "python3" not in commands
    assert ".venv/bin/jupyter nbconvert --to notebook --execute --inplace explainers/notebooks/fixture-selection-rate.ipynb" in text
    archive, download = (a["href"] for a in section.select("a[download]"))
    assert archive == "../../fair-code-project.zip" and (site / "fair-code-project.zip").is_file()
    digest = hashlib.sha256((root / "Fixture Audit" / "tiny.csv").read_bytes()).hexdigest()
    data = section.select_one(".provenance li")
    assert data.select_one("a")["href"] == "../../audits/fixture-audit/tiny.csv"
    assert data.get_text(" ", strip=True) == f"Fixture Audit/tiny.csv , SHA-256 {digest}"
    pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)$", (ROOT / "requirements.lock").read_text(), re.MULTILINE))
    for name in ("fairlearn", "scikit-learn", "pandas", "numpy"):
        assert f"{name} {pins[name]}" in text
    assert (site / "explainers/fixture-selection-rate" / download).resolve().is_file()
    # The front matter's refutation_review date is shown; a page without one says it has had none.
    assert "last had a refutation review, in which each claim" in text and "on 2026-11-30." in text

    assert (site / "explainers/notebooks/fixture-selection-rate/index.html").is_file()
    # The generated script is published as a file to download, never taken for a page by mkdocs-jupyter.
    assert (site / "explainers/code/fixture-selection-rate.py").read_bytes() == \
        (root / "explainers/code/fixture-selection-rate.py").read_bytes()
    assert not (site / "explainers/code/fixture-selection-rate").exists()
    assert "Run it yourself" not in _article(site, "explainers/fixture-holdout/index.html").get_text()


def test_the_notebook_holds_prose_code_and_recorded_outputs(fixture_site):
    _, site = fixture_site
    folder = site / "explainers/notebooks/fixture-selection-rate"
    notebook = json.loads((folder / "fixture-selection-rate.ipynb").read_text(encoding="utf-8"))
    cells = notebook["cells"]
    intro = "".join(cells[0]["source"])
    assert intro.startswith("**The notebook version of the page [Fixture Selection Rate](../../fixture-selection-rate/)**")
    assert "[fair-code-project.zip](../../../fair-code-project.zip)" in intro and "make setup" in intro
    code = [cell for cell in cells if cell["cell_type"] == "code"]
    assert "ROOT = next(" in "".join(code[0]["source"])  # the first code cell finds the project's root
    assert ["".join(cell["source"]) for cell in code[1:]] == [
        'from faircode.benchmark import load_audit\n\ndata = load_audit("Fixture Audit")\nprint(data.y.mean())']
    assert code[1]["outputs"] == [{"name": "stdout", "output_type": "stream",
                                   "text": ["group    rows  selection rate\n", "women      40           0.250\n",
                                            "men        60           0.400\n"]}]
    prose = "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "markdown")
    assert "## The One-Sentence Definition" in prose and "The selection rate of a group" in prose
    assert "*The output `rates` is shown under the code cell that prints it, below.*" in prose
    assert "A sketch, shown but not run:\n\n```python\n# a sketch that never runs\n```" in prose
    assert "[Fixture Holdout](../../fixture-holdout/)" in prose  # links lead to the site's pages
    assert "- Equalized Odds: a page that does not exist yet" in prose  # and a missing page is text
    assert notebook["metadata"]["kernelspec"]["name"] == "python3"
    # On the site the notebook page shows the output; search leaves notebook pages out.
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert "0.400" in page
    # The notebook page links one shared stylesheet instead of inlining JupyterLab's (about 0.6 MB a page).
    sheets = sorted((site / "assets").glob("notebook-*.css"))
    assert len(sheets) == 1 and f'href="../../../assets/{sheets[0].name}"' in page
    assert sheets[0].stat().st_mode & 0o777 == 0o644 and len(sheets[0].read_bytes()) > 100_000
    # No navigation sidebar beside a notebook page (it is not in the navigation); the explainer keeps its own.
    assert 'data-md-type="navigation" hidden' in page
    assert 'data-md-type="navigation" hidden' not in (site / PAGE).read_text(encoding="utf-8")
    # A page's "[Run it yourself](#run-it-yourself)" links land on the notebook's own set-up paragraph.
    assert 'id="run-it-yourself"' in page and '<a id="run-it-yourself"></a>**Run it yourself.**' in intro
    index = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))
    locations = {doc["location"] for doc in index["docs"]}
    assert not [loc for loc in locations if "notebooks/" in loc]
    assert any(loc.startswith("explainers/fixture-selection-rate/") for loc in locations)


def test_the_source_archive_holds_the_project_and_the_notebooks(fixture_site):
    _, site = fixture_site
    with zipfile.ZipFile(site / "fair-code-project.zip") as archive:
        names = set(archive.namelist())
    for name in ("explainers/fixture-selection-rate.md", "explainers/code/fixture-selection-rate.py",
                 "explainers/notebooks/fixture-selection-rate.ipynb", "Fixture Audit/tiny.csv",
                 "Fixture Audit/audit.toml", "requirements.lock", "mkdocs.yml", "scripts/site/hooks.py"):
        assert f"fair-code-project/{name}" in names, name
    assert not [n for n in names if "__pycache__" in n or n.startswith("fair-code-project/out/")]


def test_a_report_a_page_published_is_served_as_it_is_and_linked(fixture_site):
    root, site = fixture_site
    source = root / "explainers/reports/fixture-selection-rate/report.html"
    served = site / "explainers/reports/fixture-selection-rate/report.html"
    assert served.read_bytes() == source.read_bytes()  # a static file: not themed, not rewritten
    [link] = [a for a in _article(site, PAGE).select("a") if a.get_text() == "Open the report"]
    assert (site / "explainers/fixture-selection-rate" / link["href"]).resolve() == served.resolve()
    with zipfile.ZipFile(site / "fair-code-project.zip") as archive:
        assert "fair-code-project/explainers/reports/fixture-selection-rate/report.html" in archive.namelist()


def test_output_is_framed_apart_from_code(fixture_site):
    _, site = fixture_site
    article = _article(site, PAGE)
    [box] = article.select(".fc-output")
    assert box.select_one("details.fc-output__code > summary").get_text() == "Output · show the code that printed it"
    assert 'load_audit("Fixture Audit")' in box.select_one("details.fc-output__code pre").get_text()
    printed = box.select_one(":scope > div.highlight")
    assert "no-copy" in printed["class"] and "women      40" in printed.get_text()
    # The table and the figure after the region are prose, not output.
    assert not box.select("table") and not box.select("img")


def test_each_theme_tab_lands_on_an_overview_with_definitions(fixture_site):
    _, site = fixture_site
    tabs = {a.get_text(strip=True): a["href"] for a in _soup(site, "index.html").select(".md-tabs__link")}
    assert tabs["Metrics"] == "themes/metrics/" and tabs["Evaluation design"] == "themes/evaluation-design/"
    overview = _article(site, "themes/metrics/index.html")
    assert overview.select_one("h1").get_text(strip=True).rstrip("¶") == "Metrics"
    assert [(dt.get_text(strip=True), dt.select_one("a")["href"]) for dt in overview.select("dt")] == [
        ("Fixture Selection Rate", "../../explainers/fixture-selection-rate/")]
    assert "compares how often a model says yes" in overview.select_one("dd").get_text()


def test_two_builds_are_byte_identical(fixture_site, tmp_path):
    _, first = fixture_site
    root = make_site_root(tmp_path / "elsewhere")  # another folder: no absolute path may leak into the site
    second = root / "out"
    build_site(root, second)
    files = sorted(p.relative_to(first).as_posix() for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second).as_posix() for p in second.rglob("*") if p.is_file())
    # The sitemap carries mkdocs' build date by design; everything a reader opens must not.
    compared = [f for f in files if not f.startswith("sitemap.xml")]
    _, mismatch, errors = filecmp.cmpfiles(first, second, compared, shallow=False)
    assert not mismatch and not errors


def test_site_builds_with_no_pages_at_all(tmp_path):
    root = make_site_root(tmp_path / "empty", pages=None)
    build_site(root, root / "out")
    home = _article(root / "out", "index.html").get_text(" ", strip=True)
    assert home.count("No page yet.") == 6 and "No audit yet." in home
    assert "No explainer has been published yet." in _article(root / "out", "concepts/index.html").get_text()


@pytest.mark.parametrize("front_matter, message", [
    ("title: T\ntheme: metric\norder: 1\ndefinition: D.",
     "explainers/bad.md: front matter theme is 'metric'; expected one of: 'evaluation design', 'metrics', "
     "'uncertainty', 'shift and robustness', 'sources of bias', 'mitigation'"),
    ("title: T\ntheme: metrics\norder: 1",
     "explainers/bad.md: front matter lacks 'definition'; every explainer needs title, theme, order, definition"),
    ("title: T\ntheme: metrics\norder: first\ndefinition: D.",
     "explainers/bad.md: front matter 'order' is 'first'; expected a number"),
    ("title: T\ntheme: metrics\norder: 1\ndefinition: D.\nrefutation_review: last week",
     "explainers/bad.md: front matter 'refutation_review' is 'last week'; expected a date written YYYY-MM-DD"),
    ("title: T\ntheme: metrics\norder: 1\ndefinition: D.\nrefutation_review: 2026-12-01 10:00",
     "explainers/bad.md: front matter 'refutation_review' is '2026-12-01 10:00'; expected a date"),
])
def test_bad_front_matter_is_named_with_its_page(tmp_path, front_matter, message):
    (tmp_path / "explainers").mkdir()
    (tmp_path / "explainers" / "bad.md").write_text(f"---\n{front_matter}\n---\n\n# T\n", encoding="utf-8")
    with pytest.raises(PageMetadataError) as caught:
        load_explainers(tmp_path)
    assert message in str(caught.value)


def test_bad_front_matter_fails_the_build(tmp_path):
    root = make_site_root(tmp_path / "bad", pages=None)
    (root / "explainers").mkdir()
    (root / "explainers" / "bad.md").write_text("---\ntitle: T\ntheme: metric\norder: 1\ndefinition: D.\n---\n",
                                                encoding="utf-8")
    result = build_site(root, root / "out", check=False)
    assert result.returncode != 0
    assert "explainers/bad.md: front matter theme is 'metric'; expected one of:" in result.stderr + result.stdout


@pytest.mark.parametrize("page", ["explainers/latin.md", "Fixture Audit/latin.md"])
def test_a_page_that_is_not_utf8_fails_the_build_naming_it(tmp_path, page):
    root = make_site_root(tmp_path / "latin")
    (root / page).write_bytes(b"---\ntitle: T\ntheme: metrics\norder: 1\ndefinition: D.\n---\n\nCaf\xe9\n")
    result = build_site(root, root / "out", check=False)
    output = result.stderr + result.stdout
    assert result.returncode != 0 and "Traceback" not in output
    assert f"{page}:8: not UTF-8: byte offset 60 holds 0xe9" in output


def test_a_site_url_fills_the_sitemap_and_roots_the_404_page(tmp_path, monkeypatch):
    """SITE_URL (the published address) goes to mkdocs' site_url: the sitemap then lists the pages and the 404
    page, served at any depth, finds its styles under the site's own path."""
    root = make_site_root(tmp_path / "root")
    monkeypatch.setenv("SITE_URL", "https://example.org/fair-code/")
    build_site(root, root / "out")
    sitemap = (root / "out" / "sitemap.xml").read_text(encoding="utf-8")
    assert "<loc>https://example.org/fair-code/explainers/fixture-selection-rate/</loc>" in sitemap
    assert "<loc>https://example.org/fair-code/audits/fixture-audit/</loc>" in sitemap
    assert 'href="/fair-code/assets/' in (root / "out" / "404.html").read_text(encoding="utf-8")
