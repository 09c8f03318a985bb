"""scripts.pagecode: the pages' code blocks formatted by ruff, problems named by page and line."""
import pathlib
import shutil

from scripts import pagecode

PAGE = """---
title: Demo
---

# Demo

```python
x = {'a':1,   'b':2}
```

Prose stays as it is:   spaces and all.

```python
print( x )
```
"""


def _root(tmp_path):
    shutil.copy(pathlib.Path(pagecode.ROOT) / "pyproject.toml", tmp_path / "pyproject.toml")
    (tmp_path / "explainers").mkdir()
    (tmp_path / "explainers" / "demo.md").write_text(PAGE)
    return tmp_path


def test_check_names_each_unformatted_block_by_its_page_line(tmp_path):
    root = _root(tmp_path)
    found = pagecode.problems(root, "explainers/demo.md")
    assert found == ["explainers/demo.md:8: this Python block is not formatted; run `make format`",
                     "explainers/demo.md:14: this Python block is not formatted; run `make format`"]


def test_format_rewrites_only_the_blocks_then_check_passes(tmp_path):
    root = _root(tmp_path)
    assert pagecode.format_page(root, "explainers/demo.md")
    text = (root / "explainers" / "demo.md").read_text()
    assert 'x = {"a": 1, "b": 2}\n' in text and "print(x)\n" in text
    assert "Prose stays as it is:   spaces and all." in text and text.startswith("---\ntitle: Demo\n---\n")
    assert pagecode.problems(root, "explainers/demo.md") == []
    assert not pagecode.format_page(root, "explainers/demo.md")  # a second run changes nothing


def test_a_line_the_formatter_cannot_shorten_is_reported_at_its_page_line(tmp_path):
    root = _root(tmp_path)
    long = "y = '" + "a" * 100 + "'"
    (root / "explainers" / "demo.md").write_text(PAGE.replace("print( x )", "print(x)\n" + long))
    pagecode.format_page(root, "explainers/demo.md")
    assert pagecode.problems(root, "explainers/demo.md") == [
        "explainers/demo.md:15: Line too long (106 > 88)"]
