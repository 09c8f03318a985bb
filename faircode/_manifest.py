"""Read and validate an audit's manifest (``<audit folder>/audit.toml``)."""
from __future__ import annotations

import dataclasses
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

    @property
    def data_path(self) -> pathlib.Path:
        return self.folder / self.data

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
        rows_kept=tuple(dict(step) for step in spec.get("rows_kept", ())))
    if manifest.target and manifest.target.get("attribute") not in protected:
        raise ValueError(f"{path}: target.attribute is {manifest.target.get('attribute')!r}; expected one of the "
                         f"protected attributes {list(protected)}")
    listed = list(manifest.feature_columns) + list(manifest.unused) + [manifest.outcome]
    repeated = sorted({c for c in listed if listed.count(c) > 1})
    if repeated:
        raise ValueError(f"{path}: columns listed more than once across protected/proxies/core/unused/outcome: "
                         f"{repeated}")
    return manifest
