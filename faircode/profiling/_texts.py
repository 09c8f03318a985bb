"""The profile's words, written once for every format: section titles, the explainer page behind each section,
and the notes that say how each table was computed and how to read it."""
from __future__ import annotations

from faircode.report._texts import page_url

SECTIONS = {
    # key: (title, explainer slug, what the explainer teaches here)
    "sizes": ("Group sizes and shares", "sample-size-and-power",
              "how many rows a group needs before it can be audited"),
    "base_rates": ("Base rates by group", "base-rate-fallacy", "what different base rates do to a model's rates"),
    "missing": ("Missing values by group", "disaggregated-evaluation", "measuring every quantity group by group"),
    "proxies": ("Proxies: how well one column tells a group from the rest", "proxy-variables",
                "proxy variables and why dropping the group column does not blind a model"),
    "comparisons": ("How many comparisons", "permutation-tests-for-fairness-gaps",
                    "multiple comparisons and Holm's correction"),
    "drift": ("Drift from the earlier file", "distribution-shift",
              "what changes between two samples of a population"),
}


def link(key: str, docs_url: str | None) -> str:
    return page_url(SECTIONS[key][1], docs_url)


def missing_note(tokens) -> str:
    extra = (f", or when it is one of the values {', '.join(repr(t) for t in tokens)} (given as missing_values=, "
             "--missing-values)") if tokens else ""
    return ("A value counts as missing when its cell is empty (nothing between two delimiters of a CSV file; a null "
            f"or an empty string in a DataFrame or Parquet file){extra}. Other markers ('NA', 'None', '?', -1) are "
            "values here" + (" unless listed" if tokens else ": list those that mean missing with --missing-values") +
            ". A row whose group (or label) is missing is not profiled: it is an error, or with dropna= (--dropna) "
            "dropped and counted.")


SIZES = ("Each group's rows and its share of all rows, with the exact (Clopper-Pearson) {confidence:.0%} interval. A "
         "group with fewer than {min_count} rows is marked too small to audit: a model's rates for it could not be "
         "read (min_count=, --min-count).")

BASE_RATES = ("The share of positive labels in each group, with its exact (Clopper-Pearson) {confidence:.0%} "
              "interval, and its difference from the reference group's with Newcombe's hybrid score interval (the "
              "two groups' rows are disjoint: two independent samples). A model trained on these labels learns "
              "these rates along with everything else.")

MISSING = ("The share of rows missing each column, in each group, with exact intervals, then each group's "
           "difference from the reference group's share with Newcombe's interval. A model, or a step that fills "
           "in or drops missing values, treats a group with more of them differently.")

PROXIES = ("For each column and each group: the AUC of telling that group's rows from the rest using that column "
           "alone (0.5: no signal; 1: the column separates them). A categorical column scores each category by the "
           "group's share in it, a numeric column by rank (the direction, and where missing values rank, chosen on "
           "the data), so the AUC is cross-fitted: the rows are split once into two random halves (seed "
           "{random_state}), each scored from the other, and the two AUCs averaged, so that a column with many "
           "categories does not look stronger than it is. Under the AUC, 'V': Cramér's V with Bergsma's bias "
           "correction (0: no association) on the table of the column's categories (a numeric column's deciles; "
           "missing values a category of their own; categories with an expected count under 5 pooled) against "
           "membership of the group; 'Holm': the chi-squared test of independence on that table survives Holm's "
           "correction over every test made (counted under 'How many comparisons'); beside it, 'higher' or "
           "'lower': the group's values of a numeric column tend to be higher or lower than the rest's. The label "
           "and the group columns are not tested. Rows sorted by the column's largest AUC.")

DRIFT = ("Each share in this file ({source}, {rows} rows) minus the same share in the earlier file ({against}, "
         "{against_rows} rows), with Newcombe's hybrid score {confidence:.0%} interval: the two files are taken as "
         "independent samples (a person in both files makes the interval too wide, not too narrow, when their "
         "values agree).")


def comparisons(report) -> dict:
    """The number of proxy tests and what it means for reading them."""
    table = report.proxies
    confidence = report.meta["confidence"]
    alpha = round(1 - confidence, 12)
    counted = table[table["counted"]] if len(table) else table
    tested = counted["p_value"].notna()
    n = int(tested.sum())
    rejected = int((counted["holm"] & tested).sum())
    plain = int((counted.loc[tested, "p_value"] < alpha).sum())
    variables = table["variable"].nunique()
    groups = len(table[["column", "group"]].drop_duplicates())
    untested = int((~tested).sum())
    cannot = (f", less {untested} that could not be tested (one category left after pooling rare ones)"
              if untested else "")
    note = (f"{n} tests were made: {variables} columns against {groups} groups, one group against the rest of its "
            f"column (in a column of two groups, one test serves both){cannot}. "
            f"If no column were associated with any group, about {alpha * n:.1f} of them would still have "
            f"p < {alpha:g} by chance alone; {plain} do. {rejected} survive Holm's correction at {alpha:g} for all "
            f"{n} tests (marked 'Holm'). With many rows a test detects associations too weak to matter: read the "
            "AUC and V for how strong an association is, the test only for whether these rows show one at all.")
    return {"count": n, "untested": untested, "alpha": alpha, "p_below_alpha": plain, "holm_rejections": rejected,
            "note": note}
