"""Lighter notebook pages: what mkdocs-jupyter inlines into every notebook page, served once instead.

mkdocs-jupyter writes each notebook page with the notebook's figures as base64 ``data:`` images and with
JupyterLab's stylesheets inline, about 1.2 to 1.8 MB a page, half of the whole site. Each figure is already a file
of the site (``<folder>/figures/<slug>-<n>.png``, the page shows it), and the stylesheets are the same on every
notebook page. So a notebook page's ``data:`` image whose bytes equal a published figure points to that file, and
its large inline stylesheets go to one file under ``assets/`` named by their content's hash, linked where they
stood. The downloadable ``.ipynb`` keeps its images: only the page changes.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import re

__all__ = ["lighten", "STYLE_MIN_CHARS"]

# The image's src, and the href of the lightbox link (mkdocs-glightbox) around it.
_DATA_PNG = re.compile(r'(?P<attr>src|href)="data:image/png;base64,(?P<data>[A-Za-z0-9+/=\s]+)"')
_STYLE = re.compile(r"<style[^>]*>(?P<css>.*?)</style>", re.DOTALL)
STYLE_MIN_CHARS = 2000  # an inline stylesheet at least this long is JupyterLab's, shared by every notebook page


def lighten(html: str, figure_url, stylesheet_url) -> str:
    """A notebook page's HTML with published figures linked and its large inline stylesheets moved to a file.

    Parameters
    ----------
    html : str
        The page as mkdocs wrote it.
    figure_url : callable
        Takes a figure's PNG bytes; returns the URL (relative to the page) of the site file holding the same
        bytes, or None to keep the image inline.
    stylesheet_url : callable
        Takes the stylesheets' text; stores it (once per content) and returns its URL relative to the page.

    Examples
    --------
    >>> png = "data:image/png;base64,AAAA"
    >>> page = '<style>' + 'x' * 2000 + f'</style><a href="{png}"><img src="{png}"></a>'
    >>> lighten(page, lambda png: "../f.png", lambda css: "../a.css")
    '<link rel="stylesheet" href="../a.css"><a href="../f.png"><img src="../f.png"></a>'
    """
    def image(match: re.Match) -> str:
        try:
            png = base64.b64decode(re.sub(r"\s+", "", match["data"]), validate=True)
        except (binascii.Error, ValueError):
            return match[0]
        url = figure_url(png)
        return f'{match["attr"]}="{url}"' if url else match[0]

    html = _DATA_PNG.sub(image, html)
    large = [m for m in _STYLE.finditer(html) if len(m["css"]) >= STYLE_MIN_CHARS]
    if not large:
        return html
    href = stylesheet_url("\n".join(m["css"] for m in large))
    out, last = [], 0
    for number, match in enumerate(large):
        out.append(html[last:match.start()])
        if number == 0:
            out.append(f'<link rel="stylesheet" href="{href}">')
        last = match.end()
    out.append(html[last:])
    return "".join(out)


def digest(data: bytes) -> str:
    """The SHA-256 of some bytes, hex."""
    return hashlib.sha256(data).hexdigest()
