"""How long each page took: the order pages start in, so the longest do not start last.

With pages running in parallel, a long page that starts late leaves every other core idle while it finishes;
starting the longest first (LPT scheduling) avoids that. The build takes each page's time from the cache's
last run on this machine and, where the cache has none (a fresh clone, a first build), from the committed
durations file, which ``python -m scripts.pagebuild durations`` (``make durations``) writes from the cache.
The build itself never writes that file, so builds stay byte-identical; it is a hint and nothing else: a
missing, stale or unreadable file only changes the order pages start in, never what they produce. A page
with no time anywhere counts as the longest (a new page may well be slow). This is the approach of
pytest-split's committed ``.test_durations``; the test runners' own schedulers have no notion of a page.
"""
from __future__ import annotations

import json
import math
import pathlib

from ._files import write_if_changed

FORMAT = 1


def recorded_seconds(entries: dict) -> dict:
    """Each page's run time in the cache's last build, from the cache's entries (``Cache.pages``)."""
    return {page: entry["seconds"] for page, entry in entries.items()
            if isinstance(entry, dict) and isinstance(entry.get("seconds"), (int, float))}


def read_durations(path) -> dict:
    """The committed durations: ``{page: seconds}``; {} when the file is absent.

    Raises
    ------
    ValueError
        If the file is not a durations file (says what arrived and what was expected).
    """
    path = pathlib.Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except ValueError as err:
        raise ValueError(f"{path}: not JSON ({err}); expected the file `python -m scripts.pagebuild durations` "
                         "writes, or no file") from None
    pages = data.get("pages") if isinstance(data, dict) else None
    valid = isinstance(pages, dict) and data.get("format") == FORMAT and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 for v in pages.values())
    if not valid:
        raise ValueError(f"{path}: expected {{\"format\": {FORMAT}, \"pages\": {{page: seconds >= 0}}}}; got "
                         f"{json.dumps(data)[:200]}; rewrite it with `python -m scripts.pagebuild durations`")
    return {str(page): float(seconds) for page, seconds in pages.items()}


def write_durations(path, seconds: dict) -> bool:
    """Write ``{page: seconds}`` (rounded to 0.1 s, sorted by page); return whether the file changed."""
    payload = {"format": FORMAT, "pages": {page: round(float(s), 1) for page, s in sorted(seconds.items())}}
    return write_if_changed(pathlib.Path(path), (json.dumps(payload, indent=1) + "\n").encode())


def longest_first(jobs, *, recorded: dict, committed: dict) -> list:
    """``jobs`` sorted by expected run time, longest first; ties (and unknown pages) keep their order."""
    def expected(job):
        seconds = recorded.get(job.path, committed.get(job.path))
        return math.inf if seconds is None else seconds

    return sorted(jobs, key=lambda job: -expected(job))
