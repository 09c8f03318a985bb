"""Named choices: checking a name against its valid set, and the one registry of feature strategies.

A name that arrives as a list (``load_audit(["S2"])``) would otherwise fail inside a dict lookup with a bare
``unhashable type: 'list'``; ``check_name`` says what arrived and lists what is valid.
"""
from __future__ import annotations

#: Strategies whose features ``load_audit`` builds: every column, no protected column, core columns only.
FEATURE_STRATEGIES = ("baseline", "S1", "S2")
#: Strategies the benchmark fits on S2's features, with the protected attribute as ``sensitive_features``.
MITIGATIONS = ("S3", "S4", "reweighing")
#: Every strategy, in the order tables show them.
STRATEGIES = FEATURE_STRATEGIES + MITIGATIONS
#: Other spellings of a strategy's name.
STRATEGY_ALIASES = {"S0": "baseline"}


def check_name(value, valid, kind: str, *, aliases: dict | None = None, note: str = "", plural=None) -> str:
    """``value`` if it is one of ``valid`` (an alias resolved), else a ValueError naming it and listing ``valid``.

    ``kind`` names the thing in the message (``"strategy"``; ``plural`` if not ``kind + "s"``); ``note`` is appended to it (e.g. why a name that
    exists elsewhere is not valid here).
    """
    aliases = aliases or {}
    names = [n for v in valid for n in (v, *(a for a, target in aliases.items() if target == v))]
    listed = ", ".join(repr(n) for n in names)
    plural = plural or (kind[:-1] + "ies" if kind.endswith("y") else kind + "s")
    if not isinstance(value, str):
        raise ValueError(f"{kind} must be one name (a str), not a {type(value).__name__}; got {value!r}. "
                         f"The {plural} are: {listed}{note}")
    if value not in names:
        raise ValueError(f"unknown {kind} {value!r}; the {plural} are: {listed}{note}")
    return aliases.get(value, value)


def canonical_strategy(name, valid=STRATEGIES, note: str = "") -> str:
    """The registry's name for a strategy (``"S0"`` is ``"baseline"``), checked against ``valid``."""
    return check_name(name, valid, "strategy", aliases=STRATEGY_ALIASES, note=note)
