"""The benchmark's results as an aligned terminal table, Markdown tables, or CSV."""
from __future__ import annotations

import pandas as pd

from faircode.benchmark._harness import GAPS, Target
from faircode.benchmark._strategies import EG_MAX_ITER

__all__ = ["format_results", "show_results", "write_csv"]

_GAP_LABELS = {"parity": "parity gap", "tpr": "TPR gap", "fpr": "FPR gap", "precision": "precision gap"}
_DESCRIBE = {
    "S3": "S3 = ExponentiatedGradient (max_iter={eg_max_iter})",
    "S4": "S4 = ThresholdOptimizer, thresholds fitted on {held:.0%} of the training rows held back from the base model",
    "reweighing": "reweighing = Kamiran-Calders weights P(g)P(y)/P(g,y)",
}


def _num(value, signed=False):
    if pd.isna(value):
        return "n/a"
    value = round(float(value), 3) + 0.0  # a gap that rounds to zero prints as +0.000, never -0.000
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def _interval_cell(row, gap):
    return f"{_num(row[f'{gap}_gap'], True)} [{_num(row[f'{gap}_lo'], True)}, {_num(row[f'{gap}_hi'], True)}]"


def _spread_cell(values, signed):
    return f"{_num(values.mean(), signed)} ± {values.std(ddof=1):.3f}"


def _align(header, rows, right):
    """Text table: columns padded to their widest cell, numbers right-aligned.

    Written out because pandas' ``to_string`` right-aligns text columns too and draws no rule under the header,
    and tabulate (whose "simple" format this is) is not a dependency; pages print with ``show_results``.
    """
    widths = [max(len(str(c)) for c in column) for column in zip(header, *rows)]

    def line(cells):
        return "  ".join(str(c).rjust(w) if r else str(c).ljust(w) for c, w, r in zip(cells, widths, right)).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths])] + [line(r) for r in rows])


def _markdown(header, rows, right):
    rule = ["---:" if r else ":---" for r in right]
    return "\n".join("| " + " | ".join(str(c) for c in cells) + " |" for cells in [header, rule] + rows)


def _attribute_table(part, group, several):
    """Header and rows for one audit x protected attribute."""
    keys = ["strategy", "model"]
    if several:
        header = keys + ["accuracy", "bal. acc.", f"sel. {group}", "sel. rest"] + [_GAP_LABELS[g] for g in GAPS]
        rows = []
        for (strategy, model), cell in part.groupby(keys, sort=False):
            rows.append([strategy, model, _spread_cell(cell["accuracy"], False),
                         _spread_cell(cell["balanced_accuracy"], False), _spread_cell(cell["sel_group"], False),
                         _spread_cell(cell["sel_rest"], False)]
                        + [_spread_cell(cell[f"{g}_gap"], True) for g in GAPS])
    else:
        header = keys + ["accuracy", "bal. acc.", f"sel. {group}", "sel. rest"] + \
            [f"{_GAP_LABELS[g]} [95% CI]" for g in GAPS] + ["min n"]
        rows = [[r["strategy"], r["model"], _num(r["accuracy"]), _num(r["balanced_accuracy"]), _num(r["sel_group"]),
                 _num(r["sel_rest"])] + [_interval_cell(r, g) for g in GAPS]
                + [f"{r['min_count']}{'!' if r['too_small'] else ''}"] for _, r in part.iterrows()]
    return header, rows, [False, False] + [True] * (len(header) - 2)


def _sections(results: pd.DataFrame, markdown: bool):
    """The report in order: lists of text lines, and (header, rows, right-aligned) tables."""
    for audit, part in results.groupby("audit", sort=False):
        groups = dict(zip(part["attribute"], part["group"]))
        seeds = sorted(part["seed"].unique())
        several = len(seeds) > 1
        first = part.iloc[0]
        lines = [f"### {audit}" if markdown else f"== {audit} =="]
        split = (f"{len(seeds)} splits (seeds {', '.join(str(s) for s in seeds)}), each about {first['n_train']} "
                 f"training and {first['n_test']} test rows" if several else
                 f"{first['n_train']} training rows, {first['n_test']} test rows, seed {seeds[0]}")
        lines.append(split)
        strategies = set(part["strategy"])
        targeted = part.loc[part["strategy"].isin(list(_DESCRIBE)), "target"]
        if len(targeted):
            target = Target(*targeted.iloc[0].split(": "))
            lines.append(f"S3, S4 and reweighing target {target.attribute} ({groups[target.attribute]}) "
                         f"under {target.constraint.replace('_', ' ')} (aiming at the "
                         f"{' and '.join(_GAP_LABELS[g] for g in target.gaps)}); they see the S2 features and get "
                         f"{target.attribute} only as sensitive_features.")
            for name in _DESCRIBE:
                if name in strategies:
                    lines.append(_DESCRIBE[name].format(eg_max_iter=EG_MAX_ITER,
                                                        held=first["threshold_fraction"]))
        lines.append("gap = rate in the named group minus rate in the rest (0 is parity); " +
                     ("mean ± sd across the splits." if several else
                      f"[95% CI] = percentile interval from {first['n_boot']} bootstrap resamples of "
                      "the test rows; min n = smallest count behind a rate (! = under 30, too small to trust)."))
        if markdown:  # separate paragraphs, not one run-on paragraph
            lines = [lines[0]] + [part_line for line in lines[1:] for part_line in ("", line)]
        yield lines
        for attribute, rows in part.groupby("attribute", sort=False):
            group = groups[attribute]
            sizes = (f"{group} n={rows['n_group'].iloc[0]}, rest n={rows['n_rest'].iloc[0]} (test rows)"
                     if not several else
                     f"{group} n={rows['n_group'].min()}-{rows['n_group'].max()} per split (test rows)")
            title = f"{attribute}: {sizes}"
            yield ["", f"**{title}**", ""] if markdown else ["", title]
            yield _attribute_table(rows, group, several)


def format_results(results: pd.DataFrame, *, markdown: bool = False) -> str:
    """Render `results` (from ``run_benchmark``) per audit and protected attribute.

    With one seed every gap shows its 95% bootstrap interval over the test rows; with several, each number is
    the mean ± standard deviation across the splits, the spread a strategy's effect has to exceed.

    Parameters
    ----------
    results : pandas.DataFrame
        The table ``run_benchmark`` returns, or the same read back from its CSV (only columns are used).
    markdown : bool, default False
        Markdown (headings and pipe tables) instead of aligned plain text.

    Returns
    -------
    str
    """
    blocks, lines = [], []
    for section in _sections(results, markdown):
        if isinstance(section, list):
            if section and section[0].startswith(("### ", "== ")) and lines:
                blocks.append("\n".join(lines))
                lines = []
            lines += section
        else:
            lines.append((_markdown if markdown else _align)(*section))
    blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def show_results(results: pd.DataFrame) -> None:
    """Print `results` for a page: the notes as text and, per attribute, two narrow tables.

    The same numbers as ``format_results``, shown with ``faircode.display.show`` (a table on the site, text in a
    terminal): the first table holds accuracy and selection rates, the second the gaps with their intervals (or
    spreads across splits), so that neither needs more columns than a page can show.
    """
    from faircode.display import show

    for section in _sections(results, markdown=False):
        if isinstance(section, list):
            print("\n".join(section))
            continue
        header, rows, _ = section
        table = pd.DataFrame(rows, columns=header).set_index(["strategy", "model"])
        table.index = table.index.set_levels(
            [level.str.replace("_", " ") for level in table.index.levels])
        rates = [c for c in table.columns if c in ("accuracy", "bal. acc.") or c.startswith("sel. ")]
        show(table[rates])
        print()
        show(table[[c for c in table.columns if c not in rates]])


def write_csv(results: pd.DataFrame, path) -> None:
    """Write one row per audit x strategy x model x seed x attribute; floats to 6 decimals (stable bytes)."""
    results.to_csv(path, index=False, float_format="%.6f", lineterminator="\n")
