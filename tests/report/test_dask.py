"""The audit on data read with Dask (issue 23 item 4): a Dask DataFrame, a Parquet folder or a glob of Parquet
files gives the report the in-memory path gives on the same rows, byte for byte, and the same clear errors."""
import numpy as np
import pandas as pd
import pytest

dd = pytest.importorskip("dask.dataframe")

from faircode.report import AuditInputError, audit
from faircode.report._cli import main

ARGS = {"label": "y", "score": "p", "threshold": [0.3, 0.5], "groups": ["race", "sex"], "strata": "site",
        "intersections": True, "n_boot": 50, "min_count": 20}


def _frame(n=900):
    rng = np.random.default_rng(3)
    race = rng.choice(np.array(["a", "b", "c", "d"], dtype=object), n, p=[0.5, 0.3, 0.17, 0.03])
    y = rng.binomial(1, 0.4, n)
    p = np.clip(0.3 + 0.3 * y + rng.normal(0, 0.2, n), 0, 1).round(2)
    return pd.DataFrame({"y": y, "p": p, "race": race, "sex": rng.choice(["f", "m"], n),
                         "site": rng.choice(["s1", "s2"], n), "unused": rng.random(n)})


def _folder(tmp_path, frame, name="preds"):
    """``frame`` as a Parquet folder of 3 files (3 partitions)."""
    dd.from_pandas(frame, npartitions=3).to_parquet(tmp_path / name, write_index=False)
    assert len(list((tmp_path / name).glob("*.parquet"))) == 3
    return tmp_path / name


def test_parquet_folder_and_dask_dataframe_give_the_dataframes_json(tmp_path):
    frame = _frame()
    expected = audit(frame, **ARGS).to_json()
    assert '"conditional"' in expected and "race & sex" in expected  # the views compared are all there
    assert audit(dd.from_pandas(frame, npartitions=3), **ARGS).to_json() == expected
    folder = _folder(tmp_path, frame)
    assert audit(folder, **ARGS).to_json() == expected.replace('"source": "DataFrame"', '"source": "preds"')


def test_command_line_on_a_folder_and_a_glob_writes_the_pandas_reports(tmp_path):
    options = ["--label", "y", "--decision", "flag", "--group", "race", "--group", "sex", "--n-boot", "50"]
    frame = _frame().assign(flag=lambda f: (f["p"] >= 0.5).astype(int))
    folder = _folder(tmp_path, frame, "flags")
    written = {}
    for engine, data in (("pandas", folder), ("auto", folder), ("dask", f"{folder}/*.parquet")):
        out = tmp_path / engine
        formats = ("json", "markdown", "html") if engine != "dask" else ("json",)
        assert main(["audit", str(data), *options, "--engine", engine,
                     *[a for f in formats for a in (f"--{f}", str(out / f"r.{f}"))]]) == 0
        written[engine] = [(out / f"r.{f}").read_bytes() for f in formats]
    glob_source = b'"source": "*.parquet"'
    assert written["auto"] == written["pandas"]
    assert written["dask"][0].replace(glob_source, b'"source": "flags"') == written["pandas"][0]


def test_bad_input_through_dask_gets_the_in_memory_error(tmp_path, capsys):
    frame = _frame()
    frame["y"] = frame["y"].astype(float).where(frame.index != 700)  # in the third partition
    with pytest.raises(AuditInputError) as in_memory:
        audit(frame, **ARGS)
    assert "the first in row 701 (index label 700)" in str(in_memory.value)
    with pytest.raises(AuditInputError) as counted:
        audit(dd.from_pandas(frame, npartitions=3), **ARGS)
    assert str(counted.value) == str(in_memory.value)
    folder = _folder(tmp_path, frame)
    out = tmp_path / "out"
    code = main(["audit", str(folder), "--label", "y", "--score", "p", "--threshold", "0.5", "--group", "race",
                 "--json", str(out / "r.json")])
    assert code == 2 and not out.exists()
    assert "'y' has 1 missing value, the first in data row 701 (line 702 of the file)" in capsys.readouterr().err
    with pytest.raises(AuditInputError, match=r"no column 'rac' \(the group column\) .*\(closest: 'race'\)"):
        audit(folder, **(ARGS | {"groups": "rac"}))
