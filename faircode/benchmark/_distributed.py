"""The harness on a Dask distributed cluster: joblib's "dask" backend, bound to a client of one scheduler.

The grid's cells are independent joblib calls, so the harness needs no change to run on a cluster: inside
``dask_cluster(address)`` every ``joblib.Parallel`` (hence ``run_benchmark``) sends its calls to the scheduler's
workers. Each cell is seeded from its own seed and runs with one BLAS thread, so the table is the same as on this
machine (tests/test_benchmark_distributed.py compares them).
"""
from __future__ import annotations

import contextlib

import joblib

__all__ = ["dask_cluster"]

#: Seconds to wait for the scheduler to answer before giving up with an error that names the address.
CONNECT_TIMEOUT = 10


@contextlib.contextmanager
def dask_cluster(address, *, timeout=None):
    """Connect to the Dask scheduler at ``address`` and send joblib's work there for the block; yields the
    ``dask.distributed.Client``.

    Raises OSError (or TimeoutError) when no scheduler answers at ``address`` within ``timeout`` seconds
    (default :data:`CONNECT_TIMEOUT`).
    """
    from dask.distributed import Client

    with Client(address, timeout=CONNECT_TIMEOUT if timeout is None else timeout, set_as_default=False) as client:
        with joblib.parallel_config(backend="dask", client=client):
            yield client
