"""Show a table the way the reader will meet it: text in a terminal, a real table on the site and in Jupyter.

``show(table)`` is how a page prints a DataFrame. Run from a terminal it prints the aligned text that
``DataFrame.to_string`` gives. Run by the page build (which sets ``FAIRCODE_DISPLAY=markdown``), it prints the
same cell texts as a Markdown pipe table between two marker lines, which the build turns into a table on the
page. In a Jupyter kernel it displays the table as HTML. The values are formatted once, so every form shows the
same digits.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping

import pandas as pd

__all__ = ["show", "TABLE_START", "TABLE_END", "DISPLAY_ENV"]

DISPLAY_ENV = "FAIRCODE_DISPLAY"
# The page build splits a block's output at these lines; anything between them is a Markdown table.
TABLE_START = "<!-- table -->"
TABLE_END = "<!-- end table -->"
_MODES = ("text", "markdown")


def _mode() -> str:
    mode = os.environ.get(DISPLAY_ENV, "text") or "text"
    if mode not in _MODES:
        raise ValueError(f"{DISPLAY_ENV}={mode!r} is not a display mode; expected one of: {', '.join(_MODES)}")
    return mode


def _in_jupyter() -> bool:
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


def _column_texts(column: pd.Series, formatter, float_format) -> list[str]:
    if formatter is not None:
        return [str(formatter(value)) for value in column]
    if float_format is not None and pd.api.types.is_float_dtype(column):
        return [float_format(value) for value in column]
    # pandas' own formatting of one column (a shared number of decimals for floats, NaN as "NaN"), so the
    # cells read exactly as DataFrame.to_string would print them.
    lines = column.reset_index(drop=True).to_string(index=False, header=False).split("\n")
    return [line.strip() for line in lines]


def _cells(table: pd.DataFrame, formatters: Mapping | None, float_format) -> pd.DataFrame:
    formatters = dict(formatters or {})
    unknown = set(formatters) - set(table.columns)
    if unknown:
        raise ValueError(f"formatters name columns the table does not have: {sorted(map(str, unknown))}; "
                         f"its columns are: {[str(c) for c in table.columns]}")
    texts = {}
    for position, name in enumerate(table.columns):
        texts[position] = _column_texts(table.iloc[:, position], formatters.get(name), float_format)
    cells = pd.DataFrame(texts, index=table.index)
    cells.columns = table.columns
    return cells


def _header(name) -> str:
    if isinstance(name, tuple):
        return " ".join(str(part) for part in name if str(part))
    return "" if name is None else str(name)


def _escape(text: str) -> str:
    return text.replace("|", "\\|")


_MARKED = r"^(?:too small|undefined|too few groups)\b"  # cells metrics mark instead of an estimate


def _is_numeric(table: pd.DataFrame, name) -> bool:
    column = table[name]
    if pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column):
        return True
    # Formatted estimates ("0.241 [0.231, 0.251]", "-0.093") align right like the numbers they are.
    # A column of such estimates is still a column of numbers however many of its cells are marked too small or
    # undefined (those cells stand for an estimate not shown); a column of marked cells only stays left.
    texts = column.dropna().astype(str)
    texts = texts[~texts.str.match(_MARKED)]
    return len(texts) > 0 and texts.str.match(r"^[+\-]?(\d|\.\d)").mean() >= 0.5


def _label_rows(index: pd.Index) -> list[list[str]]:
    """Row labels per index level, a repeated leading label left blank as ``to_string`` does."""
    rows = [[str(part) for part in (key if isinstance(key, tuple) else (key,))] for key in index]
    shown, previous = [], None
    for row in rows:
        out = []
        for level, label in enumerate(row):
            same_prefix = previous is not None and previous[: level + 1] == row[: level + 1]
            out.append("" if same_prefix and level < len(row) - 1 else label)
        shown.append(out)
        previous = row
    return shown


def markdown_table(table: pd.DataFrame, cells: pd.DataFrame, *, index: bool = True) -> str:
    """A Markdown pipe table of ``cells`` (the formatted texts of ``table``): labels left, numbers right.

    Written here rather than with ``DataFrame.to_markdown``: that goes through tabulate, which re-parses cells
    already formatted (turning "0.100" into "0.1") and cannot blank repeated row labels.
    """
    header, align, body = [], [], [[] for _ in range(len(cells))]
    if index:
        names = list(table.index.names)
        header += [_header(name) for name in names]
        align += [":--"] * len(names)
        for row, labels in zip(body, _label_rows(table.index)):
            row.extend(labels)
    for name in table.columns:
        header.append(_header(name))
        align.append("--:" if _is_numeric(table, name) else ":--")
    for row, values in zip(body, cells.itertuples(index=False)):
        row.extend(values)

    def line(parts):
        return "| " + " | ".join(_escape(part) for part in parts) + " |"

    return "\n".join([line(header), "| " + " | ".join(align) + " |", *(line(row) for row in body)])


def show(table, *, formatters: Mapping[object, Callable] | None = None,
         float_format: Callable[[float], str] | None = None, index: bool = True) -> None:
    """Print a table for the reader: text in a terminal, a table on the site, HTML in Jupyter.

    Parameters
    ----------
    table : pandas.DataFrame or pandas.Series
        What to show. A Series is shown as a one-column table.
    formatters : mapping of column name to callable, optional
        How to write each value of a column, as in ``DataFrame.to_string``.
    float_format : callable, optional
        How to write the values of float columns without a formatter.
    index : bool, default True
        Whether to show the row labels.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"n": [12, 30], "rate": [0.25, 0.5]}, index=pd.Index(["a", "b"], name="group"))
    >>> show(table)  # doctest: +NORMALIZE_WHITESPACE
           n  rate
    group
    a     12  0.25
    b     30  0.50
    """
    if isinstance(table, pd.Series):
        table = table.to_frame()
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"show() takes a pandas DataFrame or Series; got {type(table).__name__}")
    if float_format is not None and not callable(float_format):
        raise TypeError(f"float_format must be a callable such as '{{:.3f}}'.format; got {float_format!r}")
    cells = _cells(table, formatters, float_format)
    mode = _mode()
    if mode == "markdown":
        print(TABLE_START)
        print(markdown_table(table, cells, index=index))
        print(TABLE_END)
    elif _in_jupyter():
        from IPython.display import display

        display(cells if index else cells.reset_index(drop=True))
    else:
        print(cells.to_string(index=index))

