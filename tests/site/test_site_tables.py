"""scripts.site._tables: output-table cells split into estimate, interval and notes, their text unchanged."""
import re

from scripts.site._tables import style_tables


def _text(html):
    return re.sub(r"<[^>]+>", "", html)


def test_cells_of_output_tables_are_split_and_keep_their_text():
    cells = ["0.031 [0.004, 0.108] (2/64, exact)", "too small (positives=9)", "0.541 [0.515, 0.567]", "5533",
             "-0.093 [-0.108, -0.077]", "Black"]
    html = '<div class="fc-table">\n<table><tbody><tr>' + "".join(f"<td>{c}</td>" for c in cells) + \
        "</tr></tbody></table>\n</div>"
    styled = style_tables(html)
    assert _text(styled) == _text(html)
    assert '<span class="fc-est">0.031</span> <span class="fc-ci">[0.004, 0.108]</span> <span class="fc-few"' in styled
    assert '<span class="fc-small">too small</span> <span class="fc-note">(positives=9)</span>' in styled
    assert "<td>5533</td>" in styled and "<td>Black</td>" in styled  # plain numbers and labels untouched
    assert '<span class="fc-est">-0.093</span> <span class="fc-ci">[-0.108, -0.077]</span>' in styled


def test_tables_outside_output_blocks_are_left_alone():
    html = "<table><tbody><tr><td>0.5 [0.1, 0.9]</td></tr></tbody></table>"
    assert style_tables(html) == html
