"""The literate page build: extract each page's Python blocks into a script, run them, inject the output.

Run it as ``python -m scripts.pagebuild build|check`` from the repository root (``make pages``, ``make check``).
"""
from ._build import Reporter, Summary, run
from ._config import Config, load_config
from ._execute import Job, Result, run_jobs
from ._extract import render_script
from ._inject import fence_for, inject, render_output
from ._pages import Block, Page, PageError, Region, discover, parse_page, read_page

__all__ = [
    "Block", "Config", "Job", "Page", "PageError", "Region", "Reporter", "Result", "Summary",
    "discover", "fence_for", "inject", "load_config", "parse_page", "read_page", "render_output",
    "render_script", "run", "run_jobs",
]
