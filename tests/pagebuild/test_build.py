"""The build end to end on fixture pages, in a temporary repository root."""
import pathlib
import shutil
import time

from markdown_it import MarkdownIt

from scripts.pagebuild._cli import main

GOLDEN = pathlib.Path(__file__).parent / "golden"
FIXTURES = pathlib.Path(__file__).parent / "fixtures"

COUNTER = """---
title: Counter
---

<!-- output: n -->
<!-- end output -->

```python output="n"
with open("runs.log", "a") as log:
    log.write("{name}\\n")
print("{name} ran")
```
"""


def _runs(site):
    log = site.root / "runs.log"
    return log.read_text().split() if log.exists() else []


def test_built_pages_match_the_committed_golden_files(site):
    site.add("group-rates.md")
    site.add("fences.md")
    summary = site.build()
    assert summary.ok and sorted(summary.ran) == ["explainers/fences.md", "explainers/group-rates.md"]
    for name in ["group-rates.md", "fences.md", "code/group-rates.py", "code/fences.py"]:
        assert (site.root / "explainers" / name).read_text() == (GOLDEN / name).read_text(), name
    png = (site.root / "explainers/figures/group-rates-1.png").read_bytes()
    assert png.startswith(b"\x89PNG") and b"Software" not in png and b"Creation" not in png


def test_rebuild_is_byte_identical_and_executes_nothing(site):
    site.add("group-rates.md")
    site.add("counter.md", COUNTER.format(name="counter"))
    first = site.build()
    assert first.ok and len(first.ran) == 2 and _runs(site) == ["counter"]
    built = site.snapshot()
    second = site.build()
    assert second.ok and second.ran == [] and second.cached == [] and second.written == []
    assert _runs(site) == ["counter"]
    # Running everything again from scratch draws the same bytes too (determinism, not just the cache).
    third = site.build(use_cache=False)
    assert third.ok and len(third.ran) == 2 and third.written == []
    assert site.snapshot() == built


def test_prose_edit_executes_nothing(site):
    page = site.add("counter.md", COUNTER.format(name="counter"))
    site.build()
    page.write_text(page.read_text().replace("title: Counter", "title: Counter, renamed") + "\nMore prose.\n")
    summary = site.build()
    assert summary.ok and summary.ran == [] and summary.cached == ["explainers/counter.md"]
    assert _runs(site) == ["counter"]
    text = page.read_text()
    assert "Counter, renamed" in text and text.endswith("More prose.\n") and "counter ran" in text


def test_code_edit_reruns_only_that_page(site):
    site.add("one.md", COUNTER.format(name="one"))
    page = site.add("two.md", COUNTER.format(name="two"))
    site.build()
    page.write_text(page.read_text().replace('print("two ran")', 'print("two ran again")'))
    summary = site.build()
    assert summary.ran == ["explainers/two.md"] and summary.fresh == ["explainers/one.md"]
    assert sorted(_runs(site)) == ["one", "two", "two"]
    assert "two ran again" in page.read_text()


def test_no_cache_build_of_one_page_keeps_the_other_pages_cached(site):
    site.add("one.md", COUNTER.format(name="one"))
    site.add("two.md", COUNTER.format(name="two"))
    site.build()
    assert site.build(use_cache=False, only=[str(site.root / "explainers/two.md")]).ran == ["explainers/two.md"]
    summary = site.build()
    assert summary.ran == [] and sorted(summary.fresh) == ["explainers/one.md", "explainers/two.md"]
    assert sorted(_runs(site)) == ["one", "two", "two"]


def test_failing_page_names_its_line_and_leaves_its_files(site, capsys):
    good = site.add("good.md", COUNTER.format(name="good"))
    bad = site.add("bad.md", COUNTER.format(name="bad"))
    site.build()
    script = site.root / "explainers/code/bad.py"
    before_script = script.read_bytes()
    broken = bad.read_text().replace('print("bad ran")', 'print("bad ran")\nratio = 1 / 0')
    bad.write_text(broken)
    good.write_text(good.read_text() + "\nEdited prose.\n")
    status = main(["build", "--root", str(site.root), "-q"])
    err = capsys.readouterr().err
    assert status == 1
    line = broken.split("\n").index("ratio = 1 / 0") + 1
    assert f"explainers/bad.md:{line}: ZeroDivisionError: division by zero" in err
    assert "1 page(s) failed" in err
    assert bad.read_text() == broken and script.read_bytes() == before_script
    assert "Edited prose." in good.read_text()  # the other page still built


def test_syntax_error_names_the_markdown_line(site):
    site.add("syntax.md", "# Title\n\n```python\nx = 1\ny = (\n```\n")
    summary = site.build()
    assert not summary.ok
    assert "explainers/syntax.md:5: SyntaxError" in summary.failures[0][1]
    assert not (site.root / "explainers/code/syntax.py").exists()


def test_timeout_kills_the_page_and_reports_the_limit(site):
    site.add("slow.md", "---\ntimeout: 1\n---\n\n```python\nimport time\n```\n\n```python\nwhile True:\n"
                        "    time.sleep(0.01)\n```\n")
    site.add("quick.md", COUNTER.format(name="quick"))
    started = time.monotonic()
    summary = site.build()
    assert time.monotonic() - started < 30
    assert summary.ran == ["explainers/quick.md"]
    (page, message), = summary.failures
    assert page == "explainers/slow.md"
    assert "explainers/slow.md:10: timed out" in message and "time limit 1 s" in message
    assert "front matter" in message
    assert not (site.root / "explainers/code/slow.py").exists()


def test_unclosed_marker_fails_with_its_line(site):
    site.add("open.md", "# T\n\n<!-- output: t -->\n\n```python output=\"t\"\nprint(1)\n```\n")
    summary = site.build()
    (page, message), = summary.failures
    assert message.startswith("explainers/open.md:3: output marker 't' is never closed")


def test_output_containing_fences_stays_inside_its_own_fence(site, fixture_text):
    page = site.add("fences.md")
    assert site.build().ok
    text = page.read_text()
    tokens = [t for t in MarkdownIt("commonmark").parse(text) if t.type == "fence"]
    printed = ("```python\nprint('not code')\n```\n<b>bold?</b> <!-- end output -->\n````` five backticks\n"
               + "x" * 300 + "\n")
    assert tokens[0].info == "text" and tokens[0].content == printed
    assert site.build().written == []  # the marker-like line inside the output did not confuse the rebuild
    page.write_text(text + "\nProse.\n")
    assert site.build().ok and page.read_text() == text + "\nProse.\n"


def test_check_catches_a_hand_edited_output(site, capsys):
    page = site.add("group-rates.md")
    site.build()
    assert site.check().ok and site.check(use_cache=False).ok
    text = page.read_text()
    edited = text.replace("0.507", "0.509")
    assert edited != text
    page.write_text(edited)
    for options in ({}, {"use_cache": False}):
        summary = site.check(**options)
        assert [path for path, _ in summary.differences] == ["explainers/group-rates.md"]
        assert "-B       213          0.509" in summary.differences[0][1]
    assert page.read_text() == edited  # check writes nothing
    assert main(["check", "--root", str(site.root), "-q"]) == 1
    assert "explainers/group-rates.md differs" in capsys.readouterr().err


def test_check_catches_a_stale_script_and_figure(site):
    site.add("group-rates.md")
    site.build()
    script = site.root / "explainers/code/group-rates.py"
    script.write_text(script.read_text() + "# hand edit\n")
    (site.root / "explainers/figures/group-rates-1.png").unlink()
    paths = sorted(path for path, _ in site.check().differences)
    assert paths == ["explainers/code/group-rates.py", "explainers/figures/group-rates-1.png"]


def test_pages_do_not_share_module_state(site):
    site.add("a.md", "```python\nimport json\njson.leaked = True\n```\n")
    site.add("b.md", "```python\nimport json\nassert not hasattr(json, 'leaked'), 'state leaked'\n```\n")
    summary = run_serial(site)
    assert summary.ok, summary.failures


def run_serial(site):
    from scripts.pagebuild import Reporter, load_config, run

    return run(load_config(site.root), reporter=Reporter(quiet=True), parallel=1)


def test_page_without_runnable_code_is_skipped(site):
    site.add("prose-only.md")
    summary = site.build()
    assert summary.ok and summary.skipped == ["explainers/prose-only.md"]
    assert not (site.root / "explainers/code").exists()


def test_audit_page_runs_against_faircode_from_the_root(site):
    """A page in an audit folder is found, runs from the root against faircode, and keeps its figure."""
    repo = pathlib.Path(__file__).resolve().parents[2]
    shutil.copytree(repo / "faircode", site.root / "faircode", ignore=shutil.ignore_patterns("__pycache__"))
    audit = site.root / "German Credit Lending"
    shutil.copytree(repo / "German Credit Lending", audit, ignore=shutil.ignore_patterns("*.md", "code", "figures"))
    (audit / "age-rates.md").write_text((FIXTURES / "credit-age-rates.md").read_text())
    summary = site.build()
    assert summary.ok, summary.failures
    assert summary.ran == ["German Credit Lending/age-rates.md"]
    text = (audit / "age-rates.md").read_text()
    assert "test rows: 200" in text and "random_forest" in text
    assert "](figures/age-rates-1.png)" in text and (audit / "figures/age-rates-1.png").is_file()
    script = (audit / "code/age-rates.py").read_text()
    assert "PYTHONPATH=. .venv/bin/python 'German Credit Lending/code/age-rates.py'" in script


def test_a_deleted_page_leaves_no_generated_files(site):
    page = site.add("group-rates.md")
    site.build()
    page.unlink()
    differences = sorted(path for path, _ in site.check().differences)
    assert differences == ["explainers/code/group-rates.py", "explainers/figures/group-rates-1.png"]
    summary = site.build()
    assert sorted(summary.written) == differences
    assert not (site.root / "explainers/code/group-rates.py").exists()
