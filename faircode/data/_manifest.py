"""Read and validate an audit's manifest (``<audit folder>/audit.toml``)."""
from __future__ import annotations

import dataclasses
import datetime
import pathlib
import tomllib

MANIFEST = "audit.toml"
_RULES = ("equals", "not_in", "below")


@dataclasses.dataclass(frozen=True)
class ProtectedAttribute:
    """A protected column and the group its mask marks (mask = 1).

    ``unknown`` lists values that record no answer (Adult's ``?``): such a row is in neither the group nor its
    complement, and its mask is missing (``pd.NA``) rather than 0 or 1.
    """

    column: str
    group: str
    equals: tuple = ()
    not_in: tuple = ()
    below: float | None = None
    unknown: tuple = ()

    def describe(self) -> str:
        if self.below is not None:
            rule = f"{self.column} < {self.below:g}"
        elif self.equals:
            rule = f"{self.column} in {list(self.equals)}"
        else:
            rule = f"{self.column} not in {list(self.not_in)}"
        return rule + (f"; {list(self.unknown)} unknown (neither)" if self.unknown else "")


#: The one sample of an audit whose manifest declares none: every row of its data file.
ALL_ROWS = "all"


@dataclasses.dataclass(frozen=True)
class Sample:
    """A named population of an audit's rows (``[[samples]]`` in ``audit.toml``): which rows ``load_audit`` keeps.

    Without ``column`` the sample is every row of the data file; with ``column`` and ``on_or_before`` (a date) it
    keeps the rows whose ``column``, read as a date, is on or before that day. ``rule`` says it in words (for a
    date rule it must read ``"<column> on or before <YYYY-MM-DD>"``) and ``why`` says why the audit offers it.
    """

    name: str
    rule: str
    why: str = ""
    default: bool = False
    column: str | None = None
    on_or_before: datetime.date | None = None

    @property
    def filtered(self) -> bool:
        """Whether the sample drops rows of the data file (False: every row)."""
        return self.column is not None


@dataclasses.dataclass(frozen=True)
class Manifest:
    """What an audit's data means: outcome, protected attributes, proxies, core features and split."""

    folder: pathlib.Path
    name: str
    summary: str
    data: str
    data_sha256: str
    raw_file: str
    raw_sha256: str
    rebuild: str
    random_state: int
    test_size: float
    outcome: str
    positive: str
    outcome_label: str
    protected: dict
    proxies: tuple
    core: tuple
    unused: tuple
    source: dict = dataclasses.field(default_factory=dict)
    # The protected attribute and fairness constraint the mitigation strategies (S3, S4, reweighing) target.
    target: dict = dataclasses.field(default_factory=dict)
    # For an audit built from filtered rows: each step as {"rule", "why", "rows"} (rows kept after it), in order,
    # written by scripts/build_data.py.
    rows_kept: tuple = ()
    # The populations ``load_audit(..., sample=...)`` accepts, exactly one of them the default (see Sample); an
    # audit that declares none has one, ALL_ROWS, every row of its data file.
    samples: tuple = ()
    # Whether the manifest declares its samples (``[[samples]]``); False for the implicit ALL_ROWS.
    declares_samples: bool = False
    # Values of a column that do not mean what they seem to say (``[[value_notes]]``): each as
    # {"column", "value", "note"}; the data card counts their rows in each sample.
    value_notes: tuple = ()
    # The column that names the unit a row describes (a patient), when the raw data had several rows per unit:
    # the data file must then hold one row per unit, which ``load_audit`` checks, so that no split of its rows
    # can put one unit on both sides. Empty when each row is its own unit.
    unit: str = ""
    # How the audit's decision is made (``[decision]``): ``capacity``, the share of people a programme can take
    # (those ranked highest), with ``why``; empty for a decision at the model's own 0.5 threshold.
    decision: dict = dataclasses.field(default_factory=dict)
    # For an audit whose rows were filtered by date-stamped records: each month's rows in the raw file and after
    # the filters, as {"month": "YYYY-MM", "raw", "kept"}, written by scripts/build_data.py.
    rows_by_month: tuple = ()

    @property
    def capacity(self) -> float | None:
        """The share of people the decision can take (``[decision] capacity``), or None for a 0.5 threshold."""
        return self.decision.get("capacity")

    @property
    def data_path(self) -> pathlib.Path:
        return self.folder / self.data

    @property
    def sample_names(self) -> tuple:
        return tuple(s.name for s in self.samples)

    @property
    def default_sample(self) -> Sample:
        return next(s for s in self.samples if s.default)

    def sample(self, name: str) -> Sample:
        return next(s for s in self.samples if s.name == name)

    @property
    def feature_columns(self) -> tuple:
        """Every column a model may be given under the baseline strategy, in manifest order."""
        return tuple(self.protected) + self.proxies + self.core


def read_manifest(path: pathlib.Path) -> Manifest:
    """Parse ``audit.toml`` at `path`, raising ValueError that names the file for anything missing or malformed."""
    try:
        spec = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{path}: not valid TOML ({err})") from err

    def need(table, key, where=""):
        if key not in table:
            raise ValueError(f"{path}: missing `{where}{key}`")
        return table[key]

    protected = {}
    for column, rule in need(spec, "protected").items():
        given = [key for key in _RULES if key in rule]
        if len(given) != 1:
            raise ValueError(f"{path}: protected.{column} needs exactly one of {list(_RULES)}, got {given}")
        protected[column] = ProtectedAttribute(
            column=column, group=need(rule, "group", f"protected.{column}."),
            equals=tuple(rule.get("equals", ())), not_in=tuple(rule.get("not_in", ())), below=rule.get("below"),
            unknown=tuple(rule.get("unknown", ())))
        overlap = sorted(set(protected[column].unknown) & set(protected[column].equals + protected[column].not_in))
        if overlap:
            raise ValueError(f"{path}: protected.{column}: {overlap} listed both as unknown and in the group's rule; "
                             "an unknown value belongs to neither the group nor its complement")
    outcome = need(spec, "outcome")
    features = need(spec, "features")
    samples = _read_samples(path, spec.get("samples"))
    manifest = Manifest(
        folder=path.parent, name=need(spec, "name"), summary=spec.get("summary", ""), data=need(spec, "data"),
        data_sha256=spec.get("data_sha256", ""), raw_file=spec.get("raw_file", ""),
        raw_sha256=spec.get("raw_sha256", ""), rebuild=spec.get("rebuild", "make data"),
        random_state=int(need(spec, "random_state")), test_size=float(spec.get("test_size", 0.2)),
        outcome=need(outcome, "column", "outcome."), positive=str(need(outcome, "positive", "outcome.")),
        outcome_label=outcome.get("label", ""), protected=protected,
        proxies=tuple(features.get("proxies", ())), core=tuple(need(features, "core", "features.")),
        unused=tuple(features.get("unused", ())), source=dict(spec.get("source", {})),
        target=dict(spec.get("target", {})),
        rows_kept=tuple(dict(step) for step in spec.get("rows_kept", ())),
        samples=samples, declares_samples="samples" in spec,
        value_notes=_read_value_notes(path, spec.get("value_notes", [])), unit=spec.get("unit", ""),
        decision=_read_decision(path, spec.get("decision", {})),
        rows_by_month=tuple(dict(month) for month in spec.get("rows_by_month", ())))
    if not isinstance(manifest.unit, str):
        raise ValueError(f"{path}: `unit` must be a column name (text); got {manifest.unit!r}")
    if manifest.target and manifest.target.get("attribute") not in protected:
        raise ValueError(f"{path}: target.attribute is {manifest.target.get('attribute')!r}; expected one of the "
                         f"protected attributes {list(protected)}")
    listed = list(manifest.feature_columns) + list(manifest.unused) + [manifest.outcome]
    repeated = sorted({c for c in listed if listed.count(c) > 1})
    if repeated:
        raise ValueError(f"{path}: columns listed more than once across protected/proxies/core/unused/outcome: "
                         f"{repeated}")
    unlisted = sorted({s.column for s in samples if s.filtered} - set(listed))
    if unlisted:
        raise ValueError(f"{path}: samples filter on columns {unlisted} that the manifest does not list "
                         "(protected, proxies, core, unused or outcome)")
    if manifest.unit and manifest.unit not in listed:
        raise ValueError(f"{path}: unit {manifest.unit!r} is not a column the manifest lists (protected, proxies, "
                         "core, unused or outcome)")
    unlisted = sorted({n["column"] for n in manifest.value_notes} - set(listed))
    if unlisted:
        raise ValueError(f"{path}: value_notes name columns {unlisted} that the manifest does not list "
                         "(protected, proxies, core, unused or outcome)")
    return manifest


def _read_decision(path, table) -> dict:
    """The ``[decision]`` table: ``capacity`` (a share strictly between 0 and 1) and ``why``, or nothing."""
    if not table:
        return {}
    if not isinstance(table, dict) or set(table) != {"capacity", "why"}:
        raise ValueError(f"{path}: [decision] must hold exactly `capacity` (the share of people the decision can "
                         f"take) and `why`; got {sorted(table) if isinstance(table, dict) else table!r}")
    capacity = table["capacity"]
    if isinstance(capacity, bool) or not isinstance(capacity, (int, float)) or not 0 < capacity < 1:
        raise ValueError(f"{path}: decision.capacity must be a share strictly between 0 and 1; got {capacity!r}")
    if not isinstance(table["why"], str) or not table["why"].strip():
        raise ValueError(f"{path}: decision.why must be a non-empty string")
    return {"capacity": float(capacity), "why": table["why"]}


def _read_value_notes(path, tables) -> tuple:
    """The ``[[value_notes]]`` tables, each checked to hold a column, a value and a note (all strings)."""
    notes = []
    for i, table in enumerate(tables):
        if not isinstance(table, dict) or set(table) != {"column", "value", "note"} \
                or not all(isinstance(v, str) and v.strip() for v in table.values()):
            raise ValueError(f"{path}: value_notes[{i}] must hold exactly `column`, `value` and `note`, each a "
                             "non-empty string")
        notes.append(dict(table))
    return tuple(notes)


_SAMPLE_KEYS = {"name", "rule", "why", "default", "column", "on_or_before"}


def _read_samples(path, tables) -> tuple:
    """The ``[[samples]]`` tables as Sample objects, checked; ``(ALL_ROWS,)`` when the manifest declares none."""
    if tables is None:
        return (Sample(ALL_ROWS, "every row of the data file", default=True),)
    if not isinstance(tables, list) or not tables or not all(isinstance(t, dict) for t in tables):
        raise ValueError(f"{path}: `samples` must be one or more [[samples]] tables")
    samples = []
    for i, table in enumerate(tables):
        where = f"samples[{i}]"
        unknown = sorted(set(table) - _SAMPLE_KEYS)
        if unknown:
            raise ValueError(f"{path}: {where} has unknown keys {unknown}; expected some of {sorted(_SAMPLE_KEYS)}")
        for key in ("name", "rule", "why"):
            if not isinstance(table.get(key), str) or not table[key].strip():
                raise ValueError(f"{path}: {where} needs `{key}`, a non-empty string")
        column, bound = table.get("column"), table.get("on_or_before")
        if (column is None) != (bound is None):
            raise ValueError(f"{path}: {where} ({table['name']!r}) needs both `column` and `on_or_before`, or "
                             "neither (every row of the data file)")
        if bound is not None:
            if not isinstance(bound, datetime.date) or isinstance(bound, datetime.datetime):
                raise ValueError(f"{path}: {where} ({table['name']!r}): `on_or_before` must be a TOML date "
                                 f"(on_or_before = 2014-04-01), got {bound!r}")
            expected = f"{column} on or before {bound.isoformat()}"
            if table["rule"] != expected:
                raise ValueError(f"{path}: {where} ({table['name']!r}): `rule` must say what the sample keeps, "
                                 f"{expected!r}; got {table['rule']!r}")
        default = table.get("default", False)
        if not isinstance(default, bool):
            raise ValueError(f"{path}: {where} ({table['name']!r}): `default` must be true or false")
        samples.append(Sample(table["name"], table["rule"], table["why"], default, column, bound))
    names = [s.name for s in samples]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"{path}: samples named more than once: {repeated}")
    defaults = [s.name for s in samples if s.default]
    if len(defaults) != 1:
        raise ValueError(f"{path}: exactly one sample must have `default = true`; got {defaults or 'none'}")
    return tuple(samples)
