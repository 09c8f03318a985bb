"""The report's words, written once for every format: section titles, the explainer page behind each section,
the notes that say how to read a table, and the metrics' display names."""
from __future__ import annotations

DEFAULT_DOCS_URL = ""
"""Where the site lives. mkdocs.yml sets no ``site_url`` yet, so links are root-relative (``/explainers/<slug>/``),
right when the report is served from the site; pass ``docs_url`` (``--docs-url``) for absolute links."""

NAMES = {"selection_rate": "selection rate", "base_rate": "base rate", "tpr": "TPR", "fpr": "FPR", "fnr": "FNR",
         "precision": "PPV", "npv": "NPV", "accuracy": "accuracy", "tnr": "TNR"}

SECTIONS = {
    # key: (title, explainer slug, what the explainer teaches here)
    "rates": ("Rates by group", "disaggregated-evaluation", "rates per group with their counts"),
    "gaps": ("Gaps to the reference group", "equalized-odds", "gaps in error rates between groups"),
    "four_fifths": ("Selection ratio and the four-fifths rule", "disparate-impact-and-legal-tests",
                    "the four-fifths rule and what it does not say"),
    "conditional": ("Gaps conditional on strata", "confounding-and-simpsons-paradox",
                    "pooled against conditional gaps"),
    "auc": ("AUC by group", "roc-curves-and-auc-by-group", "ranking quality per group"),
    "calibration": ("Calibration by group", "predictive-parity-and-calibration", "calibration within groups"),
    "curves": ("Rates across thresholds", "group-specific-thresholds", "how a threshold moves each group's rates"),
    "comparisons": ("How many comparisons", "permutation-tests-for-fairness-gaps",
                    "multiple comparisons and Holm's correction"),
    "intervals": ("How the intervals were computed", "bootstrap-confidence-intervals",
                  "bootstrap intervals on rates and gaps"),
    "small": ("Small cells and few events", "sample-size-and-power", "why small groups cannot be read"),
    "intersections": ("Intersections", "subgroup-fairness-and-the-worst-off-group", "intersectional groups"),
}


def link(key: str, docs_url: str | None) -> str:
    return page_url(SECTIONS[key][1], docs_url)


def page_url(slug: str, docs_url: str | None) -> str:
    """The address of the explainer page ``slug``: under ``docs_url``, or site-relative without one."""
    base = DEFAULT_DOCS_URL if docs_url is None else docs_url
    return f"{base.rstrip('/')}/explainers/{slug}/"


RELATIVE_LINKS = ("The links to explainer pages are relative to the project's site (/explainers/<page>/): they work "
                  "where this report is served from the site, not from a file on disk. Give the site's address "
                  "(docs_url=, --docs-url) for links that work anywhere.")
"""Said in a report whose links are site-relative (no ``docs_url`` and no ``DEFAULT_DOCS_URL``)."""


FOUR_FIFTHS_CAVEAT = (
    "The four-fifths ratio of the US Uniform Guidelines on Employee Selection Procedures (29 CFR 1607.4(D)) is a "
    "group's selection rate divided by the rate of the group with the HIGHEST rate (named in each table, whatever "
    "the reference group of the gaps above), so every group, the reference included, is compared with it. The "
    "Guidelines treat a ratio under 0.8 as a rule of thumb for noticing adverse impact, not a legal test: they say "
    "a smaller difference can still matter when it is statistically and practically significant, and a ratio under "
    "0.8 may mean nothing when the numbers are small. Read the interval: a ratio whose interval holds 0.8 has not "
    "been shown to be under it, or above it. The interval is for the ratio to the group named, and that group was "
    "chosen because its rate is highest in these data: when groups' rates are close, the ratios lean below their "
    "true values and the intervals cover less often than stated (5 groups of 500 rows with equal rates: 83% of "
    "95% intervals held the true ratio 1). The gaps to the reference above, a group fixed in advance, do not have "
    "this problem. The rule is written for a favourable decision (a hire, an approval). If a positive prediction "
    "here is unfavourable (flagged as high risk), the rule applies to the favourable outcome's rate, "
    "1 - selection rate, over the highest such rate: the second table ('positive unfavourable') gives that ratio. "
    "A ratio of flag rates above 1.25 is not the same condition.")

SPREAD_NOTE = ("The lowest over the highest selection rate (and highest minus lowest) among groups that are not "
               "too small is given without an interval: a percentile bootstrap of a minimum over a maximum does "
               "not cover (with equal true rates it sits below 1 almost always). Use the ratios to the highest "
               "group above, each with its interval.")

UNDEFINED = ("A rate whose denominator is empty (no positives in a group for its TPR) is undefined and shown as "
             "such, never as 0.")

SMALL = ("A rate is marked too small when fewer than {min_count} rows are in its denominator: it is not an "
         "estimate to report. It rests on few events when fewer than {min_events} rows are on one side of its "
         "numerator; such a rate gets the exact (Clopper-Pearson) interval, because the bootstrap's collapses, and "
         "a gap involving it gets the combined exact interval (each rate's exact interval at the square root of "
         "the confidence, the range of differences they allow). With weights these are Clopper-Pearson intervals on "
         "Kish's effective sample size, an approximation, labelled 'Kish effective n'. A rate or gap that is "
         "undefined has no interval (labelled 'none').")


def bootstrap_note(meta: dict) -> str:
    if not meta["n_boot"]:
        return (f"No bootstrap (n_boot=0): every rate has its exact {meta['confidence']:.0%} interval and every "
                "gap the combined exact interval.")
    return (f"One bootstrap of {meta['n_boot']} resamples (seed {meta['random_state']}): a {meta['bootstrap']}. "
            f"Every interval is a {meta['confidence']:.0%} percentile interval from those resamples; a gap or "
            "ratio is recomputed within each resample, so its interval is paired with the reference group's "
            "rate, and every table shares the same resamples.")


def comparisons(report) -> dict:
    """The number of distinct gaps compared and what that means, with Holm's count (a group's FNR gap is minus its
    TPR gap: one comparison, listed twice)."""
    gaps = report.gaps
    estimable = ~gaps["too_small"] & gaps["difference"].notna()
    counted = gaps["counted"]
    listed_n, n = int(estimable.sum()), int(counted.sum())
    excluding = gaps[counted & ((gaps["difference_lower"] > 0) | (gaps["difference_upper"] < 0))]
    alpha = 1 - report.meta["confidence"]
    holm = int((gaps["holm"] & counted).sum())
    repeats = listed_n - n
    rates = len(set(gaps.loc[counted, "metric"])) if n else 0
    note = (f"{n} distinct gaps were compared (every group that is not too small, against its reference, on "
            f"{rates} rates{', at every threshold' if (report.meta['thresholds'] or [0])[1:] else ''}"
            f"{f'; the {repeats} FNR gaps listed are minus the TPR gaps, one comparison each' if repeats else ''}). "
            f"If no group differed from its reference at all, about {alpha * n:.1f} of their {1 - alpha:.0%} "
            f"intervals would still exclude 0 by chance alone; {len(excluding)} do. Of these {n} gaps, {holm} "
            f"survive Holm's correction at {alpha:g} for all {n} comparisons (marked 'Holm', on the TPR and FNR gap "
            "alike), with two-sided p-values from each gap over its standard error (without weights the "
            "large-sample one, sqrt(p1(1-p1)/n1 + p0(1-p0)/n0), which does not depend on the bootstrap's seed; "
            "with weights the standard deviation of its paired resamples). A gap whose interval excludes 0 but "
            "that does not survive Holm may be one of the chance exclusions: check it on other data. A gap whose "
            "p-value lies near its Holm threshold can pass or fail with a slightly different test (an exact one, "
            "another n): read the p-values, not only the marks. Gaps between other rates of one group are "
            "correlated, so Holm is conservative here.")
    return {"count": n, "gaps_listed": listed_n, "intervals_excluding_zero": len(excluding),
            "expected_by_chance": alpha * n, "holm_rejections": holm, "note": note}
