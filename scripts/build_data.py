"""Build each audit's committed data file from the public originals, refusing any raw file whose SHA-256 differs.

    python scripts/build_data.py --source ../shared/data     # from a local folder of the raw files
    python scripts/build_data.py --source url                # from the original archives (needs the network)

It writes ``Benefits Denial/adult.csv``, ``German Credit Lending/german_credit.csv``,
``Pretrial Risk Assessment/compas.csv`` and ``Healthcare Readmission/readmission.csv.gz`` (gzip, no timestamp), records the built files' checksums in each audit's ``audit.toml``
(``data_sha256``) and, for an audit whose rows are filtered, the rows kept after each filter, and regenerates
each audit's data card ``DATA.md``. Running it twice gives byte-identical files.

An audit's samples (``[[samples]]`` in its ``audit.toml``, such as Pretrial Risk Assessment's default
``two-year-window``) are not built here: ``load_audit`` applies them to the one committed file when it loads it,
so every sample comes from the same checked file; the data card counts their rows.
"""
from __future__ import annotations

import argparse
import collections
import csv
import gzip
import hashlib
import io
import pathlib
import re
import sys
import urllib.request
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent

UCI = "https://archive.ics.uci.edu/ml/machine-learning-databases"
PROPUBLICA = "https://raw.githubusercontent.com/propublica/compas-analysis/master"
DIABETES_ZIP = "https://archive.ics.uci.edu/static/public/296/diabetes+130-us+hospitals+for+years+1999-2008.zip"
RAW = {
    "adult.data": (f"{UCI}/adult/adult.data",
                   "5b00264637dbfec36bdeaab5676b0b309ff9eb788d63554ca0a249491c86603d"),
    "german.data": (f"{UCI}/statlog/german/german.data",
                    "b21f3d81db8071257d5ff1deaeba1fd4303b62712e6fcc9715c7a86202cb5871"),
    "compas-scores-two-years.csv": (f"{PROPUBLICA}/compas-scores-two-years.csv",
                                    "c451db85908b2f7fef1d83203bedf6b71ecda0d5af468d82ae62178f91d0cc7d"),
    # Diabetes 130-US hospitals (UCI dataset 296): the encounters and the code tables of three of their columns.
    # Distributed only inside UCI's zip: the file of that name is taken from it.
    "diabetic_data.csv": (f"{DIABETES_ZIP}#diabetic_data.csv",
                          "0689e7ec031237dc63031b938805c48377748761a3b26acab621567afa24df97"),
    "IDs_mapping.csv": (f"{DIABETES_ZIP}#IDs_mapping.csv",
                        "f1bb82b471cb34649352597572c9b1fb00bd27f77b9f5a22a03dc3eb1039749e"),
}

ADULT_COLUMNS = [
    "age", "workclass", "fnlwgt", "education", "education.num", "marital.status", "occupation",
    "relationship", "race", "sex", "capital.gain", "capital.loss", "hours.per.week", "native.country", "income",
]

# Statlog German Credit: column names in file order, with the A-code tables from the UCI documentation.
GERMAN_COLUMNS = [
    ("checking_account", {"A11": "< 0 DM", "A12": "0 to < 200 DM", "A13": ">= 200 DM or salary assigned",
                          "A14": "no checking account"}),
    ("duration_months", None),
    ("credit_history", {"A30": "no credits taken or all paid back duly",
                        "A31": "all credits at this bank paid back duly",
                        "A32": "existing credits paid back duly till now",
                        "A33": "delay in paying off in the past",
                        "A34": "critical account or other credits elsewhere"}),
    ("purpose", {"A40": "new car", "A41": "used car", "A42": "furniture/equipment", "A43": "radio/television",
                 "A44": "domestic appliances", "A45": "repairs", "A46": "education", "A47": "vacation",
                 "A48": "retraining", "A49": "business", "A410": "other"}),
    ("credit_amount", None),
    ("savings", {"A61": "< 100 DM", "A62": "100 to < 500 DM", "A63": "500 to < 1000 DM", "A64": ">= 1000 DM",
                 "A65": "unknown or none"}),
    ("employment_since", {"A71": "unemployed", "A72": "< 1 year", "A73": "1 to < 4 years", "A74": "4 to < 7 years",
                          "A75": ">= 7 years"}),
    ("installment_rate", None),
    ("personal_status", {"A91": "male divorced/separated", "A92": "female divorced/separated/married",
                         "A93": "male single", "A94": "male married/widowed", "A95": "female single"}),
    ("other_debtors", {"A101": "none", "A102": "co-applicant", "A103": "guarantor"}),
    ("residence_since", None),
    ("property", {"A121": "real estate", "A122": "savings agreement or life insurance", "A123": "car or other",
                  "A124": "unknown or none"}),
    ("age", None),
    ("other_installment_plans", {"A141": "bank", "A142": "stores", "A143": "none"}),
    ("housing", {"A151": "rent", "A152": "own", "A153": "for free"}),
    ("existing_credits", None),
    ("job", {"A171": "unemployed or unskilled non-resident", "A172": "unskilled resident",
             "A173": "skilled employee or official", "A174": "management, self-employed or highly qualified"}),
    ("people_liable", None),
    ("telephone", {"A191": "none", "A192": "yes"}),
    ("foreign_worker", {"A201": "yes", "A202": "no"}),
    ("credit", {"1": "good", "2": "bad"}),
]


class ChecksumError(RuntimeError):
    """A raw file's SHA-256 is not the one published with the project."""


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fetch(name: str, source: str) -> bytes:
    """Return the raw file's bytes from a local folder or its canonical URL, after checking its SHA-256."""
    url, expected = RAW[name]
    if source == "url":
        url, _, member = url.partition("#")
        with urllib.request.urlopen(url, timeout=60) as response:
            data = response.read()
        where = url
        if member:  # a file inside a zip archive, found by its name in any folder of the archive
            with zipfile.ZipFile(io.BytesIO(data)) as archive:
                found = [n for n in archive.namelist() if n.rsplit("/", 1)[-1] == member]
                if len(found) != 1:
                    raise FileNotFoundError(f"{url}: expected one file named {member} in the zip, found {found}")
                data, where = archive.read(found[0]), f"{url} ({found[0]})"
    else:
        path = pathlib.Path(source) / name
        if not path.is_file():
            raise FileNotFoundError(f"raw file {path} not found; expected the raw file {name} in {source}")
        data = path.read_bytes()
        where = str(path)
    actual = sha256_bytes(data)
    if actual != expected:
        raise ChecksumError(f"{where}: SHA-256 is {actual}, expected {expected}; refusing to build from it")
    return data


def build_adult(raw: bytes) -> bytes:
    rows = []
    for line in raw.decode("ascii").splitlines():
        if not line.strip():
            continue
        values = [v.strip() for v in line.split(",")]
        if len(values) != len(ADULT_COLUMNS):
            raise ValueError(f"adult.data line {len(rows) + 1}: {len(values)} fields, expected {len(ADULT_COLUMNS)}")
        rows.append(values)
    if len(rows) != 32561:
        raise ValueError(f"adult.data: {len(rows)} rows, expected 32,561")
    return to_csv(ADULT_COLUMNS, rows)


def build_german(raw: bytes) -> bytes:
    header = [name for name, _ in GERMAN_COLUMNS]
    header.insert(header.index("personal_status") + 1, "sex")
    rows = []
    for number, line in enumerate(raw.decode("ascii").splitlines(), start=1):
        codes = line.split()
        if len(codes) != len(GERMAN_COLUMNS):
            raise ValueError(f"german.data line {number}: {len(codes)} fields, expected {len(GERMAN_COLUMNS)}")
        row = []
        for code, (name, table) in zip(codes, GERMAN_COLUMNS):
            if table is None:
                row.append(code)
                continue
            if code not in table:
                raise ValueError(f"german.data line {number}: unknown code {code!r} for {name}; "
                                 f"expected one of {sorted(table)}")
            row.append(table[code])
            if name == "personal_status":
                row.append(table[code].split()[0])  # the sex part of the combined attribute
        rows.append(row)
    if len(rows) != 1000:
        raise ValueError(f"german.data: {len(rows)} rows, expected 1,000")
    return to_csv(header, rows)


# ProPublica's COMPAS file: one row per person screened in Broward County, Florida, in 2013-2014, with the tool's
# scores and whether the person was charged with a new offence within two years. The committed file keeps the
# columns below, in this order; it leaves out names, birth dates and case numbers (identifying and used by no
# analysis here), the later charges' details, dates and violent-recidivism columns (they describe the outcome, not
# the person at screening), and is_recid, ProPublica's re-arrest flag without the two-year window, which agrees
# with the outcome on all but a few rows and would leak it into any model given it.
COMPAS_COLUMNS = [
    "id", "compas_screening_date", "sex", "age", "age_cat", "race", "juv_fel_count", "juv_misd_count",
    "juv_other_count", "priors_count", "c_charge_degree", "c_charge_desc", "days_b_screening_arrest",
    "decile_score", "score_text", "v_decile_score", "v_score_text", "two_year_recid",
]
COMPAS_ROWS = 7214


# ProPublica's filters for its two-year analysis (Larson et al., 2016, "How We Analyzed the COMPAS Recidivism
# Algorithm"), applied in this order: (rule, why, predicate on a raw row of text values). The rows kept after each
# are recorded in the audit's manifest and data card.
COMPAS_FILTERS = [
    ("days_b_screening_arrest is recorded",
     "without the number of days between arrest and screening the next filter cannot be checked; ProPublica's "
     "comparison drops such rows too (a missing value fails it)",
     lambda row: row["days_b_screening_arrest"] != ""),
    ("days_b_screening_arrest between -30 and 30",
     "the screening must belong to the arrest whose charge the row describes; with more than 30 days between "
     "them ProPublica assumed the score may have been paired with another offence",
     lambda row: -30 <= float(row["days_b_screening_arrest"]) <= 30),
    ("is_recid is not -1",
     "ProPublica coded -1 where it could not find the person's COMPAS case at all, so there is no outcome; it "
     "removes nothing here, because ProPublica built the two-year file only from people whose case it found "
     "(is_recid is 0 or 1 in every row)",
     lambda row: row["is_recid"] != "-1"),
    ("c_charge_degree is not O",
     "ProPublica's notebook drops ordinary traffic offences (degree O), which do not lead to jail time; it removes "
     "nothing here, because ProPublica had already recoded the charge degree when it wrote the two-year file: F "
     "where the original degree holds an F, M for every other degree, O included (write_two_year_file in its "
     "truth_tables.py), so no row says O and whatever was O is now M",
     lambda row: row["c_charge_degree"] != "O"),
    ("score_text is not N/A",
     "a row without a score label has no score to audit; it removes nothing here, because ProPublica kept only "
     "rows with a Low, Medium or High score when it wrote the two-year file",
     lambda row: row["score_text"] != "N/A"),
]


def compas_records(raw: bytes) -> list[dict]:
    """The raw file's rows as dicts of text values, after checking its shape and its repeated columns."""
    reader = csv.reader(io.StringIO(raw.decode("utf-8")))
    header = next(reader)
    records = []
    for number, values in enumerate(reader, start=2):
        if len(values) != len(header):
            raise ValueError(f"compas-scores-two-years.csv line {number}: {len(values)} fields, expected "
                             f"{len(header)}")
        row = {}
        for name, value in zip(header, values):
            # decile_score and priors_count appear twice in ProPublica's file; the copies must agree.
            if name in row and row[name] != value:
                raise ValueError(f"compas-scores-two-years.csv line {number}: the two {name} columns differ "
                                 f"({row[name]!r} and {value!r})")
            row[name] = value
        records.append(row)
    if len(records) != COMPAS_ROWS:
        raise ValueError(f"compas-scores-two-years.csv: {len(records)} rows, expected {COMPAS_ROWS:,}")
    missing = [c for c in (*COMPAS_COLUMNS, "is_recid") if c not in header]
    if missing:
        raise ValueError(f"compas-scores-two-years.csv lacks columns {missing}")
    return records


def filter_compas(records: list[dict]) -> tuple[list[dict], list[tuple[str, str, int]]]:
    """Apply ``COMPAS_FILTERS`` in order; return the rows kept and (rule, why, rows after) for each step."""
    steps = [("all rows of the raw file", "ProPublica's published two-year file: defendants charged again within 730 "
              "days out of custody after screening (days in jail or prison not counted), and defendants followed "
              "for more than 730 days out of custody without that; a defendant not charged again is in it only "
              "after 730 days out of custody before ProPublica's records end (about 2016-04-01), one charged "
              "again whatever the screening date (see the samples)", len(records))]
    for rule, why, keep in COMPAS_FILTERS:
        records = [row for row in records if keep(row)]
        steps.append((rule, why, len(records)))
    return records, steps


def compas_months(raw: bytes) -> list[tuple[str, int, int]]:
    """(screening month YYYY-MM, rows of the raw file, rows ProPublica's filters keep) for every month, in order.

    The committed file holds only the kept rows, so a thin month there could be thin in the raw file or thinned by
    the filters; the data card prints both counts so that a page can tell which.
    """
    everyone = compas_records(raw)
    kept, _ = filter_compas(everyone)
    count = lambda records: collections.Counter(row["compas_screening_date"][:7] for row in records)  # noqa: E731
    before, after = count(everyone), count(kept)
    return [(month, before[month], after[month]) for month in sorted(before)]


def build_compas(raw: bytes, steps: list | None = None) -> bytes:
    """The filtered COMPAS rows, ``COMPAS_COLUMNS`` only; the filter steps are appended to `steps` if given."""
    records, taken = filter_compas(compas_records(raw))
    if steps is not None:
        steps.extend(taken)
    return to_csv(COMPAS_COLUMNS, [[row[c] for c in COMPAS_COLUMNS] for row in records])


# Diabetes 130-US hospitals (Strack et al., 2014): one row per inpatient encounter of a diabetic patient.
DIABETES_ROWS = 101766
# discharge_disposition_id codes after which a patient cannot be readmitted (IDs_mapping.csv): expired (11; 19, 20
# and 21 expired at home, in a medical facility, place unknown) and hospice (13 at home, 14 in a medical facility).
DEATH_OR_HOSPICE = {"11", "19", "20", "21", "13", "14"}
# The 21 of its 23 medication columns that vary; examide and citoglipton are "No" in every row of the file.
DIABETES_DRUGS = [
    "metformin", "repaglinide", "nateglinide", "chlorpropamide", "glimepiride", "acetohexamide", "glipizide",
    "glyburide", "tolbutamide", "pioglitazone", "rosiglitazone", "acarbose", "miglitol", "troglitazone",
    "tolazamide", "insulin", "glyburide-metformin", "glipizide-metformin", "glimepiride-pioglitazone",
    "metformin-rosiglitazone", "metformin-pioglitazone",
]
# The committed columns, in order. The three id columns are decoded into their descriptions (admission_type,
# discharge_disposition, admission_source); each diagnosis keeps its ICD-9 code and gains its chapter group
# (diag_1_group, ...), the grouping Strack et al. used, so that a model sees 10 groups rather than 700 codes.
READMISSION_COLUMNS = [
    "encounter_id", "patient_nbr", "race", "gender", "age", "weight", "admission_type", "discharge_disposition",
    "admission_source", "time_in_hospital", "payer_code", "medical_specialty", "num_lab_procedures",
    "num_procedures", "num_medications", "number_outpatient", "number_emergency", "number_inpatient",
    "diag_1", "diag_2", "diag_3", "diag_1_group", "diag_2_group", "diag_3_group", "number_diagnoses",
    "max_glu_serum", "A1Cresult", *DIABETES_DRUGS, "change", "diabetesMed", "readmitted",
]
_ID_TABLES = {"admission_type_id": "admission_type", "discharge_disposition_id": "discharge_disposition",
              "admission_source_id": "admission_source"}


def id_tables(raw: bytes) -> dict:
    """IDs_mapping.csv's three code tables as {id column: {code: description}}.

    The file stacks three ``id,description`` tables, each with its own header, separated by a line holding only
    a comma; some descriptions start with a space (stripped here).
    """
    tables, current = {}, None
    for number, line in enumerate(raw.decode("utf-8").splitlines(), start=1):
        if line.strip() in ("", ","):
            current = None
            continue
        code, sep, description = line.partition(",")
        if not sep:
            raise ValueError(f"IDs_mapping.csv line {number}: expected 'id,description', got {line!r}")
        if current is None:
            if code not in _ID_TABLES or description.strip() != "description":
                raise ValueError(f"IDs_mapping.csv line {number}: expected a table header such as "
                                 f"'admission_type_id,description', got {line!r}")
            current = tables.setdefault(code, {})
            continue
        current[code.strip()] = description.strip().strip('"')
    if set(tables) != set(_ID_TABLES):
        raise ValueError(f"IDs_mapping.csv: tables {sorted(tables)}, expected {sorted(_ID_TABLES)}")
    return tables


def icd9_group(code: str) -> str:
    """The ICD-9 chapter group of a diagnosis code, as Strack et al. (2014, table 2) grouped them."""
    if code == "?":
        return "missing"
    if code[0] in "VE":  # supplementary codes: health-service contacts (V) and external causes of injury (E)
        return "other"
    value = float(code)
    if int(value) == 250:
        return "diabetes"
    for name, ranges in (("circulatory", [(390, 459), (785, 785)]), ("respiratory", [(460, 519), (786, 786)]),
                         ("digestive", [(520, 579), (787, 787)]), ("injury", [(800, 999)]),
                         ("musculoskeletal", [(710, 739)]), ("genitourinary", [(580, 629), (788, 788)]),
                         ("neoplasms", [(140, 239)])):
        if any(low <= int(value) <= high for low, high in ranges):
            return name
    return "other"


def build_readmission(raw: bytes, ids: bytes, steps: list | None = None) -> bytes:
    """One encounter per patient, death and hospice discharges left out (see the audit's manifest for why)."""
    tables = id_tables(ids)
    reader = csv.DictReader(io.StringIO(raw.decode("utf-8")))
    records = list(reader)
    if len(records) != DIABETES_ROWS:
        raise ValueError(f"diabetic_data.csv: {len(records)} rows, expected {DIABETES_ROWS:,}")
    missing = [c for c in ("encounter_id", "patient_nbr", "readmitted", *_ID_TABLES, *DIABETES_DRUGS)
               if c not in reader.fieldnames]
    if missing:
        raise ValueError(f"diabetic_data.csv lacks columns {missing}")
    taken = [("all encounters of the raw file", "one row per inpatient encounter of a diabetic patient in 130 US "
              "hospitals, 1999-2008; a patient can have several", len(records))]
    every = records
    records = [row for row in records if row["discharge_disposition_id"] not in DEATH_OR_HOSPICE]
    taken.append(("discharge not to death or hospice (discharge_disposition_id not 11, 13, 14, 19, 20, 21)",
                  "a patient who died or went to hospice cannot be readmitted, so the outcome has no meaning for "
                  "them; readmission studies leave these encounters out, as Strack et al. did", len(records)))
    records.sort(key=lambda row: int(row["encounter_id"]))
    seen, first = set(), []
    for row in records:
        if row["patient_nbr"] not in seen:
            seen.add(row["patient_nbr"])
            first.append(row)
    # The other order (each patient's first encounter of all, then the death/hospice step) keeps fewer patients:
    # those whose first encounter ended in death or hospice but who have later encounters enter here through one.
    earliest = {}
    for row in sorted(every, key=lambda row: int(row["encounter_id"])):
        earliest.setdefault(row["patient_nbr"], row)
    late = [row for row in earliest.values() if row["discharge_disposition_id"] in DEATH_OR_HOSPICE
            and row["patient_nbr"] in seen]
    expired = sum(row["discharge_disposition_id"] in {"11", "19", "20", "21"} for row in late)
    taken.append(("each patient's first encounter among those left by the step above (lowest encounter_id)",
                  "a patient's encounters share the patient: with several per patient, a split of rows can put "
                  "one patient on both sides (the model is then tested on people it has seen) and the rows are "
                  "not independent, which every interval here assumes; one encounter per patient removes both, "
                  "as Strack et al. did. The order of the two steps matters: taking each patient's first "
                  f"encounter of all first would keep {len(first) - len(late):,} patients; {len(late)} patients "
                  f"whose first encounter ended in death ({expired}, though they have later encounters: a coding "
                  f"error) or hospice ({len(late) - expired}) enter here through a later one", len(first)))
    if steps is not None:
        steps.extend(taken)
    rows = []
    for row in first:
        out = dict(row)
        for id_column, name in _ID_TABLES.items():
            code = row[id_column]
            if code not in tables[id_column]:
                raise ValueError(f"diabetic_data.csv encounter {row['encounter_id']}: {id_column} {code!r} is not "
                                 f"in IDs_mapping.csv")
            out[name] = tables[id_column][code]
        for k in (1, 2, 3):
            out[f"diag_{k}_group"] = icd9_group(row[f"diag_{k}"])
        rows.append([out[c] for c in READMISSION_COLUMNS])
    return to_csv(READMISSION_COLUMNS, rows)


def gzipped(build):
    """A builder whose CSV is gzip-compressed without a timestamp, so that rebuilding gives the same bytes."""
    def build_gzipped(*args, **kwargs) -> bytes:
        return gzip.compress(build(*args, **kwargs), compresslevel=9, mtime=0)
    build_gzipped.__name__ = build.__name__
    return build_gzipped


def to_csv(header, rows) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue().encode("utf-8")


def write_if_changed(path: pathlib.Path, data: bytes) -> None:
    if path.exists() and path.read_bytes() == data:
        return
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


def record_checksum(manifest: pathlib.Path, digest: str) -> None:
    text = manifest.read_text()
    new = re.sub(r'^data_sha256 = ".*"$', f'data_sha256 = "{digest}"', text, count=1, flags=re.M)
    if new == text and f'data_sha256 = "{digest}"' not in text:
        raise ValueError(f"{manifest}: no `data_sha256 = \"...\"` line to update")
    write_if_changed(manifest, new.encode())


# The marker that starts the part of an audit.toml that this script writes: the rows kept after each filter.
ROWS_KEPT_MARKER = "# ---- written by scripts/build_data.py (make data); do not edit: the rows kept after each filter ----"


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def record_rows_kept(manifest: pathlib.Path, steps, months=()) -> None:
    """Replace the manifest's generated part (from the marker on) with `steps` as ``[[rows_kept]]`` tables and,
    when given, `months` as ``[[rows_by_month]]`` tables (month, raw rows, rows kept)."""
    text = manifest.read_text()
    if ROWS_KEPT_MARKER not in text:
        raise ValueError(f"{manifest}: no line {ROWS_KEPT_MARKER!r} to write the rows kept after")
    lines = [text[:text.index(ROWS_KEPT_MARKER)] + ROWS_KEPT_MARKER]
    for rule, why, rows in steps:
        lines += ["", "[[rows_kept]]", f"rule = {_toml_string(rule)}", f"why = {_toml_string(why)}",
                  f"rows = {rows}"]
    for month, raw, kept in months:
        lines += ["", "[[rows_by_month]]", f"month = {_toml_string(month)}", f"raw = {raw}", f"kept = {kept}"]
    write_if_changed(manifest, ("\n".join(lines) + "\n").encode())


build_healthcare = gzipped(build_readmission)

# audit -> (raw file or files, data file written, builder); a builder that takes `steps` filters rows and reports how.
AUDITS = {
    "Benefits Denial": ("adult.data", "adult.csv", build_adult),
    "German Credit Lending": ("german.data", "german_credit.csv", build_german),
    "Pretrial Risk Assessment": ("compas-scores-two-years.csv", "compas.csv", build_compas),
    "Healthcare Readmission": (("diabetic_data.csv", "IDs_mapping.csv"), "readmission.csv.gz",
                               build_healthcare),
}
FILTERED = {build_compas, build_healthcare}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default="../shared/data",
                        help="folder holding the raw files, or 'url' to download them (default: %(default)s)")
    args = parser.parse_args(argv)
    for audit, (raw_name, out_name, build) in AUDITS.items():
        folder = ROOT / audit
        raws = [fetch(name, args.source) for name in ((raw_name,) if isinstance(raw_name, str) else raw_name)]
        if build in FILTERED:
            steps = []
            data = build(*raws, steps)
            record_rows_kept(folder / "audit.toml", steps, compas_months(raws[0]) if build is build_compas else ())
            for rule, _, rows in steps:
                print(f"{audit}: {rows:>6,} rows after: {rule}")
        else:
            data = build(*raws)
        write_if_changed(folder / out_name, data)
        record_checksum(folder / "audit.toml", sha256_bytes(data))
        print(f"{audit}/{out_name}: {sha256_bytes(data)}")
    sys.path.insert(0, str(ROOT))
    from faircode.data import write_data_cards  # after the CSVs exist: the card reads them

    for path in write_data_cards():
        print(f"wrote {path.relative_to(ROOT)}")
    from faircode.data import get_manifest, load_audit

    for audit in AUDITS:  # the populations load_audit serves (audit.toml's [[samples]]), applied when loading
        manifest = get_manifest(audit)
        if manifest.declares_samples:
            for sample in manifest.samples:
                data = load_audit(audit, sample=sample.name)
                print(f"{audit}: sample {sample.name}{' (default)' if sample.default else ''}: {len(data.y):,} rows, "
                      f"outcome rate {data.y.mean():.3f}: {sample.rule}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
