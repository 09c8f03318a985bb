"""The notebook version of a page: its prose as Markdown cells, its code as code cells with the outputs the build
recorded, opened by how to get the project and run it, and a first cell that finds the project's root.

The page, not its generated script, is the source: jupytext reads the page's Markdown into cells, and each output
region the build wrote between the page's markers becomes the outputs of the code cell that printed it (printed
text as a stream, Markdown tables as Markdown display data, figures as PNG images), so the notebook shows what
the page shows before anyone runs it.
"""
from __future__ import annotations

import base64
import pathlib
import posixpath
import re

import jupytext
import nbformat
from mkdocs.utils.meta import get_data
from nbformat.v4 import new_code_cell, new_markdown_cell, new_output

from scripts import layout
from scripts.site._files import write_text_if_changed
from scripts.site._links import unlink_missing_pages
from scripts.site._outputs import output_regions

__all__ = ["ARCHIVE_NAME", "RUN_COMMAND", "SETUP_SOURCE", "notebook_for_page", "stage_notebook", "region_outputs",
           "site_links"]

#: The source archive of the project, at the root of the site (scripts/site/_archive.py builds it).
ARCHIVE_NAME = "fair-code-project.zip"
#: How a reader runs a notebook of the unpacked project, top to bottom, in the project's environment.
RUN_COMMAND = ".venv/bin/jupyter nbconvert --to notebook --execute --inplace {notebook}"

# The first code cell: the notebook runs from wherever it is opened inside the unpacked project.
SETUP_SOURCE = '''\
# Work from the project's root, as the page build does: find the folder that holds faircode/ and pyproject.toml
# (this notebook lives two levels below it), make it the working directory and import faircode from it.
import os
import pathlib
import sys

ROOT = next((folder for folder in (pathlib.Path.cwd(), *pathlib.Path.cwd().parents)
             if (folder / "faircode").is_dir() and (folder / "pyproject.toml").is_file()), None)
if ROOT is None:
    raise RuntimeError(f"{pathlib.Path.cwd()} is not inside the Fair Code Project; unpack fair-code-project.zip "
                       "(a download on every page of the site) and open this notebook from its folder")
os.chdir(ROOT)
sys.path.insert(0, str(ROOT))
STYLE = ROOT / "scripts" / "pagebuild" / "figures.mplstyle"  # the figure style the page build draws with
if STYLE.is_file():
    import matplotlib.style

    matplotlib.style.use(STYLE)
'''

_MAGIC = re.compile(r"\A%%(?P<lang>[A-Za-z0-9_+-]+)[^\n]*\n?")
_FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n]*)$")
_IMAGE = re.compile(r"^!\[(?P<alt>(?:[^\]\\]|\\.)*)\]\((?:<(?P<angled>[^<>\n]+)>|(?P<plain>[^\s()]+))\)$")
_WRAPPER = re.compile(r"^\s*(?:<div\b[^>]*>|</div>)\s*$")
# Relative link or image targets in Markdown prose: ](target) and ](<target>), with an optional #anchor.
_LINK = re.compile(r"(?P<lead>\]\()(?:<(?P<angled>[^<>\n]+)>|(?P<plain>[^()\s<>]+))(?P<tail>(?:\s+\"[^\"\n]*\")?\))")


def _segments(content: str):
    """Split an output region into ('text', str), ('markdown', str) and ('image', (alt, path)) parts, in order."""
    lines, parts, index = content.split("\n"), [], 0
    loose: list[str] = []

    def flush():
        if "".join(loose).strip():
            parts.append(("markdown", "\n".join(loose).strip("\n") + "\n"))
        loose.clear()

    while index < len(lines):
        fence, image = _FENCE.match(lines[index]), _IMAGE.match(lines[index])
        if fence:
            flush()
            close = next((j for j in range(index + 1, len(lines))
                          if lines[j].strip() == fence.group("fence")), len(lines))
            parts.append(("text", "\n".join(lines[index + 1:close]) + "\n"))
            index = close + 1
            continue
        if image:
            flush()
            alt = re.sub(r"\\(.)", r"\1", image.group("alt"))
            parts.append(("image", (alt, image.group("angled") or image.group("plain"))))
        else:
            loose.append(lines[index])
        index += 1
    flush()
    return parts


def region_outputs(content: str, folder: pathlib.Path) -> list:
    """The nbformat outputs of one output region of a page whose files live in ``folder``.

    Printed text becomes a stdout stream, Markdown (tables the build printed as Markdown) display data with
    its text as the plain form, and each figure a PNG image read from its file, its label as the plain form.
    """
    outputs = []
    for kind, value in _segments(content):
        if kind == "text":
            outputs.append(new_output("stream", name="stdout", text=value))
        elif kind == "markdown":
            # The site's wrappers (<div class="fc-table" markdown>) mean nothing to Jupyter: keep the table.
            value = "\n".join(line for line in value.split("\n") if not _WRAPPER.match(line)).strip("\n") + "\n"
            outputs.append(new_output("display_data", data={"text/markdown": value, "text/plain": value}))
        else:
            alt, target = value
            path = folder / target
            if not path.is_file():
                raise FileNotFoundError(f"{path}: a figure the page shows is missing; rebuild the page")
            png = base64.b64encode(path.read_bytes()).decode("ascii")
            outputs.append(new_output("display_data", data={"image/png": png, "text/plain": alt}))
    return outputs


def _folder_url(page_uri: str) -> str:
    """A page's folder URL when the site keeps its repository path: ``explainers/slug.md`` -> ``explainers/slug/``."""
    stem = page_uri[: -len(".md")]
    return (posixpath.dirname(stem) if stem.endswith("/index") or stem == "index" else stem) + "/"


def site_links(markdown: str, page_uri: str, notebook_page_url: str, page_url=_folder_url,
               file_url=lambda uri: uri) -> str:
    """Relative link targets of a page's prose, rewritten to work from the notebook's page on the site.

    ``page_uri`` is the page's path (``explainers/slug.md``); ``notebook_page_url`` the folder URL of the
    notebook's page (``explainers/notebooks/slug/``). A target ``x.md`` becomes the URL of that page
    (``page_url`` maps a page's repository path to its folder URL on the site, ``file_url`` any other file's).
    """
    folder = posixpath.dirname(page_uri)

    def rewrite(match: re.Match) -> str:
        raw = match.group("angled") or match.group("plain")
        if "://" in raw or raw.startswith(("#", "/", "mailto:")):
            return match.group(0)
        target, _, anchor = raw.partition("#")
        resolved = posixpath.normpath(posixpath.join(folder, target.replace("%20", " ")))
        resolved = page_url(resolved) if resolved.endswith(".md") else file_url(resolved)
        relative = posixpath.relpath(resolved, notebook_page_url.rstrip("/"))
        relative = relative + "/" if resolved.endswith("/") and not relative.endswith("/") else relative
        relative = relative.replace(" ", "%20") + (f"#{anchor}" if anchor else "")
        return f"{match.group('lead')}{relative}{match.group('tail')}"

    return _LINK.sub(rewrite, markdown)


def _prose_cell(source: str, links) -> "nbformat.NotebookNode":
    """A Markdown cell of page prose: each output region replaced by a pointer to the cell that prints it."""
    lines, out, skip_to = source.split("\n"), [], None
    marks = {r.start: r for r in output_regions(source)}
    for number, line in enumerate(lines):
        if skip_to is not None:
            if number == skip_to:
                skip_to = None
            continue
        if number in marks:
            region = marks[number]
            out.append(f"*The output `{region.name}` is shown under the code cell that prints it, below.*")
            skip_to = region.end
            continue
        out.append(line)
    return new_markdown_cell(links("\n".join(out).strip("\n")))


def notebook_for_page(page_path: pathlib.Path, page_uri: str, title: str, page_url: str,
                      notebook_page_url: str, archive_url: str, exists=lambda uri: True,
                      page_url_of=_folder_url, file_url_of=lambda uri: uri):
    """The notebook of one page (an nbformat v4 notebook).

    Parameters
    ----------
    page_path : pathlib.Path
        The page's Markdown file, with the outputs the build injected.
    page_uri : str
        The page's path in the repository (``explainers/slug.md``); its notebook goes to ``<folder>/notebooks/``.
    title : str
        The page's title.
    page_url, notebook_page_url, archive_url : str
        Site URLs (from the site's root) of the page, of the notebook's own page and of the source archive.
    exists : callable, optional
        Says whether a page path (``explainers/other.md``) is on the site; links to pages that are not are shown
        as their text, as on the page itself.
    page_url_of, file_url_of : callable, optional
        The site URL of a page and of any other file, from its repository path (see ``scripts.site._urls``).
    """
    text = layout.decode(page_uri, page_path.read_bytes())
    body, _ = get_data(text)
    folder = page_path.parent
    notebook_uri = layout.notebook_path(page_uri)

    def up(url: str) -> str:
        relative = posixpath.relpath(url.rstrip("/") or ".", notebook_page_url.rstrip("/"))
        return (relative + ("/" if url.endswith("/") else "")).replace(" ", "%20")

    intro = (
        f"**The notebook version of the page [{title}]({up(page_url)})**: its prose, its code, and the outputs the "
        "page build recorded when it last ran the code (so you can read it without running anything).\n\n"
        # The anchor the page's own "[Run it yourself](#run-it-yourself)" links lead to, here as on the page.
        '<a id="run-it-yourself"></a>**Run it yourself.** The code needs the project (the `faircode` package and '
        "the audit data) and its "
        f"pinned environment. Download the project's source archive, [{ARCHIVE_NAME}]({up(archive_url)}), then:\n\n"
        "```bash\n"
        f"unzip {ARCHIVE_NAME} && cd fair-code-project\n"
        "make setup      # creates .venv with the packages pinned in requirements.lock (needs Python 3.11)\n"
        f"{RUN_COMMAND.format(notebook=notebook_uri)!s}\n"
        "```\n\n"
        f"The archive holds this notebook as `{notebook_uri}`; the last command runs it top to bottom and saves its "
        "outputs. To work in it interactively, open it in Jupyter with `.venv/bin/python` as the kernel. The "
        "first code cell finds the project's folder, so the notebook runs wherever it sits inside it."
    )
    cells = [new_markdown_cell(intro), new_code_cell(SETUP_SOURCE.rstrip("\n"))]
    regions = {region.name: region.content for region in output_regions(body)}

    def links(markdown: str) -> str:
        return site_links(unlink_missing_pages(markdown, page_uri, exists)[0], page_uri, notebook_page_url,
                          page_url_of, file_url_of)

    for cell in jupytext.reads(body, fmt="md").cells:
        if cell.cell_type == "markdown":
            cells.append(_prose_cell(cell.source, links))
        elif cell.cell_type == "code":
            magic = _MAGIC.match(cell.source)
            if magic:  # a fence in another language (```bash): shown, never run
                code = cell.source[magic.end():]
                cells.append(new_markdown_cell(f"```{magic.group('lang')}\n{code.rstrip()}\n```"))
            elif "norun" in cell.metadata:
                cells.append(new_markdown_cell(f"A sketch, shown but not run:\n\n```python\n{cell.source.rstrip()}\n```"))
            else:
                code_cell = new_code_cell(cell.source.rstrip("\n"))
                name = cell.metadata.get("output")
                if name is not None and name in regions:
                    code_cell.outputs = region_outputs(regions[name], folder)
                cells.append(code_cell)
        else:  # raw cells (none expected once the front matter is gone): kept as Markdown
            cells.append(new_markdown_cell(cell.source))
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata = {
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python"},
    }
    execution = 0
    for number, cell in enumerate(notebook.cells):
        cell["id"] = f"cell-{number}"  # nbformat draws random cell ids; fixed ones keep rebuilds byte-identical
        if cell.cell_type == "code":
            execution += 1
            cell.execution_count = execution
            for output in cell.outputs:
                if output.output_type == "execute_result":
                    output.execution_count = execution
    return notebook


def stage_notebook(notebook, notebook_path: pathlib.Path) -> bool:
    """Write a notebook (as ``.ipynb`` JSON) only when its content changed; return whether it was written."""
    return write_text_if_changed(notebook_path, nbformat.writes(notebook) + "\n")
