"""The build's structure: no import circles among its modules, no work on import, one home for the layout."""
import ast
import pathlib
import subprocess
import sys

from scripts import layout

REPO = pathlib.Path(__file__).resolve().parents[2]
PACKAGE = REPO / "scripts" / "pagebuild"


def _imports(path):
    """The sibling modules a module of the package imports (``from . import x``, ``from ._x import y``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            found.update([node.module] if node.module else [alias.name for alias in node.names])
    return found


def test_the_build_s_modules_import_each_other_without_a_circle():
    graph = {p.stem: _imports(p) for p in PACKAGE.glob("_*.py")}

    def visit(name, trail):
        assert name not in trail, f"import circle: {' -> '.join([*trail, name])}"
        for other in graph.get(name, ()):
            visit(other, [*trail, name])

    for name in graph:
        visit(name, [])


def test_importing_the_warm_module_does_no_work(tmp_path):
    # A warm request in the environment, as the fork server gets it: importing _warm must not act on it.
    (tmp_path / "probe.py").write_text("def warm():\n    raise SystemExit('warmed on import')\n")
    request = '{"root": "%s", "calls": ["probe:warm"]}' % tmp_path
    done = subprocess.run([sys.executable, "-c", "import scripts.pagebuild._warm as w; print(w.warmed_root)"],
                          cwd=REPO, capture_output=True, text=True,
                          env={"PYTHONPATH": str(REPO), "PAGEBUILD_WARM": request, "PATH": ""})
    assert done.returncode == 0 and done.stdout.strip() == "None", done.stderr


def test_the_audit_manifest_has_one_name():
    # Read, not imported: importing faircode loads pandas and scikit-learn (seconds) for one string.
    tree = ast.parse((REPO / "faircode" / "data" / "_manifest.py").read_text())
    names = {target.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
             for target in node.targets if isinstance(target, ast.Name) and isinstance(node.value, ast.Constant)}
    assert layout.AUDIT_MANIFEST == names["MANIFEST"]


def test_a_page_s_files_are_named_from_its_slug():
    page = "German Credit Lending/age-rates.md"
    assert layout.script_path(page) == "German Credit Lending/code/age-rates.py"
    assert layout.figure_path(page, 2) == "German Credit Lending/figures/age-rates-2.png"
    assert layout.notebook_path(page) == "German Credit Lending/notebooks/age-rates.ipynb"
    assert layout.page_of_script(layout.script_path(page)) == page
    assert layout.figure_number("age-rates-12.png", "age-rates") == 12
    assert layout.figure_number("age-rates-x.png", "age-rates") is None
