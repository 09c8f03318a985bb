"""Find the site's pages on disk and read their front matter: explainers by theme, audits with their write-ups."""
from __future__ import annotations

import dataclasses
import datetime
import pathlib
import re

from mkdocs.utils.meta import get_data

from scripts import layout

__all__ = ["THEMES", "REVIEW_KEY", "ALIASES_KEY", "Explainer", "AuditPage", "Audit", "PageMetadataError",
           "load_explainers", "load_audits", "review_date", "aliases"]

# The themes of CONTRIBUTING.md, in the order the site shows them, each with the line the home page gives it.
THEMES = {
    "evaluation design": "How to split, hold out and compare so that a number about groups means what it seems to.",
    "metrics": "What to measure between groups, and what each measure counts as parity.",
    "uncertainty": "How sure a gap between groups is, and when a group is too small to say.",
    "shift and robustness": "What happens to a model's fairness when the people it meets differ from the training data.",
    "sources of bias": "Where a gap between groups comes from: the features, the labels, the base rates and the data's make-up.",
    "mitigation": "Ways to reduce a measured gap, and what each costs.",
}
REQUIRED = ("title", "theme", "order", "definition")
# Optional on every page with code: the date of the page's last refutation review (CONTRIBUTING.md), YYYY-MM-DD.
REVIEW_KEY = "refutation_review"
# Optional: the other names readers use for the page's concept ("four-fifths rule", "80% rule"); the site shows
# them under the title and search ranks the page first for them.
ALIASES_KEY = "aliases"
_H1 = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.MULTILINE)


class PageMetadataError(ValueError):
    """A page's front matter is missing a field or holds a value the site cannot use."""


@dataclasses.dataclass(frozen=True)
class _Page:
    """A Markdown page the site adds from outside docs_dir; its slug names its script, figures and notebook."""

    slug: str
    src_uri: str
    path: pathlib.Path
    title: str
    order: float

    @property
    def script_uri(self) -> str:
        """Repository path of the script the build extracts from the page: ``<folder>/code/<slug>.py``."""
        return layout.script_path(self.src_uri)


@dataclasses.dataclass(frozen=True)
class Explainer(_Page):
    """One explainer page: ``explainers/<slug>.md`` and its front matter."""

    theme: str
    definition: str
    aliases: tuple = ()


@dataclasses.dataclass(frozen=True)
class AuditPage(_Page):
    """A Markdown page inside an audit folder (a write-up, or the data card ``DATA.md``)."""

    is_data_card: bool
    aliases: tuple = ()


@dataclasses.dataclass(frozen=True)
class Audit:
    """An audit folder at the repository root (any folder holding an ``audit.toml``)."""

    name: str
    path: pathlib.Path
    pages: tuple[AuditPage, ...]

    @property
    def writeups(self) -> tuple[AuditPage, ...]:
        """The audit's pages other than its data card."""
        return tuple(p for p in self.pages if not p.is_data_card)

    @property
    def data_card(self) -> AuditPage | None:
        """The audit's ``DATA.md`` page, if it has one."""
        return next((p for p in self.pages if p.is_data_card), None)


def posix_parent(uri: str) -> str:
    """The folder part of a slash-separated path."""
    return uri.rsplit("/", 1)[0] if "/" in uri else ""


def _front_matter(path: pathlib.Path, root: pathlib.Path) -> tuple[str, dict]:
    try:
        text = layout.read_text(root, path.relative_to(root).as_posix())
    except layout.PageEncodingError as err:
        raise PageMetadataError(str(err)) from None
    try:
        body, meta = get_data(text)
    except Exception as err:  # mkdocs' own YAML reader; name the page whatever it raises
        raise PageMetadataError(f"{path.relative_to(root)}: cannot read its front matter: {err}") from err
    return body, meta or {}


def review_date(meta: dict, where: str) -> datetime.date | None:
    """The date of a page's last refutation review from its front matter, or None when it has had none.

    Examples
    --------
    >>> review_date({"refutation_review": datetime.date(2026, 12, 1)}, "page.md")
    datetime.date(2026, 12, 1)
    >>> review_date({}, "page.md") is None
    True
    """
    value = meta.get(REVIEW_KEY)
    if value is None:
        return None
    if isinstance(value, datetime.datetime) or not isinstance(value, datetime.date):
        raise PageMetadataError(f"{where}: front matter {REVIEW_KEY!r} is {value!r}; expected a date written "
                                "YYYY-MM-DD (the day of the page's last refutation review, see CONTRIBUTING.md)")
    return value


def aliases(meta: dict, where: str) -> tuple:
    """The page's ``aliases`` (other names of its concept) from its front matter; () when it names none.

    Examples
    --------
    >>> aliases({"aliases": ["four-fifths rule", "80% rule"]}, "page.md")
    ('four-fifths rule', '80% rule')
    """
    value = meta.get(ALIASES_KEY)
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise PageMetadataError(f"{where}: front matter {ALIASES_KEY!r} is {value!r}; expected a list of names "
                                "(e.g. aliases: [four-fifths rule, 80% rule])")
    return tuple(" ".join(v.split()) for v in value)


def _order(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PageMetadataError(f"{where}: front matter 'order' is {value!r}; expected a number (position within its theme)")
    return float(value)


def _explainer(path: pathlib.Path, root: pathlib.Path) -> Explainer:
    where = path.relative_to(root).as_posix()
    _, meta = _front_matter(path, root)
    missing = [key for key in REQUIRED if meta.get(key) in (None, "")]
    if missing:
        raise PageMetadataError(
            f"{where}: front matter lacks {', '.join(repr(k) for k in missing)}; every explainer needs "
            f"{', '.join(REQUIRED)} (see CONTRIBUTING.md)"
        )
    review_date(meta, where)
    theme = str(meta["theme"]).strip().lower()
    if theme not in THEMES:
        valid = ", ".join(repr(t) for t in THEMES)
        raise PageMetadataError(f"{where}: front matter theme is {meta['theme']!r}; expected one of: {valid}")
    return Explainer(
        slug=path.stem,
        src_uri=where,
        path=path,
        title=str(meta["title"]).strip(),
        order=_order(meta["order"], where),
        theme=theme,
        definition=" ".join(str(meta["definition"]).split()),
        aliases=aliases(meta, where),
    )


def load_explainers(root: pathlib.Path) -> list[Explainer]:
    """Read every ``explainers/*.md`` under ``root``.

    Parameters
    ----------
    root : pathlib.Path
        The repository root (the folder of ``mkdocs.yml``).

    Returns
    -------
    list of Explainer
        Sorted by theme (in ``THEMES`` order), then ``order``, then title. Empty when there are no pages.

    Raises
    ------
    PageMetadataError
        When a page lacks a required front matter field or names an unknown theme.
    """
    pages = [_explainer(p, root) for p in layout.explainer_pages(root)]
    themes = list(THEMES)
    return sorted(pages, key=lambda e: (themes.index(e.theme), e.order, e.title.lower(), e.slug))


def _audit_page(path: pathlib.Path, root: pathlib.Path) -> AuditPage:
    where = path.relative_to(root).as_posix()
    body, meta = _front_matter(path, root)
    is_card = path.name == layout.DATA_CARD
    heading = _H1.search(body)
    title = meta.get("title") or (heading.group(1) if heading else None) or path.stem
    if is_card:
        title = "Data card"
    order = _order(meta["order"], where) if "order" in meta else 0.0
    return AuditPage(path.stem, where, path, str(title).strip(), order, is_card, aliases(meta, where))


def load_audits(root: pathlib.Path) -> list[Audit]:
    """Read every audit folder under ``root`` (a folder with an ``audit.toml``), sorted by name.

    Parameters
    ----------
    root : pathlib.Path
        The repository root.

    Returns
    -------
    list of Audit
        Each with its Markdown pages: write-ups by ``order`` then title, the data card (``DATA.md``) last.
    """
    audits = []
    for folder in layout.audit_folders(root):
        pages = [_audit_page(p, root) for p in layout.audit_pages(folder)]
        pages.sort(key=lambda p: (p.is_data_card, p.order, p.title.lower()))
        audits.append(Audit(folder.name, folder, tuple(pages)))
    return audits
