"""Build (or check) every page: decide which pages must run, run them, write or compare their files."""
from __future__ import annotations

import dataclasses
import difflib
import os
import pathlib
import sys
import time
import traceback

from scripts import layout

from ._cache import Cache, dependencies_digest, page_key
from ._durations import longest_first, read_durations, recorded_seconds
from ._execute import Job, run_jobs, warm_up
from ._extract import render_script
from ._files import ChangedOnDisk, file_sha256, sha256, write_if_changed
from ._inject import inject, render_output
from ._pages import PageError, discover, might_run, parse_page


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


def as_shown(stdout: str) -> str:
    """Printed text as a terminal shows it: CRLF is a line end, and a carriage return starts its line over
    (a progress bar), so only what follows the last one stays. The page then holds no bare ``\\r``, which
    Markdown and a text-mode reader would take for a line end of their own."""
    return "\n".join(line.rsplit("\r", 1)[-1] for line in stdout.replace("\r\n", "\n").split("\n"))


def _handling_error(path, err) -> str:
    """The message of a failure while turning a page's result into files: that page's failure, never the build's."""
    if isinstance(err, PageError):
        return str(err)
    if isinstance(err, ChangedOnDisk):
        return (f"{path}: the page changed on disk while the build ran it; your edit is kept, and this run's "
                "output, script, figures and cache entry were not written; run the build again")
    if isinstance(err, OSError):
        return f"{path}: cannot write the page's files: {err}"
    return (f"{path}: {type(err).__name__} while writing the page's output: {err}\n"
            + "".join(traceback.format_exception(err)).rstrip())


def _timeout(page, config):
    if page.front_matter.get("timeout") is not None:
        return float(page.front_matter["timeout"]), f"from the page's front matter 'timeout: {page.front_matter['timeout']}'"
    return config.timeout, "the default from [tool.pagebuild] timeout in pyproject.toml (a page can set 'timeout:')"


def _stale_figures(root, page, count):
    folder = root / page.folder / layout.FIGURES
    if not folder.is_dir():
        return []
    stale = []
    for path in sorted(folder.iterdir()):
        number = layout.figure_number(path.name, page.slug)
        if number is not None and number > count:
            stale.append(path.relative_to(root).as_posix())
    return stale


def _stale_reports(root, page, wanted):
    """Files in the page's reports folder that its last run did not write (``wanted``: the paths it did)."""
    folder = root / page.report_folder
    if not folder.is_dir():
        return []
    return [p.relative_to(root).as_posix() for p in sorted(folder.iterdir())
            if p.relative_to(root).as_posix() not in wanted]


def _reports(page, published):
    """The report paths of the files a page published (name -> (sha, bytes or None)); a bad name is a PageError."""
    reports = {}
    for name, (sha, data) in sorted(published.items()):
        problem = layout.report_name_problem(name) if sha is not None else "it is a folder, not a file"
        if problem:
            raise PageError(page.path, None, f"the page wrote {name!r} to its reports folder "
                            f"(${layout.REPORTS_ENV}); {problem}")
        reports[layout.report_path(page.path, name)] = (sha, data)
    return reports


def _fresh(root, entry, dependencies, text_sha):
    """True when the page and its files are exactly what the cached successful build wrote."""
    if not entry or entry.get("deps") != dependencies or entry.get("page_sha") != text_sha:
        return False
    if entry.get("skip"):
        return True
    files = {entry["script"]: entry["script_sha"], **entry["figures"], **entry.get("reports", {})}
    return all(file_sha256(root / path) == sha for path, sha in files.items())


class _Assembler:
    """Turns a page's outputs into its files, then writes them (build) or compares them (check)."""

    def __init__(self, config, cache, dependencies, summary, reporter, write):
        self.config, self.cache, self.dependencies = config, cache, dependencies
        self.summary, self.reporter, self.write = summary, reporter, write

    def files(self, page, outputs):
        """Page bytes, script bytes and figures (path -> (sha, bytes or None)) for ``outputs`` of the runnable blocks.

        ``outputs`` holds one (stdout, [(alt, sha, png bytes or None)]) per runnable block. Output that is not
        text or exceeds ``max_output`` is a :class:`PageError` at its block's line.
        """
        figures, rendered, number, printed = {}, {}, 0, 0
        for block, (stdout, drawn) in zip(page.runnable, outputs):
            stdout = as_shown(stdout)
            try:
                stdout.encode("utf-8")
            except UnicodeEncodeError as err:
                raise PageError(page.path, block.line - 1, f"the block printed {stdout[err.start:err.end]!r} (character "
                                f"{err.start} of its output), which is not text ({err.reason}); print str values, "
                                "decoded from bytes with errors='replace' if need be") from None
            printed += len(stdout)
            if printed > self.config.max_output:
                raise PageError(page.path, block.line - 1, f"the page has printed {printed:,} characters by the end of "
                                f"this block; the limit is {self.config.max_output:,} (max_output in "
                                "[tool.pagebuild] of pyproject.toml); print a summary (df.head(), a count) instead")
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
                try:
                    rendered[block.output] = render_output(stdout, shown)
                except ValueError as err:  # printed table markers out of order
                    raise PageError(page.path, block.line - 1, f"the block's output cannot be placed: {err}") from None
        text = inject(page.text, page.regions, rendered)
        return text.encode("utf-8"), render_script(page).encode("utf-8"), figures

    def finish(self, page, raw, key, outputs, seconds=None, published=None):
        """Write or compare a page's files; in a build, record the cache entry afterwards.

        ``published`` holds the files the page wrote to its reports folder, name -> (sha, bytes or None when
        re-injected from the cache); they go to ``<folder>/reports/<slug>/<name>``, like figures.

        ``raw`` is the page's bytes as read before it ran: a page that no longer holds them was edited meanwhile,
        and is left alone (:class:`ChangedOnDisk`), as are its script, figures and cache entry.
        """
        root = self.config.root
        text, script, figures = self.files(page, outputs)
        reports = _reports(page, published or {})
        stale = _stale_figures(root, page, len(figures))
        stale_reports = _stale_reports(root, page, reports)
        if self.write:
            if file_sha256(root / page.path) != sha256(raw):
                raise ChangedOnDisk(root / page.path)
            previous = self.cache.get(page.path) or {}
            for path, data in [(page.script_path, script)] + [
                (path, data) for path, (_, data) in [*figures.items(), *reports.items()] if data is not None
            ]:
                if write_if_changed(root / path, data):
                    self.summary.written.append(path)
            for path in stale + stale_reports:
                (root / path).unlink()
                self.summary.written.append(path)
            if stale_reports and not reports:
                (root / page.report_folder).rmdir()
            if write_if_changed(root / page.path, text, expected=raw):  # compared with raw just before replacing
                self.summary.written.append(page.path)
            self.cache.put(page.path, {
                "deps": self.dependencies, "key": key, "page_sha": sha256(text),
                "script": page.script_path, "script_sha": sha256(script),
                "figures": {path: sha for path, (sha, _) in figures.items()},
                "reports": {path: sha for path, (sha, _) in reports.items()},
                "outputs": [[stdout, [[alt, sha] for alt, sha, _ in drawn]] for stdout, drawn in outputs],
                "seconds": round(seconds, 2) if seconds is not None else previous.get("seconds"),
            })
            return
        for path, expected in [(page.path, text), (page.script_path, script)]:
            self._compare_text(path, expected)
        for kind, made, old, differs, gone in (
                ("figure", figures, stale, "differs from what the build draws", "is no longer drawn by its page"),
                ("report", reports, stale_reports, "differs from what the page writes",
                 "is no longer written by its page")):
            for path, (sha, _) in made.items():
                if file_sha256(root / path) != sha:
                    state = "is missing" if not (root / path).exists() else differs
                    self.summary.differences.append((path, f"{kind} {state}"))
            for path in old:
                self.summary.differences.append((path, f"{kind} {gone}"))

    def _compare_text(self, path, expected: bytes):
        """Compare bytes (line endings and carriage returns included); show a line diff with ``\\r`` made visible."""
        target = self.config.root / path
        actual = target.read_bytes() if target.exists() else None
        if actual == expected:
            return
        if actual is None:
            self.summary.differences.append((path, "is missing; the build would create it"))
            return

        def lines(data):
            return [line.replace("\r", "\\r") for line in data.decode("utf-8", "backslashreplace").split("\n")]

        diff = difflib.unified_diff(lines(actual), lines(expected), f"{path} (on disk)",
                                    f"{path} (built)", lineterm="", n=1)
        shown = list(diff) or ["(the bytes differ where no line does: an encoding difference)"]
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
    summary.warnings.extend(cache.warnings)
    recorded = recorded_seconds(cache.pages)
    if not use_cache or not cache.pages:  # every page will run: start the server's imports now
        warm_up(config.preload, config.warm, config.root)
    dependencies = dependencies_digest(config)
    assembler = _Assembler(config, cache, dependencies, summary, reporter, write)
    every = discover(config)
    if write:
        cache.prune(every)  # entries of deleted or renamed pages
    paths = every
    if only:
        wanted = {pathlib.Path(p).resolve().relative_to(root).as_posix() for p in only}
        unknown = sorted(wanted - set(paths))
        if unknown:
            raise ValueError(f"not a page of this build: {unknown}; the pages are: {paths}")
        paths = [p for p in paths if p in wanted]
    collisions = layout.case_collisions(every)

    def fail(path, message):
        summary.failures.append((path, message))
        reporter.problem(f"[FAIL] {message}")

    jobs, pages = [], {}
    for path in paths:
        if path in collisions:
            fail(path, f"{path}: its path differs from {', '.join(collisions[path])} only in letter case; their "
                       "scripts, figures and site addresses would be one file on a case-insensitive disk; rename one")
            continue
        raw = (root / path).read_bytes()
        entry = cache.get(path) if use_cache else None
        if _fresh(root, entry, dependencies, sha256(raw)):
            (summary.skipped if entry.get("skip") else summary.fresh).append(path)
            continue
        try:
            text = layout.decode(path, raw)
            page = parse_page(path, text) if might_run(text) else None
        except (PageError, layout.PageEncodingError) as err:
            fail(path, str(err))
            continue
        if page is None or not page.runnable:
            summary.skipped.append(path)
            if write:
                cache.put(path, {"deps": dependencies, "page_sha": sha256(raw), "skip": True})
            continue
        timeout, source = _timeout(page, config)
        key = page_key(page, dependencies, timeout)
        cached = _cached_outputs(root, entry, key, write)
        if cached is not None:
            try:
                assembler.finish(page, raw, key, *cached)
            except Exception as err:  # noqa: BLE001 - see _handling_error: this page fails, the build goes on
                fail(path, _handling_error(path, err))
                continue
            summary.cached.append(path)
            reporter.line(f"[cache] {path}: code unchanged, output re-injected")
            continue
        if not jobs:
            warm_up(config.preload, config.warm, root)
        pages[path] = (page, raw, key)
        jobs.append(Job(path, page.script_path, page.runnable, timeout, source))

    def finished(result):
        page, raw, key = pages[result.job.path]
        if result.error is None:
            try:
                outputs = [(stdout, [(alt, sha256(data), data) for alt, data in drawn])
                           for stdout, drawn in result.outputs]
                published = {name: (None if data is None else sha256(data), data)
                             for name, data in result.reports.items()}
                assembler.finish(page, raw, key, outputs, result.seconds, published)
            except Exception as err:  # noqa: BLE001 - see _handling_error: this page fails, the build goes on
                result.error = _handling_error(page.path, err)
        reporter.finish(result)
        if result.error is not None:
            summary.failures.append((page.path, result.error))
        else:
            summary.ran.append(page.path)

    if not only:
        _orphans(config, every, summary, write)
    # Longest first, so that with -j the slowest page does not start last and leave the other cores idle at
    # the end: times from the cache's last run (read even under --no-cache), else the committed durations.
    try:
        committed = read_durations(config.durations_path)
    except (OSError, ValueError) as err:
        committed = {}
        summary.warnings.append(f"{err} (pages start in page order instead)")
    jobs = longest_first(jobs, recorded=recorded, committed=committed)
    run_jobs(jobs, parallel=parallel or os.cpu_count() or 1, dpi=config.dpi, preload=config.preload,
             warm=config.warm, root=root, on_start=reporter.start, on_finish=finished, fit_cache=use_cache)
    summary.seconds = time.monotonic() - started
    return summary


def _cached_outputs(root, entry, key, write):
    """Outputs and published files (``finish``'s ``outputs, seconds, published``) stored for ``key``; in a build
    only if every figure and report file on disk is still the cached one."""
    if not entry or entry.get("key") != key:
        return None
    reports = entry.get("reports", {})
    if write and any(file_sha256(root / path) != sha for path, sha in {**entry["figures"], **reports}.items()):
        return None  # a figure or report was deleted or edited: run to write it again
    outputs = [(stdout, [(alt, sha, None) for alt, sha in drawn]) for stdout, drawn in entry["outputs"]]
    return outputs, None, {pathlib.PurePosixPath(path).name: (sha, None) for path, sha in reports.items()}


def _orphans(config, paths, summary, write):
    """Generated scripts (and their figures) whose page no longer exists: removed by a build, reported by a check."""
    root = config.root
    for folder in layout.page_folders(root):
        for script in sorted((root / folder / layout.CODE).glob("*.py")):
            page = layout.page_of_script(script.relative_to(root).as_posix())
            if page in paths or not script.read_bytes().startswith(layout.GENERATED_HEADER.encode()):
                continue
            figures = [f for f in sorted((root / folder / layout.FIGURES).glob(f"{script.stem}-*.png"))
                       if layout.figure_number(f.name, script.stem) is not None]
            reports = root / layout.report_folder(page)
            reports = sorted(p for p in reports.iterdir() if p.is_file()) if reports.is_dir() else []
            for path in [script, *figures, *reports]:
                relative = path.relative_to(root).as_posix()
                if write:
                    path.unlink()
                    summary.written.append(relative)
                else:
                    summary.differences.append((relative, f"was generated from {page}, which no longer exists"))
            if write and reports:
                reports[0].parent.rmdir()
