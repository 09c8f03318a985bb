"""The fork server's entry point: it imports this module last among its preloads, and the import runs the warm
calls (see ``_warm.py``). ``multiprocessing`` hands a fork server nothing but module names to import, so an
import is the only way to run code there; no other process imports this module.
"""
from . import _warm

_warm.warm()
