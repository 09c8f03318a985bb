"""--fail-on conditions (interval and point), the command line's exit codes and files, and the JSON schema."""
import json
import pathlib
import subprocess
import sys

import jsonschema
import numpy as np
import pandas as pd
import pytest

import faircode.report
from faircode.report import SCHEMA_VERSION, AuditInputError, audit, check
from faircode.report._cli import main

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def frame():
    """Group b's FPR is 0.30 against a's 0.10 (400 negatives each): a gap of +0.20 the data establish."""
    rows = []
    for group, fp in (("a", 40), ("b", 120)):
        neg = [1] * fp + [0] * (400 - fp)
        pos = [1] * 300 + [0] * 100
        rows.append(pd.DataFrame({"y": [0] * 400 + [1] * 400, "d": neg + pos, "g": group}))
    return pd.concat(rows, ignore_index=True)


@pytest.fixture(scope="module")
def report(frame):
    return audit(frame, label="y", decision="d", groups="g", reference="a", n_boot=200)


def test_interval_mode_fails_only_when_the_whole_interval_is_beyond(report):
    gap = report.gaps.query("metric == 'fpr'").iloc[0]
    assert gap["difference"] == pytest.approx(0.2)
    assert check(report, f"fpr_gap > {gap['difference_lower'] + 0.001:.4f}").passed
    failed = check(report, f"fpr_gap > {gap['difference_lower'] - 0.001:.4f}")
    assert not failed.passed and failed.exit_code == 1
    message = failed.message()
    assert "g = 'b' vs 'a'" in message and "FPR difference 0.200 [" in message
    # the point is beyond 0.15, the interval's lower end is not: only point mode fails
    middle = f"fpr_gap > {(gap['difference_lower'] + 0.2) / 2:.4f}"
    assert check(report, middle).passed
    assert not check(report, middle, when="point").passed


def test_less_than_ratios_and_absolute_values(report):
    assert not check(report, "selection_ratio > 1.05").passed  # b selects 0.525 against a's 0.425
    assert check(report, "selection_ratio < 0.8").passed
    assert not check(report, "abs(fpr_gap) > 0.1").passed
    assert check(report, "abs(tpr_gap) > 0.1").passed  # TPRs are equal
    assert not check(report, "abs(tpr_gap) < 0.1").passed  # the whole interval inside (-0.1, 0.1): it holds
    assert not check(report, "fpr >= 0.2").passed  # b's own FPR
    assert check(report, "fpr_gap < 0").passed


def test_unknown_metric_and_bad_condition_are_input_errors(report):
    with pytest.raises(AuditInputError, match=r"unknown metric 'fpr_gpa' .*\(closest: 'fpr_gap'\)"):
        check(report, "fpr_gpa > 0.1")
    with pytest.raises(AuditInputError, match=r"cannot read the condition 'fpr_gap >> 1'"):
        check(report, "fpr_gap >> 1")
    with pytest.raises(AuditInputError, match=r"when must be one of"):
        check(report, "fpr_gap > 1", when="sometimes")


def test_cli_exit_codes_and_outputs(tmp_path, frame, capsys):
    path = tmp_path / "preds.csv"
    frame.to_csv(path, index=False)
    out = tmp_path / "out"
    base = ["audit", str(path), "--label", "y", "--decision", "d", "--group", "g", "--reference", "g=a",
            "--n-boot", "100", "--json", str(out / "r.json"), "--html", str(out / "r.html")]
    assert main(base + ["--fail-on", "fpr_gap > 0.05"]) == 1
    printed = capsys.readouterr().out
    assert "FAIL" in printed and "fpr_gap > 0.05: g = 'b' vs 'a'" in printed
    written = json.loads((out / "r.json").read_text())
    assert written["gate"]["passed"] is False and written["gate"]["failures"][0]["group"] == "b"
    assert main(base + ["--fail-on", "fpr_gap > 0.3"]) == 0
    assert main(base) == 0
    html = (out / "r.html").read_text()
    assert "<svg" not in html  # decisions only: no score figures
    assert "http" not in html.split("<body>")[0]  # nothing loaded from anywhere


def test_module_entry_point_and_console_script_are_declared(tmp_path, frame):
    path = tmp_path / "preds.csv"
    frame.to_csv(path, index=False)
    done = subprocess.run([sys.executable, "-m", "faircode", "audit", str(path), "--label", "y", "--decision", "d",
                           "--group", "g", "--n-boot", "0", "--fail-on", "fpr_gap > 0.05"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "faircode audit: FAIL" in done.stdout
    assert 'faircode = "faircode.__main__:main"' in (ROOT / "pyproject.toml").read_text()


def test_json_follows_its_schema(tmp_path):
    rng = np.random.default_rng(1)
    n = 400
    df = pd.DataFrame({"y": rng.integers(0, 2, n), "p": rng.random(n), "g": rng.choice(["a", "b", "c"], n),
                       "s": rng.choice(["u", "v"], n), "w": rng.choice([1.0, 3.0], n)})
    schema = json.loads((pathlib.Path(faircode.report.__file__).parent / "audit.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    report = audit(df, label="y", score="p", threshold=[0.3, 0.6], groups=["g", "s"], intersections=True,
                   strata="s", n_boot=100)
    document = json.loads(report.to_json(gate=check(report, "fpr_gap > 0.5")))
    jsonschema.validate(document, schema)
    assert document["schema_version"] == SCHEMA_VERSION
    broken = dict(document, rates=[dict(document["rates"][0], estimate="0.5")])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)
    for bad in (dict(estimate=1.5), dict(count=-1)):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(dict(document, rates=[dict(document["rates"][0], **bad)]), schema)
    weighted = json.loads(audit(df, label="y", decision="y", groups="g", sample_weight="w", n_boot=0).to_json())
    jsonschema.validate(weighted, schema)


def test_an_internal_error_exits_3_not_1(tmp_path, frame, monkeypatch, capsys):
    path = tmp_path / "preds.csv"
    frame.to_csv(path, index=False)

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("faircode.report._audit.audit", broken)
    assert main(["audit", str(path), "--label", "y", "--decision", "d", "--group", "g", "--json",
                 str(tmp_path / "r.json")]) == 3
    assert "internal error" in capsys.readouterr().err and not (tmp_path / "r.json").exists()


def test_four_fifths_gate_compares_with_the_highest_group():
    # reference "big" (largest) selects 0.36, "top" 0.6: big's four-fifths ratio is 0.6, whatever the reference
    parts = [pd.DataFrame({"y": [1, 0] * (n // 2), "d": [1] * k + [0] * (n - k), "g": g})
             for g, n, k in (("big", 500, 180), ("top", 200, 120))]
    report = audit(pd.concat(parts, ignore_index=True), label="y", decision="d", groups="g", n_boot=200)
    assert check(report, "selection_ratio < 0.8").passed  # top over big: 1.67
    failed = check(report, "four_fifths_ratio < 0.8")
    assert not failed.passed and failed.failures[0]["group"] == "big" and failed.failures[0]["reference"] == "top"
    assert "four-fifths ratio to the highest 0.600" in failed.message()
    # unfavourable positive: favourable rates big 0.64, top 0.4 -> top 0.625 of big's
    failed = check(report, "unfavourable_four_fifths_ratio < 0.8")
    assert not failed.passed and failed.failures[0]["group"] == "top"
    assert check(report, "FPR_gap > 0.5").passed  # metric names are case-insensitive


def test_pass_line_says_how_many_too_small_estimates_were_not_checked():
    rows = [pd.DataFrame({"y": [1, 0] * 100, "d": [1, 0] * 100, "g": "big"}),
            pd.DataFrame({"y": [1, 0] * 5, "d": [1] * 10, "g": "tiny"})]
    report = audit(pd.concat(rows, ignore_index=True), label="y", decision="d", groups="g", n_boot=100)
    result = check(report, "fpr_gap > 0.05", when="point")
    assert result.passed and result.skipped_too_small == 1  # tiny's FPR gap is 1.0, on 5 negatives
    assert "1 estimates of groups too small to estimate were not checked" in result.message()
    assert result.to_dict()["skipped_too_small"] == 1
