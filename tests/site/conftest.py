"""Fixtures of the site tests: a local server and the site built around the fixture pages."""
import functools
import http.server
import pathlib
import threading

import pytest

from _site_helpers import ROOT, QuietHandler, build_site, make_site_root


@pytest.fixture(scope="module")
def serve():
    """Serve a folder on 127.0.0.1 at a free port; returns a function folder -> base URL."""
    servers = []

    def start(folder: pathlib.Path) -> str:
        handler = functools.partial(QuietHandler, directory=str(folder))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory):
    """The site built around the fixture pages: (source root, site folder)."""
    root = make_site_root(tmp_path_factory.mktemp("fixture-root"))
    site = root / "out"
    build_site(root, site)
    return root, site


@pytest.fixture(scope="session")
def real_site(tmp_path_factory):
    """The repository's own site, whatever pages it has now, built with --strict into a temporary folder."""
    site = tmp_path_factory.mktemp("real") / "site"
    build_site(ROOT, site)
    return site
