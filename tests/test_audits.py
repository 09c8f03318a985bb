"""The audit loader: the calls the explainer pages make, the split, the masks, the encodings, the errors."""
import hashlib
import math
import pathlib
import re
import shutil

import numpy as np
import pandas as pd
import pytest

from faircode.data._audits import DataFileError, get_manifest, list_audits, load_audit, read_verified, strategy_columns
from faircode.benchmark import load_audit as load_audit_from_benchmark

AUDITS = ["Benefits Denial", "German Credit Lending", "Healthcare Readmission", "Pretrial Risk Assessment"]
READMISSION = "Healthcare Readmission"


@pytest.fixture(scope="module", params=AUDITS)
def audit(request):
    return load_audit(request.param)


def test_every_audit_is_found():
    assert list_audits() == AUDITS


def test_benchmark_module_exposes_the_same_loader():
    assert load_audit_from_benchmark is load_audit


def test_attributes_the_pages_use(audit):
    n = len(audit.raw)
    assert isinstance(audit.X, pd.DataFrame) and isinstance(audit.y, pd.Series)
    assert len(audit.X) == len(audit.y) == len(audit.X_all) == n
    assert set(np.unique(audit.y)) == {0, 1}
    assert all(pd.api.types.is_numeric_dtype(t) for t in audit.X.dtypes)
    assert isinstance(audit.random_state, int)
    # Positional indexing as the pages do it: X.iloc[rows], y.to_numpy()[rows], masks[...].to_numpy()[rows].
    rows = audit.idx_test[:5]
    assert audit.X.iloc[rows].shape == (5, audit.X.shape[1])
    assert audit.y.to_numpy()[rows].shape == (5,)
    for mask in audit.masks.values():
        assert set(np.unique(mask.dropna())) <= {0, 1} and len(mask) == n


@pytest.mark.parametrize("name", AUDITS)
def test_split_is_fixed_80_20_disjoint_and_covers_every_row(name):
    first, second = load_audit(name), load_audit(name, strategy="S1")
    train, test = first.idx_train, first.idx_test
    n = len(first.y)
    assert np.array_equal(train, second.idx_train) and np.array_equal(test, second.idx_test)
    assert len(np.intersect1d(train, test)) == 0
    assert np.array_equal(np.sort(np.concatenate([train, test])), np.arange(n))
    assert len(test) == math.ceil(0.2 * n)  # scikit-learn rounds the test share up
    # Stratified on the outcome: the two parts' outcome rates agree to within one row's worth.
    y = first.y.to_numpy()
    assert abs(y[train].mean() - y[test].mean()) < 2 / len(test)


def test_split_does_not_depend_on_the_process_cache():
    from faircode.data._audits import _prepare

    before = load_audit("German Credit Lending").idx_test
    _prepare.cache_clear()
    assert np.array_equal(before, load_audit("German Credit Lending").idx_test)


def test_warm_cache_reads_every_audit_once_so_later_loads_hit_the_cache(tmp_path):
    from faircode.data._audits import _prepare, warm_cache

    _copy_audit(tmp_path)
    assert warm_cache(tmp_path) == ["German Credit Lending"]
    hits = _prepare.cache_info().hits
    assert len(load_audit("German Credit Lending", root=tmp_path).y) == 1000
    assert _prepare.cache_info().hits == hits + 1


def test_masks_mark_the_named_groups():
    adult = load_audit("Benefits Denial")
    women = adult.masks["sex"]
    assert 0.30 < women.mean() < 0.36
    assert (adult.raw.loc[women == 1, "sex"] == "Female").all()
    assert (adult.raw.loc[adult.masks["race"] == 1, "race"] != "White").all()
    assert (adult.raw.loc[adult.masks["age"] == 1, "age"] < 25).all()
    assert (adult.raw.loc[adult.masks["native.country"] == 0, "native.country"] == "United-States").all()
    # Base rates in the test rows: about 0.11 for women and 0.31 for men.
    y, test = adult.y.to_numpy(), adult.idx_test
    w = women.to_numpy()[test] == 1
    assert abs(y[test][w].mean() - 0.11) < 0.01 and abs(y[test][~w].mean() - 0.31) < 0.015
    german = load_audit("German Credit Lending")
    assert 0.37 <= german.masks["age"].mean() <= 0.41
    assert (german.raw.loc[german.masks["age"] == 1, "age"] < 30).all()
    assert (german.raw.loc[german.masks["sex"] == 1, "personal_status"].str.startswith("female")).all()


def test_unknown_country_is_in_neither_group():
    """Adult's "?" (country not recorded) is neither born abroad (1) nor US-born (0): its mask is missing."""
    adult = load_audit("Benefits Denial")
    country, mask = adult.raw["native.country"], adult.masks["native.country"]
    unknown = country == "?"
    assert unknown.sum() == 583
    assert mask[unknown].isna().all() and mask[~unknown].notna().all()
    assert (country[mask == 1] != "United-States").all() and not (country[mask == 1] == "?").any()
    assert (mask == 1).sum() + (mask == 0).sum() + unknown.sum() == len(adult.raw)
    # faircode's metrics refuse a group column with missing values instead of counting them in either group.
    from faircode.metrics import group_rates
    y = adult.y.to_numpy()
    with pytest.raises(ValueError, match="583 missing values"):
        group_rates(y, y, sensitive_features={"native.country": mask.to_numpy()}, metrics=["selection_rate"])
    # Dropping them leaves the known rows' two groups.
    known = mask.notna().to_numpy()
    rates = group_rates(y[known], y[known], sensitive_features={"native.country": mask[known].astype(int).to_numpy()},
                        metrics=["selection_rate"])
    assert rates["count"].sum() == len(adult.raw) - 583


def test_unknown_value_listed_in_the_rule_is_an_error(tmp_path):
    from faircode.data._manifest import read_manifest
    text = pathlib.Path("Benefits Denial/audit.toml").read_text().replace('unknown = ["?"]',
                                                                         'unknown = ["United-States"]')
    (tmp_path / "audit.toml").write_text(text)
    with pytest.raises(ValueError, match="listed both as unknown and in the group's rule"):
        read_manifest(tmp_path / "audit.toml")


def test_compas_masks_outcome_and_filtered_rows():
    compas = load_audit("Pretrial Risk Assessment", sample="propublica")
    raw = compas.raw
    assert len(raw) == 6172 and compas.y.sum() == 2809  # ProPublica's filtered two-year sample
    assert (compas.y == raw["two_year_recid"]).all()
    black = compas.masks["race"] == 1
    assert black.sum() == 3175 and (raw.loc[black, "race"] == "African-American").all()
    # Every other race is in the rest of the race mask, Caucasian defendants included.
    assert set(raw.loc[~black, "race"]) == {"Caucasian", "Hispanic", "Other", "Asian", "Native American"}
    assert (raw.loc[compas.masks["sex"] == 1, "sex"] == "Female").all() and compas.masks["sex"].sum() == 1175
    assert (raw.loc[compas.masks["age"] == 1, "age"] < 25).all()
    assert (raw.loc[compas.masks["age"] == 1, "age_cat"] == "Less than 25").all()


@pytest.mark.parametrize("strategy", ["baseline", "S1", "S2"])
def test_compas_tool_outputs_are_never_features_but_stay_available(strategy):
    compas = load_audit("Pretrial Risk Assessment", strategy=strategy)
    owners = {c.split("=", 1)[0] for c in compas.X.columns}
    tool = {"decile_score", "score_text", "v_decile_score", "v_score_text"}
    assert not owners & tool
    assert tool <= set(compas.X_all.columns) and tool <= set(compas.raw.columns)
    assert set(compas.raw["score_text"]) == {"Low", "Medium", "High"}
    assert compas.raw["decile_score"].between(1, 10).all()


@pytest.mark.parametrize("name", AUDITS)
def test_strategies_choose_columns(name):
    manifest = get_manifest(name)
    owners = {s: {c.split("=", 1)[0] for c in load_audit(name, strategy=s).X.columns}
              for s in ("baseline", "S0", "S1", "S2")}
    assert owners["baseline"] == owners["S0"] == set(manifest.feature_columns)
    assert owners["S1"].isdisjoint(manifest.protected)
    assert set(manifest.proxies) <= owners["S1"]
    assert owners["S2"] == set(manifest.core)
    assert owners["S2"].isdisjoint(set(manifest.protected) | set(manifest.proxies))
    assert load_audit(name).strategy == "S2"


def test_one_hot_columns_name_their_value():
    adult = load_audit("Benefits Denial", strategy="baseline")
    race = adult.X.filter(like="race=")
    assert list(race.columns) == [f"race={v}" for v in sorted(adult.raw["race"].unique())]
    assert (race.sum(axis=1) == 1).all()
    assert adult.X["age"].equals(adult.raw["age"].rename("age"))


@pytest.mark.parametrize("name", AUDITS)
def test_x_all_codes_text_columns_alphabetically(name):
    data = load_audit(name)
    assert data.manifest.outcome not in data.X_all
    for column in data.X_all:
        values = data.raw[column]
        if pd.api.types.is_numeric_dtype(values):
            assert data.X_all[column].equals(values)
        else:
            levels = sorted(values.unique())
            decoded = data.X_all[column].map(dict(enumerate(levels)))
            assert (decoded.astype(str) == values.astype(str)).all(), column


def test_x_all_puts_question_mark_first():
    adult = load_audit("Benefits Denial")
    assert (adult.X_all.loc[adult.raw["workclass"] == "?", "workclass"] == 0).all()


def test_returned_data_is_a_copy():
    first = load_audit("German Credit Lending")
    first.X.iloc[:, 0] = 7
    first.masks["age"][:] = 0
    second = load_audit("German Credit Lending")
    assert (second.X.iloc[:, 0] != 7).any() and second.masks["age"].sum() > 0


def test_unknown_audit_lists_the_audits():
    message = ("unknown audit 'Nope'; the audits are: 'Benefits Denial', 'German Credit Lending', "
               "'Healthcare Readmission', 'Pretrial Risk Assessment'")
    with pytest.raises(ValueError, match=re.escape(message)):
        load_audit("Nope")


def test_unknown_strategy_lists_the_strategies():
    with pytest.raises(ValueError, match=r"unknown strategy 'S9'.*'baseline', 'S0', 'S1', 'S2'"):
        load_audit("Benefits Denial", strategy="S9")


def test_a_list_where_a_name_is_expected_says_so():
    with pytest.raises(ValueError, match=re.escape("audit must be one name (a str), not a list; got "
                                                   "['German Credit Lending']. The audits are: 'Benefits Denial'")):
        load_audit(["German Credit Lending"])
    with pytest.raises(ValueError, match=re.escape("strategy must be one name (a str), not a list; got ['S2']. "
                                                   "The strategies are: 'baseline', 'S0', 'S1', 'S2' (S3, S4")):
        load_audit("German Credit Lending", ["S2"])


def test_a_root_that_is_not_a_folder_is_named(tmp_path):
    missing = tmp_path / "nowhere"
    message = f"audit root {str(missing)!r} is not a folder; give the folder that holds the audit folders"
    for call in (lambda: list_audits(missing), lambda: load_audit("German Credit Lending", root=missing),
                 lambda: get_manifest("German Credit Lending", missing)):
        with pytest.raises(ValueError, match=re.escape(message)):
            call()
    with pytest.raises(ValueError, match=re.escape(f"the audit root {str(tmp_path)!r} holds no audit folder")):
        load_audit("German Credit Lending", root=tmp_path)


def test_a_root_from_the_environment_says_where_it_came_from(tmp_path, monkeypatch):
    monkeypatch.setenv("FAIRCODE_AUDIT_ROOT", str(tmp_path / "gone"))
    with pytest.raises(ValueError, match=re.escape("(from $FAIRCODE_AUDIT_ROOT) is not a folder")):
        list_audits()


def _copy_audit(tmp_path, name="German Credit Lending"):
    source = get_manifest(name).folder
    target = tmp_path / name
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("code", "figures", "*.md"))
    return target


def test_missing_data_file_names_path_checksum_and_command(tmp_path):
    folder = _copy_audit(tmp_path)
    (folder / "german_credit.csv").unlink()
    expected = get_manifest("German Credit Lending").data_sha256
    with pytest.raises(DataFileError) as info:
        load_audit("German Credit Lending", root=tmp_path)
    message = str(info.value)
    assert str(folder / "german_credit.csv") in message and "is missing" in message
    assert expected in message and "make data" in message


def test_corrupt_data_file_names_both_checksums(tmp_path):
    folder = _copy_audit(tmp_path)
    path = folder / "german_credit.csv"
    path.write_text(path.read_text().replace("good", "bad", 1))
    expected = get_manifest("German Credit Lending").data_sha256
    with pytest.raises(DataFileError, match=rf"has SHA-256 [0-9a-f]{{64}}, expected {expected}; rebuild it with `make data`"):
        load_audit("German Credit Lending", root=tmp_path)


def test_malformed_manifest_names_the_file(tmp_path):
    folder = _copy_audit(tmp_path)
    manifest = folder / "audit.toml"
    manifest.write_text(manifest.read_text().replace("[outcome]", "[outcome_]"))
    with pytest.raises(ValueError, match=re.escape(f"{manifest}: missing `outcome`")):
        load_audit("German Credit Lending", root=tmp_path)


# ---- samples: the population an audit is loaded on ---------------------------------------------------------

COMPAS = "Pretrial Risk Assessment"
CUT_OFF = pd.Timestamp("2014-04-01")
# SHA-256 of the sorted test row positions of ProPublica's sample: the split every page used before the default
# became the two-year window (tests/test_benchmark.py recorded it), so sample="propublica" reproduces it exactly.
PROPUBLICA_TEST_SPLIT = "7c1a4cac679ec0a06f3c60d7fc5572ef58d1733650afd036942a2ab20205510c"


def _dates(data):
    return pd.to_datetime(data.raw["compas_screening_date"], format="%Y-%m-%d")


def _rate(data, race=None):
    y = data.y.to_numpy()
    return y.mean() if race is None else y[(data.raw["race"] == race).to_numpy()].mean()


def test_compas_default_sample_is_the_two_year_window():
    default = load_audit(COMPAS)
    assert default.sample == "two-year-window" == get_manifest(COMPAS).default_sample.name
    assert len(default.raw) == 5304 and default.y.sum() == 1941
    assert (_dates(default) <= CUT_OFF).all()
    assert isinstance(default.raw.index, pd.RangeIndex) and default.raw.index.equals(pd.RangeIndex(5304))
    named = load_audit(COMPAS, sample="two-year-window")
    assert np.array_equal(named.idx_test, default.idx_test) and named.raw.equals(default.raw)
    # Base rates: 0.366 overall, 0.435 African-American, 0.300 Caucasian (ProPublica's sample: 0.455 / 0.523 / 0.391).
    assert [round(_rate(default, r), 3) for r in (None, "African-American", "Caucasian")] == [0.366, 0.435, 0.300]


def test_compas_propublica_sample_is_the_committed_file_and_its_old_split():
    propublica = load_audit(COMPAS, sample="propublica")
    assert propublica.sample == "propublica"
    committed = pd.read_csv(get_manifest(COMPAS).data_path, na_filter=False)
    pd.testing.assert_frame_equal(propublica.raw, committed)
    assert len(propublica.idx_test) == 1235 and len(propublica.idx_train) == 4937
    digest = hashlib.sha256(np.asarray(propublica.idx_test, dtype="<i8").tobytes()).hexdigest()
    assert digest == PROPUBLICA_TEST_SPLIT
    assert [round(_rate(propublica, r), 3) for r in (None, "African-American", "Caucasian")] == [0.455, 0.523, 0.391]


def test_compas_cut_off_is_where_defendants_not_charged_again_stop():
    """Everyone screened after the cut-off was charged again; the last defendant who was not was screened on it."""
    propublica = load_audit(COMPAS, sample="propublica")
    dates, y = _dates(propublica), propublica.y
    assert dates[y == 0].max() == CUT_OFF
    late = dates > CUT_OFF
    assert late.sum() == 868 and (y[late] == 1).all()
    default = load_audit(COMPAS)
    # The default is exactly ProPublica's rows screened on or before the cut-off, in file order.
    assert default.raw["id"].tolist() == propublica.raw.loc[~late, "id"].tolist()


def test_compas_split_and_masks_are_computed_inside_the_sample():
    for sample in ("two-year-window", "propublica"):
        data = load_audit(COMPAS, sample=sample)
        n = len(data.raw)
        train, test = data.idx_train, data.idx_test
        assert np.array_equal(np.sort(np.concatenate([train, test])), np.arange(n))
        assert len(np.intersect1d(train, test)) == 0 and len(test) == math.ceil(0.2 * n)
        assert len(data.X) == len(data.X_all) == len(data.y) == n
        assert all(len(mask) == n for mask in data.masks.values())
        if sample == "two-year-window":  # no row outside the sample: every split row screened on or before it
            assert (_dates(data).to_numpy()[np.concatenate([train, test])] <= CUT_OFF).all()
        y = data.y.to_numpy()
        assert abs(y[train].mean() - y[test].mean()) < 2 / len(test)
    default, propublica = load_audit(COMPAS), load_audit(COMPAS, sample="propublica")
    kept = set(default.raw["id"])
    assert set(default.raw["id"].to_numpy()[default.idx_test]) <= kept
    assert not np.array_equal(default.raw["id"].to_numpy()[default.idx_test],
                              propublica.raw["id"].to_numpy()[propublica.idx_test])


@pytest.mark.parametrize("strategy", ["baseline", "S1", "S2"])
def test_strategy_and_sample_combine(strategy):
    data = load_audit(COMPAS, strategy, sample="propublica")
    assert data.strategy == strategy and data.sample == "propublica" and len(data.X) == 6172
    owners = {c.split("=", 1)[0] for c in data.X.columns}
    assert owners == set(strategy_columns(data.manifest, strategy))


def test_unknown_sample_lists_the_audits_samples():
    message = ("unknown sample 'corrected'; the samples are: 'two-year-window', 'propublica' (of the audit "
               "'Pretrial Risk Assessment'; default 'two-year-window')")
    with pytest.raises(ValueError, match=re.escape(message)):
        load_audit(COMPAS, sample="corrected")
    with pytest.raises(ValueError, match=re.escape("sample must be one name (a str), not a list")):
        load_audit(COMPAS, sample=["propublica"])


@pytest.mark.parametrize("name", ["Benefits Denial", "German Credit Lending"])
def test_an_audit_without_samples_has_one_all_rows(name):
    manifest = get_manifest(name)
    assert manifest.sample_names == ("all",) and not manifest.declares_samples
    default, named = load_audit(name), load_audit(name, sample="all")
    assert default.sample == named.sample == "all"
    assert np.array_equal(default.idx_test, named.idx_test) and len(default.raw) == len(read_verified(manifest))
    message = "unknown sample 'propublica'; the samples are: 'all' (of the audit"
    with pytest.raises(ValueError, match=re.escape(message)):
        load_audit(name, sample="propublica")


def test_warm_cache_prepares_every_sample(tmp_path):
    from faircode.data._audits import _prepare, warm_cache

    _copy_audit(tmp_path, COMPAS)
    assert warm_cache(tmp_path) == [COMPAS]
    for sample, rows in (("two-year-window", 5304), ("propublica", 6172), (None, 5304)):
        hits = _prepare.cache_info().hits
        assert len(load_audit(COMPAS, sample=sample, root=tmp_path).y) == rows
        assert _prepare.cache_info().hits == hits + 1


def test_fit_cache_keys_tell_the_samples_apart():
    """The harness keys a cell by the data file's checksum, the manifest and the training and test rows: the
    samples share the file and the manifest, so their rows must differ, and so must the keys."""
    from faircode.benchmark import _fitcache
    from faircode.benchmark._harness import Target, _Cell, cell_key

    keys = {}
    for sample in ("two-year-window", "propublica"):
        data = load_audit(COMPAS, sample=sample)
        rows = {"train": _fitcache.rows_digest(data.idx_train), "test": _fitcache.rows_digest(data.idx_test)}
        audit_key = {"audit": data.name, "data_sha256": data.manifest.data_sha256, "manifest_sha256": "same"}
        cell = _Cell(data.name, "S2", "logistic_regression", data.random_state, Target("race", "equalized_odds"))
        keys[sample] = (rows, cell_key(cell, list(data.X.columns), rows, audit_key, n_boot=10,
                                       threshold_fraction=0.5))
    (rows_a, key_a), (rows_b, key_b) = keys.values()
    assert rows_a["train"] != rows_b["train"] and rows_a["test"] != rows_b["test"] and key_a != key_b


def _manifest_with(tmp_path, old, new):
    from faircode.data._manifest import read_manifest

    text = (get_manifest(COMPAS).folder / "audit.toml").read_text()
    assert old in text
    path = tmp_path / "audit.toml"
    path.write_text(text.replace(old, new, 1))
    return lambda: read_manifest(path)


@pytest.mark.parametrize("old, new, message", [
    ('name = "propublica"\n', 'name = "propublica"\ndefault = true\n',
     "exactly one sample must have `default = true`; got ['two-year-window', 'propublica']"),
    ("default = true\n", "", "exactly one sample must have `default = true`; got none"),
    ('rule = "compas_screening_date on or before 2014-04-01"', 'rule = "screened early"',
     "`rule` must say what the sample keeps, 'compas_screening_date on or before 2014-04-01'"),
    ("on_or_before = 2014-04-01", 'on_or_before = "2014-04-01"', "`on_or_before` must be a TOML date"),
    ('column = "compas_screening_date"\n', "", "needs both `column` and `on_or_before`, or neither"),
    ('rule = "compas_screening_date on or before 2014-04-01"\ncolumn = "compas_screening_date"',
     'rule = "screening_day on or before 2014-04-01"\ncolumn = "screening_day"',
     "samples filter on columns ['screening_day'] that the manifest does not list"),
    ('name = "propublica"', 'name = "two-year-window"', "samples named more than once: ['two-year-window']"),
    ('name = "propublica"', 'name = "propublica"\nkeep = "all"', "samples[1] has unknown keys ['keep']"),
])
def test_malformed_samples_are_refused_with_the_file_named(tmp_path, old, new, message):
    read = _manifest_with(tmp_path, old, new)
    with pytest.raises(ValueError, match=re.escape(message)) as info:
        read()
    assert str(tmp_path / "audit.toml") in str(info.value)


def test_a_screening_date_that_is_not_a_date_is_named(tmp_path):
    folder = _copy_audit(tmp_path, COMPAS)
    data = folder / "compas.csv"
    text = data.read_text().replace(",2013-08-14,", ",14/08/2013,", 1)
    data.write_text(text)
    manifest = folder / "audit.toml"
    digest = hashlib.sha256(text.encode()).hexdigest()
    manifest.write_text(re.sub(r'data_sha256 = ".*"', f'data_sha256 = "{digest}"', manifest.read_text(), count=1))
    with pytest.raises(DataFileError, match=re.escape("sample 'two-year-window' reads 'compas_screening_date' as "
                                                      "dates (YYYY-MM-DD), but it holds ['14/08/2013']")):
        load_audit(COMPAS, root=tmp_path)
    assert len(load_audit(COMPAS, sample="propublica", root=tmp_path).y) == 6172


def test_readmission_has_one_row_per_patient_so_no_patient_is_in_train_and_test():
    data = load_audit(READMISSION)
    patients = data.raw["patient_nbr"]
    assert patients.is_unique and len(patients) == 69_990
    train, test = set(patients.iloc[data.idx_train]), set(patients.iloc[data.idx_test])
    assert not train & test
    # Any other split of the rows is a split of patients too: the harness's re-splits.
    from faircode.data._audits import stratified_split

    for seed in (1, 2):
        a, b = stratified_split(data.y, test_size=0.2, random_state=seed)
        assert not set(patients.iloc[a]) & set(patients.iloc[b])


def test_a_data_file_with_a_patient_twice_is_refused(tmp_path):
    import gzip

    folder = _copy_audit(tmp_path, READMISSION)
    path = folder / "readmission.csv.gz"
    lines = gzip.decompress(path.read_bytes()).decode().splitlines(keepends=True)
    second = lines[2].split(",")
    second[1] = lines[1].split(",")[1]  # the second patient row takes the first row's patient_nbr
    data = gzip.compress("".join([lines[0], lines[1], ",".join(second), *lines[3:]]).encode(), compresslevel=1,
                         mtime=0)
    path.write_bytes(data)
    manifest = folder / "audit.toml"
    text = manifest.read_text()
    manifest.write_text(text.replace(get_manifest(READMISSION).data_sha256, hashlib.sha256(data).hexdigest()))
    with pytest.raises(DataFileError, match=r"holds 1 row\(s\) whose patient_nbr already appears in an earlier row "
                                            r"\(first: \d+\); .* declares one row per patient_nbr, so that no split "
                                            r"can put one patient_nbr in both train and test"):
        load_audit(READMISSION, root=tmp_path)


def test_readmission_masks_keep_unknown_race_and_gender_apart():
    data = load_audit(READMISSION)
    race, raw = data.masks["race"], data.raw
    assert race.isna().sum() == (raw["race"] == "?").sum() == 1_919
    assert (race == 1).sum() == (raw["race"] == "AfricanAmerican").sum()
    assert data.masks["gender"].isna().sum() == 3
    assert set(raw.loc[data.masks["age"] == 1, "age"]) == {"[70-80)", "[80-90)", "[90-100)"}
    # "None" (test not done) stays a value; it is not read as missing.
    assert (raw["A1Cresult"] == "None").sum() > 50_000
