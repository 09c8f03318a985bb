"""Every bad input of faircode.profile gets a clear error (what arrived, what was expected, the closest name) and
the command line writes no output file (exit code 2), as for faircode.audit."""
import json

import numpy as np
import pandas as pd
import pytest

from faircode.profiling import profile
from faircode.report import AuditInputError, AuditWarning
from faircode.report._cli import main


def _frame(n=80):
    rng = np.random.default_rng(0)
    return pd.DataFrame({"y": rng.integers(0, 2, n), "race": rng.choice(["a", "b"], n),
                         "sex": rng.choice(["f", "m"], n), "x": rng.random(n).round(3)})


def _csv(tmp_path, frame, name="in.csv", **kwargs):
    path = tmp_path / name
    frame.to_csv(path, index=False, **kwargs)
    return path


def _missing_x(report) -> int:
    return int(report.missing_overall.set_index("variable").loc["x", "missing"])


def _run(tmp_path, path, *options):
    """The command line on a file; its exit code and the files it left in the output folder."""
    out = tmp_path / "out"
    code = main(["profile", str(path), *options, "--format", "html", "--output", str(out / "p.html")])
    return code, sorted(p.name for p in out.iterdir()) if out.exists() else []


def test_misspelt_group_column_names_the_closest(tmp_path, capsys):
    path = _csv(tmp_path, _frame())
    with pytest.raises(AuditInputError, match=r"no column 'rac' \(the group column\) .*\(closest: 'race'\)"):
        profile(path, groups="rac")
    assert _run(tmp_path, path, "--group", "rac") == (2, [])
    assert "closest: 'race'" in capsys.readouterr().err


def test_missing_label_column_in_a_dataframe():
    with pytest.raises(AuditInputError, match=r"no column 'Y' \(the label column\) in the DataFrame \(closest: 'y'\)"):
        profile(_frame(), groups="race", label="Y")


def test_empty_file_and_header_without_rows(tmp_path):
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(AuditInputError, match=r"is empty \(0 bytes\).*one row per record"):
        profile(empty, groups="race")
    header = tmp_path / "header.csv"
    header.write_text("race,x\n")
    with pytest.raises(AuditInputError, match=r"has a header but no rows: there is nothing to profile"):
        profile(header, groups="race")
    assert _run(tmp_path, header, "--group", "race")[0] == 2


def test_group_column_with_one_value_or_a_value_per_row(tmp_path):
    with pytest.raises(AuditInputError, match=r"the group column 'race' has one value, 'a', in all 80 rows"):
        profile(_frame().assign(race="a"), groups="race")
    with pytest.raises(AuditInputError, match=r"has a different value in each of its 80 rows"):
        profile(_frame().assign(race=[f"id{i}" for i in range(80)]), groups="race")
    path = _csv(tmp_path, _frame().assign(race="a"))
    assert _run(tmp_path, path, "--group", "race") == (2, [])


def test_label_that_is_not_binary_lists_its_values():
    frame = _frame().assign(y=lambda f: f["y"].where(f.index % 10 != 0, 2))
    with pytest.raises(AuditInputError, match=r"must be binary, 0 and 1 .*found 3 values: .*2 \(8 rows\)"):
        profile(frame, groups="race", label="y")


def test_missing_group_values_are_counted_or_dropped(tmp_path):
    frame = _frame().astype({"race": object})
    frame.loc[[4, 30], "race"] = None
    path = _csv(tmp_path, frame)
    with pytest.raises(AuditInputError, match=r"'race' has 2 missing values, the first in data row 5 \(line 6 of "
                                              r"the file\).*dropna=True"):
        profile(path, groups="race")
    report = profile(path, groups="race", dropna=True)
    assert report.meta["rows_dropped_missing"] == 2 and report.meta["rows_used"] == 78
    assert "after dropping 2 rows with a missing group or label" in report.to_markdown()
    # a missing value in another column is what the profile measures, not an error
    assert _missing_x(profile(_frame().assign(x=lambda f: f["x"].where(f.index > 3)), groups="race")) == 4


def test_listed_missing_values_apply_to_dataframes_too(tmp_path):
    frame = _frame().assign(x=lambda f: f["x"].astype(str).where(f.index > 9, "?"))
    assert _missing_x(profile(frame, groups="race", missing_values="?")) == 10
    assert _missing_x(profile(_csv(tmp_path, frame), groups="race", missing_values=["?"])) == 10
    with pytest.warns(AuditWarning, match=r"x: '\?' \(10 rows\)"):
        assert _missing_x(profile(frame, groups="race")) == 0
    with pytest.raises(AuditInputError, match=r"missing_values must be text values"):
        profile(frame, groups="race", missing_values=[None])


def test_reference_group_that_does_not_exist(tmp_path, capsys):
    with pytest.raises(AuditInputError,
                       match=r"reference group 'c' does not exist in column 'race'; its groups are: 'a', 'b'"):
        profile(_frame(), groups="race", reference="c")
    assert _run(tmp_path, _csv(tmp_path, _frame()), "--group", "race", "--reference", "race=bb") == (2, [])
    assert "(closest: 'b')" in capsys.readouterr().err


def test_earlier_file_without_a_group_column_names_the_closest(tmp_path):
    old = _csv(tmp_path, _frame().rename(columns={"race": "Race"}), "old.csv")
    with pytest.raises(AuditInputError,
                       match=r"no column 'race' \(the group column\) in .*old.csv \(closest: 'Race'\)"):
        profile(_frame(), groups="race", reference_data=old)
    assert _run(tmp_path, _csv(tmp_path, _frame()), "--group", "race", "--against", str(old)) == (2, [])


def test_wrong_delimiter_and_non_utf8_file(tmp_path):
    with pytest.raises(AuditInputError, match=r"looks delimited by ';'"):
        profile(_csv(tmp_path, _frame(), sep=";"), groups="race")
    latin = tmp_path / "latin.csv"
    latin.write_bytes("race,x\nG\xe9,1\nb,2\n".encode("latin-1"))
    with pytest.raises(AuditInputError, match=r"is not utf-8 text"):
        profile(latin, groups="race")
    assert profile(latin, groups="race", encoding="latin-1", min_count=1).sizes["group"].tolist() == ["Gé", "b"]


def test_options_are_checked():
    with pytest.raises(AuditInputError, match=r"confidence must lie strictly between 0 and 1"):
        profile(_frame(), groups="race", confidence=95)
    with pytest.raises(AuditInputError, match=r"groups must name at least one group column"):
        profile(_frame(), groups=[])


def test_command_line_writes_the_chosen_format_or_prints_markdown(tmp_path, capsys):
    path = _csv(tmp_path, _frame())
    assert main(["profile", str(path), "--group", "race", "--group", "sex", "--label", "y", "--format", "json",
                 "--output", str(tmp_path / "p.json")]) == 0
    assert (tmp_path / "p.json").read_text().startswith('{\n "schema": "faircode-profile"')
    assert main(["profile", str(path), "--group", "race"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("# Data profile of in.csv") and "80 rows of in.csv" in captured.err


def test_csv_compressed_csv_parquet_and_dataframe_give_the_same_profile(tmp_path):
    frame = _frame(200).assign(x=lambda f: f["x"].where(f.index % 7 != 0), job=lambda f: np.where(
        f.index % 5 == 0, "?", np.where(f["race"] == "a", "p", "q")))
    frame.to_parquet(tmp_path / "in.parquet", index=False)
    documents = []
    for data in (frame, _csv(tmp_path, frame), _csv(tmp_path, frame, "in.csv.gz"), tmp_path / "in.parquet"):
        document = json.loads(profile(data, groups=["race", "sex"], label="y", missing_values="?").to_json())
        documents.append({k: v for k, v in document.items() if k != "input"} | {"rows": document["input"]["rows_used"]})
    assert all(d == documents[0] for d in documents[1:])
    assert {r["variable"]: r["missing"] for r in documents[0]["missing_overall"]} == {"x": 29, "job": 40}
