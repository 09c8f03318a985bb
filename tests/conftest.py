import os
import pathlib

import pytest

from scripts.pagebuild._execute import CHILD_ENV

ROOT = pathlib.Path(__file__).resolve().parent.parent

# One BLAS/OpenMP thread, as the page build gives every page: a small model fit with every core's threads
# spends its time starting and syncing them (a 0.5 s fit took 7-20 s on a shared machine), and the tests'
# own subprocesses (site and page builds) inherit the setting. Set before any test module imports numpy.
for _name, _value in CHILD_ENV.items():
    if _name.endswith("_NUM_THREADS"):
        os.environ[_name] = _value

# The tests compute every fit rather than read the developer's fit cache (.cache/fits/); the fit cache's own tests
# point FAIRCODE_FIT_CACHE at a folder of their own.
os.environ["FAIRCODE_FIT_CACHE"] = "off"


@pytest.fixture(autouse=True, scope="session")
def _one_blas_thread():
    """Also limit the thread pools of libraries a plugin may have loaded before this file ran."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):
        yield


@pytest.fixture(scope="session")
def repo_root():
    return ROOT
