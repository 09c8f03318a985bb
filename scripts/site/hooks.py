"""MkDocs hooks of the site (``hooks:`` in mkdocs.yml).

- on_files: adds the pages that live outside ``docs_dir`` (``explainers/*.md``, each audit folder's pages), their
  figures, scripts and published reports, stages a notebook per generated script, and builds the navigation from front matter.
- on_page_markdown: fills the home page and the concept index from front matter, shows links to pages that
  do not exist yet as plain text, and ends each page that has code with how to run it and what it was made from.
- on_page_content: splits the cells of output tables into estimate, interval and notes for the theme to style.
- on_serve: watches the page folders, so that ``make serve`` reloads when a page changes.
"""
from __future__ import annotations

import html
import logging
import pathlib
import posixpath
import re
import shlex
import sys
from urllib.parse import quote

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.utils import get_relative_url

_ROOT = pathlib.Path(__file__).resolve().parents[2]
if str(_ROOT) not in sys.path:  # mkdocs loads this file by path; the helpers are the package scripts.site
    sys.path.insert(0, str(_ROOT))

from scripts import layout  # noqa: E402
from scripts.site._fences import normalize_fences  # noqa: E402
from scripts.site._links import unlink_missing_pages  # noqa: E402
from scripts.site._outputs import frame_outputs, point_to_folds, short_alt_markdown  # noqa: E402
from scripts.site._archive import build_archive  # noqa: E402
from scripts.site._files import write_bytes_if_changed  # noqa: E402
from scripts.site._notebook_pages import digest, lighten  # noqa: E402
from scripts.site._notebooks import ARCHIVE_NAME, RUN_COMMAND, notebook_for_page, stage_notebook  # noqa: E402
from scripts.site._pages import (THEMES, PageMetadataError, aliases, load_audits, load_explainers,  # noqa: E402
                                 review_date)
from scripts.site._provenance import provenance  # noqa: E402
from scripts.site._tables import style_tables  # noqa: E402
from scripts.site._urls import SitePaths, redirect_page  # noqa: E402

log = logging.getLogger("mkdocs.hooks.site")
STAGING = ".cache/site"          # notebooks built from the scripts, under the config's folder; never committed
_IMAGE_SUFFIXES = (".png", ".svg", ".jpg", ".jpeg", ".gif", ".webp")
_STATE: dict = {}


def _root(config) -> pathlib.Path:
    return pathlib.Path(config.config_file_path).resolve().parent


def _add(files: Files, config, src_uri: str, src_dir: pathlib.Path, paths: SitePaths | None = None) -> File:
    existing = files.get_file_from_path(src_uri)
    if existing is not None:
        raise PluginError(f"{src_uri}: the site already has a file at this path (from {config.docs_dir}); "
                          "a page outside docs_dir cannot share it")
    # A File with a real src_dir, not File.generated: mkdocs-jupyter's NotebookFile wrapper derives the
    # source path from src_dir and would lose a path given only as abs_src_path.
    # An audit folder's files are written under audits/<slug>/ (scripts/site/_urls.py); links still name src_uri.
    dest_uri = paths.dest_uri(src_uri) if paths is not None else None
    file = File(src_uri, str(src_dir), config.site_dir, config.use_directory_urls, dest_uri=dest_uri)
    files.append(file)
    return file


def _page_link(src_uri: str) -> str:
    """A Markdown link target from the site root for a page path that may contain spaces."""
    return quote(src_uri)


def _relative(src_uri: str, folder: str) -> str:
    """A Markdown link target to ``src_uri`` from a page in ``folder`` (both slash-separated, from the root)."""
    return quote(posixpath.relpath(src_uri, folder or "."))


@event_priority(100)  # before mkdocs-jupyter's on_files, which turns the staged notebooks into pages
def on_files(files: Files, config) -> Files:
    root = _root(config)
    try:
        explainers = load_explainers(root)
        audits = load_audits(root)
    except PageMetadataError as err:
        raise PluginError(str(err)) from err
    staging = root / STAGING
    paths = SitePaths(a.name for a in audits)
    coded = {}  # page src_uri -> (title, script path, script uri)
    for page in explainers:
        _add(files, config, page.src_uri, root)
        coded[page.src_uri] = (page.title, page.script_uri)
    for audit in audits:
        for page in audit.pages:
            _add(files, config, page.src_uri, root, paths)
            if not page.is_data_card:
                coded[page.src_uri] = (page.title, page.script_uri)
        for path in layout.audit_data(audit.path):  # the data the checksums describe, for download
            _add(files, config, path.relative_to(root).as_posix(), root, paths)
    figures = []  # (source path, File) of every published figure: notebook pages link them (on_post_page)
    for folder in layout.page_folders(root):
        for sub in (layout.FIGURES, layout.CODE):
            for path in sorted((root / folder / sub).glob("*")):
                if path.is_file() and (path.suffix in _IMAGE_SUFFIXES or (sub == "code" and path.suffix == ".py")):
                    added = _add(files, config, path.relative_to(root).as_posix(), root, paths)
                    if sub == layout.FIGURES and path.suffix == ".png":
                        figures.append((path, added))
        # Files a page's code published (an HTML report), served as they are: <folder>/reports/<slug>/<name>.
        for path in sorted((root / folder / layout.REPORTS).glob("*/*")):
            if path.is_file() and path.suffix in layout.REPORT_SUFFIXES:
                _add(files, config, path.relative_to(root).as_posix(), root, paths)
    scripts, notebooks = {}, {}
    for src_uri, (title, script_uri) in coded.items():
        script = root / script_uri
        if not script.is_file():
            log.info("%s has no generated script (%s) yet: no notebook or provenance for it", src_uri, script_uri)
            continue
        notebook_uri = layout.notebook_path(src_uri)  # in the repository and the source archive
        staged_uri = paths.site_path(notebook_uri)    # on the site: staged where it is published
        notebook = notebook_for_page(root / src_uri, src_uri, title, page_url=paths.page_url(src_uri),
                                     notebook_page_url=paths.page_url(notebook_uri), archive_url=ARCHIVE_NAME,
                                     exists=lambda uri: files.get_file_from_path(uri) is not None,
                                     page_url_of=paths.page_url, file_url_of=paths.site_path)
        stage_notebook(notebook, staging / staged_uri)
        notebooks[notebook_uri] = (staging / staged_uri).read_bytes()
        _add(files, config, staged_uri, staging)
        scripts[src_uri] = (script_uri, notebook_uri, staged_uri)
    # The source archive a reader runs the pages from, with the notebooks inside it next to their pages.
    write_bytes_if_changed(staging / ARCHIVE_NAME, build_archive(root, extra=notebooks))
    _add(files, config, ARCHIVE_NAME, staging)
    for theme in THEMES:  # each theme's overview page, where its tab lands
        if any(e.theme == theme for e in explainers):
            files.append(File.generated(config, _theme_uri(theme), content=_theme_markdown(theme, explainers)))
    if any(a.pages for a in audits):  # the audits' overview, where the Audits tab lands
        files.append(File.generated(config, AUDITS_URI, content=_audits_overview_markdown(audits)))
    config.nav = _navigation(explainers, audits)
    _STATE.update(root=root, explainers=explainers, audits=audits, scripts=scripts, paths=paths, figures=figures,
                  figure_urls=None,
                  audit_dirs={a.name: a.path for a in audits})
    return files


AUDITS_URI = "audits/index.md"


def _audits_overview_markdown(audits) -> str:
    """The audits' overview: each audit's decision setting in a sentence (its manifest's summary), what it decides
    and for whom, and links to its write-up and data card. The site reads only what the manifest holds of these
    (it does not validate the manifest: ``faircode`` does that when an audit is loaded)."""
    import tomllib

    folder = posixpath.dirname(AUDITS_URI)
    parts = ["---\ntitle: Audits\n---\n\n# Audits\n\nEach audit is one decision setting, with real data, the "
             "groups it examines and a write-up that puts the methods of the explainers together on it. Its data "
             "card says where the data comes from, which rows were kept and why, and what its columns mean.\n"]
    for audit in audits:
        if not audit.pages:
            continue
        try:
            spec = tomllib.loads((audit.path / layout.AUDIT_MANIFEST).read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as err:
            raise PluginError(f"{audit.path / layout.AUDIT_MANIFEST}: cannot read it for the audits' overview: {err}")
        outcome = spec.get("outcome") if isinstance(spec.get("outcome"), dict) else {}
        capacity = (spec.get("decision") or {}).get("capacity") if isinstance(spec.get("decision"), dict) else None
        protected = spec.get("protected") if isinstance(spec.get("protected"), dict) else {}
        groups = ", ".join(str(rule.get("group")) for rule in protected.values() if isinstance(rule, dict)
                           and rule.get("group"))
        facts = []
        if outcome.get("label"):
            decision = (f"the programme takes the {capacity:.0%} of people the model ranks highest"
                        if isinstance(capacity, (int, float)) else "a model's decision at its 0.5 threshold")
            facts.append(f"- Outcome: {outcome['label']}; decision: {decision}.")
        if groups:
            facts.append(f"- Groups examined: {groups}.")
        links = "; ".join(f"[{'data card' if p.is_data_card else p.title}]({_relative(p.src_uri, folder)})"
                          for p in sorted(audit.pages, key=lambda p: p.is_data_card))
        facts.append(f"- Read: {links}.")
        summary = f"{spec['summary']}\n\n" if isinstance(spec.get("summary"), str) else ""
        parts.append(f"## {audit.name}\n\n{summary}" + "\n".join(facts) + "\n")
    return "\n".join(parts)


def _theme_uri(theme: str) -> str:
    """The overview page of a theme: ``themes/<theme-with-dashes>/index.md`` (an index, so the section links to it)."""
    return f"themes/{theme.replace(' ', '-')}/index.md"


def _theme_markdown(theme: str, explainers) -> str:
    """A theme's overview: what the theme is about, then its pages in reading order with their definitions."""
    folder = posixpath.dirname(_theme_uri(theme))
    pages = [e for e in explainers if e.theme == theme]
    entries = "\n".join(f"[{e.title}]({_relative(e.src_uri, folder)})\n:   {e.definition}\n" for e in pages)
    return (f"---\ntitle: {theme.capitalize()}\n---\n\n# {theme.capitalize()}\n\n{THEMES[theme]}\n\n"
            f"The {len(pages)} page{'s' if len(pages) != 1 else ''} of this theme, in the order to read them, "
            f"each with its one-sentence definition:\n\n{entries}")


def _navigation(explainers, audits) -> list:
    nav: list = [{"Home": "index.md"}, {"Concept index": "concepts.md"}]
    for theme in THEMES:
        pages = [{e.title: e.src_uri} for e in explainers if e.theme == theme]
        if pages:
            nav.append({theme.capitalize(): [_theme_uri(theme), *pages]})
    if audits:
        nav.append({"Audits": [AUDITS_URI, *({a.name: [{p.title: p.src_uri} for p in a.pages]}
                                             for a in audits if a.pages)]})
    return nav


def on_page_markdown(markdown: str, page, config, files: Files) -> str:
    src_uri = page.file.src_uri
    if src_uri == "index.md":
        markdown = _fill(markdown, "<!-- site: themes -->", _themes_markdown())
        markdown = _fill(markdown, "<!-- site: audits -->", _audits_markdown())
        markdown = _fill(markdown, "<!-- site: picture -->", _picture_markdown(page.meta.get("picture"), files))
    elif src_uri == "concepts.md":
        markdown = _fill(markdown, "<!-- site: concepts -->", _concepts_markdown())
    root = _STATE["root"]

    def exists(uri: str) -> bool:
        return files.get_file_from_path(uri) is not None or (root / uri).is_file()

    # Outputs are framed before the fences lose their output="name" options, which say which block printed what.
    markdown, unlinked = unlink_missing_pages(normalize_fences(point_to_folds(frame_outputs(markdown))), src_uri, exists)
    for target in unlinked:
        log.info("%s: %s does not exist yet; its link is shown as text", src_uri, target)
    if src_uri in _STATE["scripts"]:
        markdown = markdown.rstrip("\n") + "\n\n" + _run_it_yourself(page, files)
    return _show_aliases(markdown, page)


def _page_aliases(page) -> tuple:
    """The page's front matter ``aliases``; a malformed list stops the build with the page named."""
    try:
        return aliases(page.meta, page.file.src_uri)
    except PageMetadataError as err:
        raise PluginError(str(err)) from None


def _show_aliases(markdown: str, page) -> str:
    """The page's other names (front matter ``aliases``) in a line under its title, as readers may know it so."""
    names = _page_aliases(page)
    heading = re.search(r"^# .+$", markdown, flags=re.MULTILINE)
    if not names or heading is None:
        return markdown
    line = f'<p class="fc-aliases">Also known as: {html.escape(", ".join(names))}.</p>'
    return markdown[:heading.end()] + "\n\n" + line + markdown[heading.end():]


def _fill(markdown: str, marker: str, content: str) -> str:
    if marker not in markdown:
        raise PluginError(f"the page lacks the marker {marker!r} where the hooks put the generated list")
    return markdown.replace(marker, content)


def _themes_markdown() -> str:
    cards = []
    for theme, blurb in THEMES.items():
        pages = [e for e in _STATE["explainers"] if e.theme == theme]
        links = "\n".join(f"    - [{e.title}]({_page_link(e.src_uri)})" for e in pages) or "    - *No page yet.*"
        name = f"[{theme.capitalize()}]({_page_link(_theme_uri(theme))})" if pages else theme.capitalize()
        cards.append(f"-   **{name}**\n\n    ---\n\n    {blurb}\n\n{links}\n")
    return '<div class="grid cards" markdown>\n\n' + "\n".join(cards) + "\n</div>\n"


def _picture_markdown(uri: str | None, files: Files) -> str:
    """The home page's picture: a figure a page drew (front matter ``picture:``), captioned, linked to its page.

    Nothing when the figure is not on the site (a fresh site, or a figure that is no longer drawn).
    """
    if not uri or files.get_file_from_path(uri) is None:
        return ""
    folder, name = uri.rsplit("/figures/", 1)
    page_uri = f"{folder}/{name.rsplit('-', 1)[0]}.md"
    page_path = _STATE["root"] / page_uri
    if not page_path.is_file():
        return ""
    # The figure's label is its alt text on the page that shows it: ![label](figures/name.png).
    image = r"!\[(?P<alt>(?:[^\]\\]|\\.)*)\]\(<?figures/" + re.escape(name) + r">?\)"
    shown = re.search(image, page_path.read_text(encoding="utf-8"))
    alt = shown.group("alt") if shown else name  # Markdown-escaped, as the build wrote it
    title = next((e.title for e in _STATE["explainers"] if e.src_uri == page_uri), page_uri)
    short = short_alt_markdown(alt)  # the caption holds it whole
    return (f'<figure class="fc-figure fc-home-picture" markdown>\n\n![{short}]({_page_link(uri)})\n\n'
            f'<figcaption markdown="span">From [{title}]({_page_link(page_uri)}): {alt}</figcaption>\n\n</figure>\n')


def _audits_markdown() -> str:
    audits = _STATE["audits"]
    if not audits:
        return "*No audit yet.*\n"
    cards = []
    for audit in audits:
        links = "\n".join(f"    - [{p.title}]({_page_link(p.src_uri)})" for p in audit.pages) or "    - *No page yet.*"
        cards.append(f"-   **{audit.name}**\n\n    ---\n\n{links}\n")
    return '<div class="grid cards" markdown>\n\n' + "\n".join(cards) + "\n</div>\n"


def _concepts_markdown() -> str:
    explainers = sorted(_STATE["explainers"], key=lambda e: (e.title.lower(), e.slug))
    if not explainers:
        return "*No explainer has been published yet.*\n"
    return "\n".join(f"[{e.title}]({_page_link(e.src_uri)})\n:   {e.definition} *({e.theme})*\n" for e in explainers)


def _run_it_yourself(page, files: Files) -> str:
    script_uri, notebook_uri, staged_uri = _STATE["scripts"][page.file.src_uri]
    root = _STATE["root"]
    here = posixpath.dirname(page.file.src_uri)
    notebook_file = files.get_file_from_path(staged_uri)
    name = notebook_uri.rsplit("/", 1)[1]
    # mkdocs-jupyter's include_source copies the .ipynb into the notebook page's own folder.
    download = get_relative_url(notebook_file.url + name, page.file.url)
    facts = provenance(root, root / script_uri, _STATE["audit_dirs"])
    data = "\n".join(f"- [`{path}`]({_relative(path, here)}), SHA-256 `{digest}`" for path, digest in facts.data)
    libraries = ", ".join(f"{name_} {version}" for name_, version in facts.libraries)
    inputs = "\n".join(filter(None, [
        data or "- No audit data file named in the code.",
        f"- Libraries, as pinned in `requirements.lock`: {libraries}." if libraries else "",
    ]))
    archive = get_relative_url(files.get_file_from_path(ARCHIVE_NAME).url, page.file.url)
    try:
        reviewed = review_date(page.meta, page.file.src_uri)
    except PageMetadataError as err:
        raise PluginError(str(err)) from None
    review = (f"Its conclusions last had a refutation review, in which each claim that explains, compares or "
              f"generalises was checked by a computation that could refute it, on {reviewed.isoformat()}."
              if reviewed else "Its conclusions have not yet had a refutation review (a computation that could "
              "refute each claim that explains, compares or generalises).")
    notebook_run = RUN_COMMAND.format(notebook=shlex.quote(notebook_uri))
    return f"""## Run it yourself

The code on this page is also a script, [`{script_uri}`]({_relative(script_uri, here)}), generated
from the page by the build. To run it, download the project's source archive,
<a href="{archive}" download>{ARCHIVE_NAME}</a> (the `faircode` package, the audit data, every page and the
pinned list of packages), unpack it, and from its folder (`fair-code-project`) set up the project's environment
once and run the script; it prints what this page shows:

```bash
make setup      # creates .venv with the packages pinned in requirements.lock (needs Python 3.11)
OMP_NUM_THREADS=1 PYTHONPATH=. .venv/bin/python {shlex.quote(script_uri)}
```

Prefer Jupyter? [Read the notebook version]({_relative(staged_uri, here)}) (the page's prose, code and
outputs) or <a href="{download}" download>download {name}</a>; the archive holds it too, and
`{notebook_run}` runs it top to bottom in the project's environment.

<div class="provenance" markdown>

The outputs on this page were produced from:

{inputs}

{review}

</div>
"""


def on_page_content(html: str, page, config, files: Files) -> str:
    return style_tables(html)


@event_priority(100)  # before the search plugin indexes the page
def on_page_context(context, page, config, nav):
    """Leave notebook pages out of search (each repeats its explainer, which is the page a search should find) and
    without the navigation sidebar; give other pages' aliases to search as tags."""
    if page.file.src_uri.endswith(".ipynb"):
        page.meta["search"] = {**(page.meta.get("search") or {}), "exclude": True}
        # Notebook pages are not in the navigation (each links to its page): no empty sidebar beside them, and
        # the room goes to the notebook's tables.
        page.meta["hide"] = sorted({*(page.meta.get("hide") or []), "navigation"})
    else:
        # The names readers use for the concept go to the search index as its most heavily boosted field (the
        # theme's "tags"), so that searching "80% rule" lands on the page that explains it.
        names = _page_aliases(page)
        if names:
            page.meta["tags"] = [*(page.meta.get("tags") or []), *names]
    return context


def on_post_page(output: str, page, config) -> str:
    """A notebook page links the site's own figure files and one shared stylesheet instead of inlining them
    (scripts/site/_notebook_pages.py): from about 1.5 MB a page to a fraction of it."""
    if not page.file.src_uri.endswith(".ipynb"):
        return output
    if _STATE.get("figure_urls") is None:
        _STATE["figure_urls"] = {digest(path.read_bytes()): file.url for path, file in _STATE.get("figures", ())}

    def figure_url(png: bytes):
        url = _STATE["figure_urls"].get(digest(png))
        return get_relative_url(url, page.url) if url else None

    def stylesheet_url(css: str) -> str:
        data = css.encode("utf-8")
        uri = f"assets/notebook-{digest(data)[:12]}.css"
        target = pathlib.Path(config.site_dir) / uri
        write_bytes_if_changed(target, data)
        target.chmod(0o644)  # readable by the web server, like the files mkdocs copies
        return get_relative_url(uri, page.url)

    return lighten(output, figure_url, stylesheet_url)


def on_post_build(config):
    """Leave a page at each address an audit page had before audits moved to short addresses, pointing to the new one."""
    site = pathlib.Path(config.site_dir)
    moved = [uri for audit in _STATE.get("audits", ()) for page in audit.pages
             for uri in (page.src_uri, *([layout.notebook_path(page.src_uri)] if page.src_uri in _STATE["scripts"] else []))]
    for old, new in _STATE["paths"].moved(moved) if moved else ():
        write_bytes_if_changed(site / old / "index.html", redirect_page(old, new).encode("utf-8"))


def on_serve(server, config, builder):
    root = _root(config)
    for path in [root / layout.EXPLAINERS, *layout.audit_folders(root), pathlib.Path(__file__).parent]:
        if path.is_dir():
            server.watch(str(path))
    return server
