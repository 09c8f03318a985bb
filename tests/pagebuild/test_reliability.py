"""Faults a build must survive: edits during a run, output that is not text, pages that are not UTF-8, carriage
returns and CRLF pages, and bad settings. Each is that page's error (named with its line) or a clear message;
no author text is lost and the summary is always printed."""
import json
import os

from scripts.pagebuild import Reporter, load_config, run
from scripts.pagebuild._cli import main

from _build_helpers import PAGE, Site


def _page(site, name, code):
    return site.add(f"{name}.md", PAGE.format(name=name, code=code))


def test_an_edit_made_while_the_page_runs_is_kept_and_reported(bare_site, capsys):
    # The page's own code appends to the page, as an author saving the file mid-build would.
    page = _page(bare_site, "edited", 'with open("explainers/edited.md", "a") as f:\n'
                                     '    f.write("An author\'s new line.\\n")\nprint("ran")')
    _page(bare_site, "other", 'print("other ran")')
    status = main(["build", "--root", str(bare_site.root), "-q"])
    err = capsys.readouterr().err
    assert status == 1
    assert page.read_text().endswith("An author's new line.\n") and "ran" not in page.read_text().split("```")[-1]
    assert "explainers/edited.md: the page changed on disk while the build ran it; your edit is kept" in err
    assert not (bare_site.root / "explainers/code/edited.py").exists()  # nothing of the stale run was written
    assert "other ran" in (bare_site.root / "explainers/other.md").read_text()
    assert "1 page(s) failed" in err and "built: 1 ran" in err


def test_output_that_is_not_text_fails_that_page_alone_with_its_line(bare_site, capsys):
    _page(bare_site, "surrogate", 'print("ok")\nprint("\\udcff")')
    _page(bare_site, "fine", 'print("fine ran")')
    status = main(["build", "--root", str(bare_site.root), "-q"])
    err = capsys.readouterr().err
    assert status == 1
    assert "[FAIL] explainers/surrogate.md" in err
    assert "explainers/surrogate.md:8: the block printed '\\udcff'" in err and "which is not text" in err
    assert "fine ran" in (bare_site.root / "explainers/fine.md").read_text()
    assert "built: 1 ran, 0 from cache, 0 up to date, 0 without code, 1 failed" in err


def test_a_page_that_is_not_utf8_is_its_error_with_line_and_byte_offset(bare_site, capsys):
    bad = bare_site.root / "explainers/latin.md"
    bad.write_bytes(b"# Title\n\nCaf\xe9 prose.\n\n```python\nprint(1)\n```\n")
    _page(bare_site, "fine", 'print("fine ran")')
    for command in ("build", "check"):
        status = main([command, "--root", str(bare_site.root), "-q"])
        err = capsys.readouterr().err
        assert status == 1 and "Traceback" not in err
        assert "explainers/latin.md:3: not UTF-8: byte offset 12 holds 0xe9" in err
    assert bad.read_bytes().startswith(b"# Title\n\nCaf\xe9")


def test_carriage_returns_in_output_are_shown_as_a_terminal_shows_them(bare_site):
    page = _page(bare_site, "progress", 'print("10%\\r50%\\r100% done")\nprint("windows line", end="\\r\\n")')
    assert bare_site.build().ok
    text = page.read_bytes()
    assert b"\r" not in text and b"100% done\nwindows line\n" in text
    assert bare_site.check().ok and bare_site.check(use_cache=False).ok
    assert bare_site.build(use_cache=False).written == []


def test_a_crlf_page_keeps_its_line_endings_byte_for_byte(bare_site):
    page = bare_site.root / "explainers/crlf.md"
    source = PAGE.format(name="crlf", code='print("one")\nprint("two")').replace("\n", "\r\n")
    page.write_bytes(source.encode())
    assert bare_site.build().ok
    built = page.read_bytes()
    assert built.count(b"\n") == built.count(b"\r\n")  # every line still ends in CRLF
    assert b"```text\r\none\r\ntwo\r\n```" in built
    outside = source.split("<!-- end output -->")
    assert built.startswith(outside[0].split("<!-- output")[0].encode()) and built.endswith(outside[1].encode())
    assert bare_site.check(use_cache=False).ok and bare_site.build(use_cache=False).written == []
    assert bare_site.build().written == []


def test_check_shows_a_line_ending_difference(bare_site):
    page = _page(bare_site, "lf", 'print("x")')
    assert bare_site.build().ok
    page.write_bytes(page.read_bytes().replace(b"x\n```", b"x\r\n```"))
    (path, detail), = bare_site.check(use_cache=False).differences
    assert path == "explainers/lf.md" and "-x\\r" in detail and "+x" in detail


def test_output_beyond_the_size_limit_is_that_page_s_error(tmp_path):
    site = Site(tmp_path, "preload = []\nmax_output = 1000\n")
    _page(site, "loud", 'print("x" * 600)\nprint("y" * 600)')
    _page(site, "quiet", 'print("fine")')
    summary = site.build()
    (path, message), = summary.failures
    assert path == "explainers/loud.md" and summary.ran == ["explainers/quiet.md"]
    assert "explainers/loud.md:8: the page has printed 1,202 characters by the end of this block; the limit is 1,000" \
        in message and "max_output" in message


def test_bad_settings_are_refused_before_any_page_runs(tmp_path, capsys):
    (tmp_path / "explainers").mkdir()
    for setting, words in [("timeout = nan", "timeout is nan; expected a finite positive number"),
                           ("timeout = inf", "timeout is inf"),
                           ("max_output = 0", "max_output is 0; expected a whole number"),
                           ('warm = ["json:dumsp"]', "defines no function 'dumsp'; its functions are: "),
                           ('warm = ["no_such_module:warm"]', "no module 'no_such_module'"),
                           ('warm = ["faircode"]', "is not 'module:function'"),
                           ('preload = ["sklearn.ensembel"]', "preload entry 'sklearn.ensembel': no module "
                                                               "'sklearn.ensembel'"),
                           ('preload = ["numpy linalg"]', "is not a module name")]:
        (tmp_path / "pyproject.toml").write_text(f"[tool.pagebuild]\n{setting}\n")
        assert main(["build", "--root", str(tmp_path)]) == 2
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err, setting


def test_a_missing_root_is_a_clear_error(tmp_path, capsys):
    assert main(["check", "--root", str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert "error: the root" in err and "nowhere" in err and "is not a folder" in err


def test_a_cache_file_of_the_wrong_shape_costs_a_rerun_and_a_warning(bare_site):
    _page(bare_site, "a", 'print("a")')
    assert bare_site.build().ok
    cache = bare_site.root / ".cache/pagebuild.json"
    for content in ['[]', '{"format": 1, "pages": []}',
                    json.dumps({"format": 1, "pages": {"explainers/a.md": {"deps": "x"}}})]:
        cache.write_text(content)
        summary = bare_site.build()
        assert summary.ok and summary.ran == ["explainers/a.md"], content
        assert any("pagebuild.json" in w and "run again" in w for w in summary.warnings), content
    assert bare_site.build().ran == [] and bare_site.build().warnings == []


def test_the_cache_forgets_pages_that_no_longer_exist(bare_site):
    _page(bare_site, "kept", 'print(1)')
    gone = _page(bare_site, "gone", 'print(2)')
    assert bare_site.build().ok
    gone.unlink()
    assert bare_site.build(only=[str(bare_site.root / "explainers/kept.md")]).ok
    pages = json.loads((bare_site.root / ".cache/pagebuild.json").read_text())["pages"]
    assert list(pages) == ["explainers/kept.md"]


def test_slugs_that_differ_only_in_case_are_refused(bare_site):
    if (bare_site.root / "EXPLAINERS").exists():  # a case-insensitive disk cannot even hold both pages
        return
    _page(bare_site, "Rates", 'print(1)')
    _page(bare_site, "rates", 'print(2)')
    _page(bare_site, "other", 'print(3)')
    summary = bare_site.build()
    assert sorted(path for path, _ in summary.failures) == ["explainers/Rates.md", "explainers/rates.md"]
    assert "differs from explainers/rates.md only in letter case" in dict(summary.failures)["explainers/Rates.md"]
    assert summary.ran == ["explainers/other.md"]


def test_a_build_leaves_the_caller_s_environment_as_it_was(bare_site):
    _page(bare_site, "env", 'import os\nprint(os.environ["OMP_NUM_THREADS"], os.environ.get("PAGEBUILD_WARM"))')
    before = dict(os.environ)
    summary = run(load_config(bare_site.root), reporter=Reporter(quiet=True), parallel=1)
    assert summary.ok and dict(os.environ) == before
    # The pages still get the fixed settings (one BLAS thread), and not the server's warm request.
    assert "```text\n1 None\n```" in (bare_site.root / "explainers/env.md").read_text()


def test_an_unclosed_printed_table_is_that_page_s_error(bare_site):
    _page(bare_site, "table", 'print("<!-- table -->")\nprint("| a |")')
    _page(bare_site, "fine", 'print("fine")')
    summary = bare_site.build()
    (path, message), = summary.failures
    assert path == "explainers/table.md" and summary.ran == ["explainers/fine.md"]
    assert message.startswith("explainers/table.md:8: the block's output cannot be placed: printed output ends "
                              "inside a table")
