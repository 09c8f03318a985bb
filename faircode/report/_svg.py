"""Figures as inline SVG text: small line charts written by hand, so that a report has no image files, loads
nothing, and is byte-identical run to run (matplotlib's SVG carries ids and a date)."""
from __future__ import annotations

from html import escape

import numpy as np

PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
PANELS = (("selection_rate", "selection rate"), ("tpr", "TPR"), ("fpr", "FPR"))


def _n(x: float) -> str:
    return f"{x:.1f}"


def curves_svg(curves, title: str) -> str:
    """Three panels (selection rate, TPR, FPR against the threshold), one line per group, a legend below."""
    groups = list(dict.fromkeys(curves["group"]))
    width, panel_w, panel_h, left, top, gap = 720, 200, 170, 40, 28, 36
    legend_rows = (len(groups) + 3) // 4
    height = top + panel_h + 44 + 18 * legend_rows
    t = curves["threshold"].to_numpy(float)
    t_low, t_high = float(t.min()), float(t.max())
    span = (t_high - t_low) or 1.0
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="{escape(title)}" font-family="system-ui, sans-serif" font-size="12">',
           f"<title>{escape(title)}</title>"]
    for p, (metric, name) in enumerate(PANELS):
        x0 = left + p * (panel_w + gap)
        out.append(f'<text x="{_n(x0 + panel_w / 2)}" y="16" text-anchor="middle" font-weight="600">{name}</text>')
        out.append(f'<rect x="{x0}" y="{top}" width="{panel_w}" height="{panel_h}" fill="none" stroke="#999"/>')
        for v in (0.0, 0.5, 1.0):
            y = top + panel_h * (1 - v)
            out.append(f'<line x1="{x0}" x2="{x0 + panel_w}" y1="{_n(y)}" y2="{_n(y)}" stroke="#ddd"/>')
            if p == 0:
                out.append(f'<text x="{x0 - 4}" y="{_n(y + 4)}" text-anchor="end">{v:g}</text>')
        for v in (t_low, t_high):
            x = x0 + panel_w * (v - t_low) / span
            out.append(f'<text x="{_n(x)}" y="{top + panel_h + 14}" text-anchor="middle">{v:g}</text>')
        out.append(f'<text x="{_n(x0 + panel_w / 2)}" y="{top + panel_h + 28}" text-anchor="middle">threshold</text>')
        for g, group in enumerate(groups):
            part = curves[curves["group"] == group]
            xs = x0 + panel_w * (part["threshold"].to_numpy(float) - t_low) / span
            ys = top + panel_h * (1 - part[metric].to_numpy(float))
            keep = ~np.isnan(ys)
            if keep.sum() < 1:
                continue
            points = " ".join(f"{_n(x)},{_n(y)}" for x, y in zip(xs[keep], ys[keep]))
            out.append(f'<polyline points="{points}" fill="none" stroke="{PALETTE[g % len(PALETTE)]}" '
                       f'stroke-width="1.8"/>')
    for g, group in enumerate(groups):
        x = left + (g % 4) * 170
        y = top + panel_h + 46 + 18 * (g // 4)
        out.append(f'<line x1="{x}" x2="{x + 18}" y1="{y - 4}" y2="{y - 4}" stroke="{PALETTE[g % len(PALETTE)]}" '
                   'stroke-width="3"/>')
        out.append(f'<text x="{x + 24}" y="{y}">{escape(str(group))}</text>')
    out.append("</svg>")
    return "\n".join(out)
