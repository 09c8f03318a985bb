"""Build settings: defaults, overridden by the ``[tool.pagebuild]`` table of ``pyproject.toml``, all checked here.

Which pages exist and where their files go is not a setting: :mod:`scripts.layout` holds it for the build and
the site alike.
"""
from __future__ import annotations

import ast
import dataclasses
import importlib.machinery
import pathlib
import sys
import tomllib

from ._pages import positive_seconds

DEFAULTS = {
    "timeout": 600.0,
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
    # The most characters one page may print (all its blocks together); more is that page's error, so that a
    # runaway print cannot ship a page (and a search index) of many megabytes.
    "max_output": 200_000,
}


@dataclasses.dataclass(frozen=True)
class Config:
    """Settings of one build, rooted at ``root`` (the repository)."""

    root: pathlib.Path
    timeout: float
    dpi: int
    cache: str
    durations: str
    preload: tuple[str, ...]
    warm: tuple[str, ...] = ()
    max_output: int = DEFAULTS["max_output"]

    @property
    def cache_path(self) -> pathlib.Path:
        return self.root / self.cache

    @property
    def durations_path(self) -> pathlib.Path:
        return self.root / self.durations


def load_config(root) -> Config:
    """Read ``[tool.pagebuild]`` from ``root/pyproject.toml``; a missing root, an unknown key or a bad value is
    a ValueError that names it and says what was expected."""
    given = pathlib.Path(root)
    root = given.resolve()
    if not root.is_dir():
        raise ValueError(f"the root {str(given)!r} ({root}) is not a folder; expected the repository root "
                         "(the folder holding pyproject.toml)")
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

    def fail(key, expected):
        raise ValueError(f"{pyproject}: [tool.pagebuild] {key} is {merged[key]!r}; expected {expected}")

    if not positive_seconds(merged["timeout"]):
        fail("timeout", "a finite positive number of seconds")
    for key in ("dpi", "max_output"):
        if isinstance(merged[key], bool) or not isinstance(merged[key], int) or merged[key] < 1:
            fail(key, "a whole number of at least 1")
    for key in ("cache", "durations"):
        if not isinstance(merged[key], str) or not merged[key]:
            fail(key, "a path relative to the root")
    for key in ("preload", "warm"):
        if not isinstance(merged[key], list) or not all(isinstance(item, str) for item in merged[key]):
            fail(key, "a list of strings")
    for entry in merged["preload"]:
        _module_spec(root, f"{pyproject}: [tool.pagebuild] preload entry {entry!r}", entry)
    for entry in merged["warm"]:
        _check_warm(root, pyproject, entry)
    return Config(
        root=root,
        timeout=float(merged["timeout"]),
        dpi=merged["dpi"],
        cache=merged["cache"],
        durations=merged["durations"],
        preload=tuple(merged["preload"]),
        warm=tuple(merged["warm"]),
        max_output=merged["max_output"],
    )


def _module_spec(root, where, module):
    """The spec of ``module`` as ``import`` would find it from the root first, found without importing it.

    The build's own process does not import the pages' libraries (the fork server does, and silently skips a
    module it cannot import), so a misspelt name must be caught here.
    """
    if not module or not all(part.isidentifier() for part in module.split(".")):
        raise ValueError(f"{where} is not a module name (dotted identifiers, for example 'sklearn.ensemble')")
    if module in sys.builtin_module_names:
        return importlib.machinery.BuiltinImporter.find_spec(module)
    locations, spec = [str(root), *sys.path], None
    for depth in range(module.count(".") + 1):
        name = ".".join(module.split(".")[: depth + 1])
        spec = importlib.machinery.PathFinder.find_spec(name, locations)
        if spec is None:
            raise ValueError(f"{where}: no module {name!r} under {root} or on the Python path")
        locations = list(spec.submodule_search_locations or [])
    return spec


def _check_warm(root, pyproject, entry):
    """A warm entry names a module that exists and a function it defines (a top-level ``def`` of its file)."""
    where = f"{pyproject}: [tool.pagebuild] warm entry {entry!r}"
    module, _, function = entry.partition(":")
    if not module or not function.isidentifier():
        raise ValueError(f"{where} is not 'module:function' (for example 'faircode.data._audits:warm_cache')")
    spec = _module_spec(root, where, module)
    origin = pathlib.Path(spec.origin or "")
    if origin.suffix != ".py":
        return  # a compiled or namespace module: nothing to read; the server reports a failure of its own
    tree = ast.parse(origin.read_bytes(), str(origin))
    defined = sorted(node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)))
    if function not in defined:
        raise ValueError(f"{where}: {origin} defines no function {function!r}; its functions are: "
                         f"{', '.join(defined) or 'none'}")
