"""Build settings: defaults, overridden by the ``[tool.pagebuild]`` table of ``pyproject.toml``."""
from __future__ import annotations

import dataclasses
import pathlib
import tomllib

DEFAULTS = {
    "timeout": 600.0,
    "pages": ["explainers/*.md"],
    "audit_manifest": "audit.toml",
    "dpi": 100,
    "cache": ".cache/pagebuild.json",
    # Committed run times (a scheduling hint: longest pages start first); `make durations` rewrites it.
    "durations": ".pagebuild-durations.json",
    # Imported once by the fork server, so no page pays for them: what faircode and the pages use.
    "preload": [
        "numpy", "pandas", "scipy.stats", "matplotlib.pyplot",
        "sklearn.ensemble", "sklearn.linear_model", "sklearn.tree", "sklearn.model_selection",
        "sklearn.metrics", "sklearn.pipeline", "sklearn.preprocessing",
        "fairlearn.metrics", "fairlearn.reductions", "fairlearn.postprocessing",
    ],
    # Functions ("module:function") the fork server calls once after its imports; every page inherits what
    # they load (see _warm.py).
    "warm": [],
}


@dataclasses.dataclass(frozen=True)
class Config:
    """Settings of one build, rooted at ``root`` (the repository)."""

    root: pathlib.Path
    timeout: float
    pages: tuple[str, ...]
    audit_manifest: str
    dpi: int
    cache: str
    durations: str
    preload: tuple[str, ...]
    warm: tuple[str, ...] = ()

    @property
    def cache_path(self) -> pathlib.Path:
        return self.root / self.cache

    @property
    def durations_path(self) -> pathlib.Path:
        return self.root / self.durations


def load_config(root) -> Config:
    """Read ``[tool.pagebuild]`` from ``root/pyproject.toml``; unknown keys are an error."""
    root = pathlib.Path(root).resolve()
    table = {}
    pyproject = root / "pyproject.toml"
    if pyproject.exists():
        with open(pyproject, "rb") as handle:
            table = tomllib.load(handle).get("tool", {}).get("pagebuild", {})
    unknown = sorted(set(table) - set(DEFAULTS))
    if unknown:
        raise ValueError(
            f"{pyproject}: unknown key(s) {unknown} in [tool.pagebuild]; the valid keys are: {sorted(DEFAULTS)}"
        )
    merged = {**DEFAULTS, **table}
    timeout = merged["timeout"]
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
        raise ValueError(f"{pyproject}: [tool.pagebuild] timeout is {timeout!r}; expected a positive number of seconds")
    return Config(
        root=root,
        timeout=float(timeout),
        pages=tuple(merged["pages"]),
        audit_manifest=str(merged["audit_manifest"]),
        dpi=int(merged["dpi"]),
        cache=str(merged["cache"]),
        durations=str(merged["durations"]),
        preload=tuple(merged["preload"]),
        warm=tuple(merged["warm"]),
    )
