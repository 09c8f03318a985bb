"""faircode.profile's numbers against independent computations: pandas group-bys, Clopper-Pearson from scipy's
beta quantiles, Newcombe's interval written out from Wilson's, scikit-learn's AUC on each half, scipy's
chi-squared test; and on a real audit file through the command line."""
import json
import pathlib

import jsonschema
import numpy as np
import pandas as pd
import pytest
from scipy.stats import beta, chi2_contingency, norm
from sklearn.metrics import roc_auc_score

import faircode
from faircode.profiling import SCHEMA_VERSION, profile
from faircode.profiling._proxy import halves
from faircode.report import AuditWarning
from faircode.report._cli import main

Z = norm.ppf(0.975)


@pytest.fixture(scope="module")
def table():
    rng = np.random.default_rng(5)
    n = 4000
    race = rng.choice(["a", "b", "c"], n, p=[0.6, 0.33, 0.07])
    sex = rng.choice(["f", "m"], n)
    frame = pd.DataFrame({
        "race": race, "sex": sex, "y": rng.binomial(1, np.where(race == "b", 0.45, 0.3)),
        "hours": (rng.normal(40, 6, n) + 4 * (sex == "m")).round(1),
        "job": np.where(rng.random(n) < 0.5, np.where(race == "c", "p", "q"), rng.choice(list("pqrs"), n)),
        "noise": rng.random(n)})
    frame.loc[rng.random(n) < np.where(race == "c", 0.25, 0.04), "hours"] = np.nan
    frame.loc[rng.random(n) < 0.03, "job"] = "?"
    return frame


@pytest.fixture(scope="module")
def report(table):
    return profile(table, groups=["race", "sex"], label="y", missing_values=["?"])


def _exact(k, n):
    return (beta.ppf(0.025, k, n - k + 1) if k > 0 else 0.0, beta.ppf(0.975, k + 1, n - k) if k < n else 1.0)


def _wilson(k, n):
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * np.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return centre - half, centre + half


def _newcombe(k1, n1, k2, n2):
    (l1, u1), (l2, u2) = _wilson(k1, n1), _wilson(k2, n2)
    d = k1 / n1 - k2 / n2
    return d - np.hypot(k1 / n1 - l1, u2 - k2 / n2), d + np.hypot(u1 - k1 / n1, k2 / n2 - l2)


def test_sizes_and_base_rates_equal_a_group_by(report, table):
    for column in ("race", "sex"):
        grouped = table.groupby(column)["y"].agg(["size", "sum"])
        sizes = report.sizes.query("column == @column").set_index("group")
        rates = report.base_rates.query("column == @column").set_index("group")
        reference = grouped["size"].idxmax()
        for group, (n, k) in grouped.iterrows():
            assert sizes.loc[group, "count"] == n and sizes.loc[group, "share"] == pytest.approx(n / len(table))
            assert (sizes.loc[group, "lower"], sizes.loc[group, "upper"]) == pytest.approx(_exact(n, len(table)))
            assert rates.loc[group, "positives"] == k and rates.loc[group, "estimate"] == pytest.approx(k / n)
            assert (rates.loc[group, "lower"], rates.loc[group, "upper"]) == pytest.approx(_exact(k, n))
            if group == reference:
                assert np.isnan(rates.loc[group, "difference"])
                continue
            k0, n0 = grouped.loc[reference, "sum"], grouped.loc[reference, "size"]
            assert rates.loc[group, "difference"] == pytest.approx(k / n - k0 / n0)
            assert (rates.loc[group, "difference_lower"], rates.loc[group, "difference_upper"]) == pytest.approx(
                _newcombe(k, n, k0, n0))


def test_small_group_is_flagged():
    frame = pd.DataFrame({"g": ["a"] * 100 + ["b"] * 12, "x": range(112)})
    sizes = profile(frame, groups="g").sizes.set_index("group")
    assert not sizes.loc["a", "too_small"] and sizes.loc["b", "too_small"]
    assert "too small to audit" in profile(frame, groups="g").to_markdown()


def test_missing_by_group_counts_empty_and_listed_values_only(report, table):
    missing = table.assign(job=table["job"].eq("?"), hours=table["hours"].isna())
    got = report.missing.query("column == 'race'").set_index(["variable", "group"])
    for variable in ("hours", "job"):
        expected = missing.groupby("race")[variable].agg(["sum", "size"])
        for group, (k, n) in expected.iterrows():
            assert got.loc[(variable, group), "missing"] == k
            assert got.loc[(variable, group), "share"] == pytest.approx(k / n)
        k0, n0 = expected.loc["a"]
        k1, n1 = expected.loc["c"]
        assert (got.loc[(variable, "c"), "difference_lower"], got.loc[(variable, "c"), "difference_upper"]) == \
            pytest.approx(_newcombe(k1, n1, k0, n0))
    # without missing_values, '?' is a category, not missing, and the profile says so
    with pytest.warns(AuditWarning, match=r"counted here as values: job: '\?' \(145 rows\).*missing_values=\['\?'\]"):
        plain = profile(table, groups="race")
    assert plain.missing_overall.set_index("variable").loc["job", "missing"] == 0
    assert plain.meta["possible_missing_markers"] == {"job": {"?": 145}} == {"job": {"?": int(missing["job"].sum())}}
    assert "counted here as values: job: '?' (145 rows)" in plain.to_markdown()
    assert "'?'" in report.to_markdown() and "--missing-values" in plain.to_markdown()
    assert report.meta["possible_missing_markers"] == {}


def _cross_fitted(score_fit_eval, y, first):
    out = []
    for fit, ev in ((~first, first), (first, ~first)):
        out.append(score_fit_eval(fit, ev))
    return out


def test_numeric_proxy_auc_is_the_cross_fitted_auc_by_rank(table):
    frame = table.drop(columns=["hours"]).assign(hours=table["hours"].fillna(40.0))  # no missing: plain ranks
    report = profile(frame, groups="sex", random_state=3, missing_values="?")
    first = halves(len(frame), 3)
    y = (frame["sex"] == "f").to_numpy()
    x = frame["hours"].to_numpy()

    def auc(fit, ev):
        sign = 1 if roc_auc_score(y[fit], x[fit]) >= 0.5 else -1
        return roc_auc_score(y[ev], sign * x[ev])

    row = report.proxies.query("variable == 'hours' and group == 'f'").iloc[0]
    expected = _cross_fitted(auc, y, first)
    assert (row["auc_half_1"], row["auc_half_2"]) == pytest.approx(expected, abs=1e-12)
    assert row["auc"] == pytest.approx(np.mean(expected)) and row["auc"] > 0.6
    assert row["direction"] == "lower" and row["holm"]  # men's hours are higher
    assert "| hours | numeric | 0." in report.to_markdown() and " lower Holm |" in report.to_markdown()


def test_categorical_proxy_auc_scores_categories_on_the_other_half(report, table):
    first = halves(len(table), 0)
    y = (table["race"] == "c").to_numpy()
    job = table["job"].where(table["job"] != "?", "(missing)").to_numpy()

    def auc(fit, ev):
        fitted = pd.DataFrame({"job": job[fit], "y": y[fit]}).groupby("job")["y"].agg(["sum", "size"])
        prior = y[fit].mean()
        score = ((fitted["sum"] + prior) / (fitted["size"] + 1)).reindex(job[ev]).fillna(prior).to_numpy()
        return roc_auc_score(y[ev], score)

    row = report.proxies.query("variable == 'job' and column == 'race' and group == 'c'").iloc[0]
    assert (row["auc_half_1"], row["auc_half_2"]) == pytest.approx(_cross_fitted(auc, y, first), abs=1e-12)
    assert row["auc"] > 0.6 and row["holm"]


def test_many_categories_do_not_inflate_the_auc():
    rng = np.random.default_rng(1)
    n = 3000
    frame = pd.DataFrame({"g": rng.choice(["a", "b"], n), "code": rng.integers(0, 1000, n).astype(str)})
    row = profile(frame, groups="g").proxies.iloc[0]
    in_sample = frame.assign(y=frame["g"] == "a").groupby("code")["y"].transform("mean")
    assert roc_auc_score(frame["g"] == "a", in_sample) > 0.75  # the same score fitted on all rows: inflated
    assert abs(row["auc"] - 0.5) < 0.05


def test_proxy_test_is_scipys_chi_squared_and_holm_counts_each_test_once(report, table):
    row = report.proxies.query("variable == 'job' and column == 'race' and group == 'b'").iloc[0]
    crossed = pd.crosstab(table["job"], table["race"] == "b")
    stat, p, df, _ = chi2_contingency(crossed.to_numpy(), correction=False)
    assert (row["chi2"], row["p_value"], row["df"]) == pytest.approx((stat, p, df))
    n_cat = len(crossed)
    phi2 = max(0.0, stat / len(table) - (n_cat - 1) / (len(table) - 1))
    k = n_cat - (n_cat - 1) ** 2 / (len(table) - 1)
    r = 2 - 1 / (len(table) - 1)
    assert row["cramers_v"] == pytest.approx(np.sqrt(phi2 / min(k - 1, r - 1)))
    # 3 columns x (3 race groups + 1 test for the two sexes)
    assert report.comparisons["count"] == 12 == report.proxies["counted"].sum()
    assert "12 tests were made" in report.to_markdown()
    sex = report.proxies.query("column == 'sex' and variable == 'hours'")
    assert sex["holm"].all() and sex["counted"].tolist() == [True, False]
    assert not report.proxies.query("variable == 'noise'")["holm"].any()


def test_drift_changes_have_newcombe_intervals(table):
    rng = np.random.default_rng(2)
    older = table.sample(2500, random_state=1).assign(race=lambda f: np.where(rng.random(len(f)) < 0.1, "d", f["race"]))
    older = older.drop(columns=["noise"])
    report = profile(table, groups="race", label="y", reference_data=older, missing_values="?")
    got = report.drift_groups.set_index("group")
    new, old = table["race"].value_counts(), older["race"].value_counts()
    assert got.loc["d", "count"] == 0 and got.loc["d", "against_count"] == old["d"]
    for group in ("a", "d"):
        k1, k0 = new.get(group, 0), old[group]
        assert got.loc[group, "change"] == pytest.approx(k1 / len(table) - k0 / len(older))
        assert (got.loc[group, "change_lower"], got.loc[group, "change_upper"]) == pytest.approx(
            _newcombe(k1, len(table), k0, len(older)))
    miss = report.drift_missing.set_index("variable")
    k1, k0 = table["hours"].isna().sum(), older["hours"].isna().sum()
    assert miss.loc["hours", "change"] == pytest.approx(k1 / len(table) - k0 / len(older))
    assert report.meta["against"]["only_in_data"] == ["noise"]
    assert "Only in this file: noise." in report.to_markdown()
    assert "/explainers/distribution-shift/" in report.to_markdown()
    rates = report.drift_base_rates.set_index("group")
    assert rates.loc["a", "against_estimate"] == pytest.approx(older.query("race == 'a'")["y"].mean())


def test_same_input_same_bytes_and_json_follows_its_schema(table, report):
    again = profile(table, groups=["race", "sex"], label="y", missing_values=["?"])
    assert again.to_json() == report.to_json() and again.to_html() == report.to_html()
    small = table.head(500)
    assert profile(small, groups="sex", random_state=1, missing_values="?").to_json() != \
        profile(small, groups="sex", missing_values="?").to_json()
    schema = json.loads((pathlib.Path(faircode.profiling.__file__).parent / "profile.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    document = json.loads(report.to_json())
    validator.validate(document)
    assert document["schema_version"] == SCHEMA_VERSION and document["drift"] is None
    validator.validate(json.loads(profile(table, groups="race", reference_data=table.head(900),
                                          missing_values="?").to_json()))
    for bad in (dict(share=1.5), dict(count=-1), dict(share="0.5")):
        with pytest.raises(jsonschema.ValidationError):
            validator.validate(dict(document, sizes=[dict(document["sizes"][0], **bad)]))
    with pytest.raises(jsonschema.ValidationError):
        validator.validate(dict(document, proxies=[dict(document["proxies"][0], kind="ordinal")]))


def test_sections_link_their_explainers(report):
    html = report.to_html(docs_url="https://example.org/site")
    for slug in ("sample-size-and-power", "base-rate-fallacy", "disaggregated-evaluation", "proxy-variables",
                 "permutation-tests-for-fairness-gaps"):
        assert f'href="https://example.org/site/explainers/{slug}/"' in html
        assert (pathlib.Path(__file__).parents[2] / "explainers" / f"{slug}.md").exists()
    assert "<script" not in html and "http" not in html.split("<body>")[0]


@pytest.fixture(scope="module")
def benefits_csv(tmp_path_factory):
    path = tmp_path_factory.mktemp("real") / "benefits.csv"
    faircode.load_audit("Benefits Denial").raw.to_csv(path, index=False)
    return path


def test_real_audit_file_through_the_command_line(benefits_csv, tmp_path):
    old = tmp_path / "old.csv"
    pd.read_csv(benefits_csv).iloc[::3].to_csv(old, index=False)
    assert main(["profile", str(benefits_csv), "--group", "sex", "--group", "race", "--label", "income",
                 "--positive", ">50K", "--missing-values", "?", "--against", str(old), "--format", "json",
                 "--output", str(tmp_path / "p.json")]) == 0
    document = json.loads((tmp_path / "p.json").read_text())
    raw = pd.read_csv(benefits_csv, keep_default_na=False)
    women = (raw["sex"] == "Female").sum()
    size = next(r for r in document["sizes"] if r["group"] == "Female")
    assert size["count"] == women == 10771 and size["share"] == pytest.approx(women / len(raw))
    rate = next(r for r in document["base_rates"] if r["group"] == "Female")
    assert rate["positives"] == ((raw["sex"] == "Female") & (raw["income"] == ">50K")).sum()
    miss = next(r for r in document["missing"] if r["variable"] == "workclass" and r["group"] == "Female")
    assert miss["missing"] == ((raw["sex"] == "Female") & (raw["workclass"] == "?")).sum()
    relationship = next(r for r in document["proxies"] if r["variable"] == "relationship" and r["group"] == "Female")
    assert relationship["auc"] > 0.8 and relationship["holm"]
    drift = next(r for r in document["drift"]["groups"] if r["group"] == "Female")
    assert drift["against_count"] == (raw["sex"].iloc[::3] == "Female").sum()
    report = profile(benefits_csv, groups=["sex", "race"], label="income", positive_label=">50K",
                     missing_values="?")
    assert json.loads(report.to_json())["proxies"] == document["proxies"]
    assert "| Female | 10,771 | 0.331 [0.326, 0.336] |" in report.to_markdown()
