"""The prose-number check: every decimal or percentage in a page's prose is one its output shows."""
import decimal
import pathlib

import pytest

from scripts.pagebuild._cli import main
from scripts.pagebuild._numbers import check_page_text, code_constants, prose_numbers, shown_numbers, unmatched

ROOT = pathlib.Path(__file__).resolve().parents[2]


def numbers(line):
    return [written for _, written in prose_numbers(line, set())]


@pytest.mark.parametrize("line, expected", [
    ("a gap of -0.090 against -0.087 pooled", ["-0.090", "-0.087"]),
    ("selected 12.5% of women, 95% intervals", ["12.5%", "95%"]),
    ("1,234.5 rows and 2,158 women in 1994", ["1,234.5"]),     # integers (counts, years) are not checked
    ("the ratio is 0.605.", ["0.605"]),                          # a sentence's full stop is not a decimal
    ("`min_count=0.5` and `0.95` are code", []),
    ("see [the card](https://x.org/v1.2/0.605) and https://doi.org/10.1145/3287560.3287589", []),
    ("doi 10.24432/C5XW20; arXiv:1810.01943v2; abs/1609.05807", []),
    ("Python 3.11, scikit-learn version 1.5.2, v0.13 and 2.0.1", []),
    ("29 CFR 1607.4(D), Section 4.2, § 3.1, Eq. 2.1, pp. 12.3", []),
    ("<!-- 0.123 --> kept 0.456", ["0.456"]),
])
def test_what_counts_as_a_prose_number(line, expected):
    assert numbers(line) == expected


def test_further_reading_is_citations_until_the_next_heading_of_its_level():
    text = "# Page\n\nQuoted 0.25.\n\n## Further reading\n\n- Smith (2001), 57(1), 1.5 pages\n\n### Sub\n\n0.75\n\n## Next\n\n0.5\n"
    assert [w for _, w in prose_numbers(text, set())] == ["0.25", "0.5"]


@pytest.mark.parametrize("written, ok", [
    ("0.605", True), ("-0.605", True), ("+0.605", True),  # the sign is the prose's to choose
    ("0.61", False),                                       # prose copies the printed digits, no re-rounding
    ("0.6050", False),
    ("0.5", True),                                         # a constant of the code
    ("95%", True),                                         # 0.95 in the code
    ("60.5%", True),                                       # 0.605 printed
    ("12%", True),                                         # 12% printed
    ("0.12", False),
])
def test_matching_rules(written, ok):
    shown = shown_numbers("gap -0.605 [-0.7, 0.2]; 12% of rows; 1,234.5")
    constants = code_constants("THRESHOLD = 0.5\nconfidence = 0.95\nn = 1_000\n")
    assert (unmatched([(1, written)], shown, constants) == []) is ok


def test_code_constants_read_numbers_not_strings():
    assert code_constants('x = 0.25\nprint(f"{v:.3f}", "0.75")\n') == {decimal.Decimal("0.25")}


PAGE = """---
title: T
---

# T

The rate is 0.507 for B, a gap of 0.1 to A at the 0.5 threshold.

<!-- output: rates -->

```text
A 0.407
B 0.507
```

<!-- end output -->

```python output="rates"
THRESHOLD = 0.5
print("A 0.407\\nB 0.507")
```
"""


def test_a_page_passes_and_one_edited_digit_fails_naming_page_and_line():
    assert check_page_text("explainers/t.md", PAGE.replace("a gap of 0.1", "a gap of 0.100")) == [
        "explainers/t.md:7: number 0.100 is not in the page's output"]
    fixed = PAGE.replace("a gap of 0.1 to A", "a gap to A")
    assert check_page_text("explainers/t.md", fixed) == []
    assert check_page_text("explainers/t.md", fixed.replace("is 0.507", "is 0.508")) == [
        "explainers/t.md:7: number 0.508 is not in the page's output"]


def test_make_check_fails_on_an_edited_prose_number_and_passes_restored(site, capsys):
    page = site.add("group-rates.md")
    site.build()
    text = page.read_text()
    quoted = text.replace("Prose between the table and the code, which the build never touches.",
                          "Group B is predicted positive at 0.507, which the build never touches.")
    assert quoted != text and "0.507" in text
    page.write_text(quoted)
    assert main(["check", "--root", str(site.root), "-q"]) == 0
    line = quoted.split("\n").index("Group B is predicted positive at 0.507, which the build never touches.") + 1
    page.write_text(quoted.replace("positive at 0.507", "positive at 0.509"))
    capsys.readouterr()
    assert main(["check", "--root", str(site.root), "-q"]) == 1
    assert f"explainers/group-rates.md:{line}: number 0.509 is not in the page's output" in capsys.readouterr().err
    page.write_text(quoted)
    assert main(["check", "--root", str(site.root), "-q"]) == 0


def test_a_data_card_is_checked_against_the_card_generated_now():
    from faircode.data._datacard import data_card

    card = (ROOT / "German Credit Lending" / "DATA.md").read_text()
    generated = data_card("German Credit Lending")
    assert check_page_text("German Credit Lending/DATA.md", card, generated) == []
    line = next(i for i, text in enumerate(card.split("\n"), start=1) if "| age | under 30 |" in text)
    edited = card.replace("| 0.631 |", "| 0.632 |", 1)
    assert check_page_text("German Credit Lending/DATA.md", edited, generated) == [
        f"German Credit Lending/DATA.md:{line}: number 0.632 is not in the page's output"]
