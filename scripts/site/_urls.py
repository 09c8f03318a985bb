"""Where each file of an audit folder is published: short addresses without spaces, and redirects from the old ones.

An audit folder's name is its title ("Benefits Denial"), so the repository path of a page holds spaces. On the
site every file of an audit folder lives under ``audits/<slug>/`` instead, the slug being the folder's name in
lower case with dashes ("benefits-denial"); the write-up whose file is named like the folder becomes the audit's
own address, and the data card ``DATA.md`` is ``data``:

=====================================================  ==============================================
repository path                                        site path (a page's address is its folder)
=====================================================  ==============================================
``Benefits Denial/benefits-denial.md``                 ``audits/benefits-denial/index.md``
``Benefits Denial/DATA.md``                            ``audits/benefits-denial/data.md``
``Benefits Denial/figures/benefits-denial-1.png``      ``audits/benefits-denial/figures/benefits-denial-1.png``
``Benefits Denial/notebooks/benefits-denial.ipynb``    ``audits/benefits-denial/notebooks/benefits-denial.ipynb``
=====================================================  ==============================================

Explainers and the site's own pages keep their paths. mkdocs still reads each file from its repository path, so
Markdown links between pages are written as before; only where a file is written changes. The pages' old
addresses (``Benefits%20Denial/benefits-denial/``) get a small page that sends the reader on.
"""
from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Iterable

__all__ = ["SitePaths", "audit_slug", "redirect_page"]

AUDITS = "audits"


def audit_slug(name: str) -> str:
    """The address of an audit folder: its name in lower case, runs of other characters turned into one dash.

    Examples
    --------
    >>> audit_slug("Pretrial Risk Assessment")
    'pretrial-risk-assessment'
    >>> audit_slug("German Credit (1994)")
    'german-credit-1994'
    """
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if not slug:
        raise ValueError(f"audit folder {name!r}: its name has no letter or digit to make an address from")
    return slug


class SitePaths:
    """Maps repository paths to site paths for a given set of audit folders.

    Parameters
    ----------
    audit_names : iterable of str
        The audit folders' names (``Benefits Denial``), as they appear at the repository root.

    Examples
    --------
    >>> paths = SitePaths(["Benefits Denial"])
    >>> paths.site_path("Benefits Denial/benefits-denial.md")
    'audits/benefits-denial/index.md'
    >>> paths.page_url("Benefits Denial/DATA.md")
    'audits/benefits-denial/data/'
    >>> paths.page_url("explainers/reweighing.md")
    'explainers/reweighing/'
    """

    def __init__(self, audit_names: Iterable[str]):
        self._prefix: dict[str, str] = {}
        for name in audit_names:
            slug = audit_slug(name)
            if slug in {audit_slug(other) for other in self._prefix}:
                raise ValueError(f"audit folders {sorted(self._prefix)} and {name!r} would share the address "
                                 f"{AUDITS}/{slug}/; rename one of them")
            self._prefix[name] = slug

    def site_path(self, src_uri: str) -> str:
        """The path a repository file takes on the site (unchanged outside audit folders)."""
        top, sep, rest = src_uri.partition("/")
        slug = self._prefix.get(top)
        if slug is None or not sep:
            return src_uri
        if rest == f"{slug}.md":
            rest = "index.md"
        elif rest == "DATA.md":
            rest = "data.md"
        return f"{AUDITS}/{slug}/{rest}"

    def dest_uri(self, src_uri: str) -> str | None:
        """Where mkdocs should write a repository file (directory URLs), or None to keep mkdocs' own choice."""
        path = self.site_path(src_uri)
        if path == src_uri:
            return None
        if path.endswith(".md"):
            stem = path[: -len(".md")]
            return f"{stem}.html" if stem.endswith("/index") else f"{stem}/index.html"
        return path

    def page_url(self, src_uri: str) -> str:
        """The folder URL (from the site's root, not quoted) of a page or notebook page."""
        stem = self.site_path(src_uri).rsplit(".", 1)[0]
        return posixpath.dirname(stem) + "/" if stem.endswith("/index") else f"{stem}/"

    def moved(self, src_uris: Iterable[str]) -> list[tuple[str, str]]:
        """``(old folder URL, new folder URL)`` of each page or notebook whose address changed."""
        pairs = []
        for uri in src_uris:
            old = f"{uri.rsplit('.', 1)[0]}/"
            new = self.page_url(uri)
            if old != new:
                pairs.append((old, new))
        return pairs


def redirect_page(old_url: str, new_url: str) -> str:
    """A page at ``old_url`` that sends the reader to ``new_url`` (both folder URLs from the site's root).

    The target is relative, so the redirect works wherever the site is served from.
    """
    target = posixpath.relpath(new_url.rstrip("/") or ".", old_url.rstrip("/")) + "/"
    target = html.escape(target.replace(" ", "%20"), quote=True)
    return ("<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Moved</title>\n"
            f"<meta http-equiv=\"refresh\" content=\"0; url={target}\">\n"
            f"<link rel=\"canonical\" href=\"{target}\">\n<meta name=\"robots\" content=\"noindex\">\n</head>\n"
            f"<body>\n<p>This page has moved to <a href=\"{target}\">{target}</a>.</p>\n</body>\n</html>\n")
