"""Every bad input of issue 23 item 5 gets a clear error (what arrived, what was expected, the closest name) and
the command line writes no output file (exit code 2)."""
import gzip

import numpy as np
import pandas as pd
import pytest

from faircode.report import AuditInputError, audit
from faircode.report._cli import main


def _frame(n=60):
    rng = np.random.default_rng(0)
    return pd.DataFrame({"y": rng.integers(0, 2, n), "p": rng.random(n).round(3),
                         "race": rng.choice(["a", "b"], n), "sex": rng.choice(["f", "m"], n)})


def _run(tmp_path, path, *options):
    """The command line on a file; returns its exit code and the files it left besides the input."""
    out = tmp_path / "out"
    code = main(["audit", str(path), *options, "--n-boot", "50", "--json", str(out / "r.json"), "--html", str(out / "r.html"),
                 "--markdown", str(out / "r.md")])
    left = sorted(p.name for p in out.iterdir()) if out.exists() else []
    return code, left


ARGS = dict(label="y", score="p", threshold=0.5, groups="race", n_boot=50)


def _csv(tmp_path, frame, name="in.csv", **kwargs):
    path = tmp_path / name
    frame.to_csv(path, index=False, **kwargs)
    return path


def test_misspelt_column_names_the_closest(tmp_path, capsys):
    path = _csv(tmp_path, _frame())
    with pytest.raises(AuditInputError, match=r"no column 'rac' \(the group column\) .*\(closest: 'race'\)"):
        audit(path, **(ARGS | {"groups": "rac"}))
    code, left = _run(tmp_path, path, "--label", "y", "--score", "p", "--threshold", "0.5", "--group", "rac")
    assert code == 2 and left == []
    assert "closest: 'race'" in capsys.readouterr().err


def test_missing_column_in_a_dataframe():
    with pytest.raises(AuditInputError, match=r"no column 'Y' \(the label column\) in the DataFrame \(closest: 'y'\)"):
        audit(_frame(), **(ARGS | {"label": "Y"}))


def test_label_that_is_not_binary_lists_its_values(tmp_path):
    frame = _frame().assign(y=lambda f: f["y"].where(f.index % 10 != 0, 2))
    with pytest.raises(AuditInputError, match=r"must be binary, 0 and 1 .*found 3 values: .*2 \(6 rows\)"):
        audit(frame, **ARGS)
    code, left = _run(tmp_path, _csv(tmp_path, frame), "--label", "y", "--score", "p", "--threshold", "0.5",
                      "--group", "race")
    assert code == 2 and left == []


def test_two_valued_label_suggests_the_positive_value_and_accepts_it():
    frame = _frame().assign(y=lambda f: np.where(f["y"] == 1, "yes", "no"))
    with pytest.raises(AuditInputError, match=r"positive_label=.*'yes'"):
        audit(frame, **ARGS)
    report = audit(frame, **ARGS, positive_label="yes")
    assert report.rates.query("column == 'overall' and metric == 'base_rate'")["estimate"].iloc[0] == pytest.approx(
        (_frame()["y"] == 1).mean())


@pytest.mark.parametrize("column", ["y", "p", "race"])
def test_missing_values_are_counted_with_the_first_row(tmp_path, column):
    frame = _frame().astype({column: object})
    frame.loc[[7, 20, 33], column] = None
    path = _csv(tmp_path, frame)
    with pytest.raises(AuditInputError, match=rf"'{column}' has 3 missing .*the first in data row 8 \(line 9 of the "
                                              r"file\).*dropna=True"):
        audit(path, **ARGS)
    code, left = _run(tmp_path, path, "--label", "y", "--score", "p", "--threshold", "0.5", "--group", "race")
    assert code == 2 and left == []
    report = audit(path, **ARGS, dropna=True)
    assert report.meta["rows_dropped_missing"] == 3 and report.meta["rows_used"] == 57


def test_scores_outside_the_range_with_a_threshold():
    frame = _frame().assign(p=lambda f: f["p"] * 10)
    with pytest.raises(AuditInputError, match=r"values outside \[0, 1\] .*score_range="):
        audit(frame, **ARGS)
    report = audit(frame, **(ARGS | {"threshold": 5}), score_range=(0, 10))
    assert report.meta["thresholds"] == [5.0]


def test_group_column_with_one_value():
    with pytest.raises(AuditInputError, match=r"group column 'race' has one value, 'a', in all 60 rows"):
        audit(_frame().assign(race="a"), **ARGS)


def test_group_column_with_a_value_per_row():
    with pytest.raises(AuditInputError, match=r"a different value in each of its 60 rows .*identifier"):
        audit(_frame().assign(race=[f"id{i}" for i in range(60)]), **ARGS)


def test_empty_file(tmp_path):
    path = tmp_path / "empty.csv"
    path.write_bytes(b"")
    with pytest.raises(AuditInputError, match=r"empty \(0 bytes\)"):
        audit(path, **ARGS)
    code, left = _run(tmp_path, path, "--label", "y", "--decision", "p", "--group", "race")
    assert code == 2 and left == []


def test_header_without_rows(tmp_path):
    path = tmp_path / "header.csv"
    path.write_text("y,p,race\n")
    with pytest.raises(AuditInputError, match=r"has a header but no rows"):
        audit(path, **ARGS)


def test_wrong_delimiter_names_the_right_one(tmp_path):
    path = _csv(tmp_path, _frame(), sep=";")
    with pytest.raises(AuditInputError, match=r"looks delimited by ';'; pass sep=';'"):
        audit(path, **ARGS)
    assert audit(path, **ARGS, sep=";").meta["rows_used"] == 60


def test_file_that_is_not_utf8(tmp_path):
    frame = _frame().assign(race=lambda f: np.where(f["race"] == "a", "Québec", "Ontario"))
    path = tmp_path / "latin.csv"
    frame.to_csv(path, index=False, encoding="latin-1")
    with pytest.raises(AuditInputError, match=r"is not utf-8 text: byte b'\\xe9' .*encoding='latin-1'"):
        audit(path, **ARGS)
    code, left = _run(tmp_path, path, "--label", "y", "--score", "p", "--threshold", "0.5", "--group", "race")
    assert code == 2 and left == []
    assert "Québec" in set(audit(path, **ARGS, encoding="latin-1").rates["group"])


def test_reference_group_that_does_not_exist(tmp_path):
    with pytest.raises(AuditInputError, match=r"reference group 'B' does not exist in column 'race' \(closest: 'b'\)"):
        audit(_frame(), **ARGS, reference="B")
    with pytest.raises(AuditInputError, match=r"reference names column 'rce'.*\(closest: 'race'\)"):
        audit(_frame(), **ARGS, reference={"rce": "a"})
    code, left = _run(tmp_path, _csv(tmp_path, _frame()), "--label", "y", "--score", "p", "--threshold", "0.5",
                      "--group", "race", "--reference", "race=B")
    assert code == 2 and left == []


def test_no_such_file_names_the_closest(tmp_path):
    _csv(tmp_path, _frame(), name="predictions.csv")
    with pytest.raises(AuditInputError, match=r"no file .*predictons.csv' \(closest: 'predictions.csv'\)"):
        audit(tmp_path / "predictons.csv", **ARGS)


def test_score_without_threshold_and_non_numeric_score():
    with pytest.raises(AuditInputError, match=r"a score needs a threshold"):
        audit(_frame(), **(ARGS | {"threshold": None}))
    frame = _frame().astype({"p": object})
    frame.loc[4, "p"] = "high"
    with pytest.raises(AuditInputError, match=r"must hold numbers; 1 value is not, the first 'high' in row 5"):
        audit(frame, **ARGS)


def test_compressed_csv_and_parquet_give_the_same_report(tmp_path):
    frame = _frame(200)
    plain = audit(_csv(tmp_path, frame), **ARGS).to_json()
    gz = tmp_path / "in.csv.gz"
    with gzip.open(gz, "wt") as handle:
        frame.to_csv(handle, index=False)
    parquet = tmp_path / "in.parquet"
    frame.to_parquet(parquet)
    assert audit(gz, **ARGS).to_json().replace("in.csv.gz", "in.csv") == plain
    assert audit(parquet, **ARGS).to_json().replace("in.parquet", "in.csv") == plain
    assert audit(frame, **ARGS).to_json().replace('"DataFrame"', '"in.csv"') == plain


def test_only_the_needed_columns_are_read(tmp_path):
    frame = _frame().assign(notes=["text, with a comma"] * 60, other=range(60))
    report = audit(_csv(tmp_path, frame), **ARGS)
    assert report.meta["rows_used"] == 60


def test_group_values_na_and_none_are_groups_not_missing(tmp_path):
    frame = _frame(90)
    frame["region"] = ["NA", "None", "EU"] * 30
    path = _csv(tmp_path, frame)
    report = audit(path, **(ARGS | {"groups": "region", "min_count": 5}))
    assert report.meta["rows_used"] == 90 and report.meta["rows_dropped_missing"] == 0
    assert set(report.rates.query("column == 'region'")["group"]) == {"NA", "None", "EU"}
    # an empty field is still missing, and a score's 'NA' too
    frame.loc[3, "region"] = ""
    frame["p"] = frame["p"].astype(object)
    frame.loc[5, "p"] = "NA"
    with pytest.raises(AuditInputError, match=r"'p' has 1 missing or infinite value, .*\(also missing: region: 1\)"):
        audit(_csv(tmp_path, frame, "empty.csv"), **(ARGS | {"groups": "region"}))
    report = audit(_csv(tmp_path, frame, "empty2.csv"), **(ARGS | {"groups": "region", "min_count": 5, "dropna": True}))
    assert report.meta["rows_dropped_missing"] == 2


def test_duplicate_column_names_are_an_error(tmp_path):
    frame = _frame()
    text = frame.to_csv(index=False).replace("race,sex", "sex,sex", 1)
    path = tmp_path / "dup.csv"
    path.write_text(text)
    with pytest.raises(AuditInputError, match=r"more than one column named 'sex' \('sex' at positions 3, 4\)"):
        audit(path, **(ARGS | {"groups": "sex"}))
    assert _run(tmp_path, path, "--label", "y", "--score", "p", "--threshold", "0.5", "--group", "sex") == (2, [])
    duplicated = pd.concat([frame, frame[["sex"]]], axis=1)
    with pytest.raises(AuditInputError, match="more than one column named 'sex'"):
        audit(duplicated, **(ARGS | {"groups": "sex"}))
    # a duplicated column the audit does not read is no matter
    audit(pd.concat([frame, frame[["sex"]]], axis=1), **ARGS)


def test_weights_zero_outside_one_group_is_an_input_error(tmp_path):
    frame = _frame()
    frame["w"] = np.where(frame["race"] == "a", 1.0, 0.0)
    with pytest.raises(AuditInputError, match=r"'w' is 0 in every row of the group column 'race' except those of "
                                              r"group 'a'"):
        audit(frame, **(ARGS | {"sample_weight": "w"}))
    path = _csv(tmp_path, frame)
    code, left = _run(tmp_path, path, "--label", "y", "--score", "p", "--threshold", "0.5", "--group", "race",
                      "--weight", "w")
    assert (code, left) == (2, [])


def test_threshold_outside_default_range_suggests_score_range():
    frame = _frame()
    frame["p"] = frame["p"] * 100
    with pytest.raises(AuditInputError, match=r"--score-range 0 100"):
        audit(frame, **(ARGS | {"threshold": 50}))


def test_tab_delimited_hint_shows_one_backslash(tmp_path):
    path = tmp_path / "in.tsv"
    _frame().to_csv(path, index=False, sep="\t")
    with pytest.raises(AuditInputError) as info:
        audit(path, **ARGS)
    assert "pass sep='\\t' (--sep '\\t')" in str(info.value) and "\\\\" not in str(info.value)


def test_group_names_differing_in_case_or_spaces_warn(tmp_path, capsys):
    from faircode.report import AuditWarning

    frame = _frame(90)
    frame["race"] = ["White", "White ", "white"] * 30
    with pytest.warns(AuditWarning, match=r"'race' has groups whose names differ only in case or surrounding "
                                          r"spaces \('White', 'White ', 'white'\)"):
        report = audit(frame, **(ARGS | {"min_count": 5}))
    assert len(report.rates.query("column == 'race'")["group"].unique()) == 3  # still audited as written
    code, _ = _run(tmp_path, _csv(tmp_path, frame), "--label", "y", "--score", "p", "--threshold", "0.5",
                   "--group", "race")
    assert code == 0 and "faircode audit: warning: the group column 'race' has groups" in capsys.readouterr().err


def test_a_group_column_with_very_many_groups_warns():
    from faircode.report import AuditWarning
    from faircode.report._read import MANY_GROUPS

    n = 2 * (MANY_GROUPS + 1)
    frame = pd.DataFrame({"y": [0, 1] * (n // 2), "d": [1, 0, 0, 1] * (n // 4) + [1, 0] * (n % 4 // 2),
                          "g": np.repeat([f"g{i}" for i in range(MANY_GROUPS + 1)], 2)})
    with pytest.warns(AuditWarning, match=f"has {MANY_GROUPS + 1} groups"):
        audit(frame, label="y", decision="d", groups="g", n_boot=0)


def test_label_that_is_also_a_group_column_reads_as_binary(tmp_path):
    path = _csv(tmp_path, _frame(90))
    report = audit(path, **(ARGS | {"groups": ["race", "y"], "min_count": 5}))
    assert set(report.rates.query("column == 'y'")["group"]) == {"0", "1"}


def test_reference_to_an_unknown_column_says_so(tmp_path, capsys):
    path = _csv(tmp_path, _frame())
    code, left = _run(tmp_path, path, "--label", "y", "--score", "p", "--threshold", "0.5", "--group", "race",
                      "--group", "sex", "--reference", "rase=a")
    assert (code, left) == (2, [])
    assert "names column 'rase', which is not a --group column (closest: 'race')" in capsys.readouterr().err
