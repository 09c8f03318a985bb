"""Build (or check) every page: decide which pages must run, run them, write or compare their files."""
from __future__ import annotations

import dataclasses
import difflib
import os
import pathlib
import re
import sys
import time

from ._cache import Cache, dependencies_digest, page_key
from ._durations import longest_first, read_durations, recorded_seconds
from ._execute import Job, run_jobs, warm_up
from ._files import file_sha256, sha256, write_if_changed
from ._pages import PageError, discover, might_run, read_page


@dataclasses.dataclass
class Summary:
    """What a build or check did, page by page."""

    ran: list = dataclasses.field(default_factory=list)
    cached: list = dataclasses.field(default_factory=list)
    fresh: list = dataclasses.field(default_factory=list)
    skipped: list = dataclasses.field(default_factory=list)
    failures: list = dataclasses.field(default_factory=list)  # (page, message)
    written: list = dataclasses.field(default_factory=list)  # files created or changed (build)
    differences: list = dataclasses.field(default_factory=list)  # (file, what differs) (check)
    warnings: list = dataclasses.field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.failures and not self.differences


class Reporter:
    """Progress lines on stdout (unless quiet); failures and warnings always go to stderr."""

    def __init__(self, quiet=False):
        self.quiet = quiet

    def line(self, text):
        if not self.quiet:
            print(text, flush=True)

    def start(self, job):
        self.line(f"[run ] {job.path} (time limit {job.timeout:g} s)")

    def finish(self, result):
        if result.error is None:
            self.line(f"[done] {result.job.path} {result.seconds:.2f} s")
        else:
            print(f"[FAIL] {result.job.path} {result.seconds:.2f} s\n{result.error}", file=sys.stderr, flush=True)

    def problem(self, text):
        print(text, file=sys.stderr, flush=True)


def _timeout(page, config):
    if page.front_matter.get("timeout") is not None:
        return float(page.front_matter["timeout"]), f"from the page's front matter 'timeout: {page.front_matter['timeout']}'"
    return config.timeout, "the default from [tool.pagebuild] timeout in pyproject.toml (a page can set 'timeout:')"


def _figure_number(name, slug):
    match = re.fullmatch(rf"{re.escape(slug)}-(\d+)\.png", name)
    return int(match.group(1)) if match else None


def _stale_figures(root, page, count):
    folder = root / page.folder / "figures"
    if not folder.is_dir():
        return []
    stale = []
    for path in sorted(folder.iterdir()):
        number = _figure_number(path.name, page.slug)
        if number is not None and number > count:
            stale.append(path.relative_to(root).as_posix())
    return stale


def _fresh(root, entry, dependencies, text_sha):
    """True when the page and its files are exactly what the cached successful build wrote."""
    if not entry or entry.get("deps") != dependencies or entry.get("page_sha") != text_sha:
        return False
    if entry.get("skip"):
        return True
    files = {entry["script"]: entry["script_sha"], **entry["figures"]}
    return all(file_sha256(root / path) == sha for path, sha in files.items())


class _Assembler:
    """Turns a page's outputs into its files, then writes them (build) or compares them (check)."""

    def __init__(self, config, cache, dependencies, summary, reporter, write):
        self.config, self.cache, self.dependencies = config, cache, dependencies
        self.summary, self.reporter, self.write = summary, reporter, write

    def files(self, page, outputs):
        """Page text, script and figures (path -> (sha, bytes or None)) for ``outputs`` of the runnable blocks.

        ``outputs`` holds one (stdout, [(alt, sha, png bytes or None)]) per runnable block.
        """
        from ._extract import render_script
        from ._inject import inject, render_output

        figures, rendered, number = {}, {}, 0
        for block, (stdout, drawn) in zip(page.runnable, outputs):
            shown = []
            for alt, sha, data in drawn:
                number += 1
                path = page.figure_path(number)
                figures[path] = (sha, data)
                if not alt.strip():
                    alt = f"Figure {number} of {page.slug}"
                    self.summary.warnings.append(f"{page.path}:{block.line}: figure {number} has no alt text; "
                                                 "give it one with fig.set_label('what the figure shows')")
                shown.append((alt, os.path.relpath(path, page.folder)))
            if block.output is not None:
                rendered[block.output] = render_output(stdout, shown)
        text = inject(page.text, page.regions, rendered)
        return text, render_script(page), figures

    def finish(self, page, key, outputs, seconds=None):
        """Write or compare a page's files; in a build, record the cache entry afterwards."""
        root = self.config.root
        text, script, figures = self.files(page, outputs)
        stale = _stale_figures(root, page, len(figures))
        if self.write:
            previous = self.cache.get(page.path) or {}
            for path, data in [(page.path, text.encode()), (page.script_path, script.encode())] + [
                (path, data) for path, (_, data) in figures.items() if data is not None
            ]:
                if write_if_changed(root / path, data):
                    self.summary.written.append(path)
            for path in stale:
                (root / path).unlink()
                self.summary.written.append(path)
            self.cache.put(page.path, {
                "deps": self.dependencies, "key": key, "page_sha": sha256(text.encode()),
                "script": page.script_path, "script_sha": sha256(script.encode()),
                "figures": {path: sha for path, (sha, _) in figures.items()},
                "outputs": [[stdout, [[alt, sha] for alt, sha, _ in drawn]] for stdout, drawn in outputs],
                "seconds": round(seconds, 2) if seconds is not None else previous.get("seconds"),
            })
            return
        for path, expected in [(page.path, text), (page.script_path, script)]:
            self._compare_text(path, expected)
        for path, (sha, data) in figures.items():
            if file_sha256(root / path) != sha:
                state = "is missing" if not (root / path).exists() else "differs from what the build draws"
                self.summary.differences.append((path, f"figure {state}"))
        for path in stale:
            self.summary.differences.append((path, "figure is no longer drawn by its page"))

    def _compare_text(self, path, expected):
        target = self.config.root / path
        actual = target.read_text(encoding="utf-8") if target.exists() else None
        if actual == expected:
            return
        if actual is None:
            self.summary.differences.append((path, "is missing; the build would create it"))
            return
        diff = difflib.unified_diff(actual.splitlines(), expected.splitlines(), f"{path} (on disk)",
                                    f"{path} (built)", lineterm="", n=1)
        shown = list(diff)
        more = f"\n... {len(shown) - 30} more diff lines" if len(shown) > 30 else ""
        self.summary.differences.append((path, "differs from what the build produces:\n" + "\n".join(shown[:30]) + more))


def run(config, *, write=True, use_cache=True, parallel=None, reporter=None, only=None) -> Summary:
    """Build (``write=True``) or check (``write=False``) the pages of ``config.root``.

    Parameters
    ----------
    config : Config
        Settings from :func:`load_config`.
    write : bool
        Write changed files and the cache (build), or only compare what the build would write (check).
    use_cache : bool
        Reuse outputs whose cache key matches; False runs every page.
    parallel : int, optional
        Pages run at once (default: all cores).
    reporter : Reporter, optional
        Where progress lines go.
    only : list of str, optional
        Restrict to these page paths (relative to the root).

    Returns
    -------
    Summary
    """
    started = time.monotonic()
    reporter = reporter or Reporter()
    summary = Summary()
    root = config.root
    # Read even under --no-cache: its entries are not used then, but the pages this build does not touch keep theirs,
    # and the run times recorded in them still decide which page starts first.
    cache = Cache(config.cache_path)
    recorded = recorded_seconds(cache.pages)
    if not use_cache or not cache.pages:  # every page will run: start the server's imports now
        warm_up(config.preload, config.warm, config.root)
    dependencies = dependencies_digest(config)
    assembler = _Assembler(config, cache, dependencies, summary, reporter, write)
    paths = discover(config)
    if only:
        wanted = {pathlib.Path(p).resolve().relative_to(root).as_posix() for p in only}
        unknown = sorted(wanted - set(paths))
        if unknown:
            raise ValueError(f"not a page of this build: {unknown}; the pages are: {paths}")
        paths = [p for p in paths if p in wanted]
    jobs, pages = [], {}
    for path in paths:
        raw = (root / path).read_bytes()
        entry = cache.get(path) if use_cache else None
        if _fresh(root, entry, dependencies, sha256(raw)):
            (summary.skipped if entry.get("skip") else summary.fresh).append(path)
            continue
        text = raw.decode("utf-8")
        try:
            page = read_page(root, path) if might_run(text) else None
        except PageError as err:
            summary.failures.append((path, str(err)))
            reporter.problem(f"[FAIL] {err}")
            continue
        if page is None or not page.runnable:
            summary.skipped.append(path)
            if write:
                cache.put(path, {"deps": dependencies, "page_sha": sha256(raw), "skip": True})
            continue
        timeout, source = _timeout(page, config)
        key = page_key(page, dependencies, timeout)
        outputs = _cached_outputs(root, entry, key, write)
        if outputs is not None:
            assembler.finish(page, key, outputs)
            summary.cached.append(path)
            reporter.line(f"[cache] {path}: code unchanged, output re-injected")
            continue
        if not jobs:
            warm_up(config.preload, config.warm, root)
        pages[path] = (page, key)
        jobs.append(Job(path, page.script_path, page.runnable, timeout, source))

    def finished(result):
        reporter.finish(result)
        page, key = pages[result.job.path]
        if result.error is not None:
            summary.failures.append((page.path, result.error))
            return
        outputs = [(stdout, [(alt, sha256(data), data) for alt, data in drawn]) for stdout, drawn in result.outputs]
        assembler.finish(page, key, outputs, result.seconds)
        summary.ran.append(page.path)

    if not only:
        _orphans(config, paths, summary, write)
    # Longest first, so that with -j the slowest page does not start last and leave the other cores idle at
    # the end: times from the cache's last run (read even under --no-cache), else the committed durations.
    try:
        committed = read_durations(config.durations_path)
    except (OSError, ValueError) as err:
        committed = {}
        summary.warnings.append(f"{err} (pages start in page order instead)")
    jobs = longest_first(jobs, recorded=recorded, committed=committed)
    run_jobs(jobs, parallel=parallel or os.cpu_count() or 1, dpi=config.dpi, preload=config.preload,
             warm=config.warm, root=root, on_start=reporter.start, on_finish=finished)
    summary.seconds = time.monotonic() - started
    return summary


def _cached_outputs(root, entry, key, write):
    """Outputs stored for ``key``; in a build only if every figure file on disk is still the cached one."""
    if not entry or entry.get("key") != key:
        return None
    if write and any(file_sha256(root / path) != sha for path, sha in entry["figures"].items()):
        return None  # a figure was deleted or edited: run to redraw it
    return [(stdout, [(alt, sha, None) for alt, sha in drawn]) for stdout, drawn in entry["outputs"]]


def _orphans(config, paths, summary, write):
    """Generated scripts (and their figures) whose page no longer exists: removed by a build, reported by a check."""
    root = config.root
    folders = {str(pathlib.PurePosixPath(p).parent) for p in paths} | {"explainers"}
    for folder in sorted(folders):
        for script in sorted((root / folder / "code").glob("*.py")):
            page = f"{folder}/{script.stem}.md"
            if page in paths or not script.read_text(encoding="utf-8").startswith("# Generated from "):
                continue
            figures = [f for f in sorted((root / folder / "figures").glob(f"{script.stem}-*.png"))
                       if _figure_number(f.name, script.stem) is not None]
            for path in [script, *figures]:
                relative = path.relative_to(root).as_posix()
                if write:
                    path.unlink()
                    summary.written.append(relative)
                else:
                    summary.differences.append((relative, f"was generated from {page}, which no longer exists"))
