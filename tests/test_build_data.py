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
needs_compas = pytest.mark.skipif(not (SHARED / "compas-scores-two-years.csv").is_file(),
                                  reason=f"raw COMPAS file not found in {SHARED}")
needs_diabetes = pytest.mark.skipif(not (SHARED / "diabetic_data.csv").is_file(),
                                    reason=f"raw Diabetes 130-US hospitals file not found in {SHARED}")
COMPAS = "Pretrial Risk Assessment"
READMISSION = "Healthcare Readmission"


@needs_raw
@needs_compas
@needs_diabetes
@pytest.mark.parametrize("audit", list(build_data.AUDITS))
def test_build_reproduces_the_committed_file(audit):
    raw_name, out_name, build = build_data.AUDITS[audit]
    names = (raw_name,) if isinstance(raw_name, str) else raw_name
    built = build(*[build_data.fetch(name, str(SHARED)) for name in names])
    assert built == (ROOT / audit / out_name).read_bytes()


@needs_diabetes
def test_readmission_rows_match_an_independent_selection_from_the_raw_file():
    import pandas as pd

    raw = pd.read_csv(SHARED / "diabetic_data.csv", dtype=str, keep_default_na=False)
    alive = raw[~raw["discharge_disposition_id"].isin(["11", "13", "14", "19", "20", "21"])]
    first = alive.assign(order=alive["encounter_id"].astype(int)).sort_values("order") \
        .groupby("patient_nbr", sort=False).head(1)
    built = pd.read_csv(ROOT / READMISSION / "readmission.csv.gz", dtype=str, keep_default_na=False)
    assert len(raw) == 101_766 and len(alive) == 99_343 and len(built) == 69_990
    assert built["encounter_id"].tolist() == first["encounter_id"].tolist()
    assert built["patient_nbr"].is_unique
    for column in ["race", "gender", "age", "payer_code", "A1Cresult", "readmitted", "number_inpatient"]:
        assert built[column].tolist() == first[column].tolist(), column
    assert (built["readmitted"] == "<30").sum() == (first["readmitted"] == "<30").sum()


def test_icd9_groups_follow_strack_et_al():
    group = build_data.icd9_group
    assert [group(c) for c in ["428", "785", "486", "250.83", "250", "V57", "E909", "?", "996", "715", "174"]] == [
        "circulatory", "circulatory", "respiratory", "diabetes", "diabetes", "other", "other", "missing", "injury",
        "musculoskeletal", "neoplasms"]


@needs_diabetes
def test_ids_mapping_is_split_into_its_three_tables():
    tables = build_data.id_tables(build_data.fetch("IDs_mapping.csv", str(SHARED)))
    assert {k: len(v) for k, v in tables.items()} == {"admission_type_id": 8, "discharge_disposition_id": 30,
                                                      "admission_source_id": 25}
    assert tables["discharge_disposition_id"]["11"] == "Expired"


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




@pytest.fixture(scope="module")
def compas_steps():
    steps = []
    built = build_data.build_compas(build_data.fetch("compas-scores-two-years.csv", str(SHARED)), steps)
    return built, steps


@needs_compas
def test_compas_filters_keep_propublicas_6172_rows(compas_steps):
    built, steps = compas_steps
    assert [rows for _, _, rows in steps] == [7214, 6907, 6172, 6172, 6172, 6172]
    assert [rule for rule, _, _ in steps[1:]] == [rule for rule, _, _ in build_data.COMPAS_FILTERS]
    assert all(why for _, why, _ in steps)
    lines = built.decode().splitlines()
    assert lines[0] == ",".join(build_data.COMPAS_COLUMNS) and len(lines) == 6173


@needs_compas
def test_compas_manifest_records_the_rows_kept_after_each_filter(compas_steps):
    import tomllib

    manifest = tomllib.loads((ROOT / COMPAS / "audit.toml").read_text())
    recorded = [(s["rule"], s["why"], s["rows"]) for s in manifest["rows_kept"]]
    assert recorded == compas_steps[1]


@needs_compas
def test_compas_rows_match_an_independent_filter_of_the_raw_file():
    import pandas as pd

    raw = pd.read_csv(SHARED / "compas-scores-two-years.csv")
    kept = raw[raw["days_b_screening_arrest"].between(-30, 30) & (raw["is_recid"] != -1)
               & (raw["c_charge_degree"] != "O") & (raw["score_text"] != "N/A")]
    built = pd.read_csv(ROOT / COMPAS / "compas.csv")
    assert built["id"].tolist() == kept["id"].tolist()
    for column in ["race", "sex", "age", "decile_score", "score_text", "priors_count", "two_year_recid"]:
        assert built[column].tolist() == kept[column].tolist(), column


def test_compas_file_without_personal_or_outcome_detail_columns():
    header = (ROOT / COMPAS / "compas.csv").read_text().splitlines()[0].split(",")
    assert not {"name", "first", "last", "dob", "is_recid", "r_charge_desc", "event"} & set(header)


def test_compas_repeated_columns_must_agree():
    header = ",".join(build_data.COMPAS_COLUMNS + ["is_recid", "decile_score"])
    row = ",".join(["1"] * (len(build_data.COMPAS_COLUMNS) + 1) + ["7"])
    with pytest.raises(ValueError, match=r"line 2: the two decile_score columns differ \('1' and '7'\)"):
        build_data.compas_records(f"{header}\n{row}\n".encode())


def test_committed_manifests_record_the_committed_files():
    for audit, (_, out_name, _) in build_data.AUDITS.items():
        digest = hashlib.sha256((ROOT / audit / out_name).read_bytes()).hexdigest()
        assert f'data_sha256 = "{digest}"' in (ROOT / audit / "audit.toml").read_text()


def test_rows_kept_are_written_after_the_marker_and_a_manifest_without_it_is_refused(tmp_path):
    import tomllib

    manifest = tmp_path / "audit.toml"
    manifest.write_text(f'name = "x"\n\n{build_data.ROWS_KEPT_MARKER}\n\n[[rows_kept]]\nrule = "old"\n')
    steps = [("all rows", 'the "raw" file', 10), ("a > 1", "why not", 7)]
    build_data.record_rows_kept(manifest, steps)
    written = tomllib.loads(manifest.read_text())
    assert written["name"] == "x"
    assert [(s["rule"], s["why"], s["rows"]) for s in written["rows_kept"]] == steps
    manifest.write_text('name = "x"\n')
    with pytest.raises(ValueError, match=r"audit.toml: no line '# ---- written by scripts/build_data.py"):
        build_data.record_rows_kept(manifest, steps)


@needs_compas
def test_compas_filters_that_remove_nothing_say_so(compas_steps):
    """Three of ProPublica's filters find nothing to remove in its two-year file; their reasons must say so."""
    import pandas as pd

    _, steps = compas_steps
    for (_, _, before), (rule, why, after) in zip(steps, steps[1:]):
        assert ("removes nothing here" in why) == (before == after), rule
    frame = pd.read_csv(SHARED / "compas-scores-two-years.csv")
    assert set(frame["c_charge_degree"]) == {"F", "M"}  # recoded by ProPublica: no degree O is left to drop
    assert set(frame["is_recid"]) == {0, 1} and set(frame["score_text"]) == {"Low", "Medium", "High"}
    # "arrest case no charge": an arrest without a filed charge, and so without an offence date.
    no_charge = frame["c_charge_desc"] == "arrest case no charge"
    assert no_charge.sum() == 1137 and frame.loc[no_charge, "c_offense_date"].isna().all()


def test_compas_data_card_is_generated_and_describes_the_default_sample():
    from faircode.data._datacard import data_card

    card = data_card(COMPAS)
    assert card == (ROOT / COMPAS / "DATA.md").read_text()  # `make data` wrote it; nobody edited it by hand
    assert "| sample | `two-year-window`, the default of `load_audit`" in card
    assert "| rows | 5,304 |" in card and "rate 0.366 |" in card
    assert ("`two-year-window` removes 868 of the data file's 6,172 rows, those with compas_screening_date after "
            "2014-04-01: 868 of them (1.000)") in card
    assert "against 0.366 among the 5,304 rows it keeps and 0.455 in the whole file" in card
    assert "The latest compas_screening_date of a row without the outcome is 2014-04-01" in card
    assert "| race | African-American | 2,682 | 0.435 | 3,175 | 0.523 |" in card
    assert "| race | Caucasian | 1,829 | 0.300 | 2,103 | 0.391 |" in card
    assert "| c_charge_desc | `arrest case no charge` | 684 | 784 |" in card
    assert "c_charge_degree is not O | 6,172 | ProPublica's notebook drops" in card and "removes nothing here" in card
    assert "days out of custody" in card and "Broward County Sheriff's Office" in card


def test_cards_of_audits_without_samples_have_no_sample_sections():
    from faircode.data._datacard import data_card

    for audit in ("Benefits Denial", "German Credit Lending"):
        card = data_card(audit)
        assert card == (ROOT / audit / "DATA.md").read_text()
        assert "## Samples" not in card and "| sample |" not in card


@needs_compas
def test_compas_months_count_the_raw_file_and_the_filtered_rows_and_the_card_prints_them():
    import pandas as pd

    months = build_data.compas_months(build_data.fetch("compas-scores-two-years.csv", str(SHARED)))
    raw = pd.read_csv(SHARED / "compas-scores-two-years.csv")
    by_month = raw["compas_screening_date"].str[:7].value_counts()
    assert {m: r for m, r, _ in months} == by_month.to_dict()
    assert sum(k for _, _, k in months) == 6172 and dict((m, (r, k)) for m, r, k in months)["2013-06"] == (89, 58)
    from faircode.data._audits import get_manifest

    assert [tuple(m.values()) for m in get_manifest(COMPAS).rows_by_month] == months
    assert "| 2013-06 | 89 | 58 | 0.652 |" in (ROOT / COMPAS / "DATA.md").read_text()
