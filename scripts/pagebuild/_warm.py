"""Work done once in the fork server, after its imports, so that no page pays for it: the ``warm`` calls.

``[tool.pagebuild] warm`` names functions (``"module:function"``), here faircode's loader of every audit, whose
results every forked page inherits (the audits' CSV files read, verified and encoded once per build instead of
once per page). The server can only be handed module names to import, so the build passes the repository root
and the calls through the server's environment and the server's last preload, ``_server``, calls :func:`warm`.
Importing this module does nothing.

The configuration is checked before the build starts (``_config.py``: every entry names a module and a function
it defines). A warm call that raises is skipped here: the pages that need the same thing meet the same error and
report it with their page and line. A page of another root (the build's tests run several roots in one process)
must not inherit this root's modules, so :func:`forget_for` drops them in such a page's process.
"""
from __future__ import annotations

import importlib
import json
import os
import sys

from ._execute import WARM_ENV

#: The root whose modules were warmed, and the modules from that root the warm calls imported.
warmed_root = None
warmed_modules = ()


def warm():
    """In the fork server: make the calls the build's request (``WARM_ENV``) names; the request is then removed
    from the environment, so the pages do not inherit it."""
    global warmed_root, warmed_modules
    request = os.environ.pop(WARM_ENV, None)
    if not request:
        return
    spec = json.loads(request)
    before = set(sys.modules)
    if spec["root"] not in sys.path:
        sys.path.insert(0, spec["root"])
    for name in spec["calls"]:
        module, _, function = name.partition(":")
        try:
            getattr(importlib.import_module(module), function)()
        except Exception:  # noqa: BLE001 - see the module docstring: the pages report it
            continue
    warmed_root = spec["root"]
    inside = os.path.join(os.path.realpath(warmed_root), "")
    installed = tuple(os.path.join(os.path.realpath(p), "") for p in {sys.prefix, sys.base_prefix})

    def own(name):  # a module of the root itself, not a library installed in a virtualenv inside it
        path = os.path.realpath(getattr(sys.modules[name], "__file__", None) or "/")
        return path.startswith(inside) and not path.startswith(installed)

    warmed_modules = tuple(sorted(name for name in set(sys.modules) - before if own(name)))


def forget_for(root: str) -> None:
    """In a page's process: drop the server root's own modules (not the libraries they imported) if the page
    belongs to another root, so that it imports its own."""
    if warmed_root is not None and os.path.realpath(root) != os.path.realpath(warmed_root):
        for name in warmed_modules:
            sys.modules.pop(name, None)
