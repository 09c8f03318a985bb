"""faircode.display.show: one set of cell texts, printed as text in a terminal and as a Markdown table for the build."""
import numpy as np
import pandas as pd
import pytest

from faircode import display
from faircode.display import show
from scripts.pagebuild import _inject


@pytest.fixture
def table():
    index = pd.MultiIndex.from_tuples([("Female", "fpr"), ("Female", "fnr"), ("Male", "fpr")], names=["sex", "metric"])
    return pd.DataFrame({"count": [1913, 245, 3032], "rate": ["0.022 [0.016, 0.029]", "too small (positives=9)",
                                                             "0.036 [0.030, 0.043]"],
                         "gap": [0.0123, np.nan, -0.5]}, index=index)


def test_terminal_and_build_show_the_same_cells(table, capsys, monkeypatch):
    monkeypatch.delenv(display.DISPLAY_ENV, raising=False)
    show(table)
    text = capsys.readouterr().out.splitlines()
    monkeypatch.setenv(display.DISPLAY_ENV, "markdown")
    show(table)
    markdown = capsys.readouterr().out.splitlines()[3:-1]
    assert len(text) == 2 + len(markdown)  # header and index-name lines, then one line per row
    for line, row in zip(text[2:], markdown):
        cells = [c.strip() for c in row.strip("|").split(" | ") if c.strip()]
        assert line.split() == " ".join(cells).split()  # the same texts, in the same order


def test_build_mode_prints_a_markdown_table_with_the_same_cells(table, capsys, monkeypatch):
    monkeypatch.setenv(display.DISPLAY_ENV, "markdown")
    show(table, formatters={"gap": lambda v: f"{v:+.3f}"})
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == display.TABLE_START and lines[-1] == display.TABLE_END
    assert lines[1] == "| sex | metric | count | rate | gap |"
    assert lines[2] == "| :-- | :-- | --: | --: | --: |"  # labels left; counts, estimates and gaps right
    assert lines[3] == "| Female | fpr | 1913 | 0.022 [0.016, 0.029] | +0.012 |"
    assert lines[4] == "|  | fnr | 245 | too small (positives=9) | +nan |"  # a repeated label is left blank
    assert lines[5] == "| Male | fpr | 3032 | 0.036 [0.030, 0.043] | -0.500 |"


def test_float_columns_read_as_pandas_prints_them(capsys, monkeypatch):
    monkeypatch.setenv(display.DISPLAY_ENV, "markdown")
    show(pd.DataFrame({"x": [0.5, 0.125, np.nan]}), index=False)
    assert capsys.readouterr().out.splitlines()[3:6] == ["| 0.500 |", "| 0.125 |", "| NaN |"]


def test_pipes_in_cells_are_escaped(capsys, monkeypatch):
    monkeypatch.setenv(display.DISPLAY_ENV, "markdown")
    show(pd.DataFrame({"a|b": ["x|y"]}), index=False)
    assert capsys.readouterr().out.splitlines()[1:4] == ["| a\\|b |", "| :-- |", "| x\\|y |"]


@pytest.mark.parametrize("bad, message", [
    ([1, 2], "show() takes a pandas DataFrame or Series; got list"),
])
def test_bad_input_says_what_arrived(bad, message):
    with pytest.raises(TypeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        show(bad)


def test_unknown_formatter_column_and_mode_are_named(table, monkeypatch):
    with pytest.raises(ValueError, match=r"formatters name columns the table does not have: \['nope'\]"):
        show(table, formatters={"nope": str})
    monkeypatch.setenv(display.DISPLAY_ENV, "html")
    with pytest.raises(ValueError, match="FAIRCODE_DISPLAY='html' is not a display mode; expected one of: text, markdown"):
        show(table)


def test_the_build_and_faircode_speak_the_same_protocol():
    assert _inject.DISPLAY_ENV == {display.DISPLAY_ENV: "markdown"}
    assert (_inject.TABLE_START, _inject.TABLE_END) == (display.TABLE_START, display.TABLE_END)


def test_injector_turns_table_segments_into_tables_and_keeps_text_fenced():
    printed = "\n".join(["reference: Male", display.TABLE_START, "| a |", "| --: |", "| 1 |", display.TABLE_END,
                         "", "done"])
    rendered = _inject.render_output(printed, [])
    assert rendered == ("```text\nreference: Male\n```\n\n<div class=\"fc-table\" markdown>\n\n| a |\n| --: |\n| 1 |"
                        "\n\n</div>\n\n```text\ndone\n```")


def test_injector_rejects_a_table_that_never_ends():
    with pytest.raises(ValueError, match="printed output ends inside a table"):
        _inject.render_output(display.TABLE_START + "\n| a |", [])


def test_a_column_of_estimates_stays_right_aligned_however_many_cells_are_marked():
    frame = pd.DataFrame({"group": ["a", "b", "c"],
                          "fnr": ["too small (positives=4)", "too small (positives=5)", "0.523 [0.380, 0.667]"],
                          "note": ["too small (n=3)", "undefined (no positives)", "too small (n=9)"]})
    assert display._is_numeric(frame, "fnr")       # one estimate among marked cells: a column of numbers
    assert not display._is_numeric(frame, "note")  # marked cells only: left as text
    assert not display._is_numeric(frame, "group")
