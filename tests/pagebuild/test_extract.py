"""Extraction: what runs is exactly the page's runnable Python blocks, at their Markdown lines."""
import pytest

from scripts.pagebuild import PageError, parse_page, render_script


def _page(text, path="explainers/demo.md"):
    return parse_page(path, text)


def test_runnable_blocks_are_exactly_the_python_fences(fixture_text):
    text = fixture_text("group-rates.md")
    page = _page(text, "explainers/group-rates.md")
    lines = text.split("\n")
    # Every runnable block starts on the line after its ```python fence and holds that fence's code verbatim.
    for block in page.runnable:
        assert lines[block.line - 2].startswith("```python")
        assert "\n".join(lines[block.line - 1 : block.line - 1 + block.source.count("\n")]) + "\n" == block.source
    assert [b.output for b in page.runnable] == ["rates", "gap-plot", None]
    assert [b.norun for b in page.blocks] == [False, True, False, False]
    script = render_script(page)
    assert "everything_we_have" not in script  # the norun sketch
    assert "PYTHONPATH=. .venv/bin/python explainers/code/group-rates.py" in script.split("# %%")[0]  # the header
    body = script.split("\n# %%\n")[1:]
    assert body == [b.source for b in page.runnable]
    compile(script, "group-rates.py", "exec")


def test_old_output_between_markers_is_never_read_as_code():
    text = ("<!-- output: a -->\n```python\nraise SystemExit('stale output ran')\n```\n<!-- end output -->\n\n"
            "```python output=\"a\"\nprint(1)\n```\n")
    page = _page(text)
    assert [b.source for b in page.blocks] == ["print(1)\n"]
    assert page.blocks[0].line == 8


def test_other_languages_and_indented_fences_do_not_run():
    text = "```bash\necho hi\n```\n\n```text\nplain\n```\n\n```python3\nprint(3)\n```\n\n```python\nprint(4)\n```\n"
    assert [b.source for b in _page(text).blocks] == ["print(4)\n"]


def test_markers_shown_inside_a_code_example_are_not_markers():
    text = "````markdown\n<!-- output: shown -->\n<!-- end output -->\n````\n\n```python\nprint(1)\n```\n"
    page = _page(text)
    assert page.regions == []


def test_audit_page_script_path_is_quoted_in_the_header():
    page = _page("```python\nprint(1)\n```\n", "Benefits Denial/write-up.md")
    assert page.script_path == "Benefits Denial/code/write-up.py"
    assert "PYTHONPATH=. .venv/bin/python 'Benefits Denial/code/write-up.py'" in render_script(page)


@pytest.mark.parametrize("text, line, words", [
    ("intro\n\n<!-- output: t -->\n\n```python output=\"t\"\nprint(1)\n```\n", 3, "never closed"),
    ("<!-- output: t -->\n<!-- end output -->\n", 1, "has no code block"),
    ("<!-- output: t -->\n<!-- end output -->\n```python output=\"u\"\nprint(1)\n```\n", 3, "has no marker"),
    ("<!-- output: t -->\n<!-- end output -->\n<!-- output: t -->\n<!-- end output -->\n", 3, "appears twice"),
    ("<!-- output: t -->\n<!-- end output -->\n```python output=\"t\"\nprint(1)\n```\n"
     "```python output=\"t\"\nprint(2)\n```\n", 6, "used by two blocks"),
    ("x\n<!-- end output -->\n", 2, "without an opening"),
    ("<!-- output: two words -->\n", 1, "malformed output marker"),
    ("<!-- output: t -->\n<!-- output: u -->\n", 1, "not closed before"),
    ("<!-- output: t -->\n<!-- end output -->\n```python norun output=\"t\"\nprint(1)\n```\n", 3, "norun"),
    ("---\ntimeout: soon\n---\n```python\nprint(1)\n```\n", 1, "expected a finite positive number"),
    ("---\ntimeout: .nan\n---\n```python\nprint(1)\n```\n", 1, "timeout is nan; expected a finite positive"),
    ("---\ntimeout: .inf\n---\n```python\nprint(1)\n```\n", 1, "timeout is inf; expected a finite positive"),
    # An unclosed fence would swallow the rest of the page (prose run as code): named at its opening line.
    ("# T\n\n```python\nprint(1)\n\nProse that is not code.\n", 3, "```python opened on this line is never closed"),
    ("```python\nprint(1)\n```\n\n~~~bash\necho\n\n```python\nprint(2)\n```\n", 5, "~~~bash opened"),
    ("````python\nprint(1)\n```\n", 1, "never closed"),  # a shorter fence does not close it
    ("```python output=rates\nprint(1)\n```\n", 1, "cannot read the fence options 'output=rates'"),
    ("```python outptu=\"rates\"\nprint(1)\n```\n", 1, "unknown fence option(s) ['outptu']"),
    ("# T\n\nline\rmore\n", 3, "carriage return"),
])
def test_malformed_pages_name_the_line(text, line, words):
    with pytest.raises(PageError) as caught:
        _page(text)
    assert caught.value.line == line
    assert f"explainers/demo.md:{line}: " in str(caught.value)
    assert words in str(caught.value)
