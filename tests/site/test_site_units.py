"""The site helpers on small inputs written inline: links, fence options, provenance, audit pages."""
import base64
import html
import hashlib
import io
import zipfile

import pytest

from _site_helpers import ROOT  # noqa: F401 - puts the repository root on sys.path
from scripts.site import (audits_named, code_regions, load_audits, pinned_versions, provenance,
                          unlink_missing_pages)
from scripts.site._archive import build_archive
from scripts.site._fences import SKETCH_TITLE, normalize_fences
from scripts.site._notebooks import region_outputs, site_links
from scripts.site._outputs import (CODE_SUMMARY, block_sources, frame_outputs, output_regions, point_to_folds,
                                   short_alt)
from scripts.site._urls import SitePaths, redirect_page

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
    (tmp_path / "A" / "more.csv.gz").write_bytes(b"gz")  # a compressed data file (Healthcare Readmission's)
    (tmp_path / "A" / "notes.txt").write_bytes(b"not data")
    (tmp_path / "B").mkdir()
    (tmp_path / "B" / "other.csv").write_bytes(b"z\n")
    script = tmp_path / "page.py"
    script.write_text('load_audit("A")\n', encoding="utf-8")
    facts = provenance(tmp_path, script, {"A": tmp_path / "A", "B": tmp_path / "B"})
    assert facts.data == [("A/more.csv.gz", hashlib.sha256(b"gz").hexdigest()),
                          ("A/rows.csv", hashlib.sha256(b"x,y\n1,0\n").hexdigest())]
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


PAGE_WITH_OUTPUTS = """# A page

<!-- output: table -->

```text
group  rate
a     0.250
```

<div class="fc-table" markdown>

| group | rate |
|---|---:|
| a | 0.250 |

</div>

![Bar chart of \\[rates\\]](figures/page-1.png)

<!-- end output -->

<!-- output: empty -->
<!-- end output -->

```python output="table"
print("```")
```
"""


def test_output_regions_and_the_blocks_that_print_them():
    regions = output_regions(PAGE_WITH_OUTPUTS)
    assert [(r.name, r.start, r.end) for r in regions] == [("table", 2, 19), ("empty", 21, 22)]
    assert regions[0].content.startswith("```text\ngroup  rate") and regions[1].content == ""
    assert block_sources(PAGE_WITH_OUTPUTS) == {"table": 'print("```")\n'}


def test_an_output_is_framed_with_its_code_folded_and_no_copy_button():
    framed = frame_outputs(PAGE_WITH_OUTPUTS)
    lines = framed.split("\n")
    start = lines.index('<section class="fc-output" id="output-table" markdown data-search-exclude>')
    assert lines[start - 2] == "<!-- output: table -->"
    assert lines[start + 2:start + 4] == ['<details class="fc-output__code" markdown data-search-exclude>',
                                          f"<summary>{CODE_SUMMARY}</summary>"]
    assert '````python\nprint("```")\n````' in framed  # a fence longer than any backtick run in the code
    assert "``` { .text .no-copy .fc-aligned }\ngroup  rate" in framed  # columns: kept, scrolls
    assert ('<figure class="fc-figure" markdown>\n\n![Bar chart of \\[rates\\]](figures/page-1.png)'
            '{ data-title="Bar chart of [rates]" }\n\n<figcaption>Bar chart of [rates]</figcaption>') in framed
    assert "| a | 0.250 |" in framed
    # The empty region and everything outside the regions are untouched.
    assert "<!-- output: empty -->\n<!-- end output -->" in framed
    assert framed.endswith('```python output="table"\nprint("```")\n```\n')
    assert frame_outputs("no outputs here\n") == "no outputs here\n"


def test_a_figure_gets_a_short_alt_and_keeps_its_whole_label_as_caption_and_enlarged_title():
    label = ("Two panels of the rates by group: each group's selection rate with its 95% interval, "
             "and the gap between them; the gap \\[shaded\\] narrows as the threshold rises.")
    framed = frame_outputs(f"<!-- output: fig -->\n![{label}](figures/page-1.png)\n<!-- end output -->\n")
    whole = label.replace("\\", "")
    assert ('![Two panels of the rates by group](figures/page-1.png){ data-title="'
            + html.escape(whole, quote=True) + '" }') in framed
    assert f"<figcaption>{html.escape(whole)}</figcaption>" in framed
    assert short_alt("x" * 200).endswith("\u2026") and len(short_alt("x " * 100)) <= 150


def test_an_output_without_a_block_gets_a_plain_label():
    framed = frame_outputs("<!-- output: lone -->\n```text\nx\n```\n<!-- end output -->\n")
    assert '<p class="fc-output__label">Output</p>' in framed and "<details" not in framed


def test_notebook_outputs_come_from_the_region(tmp_path):
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "page-1.png").write_bytes(b"\x89PNG fake")
    outputs = region_outputs(output_regions(PAGE_WITH_OUTPUTS)[0].content, tmp_path)
    assert [o.output_type for o in outputs] == ["stream", "display_data", "display_data"]
    assert outputs[0].text == "group  rate\na     0.250\n"
    assert outputs[1].data["text/markdown"] == "| group | rate |\n|---|---:|\n| a | 0.250 |\n"  # no site wrapper
    assert outputs[2].data["text/plain"] == "Bar chart of [rates]"
    assert base64.b64decode(outputs[2].data["image/png"]) == b"\x89PNG fake"
    with pytest.raises(FileNotFoundError, match="page-1.png: a figure the page shows is missing"):
        region_outputs(output_regions(PAGE_WITH_OUTPUTS)[0].content, tmp_path / "elsewhere")


@pytest.mark.parametrize("markdown, expected", [
    ("[Odds](equalized-odds.md)", "[Odds](../../equalized-odds/)"),
    ("[Odds](equalized-odds.md#why)", "[Odds](../../equalized-odds/#why)"),
    ("[card](../Benefits%20Denial/DATA.md)", "[card](../../../Benefits%20Denial/DATA/)"),
    ("[script](code/page.py)", "[script](../../code/page.py)"),
    ("[web](https://example.org/a.md) [here](#top)", "[web](https://example.org/a.md) [here](#top)"),
])
def test_notebook_links_lead_to_the_site_pages(markdown, expected):
    assert site_links(markdown, "explainers/page.md", "explainers/notebooks/page/") == expected


@pytest.mark.parametrize("markdown, expected", [
    ("[card](../Benefits%20Denial/DATA.md)", "[card](../../../audits/benefits-denial/data/)"),
    ("[write-up](<../Benefits Denial/benefits-denial.md>)", "[write-up](../../../audits/benefits-denial/)"),
    ("[data](../Benefits%20Denial/adult.csv)", "[data](../../../audits/benefits-denial/adult.csv)"),
    ("[Odds](equalized-odds.md)", "[Odds](../../equalized-odds/)"),
])
def test_notebook_links_follow_the_audits_short_addresses(markdown, expected):
    paths = SitePaths(["Benefits Denial"])
    assert site_links(markdown, "explainers/page.md", "explainers/notebooks/page/",
                      paths.page_url, paths.site_path) == expected


@pytest.mark.parametrize("src_uri, site_path, url", [
    ("Benefits Denial/benefits-denial.md", "audits/benefits-denial/index.md", "audits/benefits-denial/"),
    ("Benefits Denial/DATA.md", "audits/benefits-denial/data.md", "audits/benefits-denial/data/"),
    ("Benefits Denial/notes.md", "audits/benefits-denial/notes.md", "audits/benefits-denial/notes/"),
    ("Benefits Denial/notebooks/benefits-denial.ipynb", "audits/benefits-denial/notebooks/benefits-denial.ipynb",
     "audits/benefits-denial/notebooks/benefits-denial/"),
    ("Benefits Denial/figures/benefits-denial-1.png", "audits/benefits-denial/figures/benefits-denial-1.png", None),
    ("explainers/reweighing.md", "explainers/reweighing.md", "explainers/reweighing/"),
    ("Benefits Denialx/a.md", "Benefits Denialx/a.md", "Benefits Denialx/a/"),
])
def test_audit_files_get_short_addresses_without_spaces(src_uri, site_path, url):
    paths = SitePaths(["Benefits Denial", "Pretrial Risk Assessment"])
    assert paths.site_path(src_uri) == site_path
    if url is not None:
        assert paths.page_url(src_uri) == url
    assert paths.dest_uri("Benefits Denial/DATA.md") == "audits/benefits-denial/data/index.html"
    assert paths.dest_uri("Benefits Denial/benefits-denial.md") == "audits/benefits-denial/index.html"
    assert paths.dest_uri("explainers/reweighing.md") is None
    assert paths.moved(["Benefits Denial/DATA.md", "explainers/reweighing.md"]) == [
        ("Benefits Denial/DATA/", "audits/benefits-denial/data/")]


def test_two_audit_folders_cannot_share_an_address_and_a_redirect_is_relative():
    with pytest.raises(ValueError, match="would share the address audits/credit-a/"):
        SitePaths(["Credit A", "credit-a"])
    with pytest.raises(ValueError, match="has no letter or digit"):
        SitePaths(["---"])
    page = redirect_page("Benefits Denial/DATA/", "audits/benefits-denial/data/")
    assert '<meta http-equiv="refresh" content="0; url=../../audits/benefits-denial/data/">' in page
    assert '<a href="../../audits/benefits-denial/data/">' in page


def test_the_source_archive_is_deterministic_and_complete(tmp_path):
    root = tmp_path / "repo"
    for path in ("faircode/__init__.py", "faircode/__pycache__/x.pyc", "explainers/a.md", "Audit/audit.toml",
                 "Audit/rows.csv", "Makefile", "requirements.lock", "tests/test_x.py", "Not Audit/x.csv"):
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(path, encoding="utf-8")
    first = build_archive(root, extra={"explainers/notebooks/a.ipynb": b"{}"})
    (root / "Makefile").touch()  # a new modification time changes nothing
    assert build_archive(root, extra={"explainers/notebooks/a.ipynb": b"{}"}) == first
    with zipfile.ZipFile(io.BytesIO(first)) as archive:
        names = archive.namelist()
        assert {i.date_time for i in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    assert names == sorted(names)
    assert [n.removeprefix("fair-code-project/") for n in names] == [
        "Audit/audit.toml", "Audit/rows.csv", "Makefile", "explainers/a.md", "explainers/notebooks/a.ipynb",
        "faircode/__init__.py", "requirements.lock"]


def test_a_folded_block_is_shown_once_on_the_site():
    page = ("Intro\n\n```python output=\"far\"\nprint('far')\n```\n\nSet-up:\n\n```python\nx = 1\n```\n\n"
            "```python output=\"near\"\nprint('near')\n```\n\n<!-- output: near -->\nnear\n<!-- end output -->\n\n"
            "```python output=\"quiet\"\npass\n```\n\n<!-- output: quiet -->\n<!-- end output -->\n\n"
            "<!-- output: far -->\nfar\n<!-- end output -->\n")
    shown = point_to_folds(frame_outputs(page))
    # Each printing block's code is left once, in its fold; the far one gets a link, the near one nothing.
    assert shown.count("print('far')") == 1 and shown.count("print('near')") == 1
    assert '<a href="#output-far">' in shown and '<section class="fc-output" id="output-far" markdown data-search-exclude>' in shown
    assert '<a href="#output-near">' not in shown
    # Set-up code and a block whose output is empty stay where they are.
    assert "```python\nx = 1\n```" in shown and '```python output="quiet"\npass\n```' in shown


def test_the_site_summary_counts_pages_and_notebooks(tmp_path):
    from scripts.site.summary import summary

    for rel in ["index.html", "404.html", "explainers/a/index.html", "explainers/notebooks/a/index.html"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x" * 10, encoding="utf-8")
    line = summary(tmp_path, 3.4)
    assert line.startswith(f"site: 2 pages and 1 notebook pages in {tmp_path}/") and "in 3 s" in line


def test_aliases_are_read_from_front_matter_and_a_bad_value_names_the_page():
    from scripts.site._pages import PageMetadataError, aliases

    assert aliases({"aliases": ["four-fifths  rule", "80% rule"]}, "p.md") == ("four-fifths rule", "80% rule")
    assert aliases({}, "p.md") == ()
    for bad in ("80% rule", [""], [3], {"a": 1}):
        with pytest.raises(PageMetadataError, match=r"p\.md: front matter 'aliases' is .*expected a list of names"):
            aliases({"aliases": bad}, "p.md")


def test_aliases_are_shown_under_the_title_and_go_to_search_as_tags():
    from types import SimpleNamespace

    from scripts.site import hooks

    page = SimpleNamespace(meta={"aliases": ["80% rule", "adverse impact <ratio>"]},
                           file=SimpleNamespace(src_uri="explainers/x.md"))
    shown = hooks._show_aliases("# Title\n\nBody\n", page)
    assert shown.startswith("# Title\n\n<p class=\"fc-aliases\">Also known as: 80% rule, adverse impact &lt;ratio&gt;.")
    assert hooks._show_aliases("No heading\n", page) == "No heading\n"
    hooks.on_page_context({}, page, None, None)
    assert page.meta["tags"] == ["80% rule", "adverse impact <ratio>"]


def test_the_audits_overview_names_each_audit_its_decision_and_links_its_pages():
    from scripts.site import hooks

    text = hooks._audits_overview_markdown(load_audits(ROOT))
    assert text.startswith("---\ntitle: Audits\n---")
    for name in ("Benefits Denial", "German Credit Lending", "Healthcare Readmission", "Pretrial Risk Assessment"):
        assert f"## {name}\n" in text
    assert "the programme takes the 10% of people the model ranks highest" in text
    assert "(../Pretrial%20Risk%20Assessment/DATA.md)" in text


def test_the_audits_overview_tolerates_a_manifest_with_little_in_it(tmp_path):
    from scripts.site import hooks
    from scripts.site._pages import Audit, AuditPage

    folder = tmp_path / "Tiny Audit"
    folder.mkdir()
    (folder / "audit.toml").write_text('outcome = "approved"\n')
    page = AuditPage("tiny", "Tiny Audit/tiny.md", folder / "tiny.md", "Tiny write-up", 0.0, False)
    text = hooks._audits_overview_markdown([Audit("Tiny Audit", folder, (page,))])
    assert "## Tiny Audit\n\n- Read: [Tiny write-up](../Tiny%20Audit/tiny.md)." in text


def test_text_laid_out_in_columns_keeps_its_lines_and_sentences_wrap():
    page = ("<!-- output: t -->\n```text\ngroup   rate\nwomen  0.250\nmen    0.400\n```\n\n"
            "```text\nThe gap is 0.150, and it is a sentence that may wrap  once.\n```\n<!-- end output -->\n")
    framed = frame_outputs(page)
    assert "``` { .text .no-copy .fc-aligned }\ngroup   rate" in framed
    assert "``` { .text .no-copy }\nThe gap is" in framed


def test_a_notebook_page_links_the_published_figure_and_a_shared_stylesheet(tmp_path):
    from scripts.site._notebook_pages import digest, lighten

    figure = (ROOT / "tests/site/fixtures/root/explainers/figures/fixture-selection-rate-1.png").read_bytes()
    inline = "data:image/png;base64," + base64.b64encode(figure).decode()
    other = "data:image/png;base64," + base64.b64encode(b"\x89PNG not published").decode()
    css = "/* JupyterLab */" + "x" * 5000
    page = (f"<head><style>{css}</style><style>small {{}}</style></head><body><style>{css}</style>"
            f'<a href="{inline}"><img src="{inline}"></a><img src="{other}"></body>')
    stored = {}
    published = {digest(figure): "../../figures/a-1.png"}
    out = lighten(page, lambda png: published.get(digest(png)),
                  lambda text: stored.setdefault("css", text) and "../../assets/notebook.css")
    assert out.count('"../../figures/a-1.png"') == 2 and other in out  # an unpublished image stays inline
    assert out.count('<link rel="stylesheet" href="../../assets/notebook.css">') == 1
    assert "<style>small {}</style>" in out and "JupyterLab" not in out
    assert stored["css"] == css + "\n" + css
