"""scripts.site._tables: output-table cells split into estimate, interval and notes, their text unchanged."""
import re

from scripts.site._tables import style_tables


def _text(html):
    """The text of the table itself, without the phone's line above the cards and its switch."""
    html = re.sub(r'<p class="fc-table__by">.*?</p>|<label class="fc-more-label".*?</label>', "", html)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_cells_of_output_tables_are_split_and_keep_their_text():
    cells = ["0.031 [0.004, 0.108] (2/64, exact)", "too small (positives=9)", "0.541 [0.515, 0.567]", "5533",
             "-0.093 [-0.108, -0.077]", "Black"]
    html = '<div class="fc-table">\n<table><tbody><tr>' + "".join(f"<td>{c}</td>" for c in cells) + \
        "</tr></tbody></table>\n</div>"
    styled = style_tables(html)
    assert _text(styled) == _text(html)
    assert '<span class="fc-est">0.031</span> <span class="fc-ci">[0.004, 0.108]</span> <span class="fc-few"' in styled
    assert '<span class="fc-small">too small</span> <span class="fc-note">(positives=9)</span>' in styled
    assert ">5533</th>" in styled and ">Black</th>" in styled  # plain numbers and labels untouched
    assert '<span class="fc-est">-0.093</span> <span class="fc-ci">[-0.108, -0.077]</span>' in styled


def test_tables_outside_output_blocks_are_left_alone():
    html = "<table><tbody><tr><td>0.5 [0.1, 0.9]</td></tr></tbody></table>"
    assert style_tables(html) == html


def test_body_cells_learn_their_column_and_row_labels_are_marked_for_the_phone_layout():
    html = ('<div class="fc-table">\n<table>\n<thead>\n<tr>\n<th style="text-align: left;">model</th>\n'
            '<th style="text-align: left;">group</th>\n<th style="text-align: right;">TPR &amp; CI</th>\n'
            '<th style="text-align: left;">note</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n'
            '<td style="text-align: left;">logistic</td>\n<td style="text-align: left;"></td>\n'
            '<td style="text-align: right;">0.401 [0.376, 0.428]</td>\n<td style="text-align: left;">ok</td>\n'
            '</tr>\n</tbody>\n</table>\n</div>')
    styled = style_tables(html)
    assert _text(styled) == _text(html)
    # row labels are row headers, so a screen reader names the row with each of its values
    assert '<th scope="row" style="text-align: left;" data-label="model" class="fc-label">logistic</th>' in styled
    assert '<th scope="row" style="text-align: left;" data-label="group" class="fc-label"></th>' in styled
    # the first right-aligned cell ends the row labels: a later left-aligned cell is a value like any other
    assert ('<td style="text-align: right;" data-label="TPR &amp; CI"><span class="fc-val"><span class="fc-est">'
            '0.401</span>') in styled
    assert '<td style="text-align: left;" data-label="note"><span class="fc-val">ok</span></td>' in styled
    assert styled.count("<th style") == 4 and styled.count('<th scope="row"') == 2  # the header row is kept


def test_a_row_label_pandas_left_blank_carries_the_label_it_repeats():
    def row(model, group):
        return (f'<tr>\n<td style="text-align: left;">{model}</td>\n<td style="text-align: left;">{group}</td>\n'
                '<td style="text-align: right;">1</td>\n</tr>\n')
    html = ('<div class="fc-table">\n<table>\n<thead>\n<tr>\n<th style="text-align: left;">model</th>\n'
            '<th style="text-align: left;">group</th>\n<th style="text-align: right;">n</th>\n</tr>\n</thead>\n'
            '<tbody>\n' + row("logistic", "men") + row("", "women") + row("forest", "") + '</tbody>\n</table>\n</div>')
    styled = style_tables(html)
    assert _text(styled) == _text(html)
    assert 'data-label="model" class="fc-label" data-fill="logistic"></th>' in styled
    # a new label in an outer column ends what the inner columns repeat
    assert styled.count("data-fill") == 1


def _wide_table(rows):
    head = ["group", "n", "positives", "tpr", "fpr", "ppv", "npv", "accuracy", "selection"]
    cells = lambda row: "".join(  # noqa: E731
        f'<td style="text-align: {"left" if i == 0 else "right"};">{c}</td>' for i, c in enumerate(row))
    return ('<div class="fc-table">\n<table>\n<thead>\n<tr>'
            + "".join(f'<th style="text-align: {"left" if i == 0 else "right"};">{h}</th>' for i, h in enumerate(head))
            + "</tr>\n</thead>\n<tbody>\n" + "".join(f"<tr>{cells(r)}</tr>\n" for r in rows)
            + "</tbody>\n</table>\n</div>")


def test_a_wide_table_shows_its_estimates_first_on_a_phone_and_the_rest_behind_one_tap():
    estimate = "0.500 [0.400, 0.600]"
    html = _wide_table([["women", "120", "30", estimate, estimate, estimate, estimate, estimate,
                         "too small (positives=3)"], ["men", "200", "50"] + [estimate] * 6])
    styled = style_tables(html)
    assert _text(styled) == _text(html)
    assert '<p class="fc-table__by">One card per group</p>' in styled
    assert 'id="fc-more-1"' in styled and "Show all 8 columns (3 more)" in styled
    # counts wait behind the switch, and so does the sixth estimate column; the first five estimates are shown
    assert styled.count('class="fc-more"') == 2 * 3
    assert 'data-label="n" class="fc-more"' in styled and 'data-label="selection" class="fc-more"' in styled
    assert 'data-label="tpr" class="fc-more"' not in styled and 'data-label="accuracy" class="fc-more"' not in styled
    # a narrow table shows everything and gets no switch; each table of a page gets its own switch
    narrow = '<div class="fc-table">\n<table><tbody><tr><td style="text-align: left;">a</td>' \
             '<td style="text-align: right;">1</td></tr></tbody></table>\n</div>'
    both = style_tables(html + "\n" + narrow + "\n" + html)
    assert 'id="fc-more-1"' in both and 'id="fc-more-3"' in both and "fc-more-2" not in both
