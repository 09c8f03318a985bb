"""Where the project's pages and the files made from them live: the one module that knows the layout.

The page build (what runs, what it writes, what its cache hashes), the site hooks (what they publish, where
notebooks go) and the provenance notes all ask this module, so moving a file or adding an audit changes one place.

- Pages: ``explainers/*.md`` and the ``*.md`` of every audit folder, a folder at the repository root that holds
  an ``audit.toml``.
- A page's slug (its file name without ``.md``) names everything made from it, next to the page:
  ``<folder>/code/<slug>.py`` (its script), ``<folder>/figures/<slug>-<n>.png`` (its figures),
  ``<folder>/reports/<slug>/<name>`` (files its code writes for the site to publish, such as an HTML report) and,
  in the site's staging area, ``<folder>/notebooks/<slug>.ipynb``.
- An audit's inputs are every other file of its folder (data, manifest); its data files are its ``*.csv`` and ``*.csv.gz``.
"""
from __future__ import annotations

import pathlib
import re

#: The manifest that makes a root folder an audit (faircode.data.MANIFEST reads the same name; a test
#: holds the two equal, since faircode is installed on its own and cannot import the build's scripts).
AUDIT_MANIFEST = "audit.toml"
EXPLAINERS = "explainers"
EXPLAINER_PATTERN = f"{EXPLAINERS}/*.md"
DATA_CARD = "DATA.md"
CODE, FIGURES, NOTEBOOKS, REPORTS = "code", "figures", "notebooks", "reports"
#: Folders of generated files inside a page folder; never pages, never inputs.
GENERATED = (CODE, FIGURES, REPORTS, "__pycache__")
#: The environment variable that names, in a page's process under the build, the folder where the page writes the
#: files it publishes (its reports); the build moves them to :func:`report_path`. A page run on its own falls back
#: to :func:`report_folder`: ``os.environ.get(REPORTS_ENV, "<folder>/reports/<slug>")``.
REPORTS_ENV = "PAGEBUILD_REPORTS"
#: The kinds of file a page may publish as a report (the site serves them as they are).
REPORT_SUFFIXES = (".html", ".json")
GENERATED_HEADER = "# Generated from "


class PageEncodingError(ValueError):
    """A page whose bytes are not UTF-8: names the file, the line and the byte offset."""

    def __init__(self, path, error: UnicodeDecodeError, raw: bytes):
        self.path = str(path)
        self.offset = error.start
        self.line = raw.count(b"\n", 0, error.start) + 1
        bad = raw[error.start:error.end].hex(" ")
        super().__init__(f"{self.path}:{self.line}: not UTF-8: byte offset {self.offset} holds 0x{bad} "
                         f"({error.reason}); save the page as UTF-8")


def decode(path, raw: bytes) -> str:
    """A page's bytes as text, exactly (no newline translation); :class:`PageEncodingError` if not UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise PageEncodingError(path, err, raw) from None


def read_text(root, path) -> str:
    """The text of ``root/path`` (a page), read as bytes and decoded by :func:`decode`."""
    return decode(path, (pathlib.Path(root) / path).read_bytes())


def audit_folders(root) -> list[pathlib.Path]:
    """The audit folders of ``root`` (folders holding an ``audit.toml``), sorted by name."""
    root = pathlib.Path(root)
    return sorted(p.parent for p in root.glob(f"*/{AUDIT_MANIFEST}") if p.is_file() and not p.parent.name.startswith("."))


def explainer_pages(root) -> list[pathlib.Path]:
    """``explainers/*.md`` under ``root``, sorted."""
    return sorted(p for p in pathlib.Path(root).glob(EXPLAINER_PATTERN) if p.is_file())


def audit_pages(folder) -> list[pathlib.Path]:
    """The Markdown pages of one audit folder, sorted."""
    return sorted(p for p in pathlib.Path(folder).glob("*.md") if p.is_file())


def pages(root) -> list[str]:
    """Every page of ``root`` (explainers, then audit pages), as sorted paths relative to the root."""
    root = pathlib.Path(root)
    found = explainer_pages(root) + [p for folder in audit_folders(root) for p in audit_pages(folder)]
    return sorted(p.relative_to(root).as_posix() for p in found)


def page_folders(root) -> list[str]:
    """Folders that hold pages (and so may hold generated ``code/`` and ``figures/``), relative to the root."""
    return [EXPLAINERS] + [p.name for p in audit_folders(root)]


def slug(page: str) -> str:
    """The slug of a page path: its file name without ``.md``."""
    return pathlib.PurePosixPath(page).stem


def folder(page: str) -> str:
    """The folder of a page path (relative to the root)."""
    return str(pathlib.PurePosixPath(page).parent)


def script_path(page: str) -> str:
    """Where the build writes a page's script: ``<folder>/code/<slug>.py``."""
    return str(pathlib.PurePosixPath(folder(page)) / CODE / f"{slug(page)}.py")


def figure_path(page: str, number: int) -> str:
    """Where the build writes a page's figure ``number`` (from 1): ``<folder>/figures/<slug>-<number>.png``."""
    return str(pathlib.PurePosixPath(folder(page)) / FIGURES / f"{slug(page)}-{number}.png")


def figure_number(name: str, page_slug: str) -> int | None:
    """The number of a figure file name of the page ``page_slug`` (``<slug>-<n>.png``), else None."""
    match = re.fullmatch(rf"{re.escape(page_slug)}-(\d+)\.png", name)
    return int(match.group(1)) if match else None


def report_folder(page: str) -> str:
    """Where the build puts the files a page's code publishes: ``<folder>/reports/<slug>``."""
    return str(pathlib.PurePosixPath(folder(page)) / REPORTS / slug(page))


def report_path(page: str, name: str) -> str:
    """Where the build puts the report file ``name`` of a page: ``<folder>/reports/<slug>/<name>``."""
    return str(pathlib.PurePosixPath(report_folder(page)) / name)


def report_name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a report's file name (a plain name ending in one of REPORT_SUFFIXES), else None."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._-]*", name):
        return "a report's name is a plain file name (letters, digits, '.', '_', '-'), with no folder"
    if not name.endswith(REPORT_SUFFIXES):
        return f"a report's name ends in one of {', '.join(REPORT_SUFFIXES)}"
    return None


def notebook_path(page: str) -> str:
    """Where the site stages a page's notebook: ``<folder>/notebooks/<slug>.ipynb``."""
    return str(pathlib.PurePosixPath(folder(page)) / NOTEBOOKS / f"{slug(page)}.ipynb")


def page_of_script(script: str) -> str:
    """The page a script path was generated from (the inverse of :func:`script_path`)."""
    path = pathlib.PurePosixPath(script)
    return str(path.parent.parent / f"{path.stem}.md")


def case_collisions(paths) -> dict[str, list[str]]:
    """Pages whose paths differ only in letter case, each mapped to the others.

    Their scripts, figures and site addresses would be one file on a case-insensitive disk (macOS, Windows).
    """
    groups: dict[str, list[str]] = {}
    for path in paths:
        groups.setdefault(path.lower(), []).append(path)
    return {path: [other for other in group if other != path]
            for group in groups.values() if len(group) > 1 for path in group}


def audit_inputs(folder) -> list[pathlib.Path]:
    """The files of an audit folder that its pages depend on: everything but pages, generated and hidden files."""
    folder = pathlib.Path(folder)
    found = []
    for path in sorted(folder.rglob("*")):
        parts = path.relative_to(folder).parts
        if (path.is_file() and path.suffix != ".md" and not any(p.startswith(".") for p in parts)
                and not set(GENERATED).intersection(parts[:-1])):
            found.append(path)
    return found


DATA_PATTERNS = ("*.csv", "*.csv.gz")


def audit_data(folder) -> list[pathlib.Path]:
    """An audit's data files (``*.csv``, or compressed ``*.csv.gz``), sorted: what provenance lists with checksums."""
    folder = pathlib.Path(folder)
    return sorted({p for pattern in DATA_PATTERNS for p in folder.glob(pattern)})
