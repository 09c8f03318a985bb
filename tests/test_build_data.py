"""The audit data build: it reproduces the committed files byte for byte and refuses a raw file that differs."""
import hashlib
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(ROOT / "scripts"))
import build_data  # noqa: E402

needs_raw = pytest.mark.skipif(not (SHARED / "adult.data").is_file(),
                               reason=f"raw UCI files not found in {SHARED}")


@needs_raw
@pytest.mark.parametrize("audit", list(build_data.AUDITS))
def test_build_reproduces_the_committed_file(audit):
    raw_name, out_name, build = build_data.AUDITS[audit]
    built = build(build_data.fetch(raw_name, str(SHARED)))
    assert built == (ROOT / audit / out_name).read_bytes()


@needs_raw
def test_adult_file_keeps_rows_order_and_question_marks():
    lines = (ROOT / "Benefits Denial" / "adult.csv").read_text().splitlines()
    assert lines[0] == ("age,workclass,fnlwgt,education,education.num,marital.status,occupation,relationship,"
                        "race,sex,capital.gain,capital.loss,hours.per.week,native.country,income")
    assert len(lines) == 32562
    first_raw = (SHARED / "adult.data").read_text().splitlines()[0]
    assert lines[1] == ",".join(v.strip() for v in first_raw.split(","))
    assert any(",?," in line for line in lines)


def test_german_file_is_decoded():
    text = (ROOT / "German Credit Lending" / "german_credit.csv").read_text()
    assert "A1" not in text.replace("A1 ", "")  # no A-codes left
    lines = text.splitlines()
    assert len(lines) == 1001 and lines[0].endswith(",credit")


def test_a_raw_file_with_another_checksum_is_refused(tmp_path):
    (tmp_path / "german.data").write_bytes(b"A11 6 A34\n")
    expected = build_data.RAW["german.data"][1]
    actual = hashlib.sha256(b"A11 6 A34\n").hexdigest()
    with pytest.raises(build_data.ChecksumError, match=f"SHA-256 is {actual}, expected {expected}; refusing"):
        build_data.fetch("german.data", str(tmp_path))


def test_a_missing_raw_file_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match=f"{tmp_path / 'adult.data'} not found"):
        build_data.fetch("adult.data", str(tmp_path))


def test_committed_manifests_record_the_committed_files():
    for audit, (_, out_name, _) in build_data.AUDITS.items():
        digest = hashlib.sha256((ROOT / audit / out_name).read_bytes()).hexdigest()
        assert f'data_sha256 = "{digest}"' in (ROOT / audit / "audit.toml").read_text()
