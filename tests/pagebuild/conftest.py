"""Fixtures for the page-build tests: a throwaway repository root holding copies of the fixture pages."""
import pytest

from _build_helpers import FIXTURES, Site


@pytest.fixture
def site(tmp_path):
    return Site(tmp_path)


@pytest.fixture
def bare_site(tmp_path):
    """A root whose fork server preloads nothing: for pages that import no heavy library (starts in well under 1 s)."""
    return Site(tmp_path, "preload = []\n")


@pytest.fixture
def fixture_text():
    def read(name):
        return (FIXTURES / name).read_text()

    return read

