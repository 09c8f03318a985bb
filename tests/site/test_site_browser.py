"""The built site in a real browser: Debian's headless Chromium driven by Playwright.

Every page is opened; the test fails on a console error, an uncaught script error, a failed request, a link or
image inside the site that points nowhere, an image without alt text, a page without its h1, or a page wider
than a phone's screen. Screenshots go to tests/screenshots/ (kept out of git).
"""
import os
import pathlib
import posixpath
import re
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from _site_helpers import ROOT, build_site, make_site_root
from scripts.site._outputs import ALT_LIMIT

# Deselect by name where Chromium cannot be had: pytest -m "not browser" (make test SITE_BROWSER_TEST=skip).
pytestmark = pytest.mark.browser

CHROMIUM = pathlib.Path(os.environ.get("SITE_CHROMIUM", "/usr/bin/chromium"))
SKIP_VAR = "SITE_BROWSER_TEST"  # set to "skip" to skip this test where Chromium cannot be had
SCREENSHOTS = ROOT / "tests" / "screenshots"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
LAPTOP = {"width": 1366, "height": 768}  # a common laptop screen: the shortest the enlarged figure must fit
# Ceilings for waits on a state of the page, never sleeps: a wait ends as soon as the state is there. The search
# index is built by a web worker from the whole site's text (seconds when idle, far longer on a loaded machine).
STATE_TIMEOUT_MS = 60_000
SEARCH_READY_TIMEOUT_MS = 180_000

# Links to anything inside the site, from every element that loads or leads somewhere.
_TARGETS_JS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('a[href], img[src], link[href], script[src], source[src]')) {
    const url = el.href || el.src;
    out.push([el.tagName.toLowerCase(), el.getAttribute('href') || el.getAttribute('src'), url]);
  }
  return out;
}"""
_IMAGES_JS = """() => Array.from(document.querySelectorAll('img')).map(img => ({
  src: img.getAttribute('src'), alt: (img.getAttribute('alt') || '').trim(),
  ok: img.complete && img.naturalWidth > 0, inArticle: !!img.closest('article')}))"""
_OVERFLOW_JS = "() => document.documentElement.scrollWidth - window.innerWidth"


def _need_browser():
    """Playwright's sync API, or a failure (or a skip, when SITE_BROWSER_TEST=skip) that says how to get it."""
    how = (f"Install it with `bash .ci/install-browser` (apt-get install -y chromium), or set {SKIP_VAR}=skip "
           "to skip the browser test on a machine that cannot have it.")
    problem = None
    if not CHROMIUM.is_file():
        problem = f"Chromium is missing: no executable at {CHROMIUM}. {how}"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as err:
        problem = f"Playwright is not installed ({err}); run `make setup` (it is pinned in requirements.lock)."
        sync_playwright = None
    if problem:
        if os.environ.get(SKIP_VAR) == "skip":
            pytest.skip(problem)
        pytest.fail(problem, pytrace=False)
    return sync_playwright


def _local_file(site: pathlib.Path, base: str, url: str) -> pathlib.Path | None:
    """The file a same-site URL is served from, or None when it is outside the site."""
    if not url.startswith(base):
        return None
    path = unquote(urlsplit(url).path)
    target = site / posixpath.normpath(path.lstrip("/") or ".")
    return target / "index.html" if path.endswith("/") or target.is_dir() else target


_REFRESH = re.compile(r'<meta http-equiv="refresh" content="0; url=([^"]+)">')


def _redirects(site: pathlib.Path) -> dict[str, str]:
    """The site's redirect pages (an audit page's old address): path -> the target its refresh names."""
    found = {}
    for path in site.rglob("*.html"):
        match = _REFRESH.search(path.read_text(encoding="utf-8"))
        if match:
            found[path.relative_to(site).as_posix()] = match.group(1)
    return found


def _pages(site: pathlib.Path) -> list[str]:
    """The site's HTML pages, redirects left out (``_check_site`` checks that each leads to a page)."""
    redirects = _redirects(site)
    return sorted(rel for p in site.rglob("*.html") if (rel := p.relative_to(site).as_posix()) not in redirects)


def _explainer_page(site: pathlib.Path) -> str:
    """A published explainer with a generated script: the richest page to look at."""
    candidates = [p for p in _pages(site) if p.startswith("explainers/") and "/notebooks/" not in p
                  and "Run it yourself" in (site / p).read_text(encoding="utf-8")]
    assert candidates, f"no explainer page with a script in {site}"
    return candidates[0]


def _new_context(browser, **options):
    """A browser context whose navigations, clicks and screenshots may take up to STATE_TIMEOUT_MS (Playwright's
    default is 30 s) on a loaded machine; like every wait here, a ceiling, not a delay."""
    context = browser.new_context(**options)
    context.set_default_timeout(STATE_TIMEOUT_MS)
    context.set_default_navigation_timeout(STATE_TIMEOUT_MS)
    return context


def _check_site(browser, site: pathlib.Path, base: str, measured: dict | None = None) -> tuple[list[str], int]:
    """Open every page of the site; return the problems found and how many pages were opened.

    With ``measured`` (a dict), each page that holds output also gets its output boxes measured at this width
    (``_OUTPUTS_JS``), stored under its path: the 1280 px half of the output test, without loading it twice."""
    problems: list[str] = []
    context = _new_context(browser, viewport=DESKTOP)
    page = context.new_page()
    current = {"url": ""}
    page.on("console", lambda msg: msg.type == "error" and problems.append(
        f"{current['url']}: console error: {msg.text}"))
    page.on("pageerror", lambda err: problems.append(f"{current['url']}: script error: {err}"))
    # ERR_ABORTED is the test moving on to the next page while a late request (favicon, search worker) is in
    # flight; a file that is missing shows as an HTTP 404 below instead.
    page.on("requestfailed", lambda req: "ERR_ABORTED" not in (req.failure or "") and problems.append(
        f"{current['url']}: request failed: {req.url} ({req.failure})"))
    page.on("response", lambda res: res.status >= 400 and problems.append(
        f"{current['url']}: HTTP {res.status} for {res.url}"))

    def outside(route):
        problems.append(f"{current['url']}: asks for {route.request.url}, outside the site")
        route.abort()

    page.route(lambda url: not url.startswith(base) and not url.startswith(("data:", "blob:")), outside)
    pages = [p for p in _pages(site) if p != "404.html"]
    for rel, target in _redirects(site).items():
        landing = _local_file(site, base, urljoin(base + rel, target))
        if landing is None or not landing.is_file() or landing.relative_to(site).as_posix() not in pages:
            problems.append(f"{rel}: redirects to {target!r}, which is not a page of the site")
    content = set(_content_pages(site)) if measured is not None else set()
    for rel in pages:
        url = base + (rel[: -len("index.html")] if rel.endswith("index.html") else rel)
        current["url"] = rel
        page.goto(url, wait_until="load")
        # A site page's title is its article's h1; a published report (a standalone page, not the theme's) has its
        # own h1 at the top of its body.
        h1 = page.locator("article h1, .md-content h1, body > h1").first
        if h1.count() == 0 or not h1.inner_text().strip():
            problems.append(f"{rel}: no h1 heading")
        for tag, raw, resolved in page.evaluate(_TARGETS_JS):
            target = _local_file(site, base, resolved.split("#")[0])
            if target is not None and not target.is_file():
                problems.append(f"{rel}: <{tag}> {raw!r} points to {resolved}, which is not in the site")
        for img in page.evaluate(_IMAGES_JS):
            if not img["ok"]:
                problems.append(f"{rel}: image {img['src']!r} did not load")
            if img["inArticle"] and not img["alt"]:
                problems.append(f"{rel}: image {img['src']!r} has no alt text")
            elif img["inArticle"] and len(img["alt"]) > ALT_LIMIT:  # the caption holds the long description
                problems.append(f"{rel}: image {img['src']!r} has a {len(img['alt'])}-character alt text")
        if measured is not None and rel in content:
            measured[rel] = page.evaluate(_OUTPUTS_JS)
    context.close()
    return problems, len(pages)


def _click_palette_toggle(page) -> None:
    """Click the palette toggle that is showing and wait until the theme has switched: it hides the label that was
    clicked (and shows the next one) in the same step that sets the new colour scheme on <body>."""
    label = page.locator("form[data-md-component=palette] label:visible").first
    label.wait_for(state="visible", timeout=STATE_TIMEOUT_MS)  # the theme's script shows one of them
    target = label.get_attribute("for")
    label.click()
    page.locator(f'form[data-md-component=palette] label[for="{target}"]').first.wait_for(
        state="hidden", timeout=STATE_TIMEOUT_MS)
    # The theme drops this attribute once the switch's transitions may run again (next task after the switch).
    page.wait_for_function("() => !document.body.hasAttribute('data-md-color-switching')", timeout=STATE_TIMEOUT_MS)


_LIGHTBOX_JS = """() => {
  const img = document.querySelector('.gslide.current .gslide-image img');
  const desc = document.querySelector('.gslide.current .gslide-description');
  if (!img) return null;
  const r = img.getBoundingClientRect(), d = desc ? desc.getBoundingClientRect() : null;
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width, height: r.height,
          descTop: d ? d.top : null, descBottom: d ? d.bottom : null,
          descScrolls: desc ? desc.scrollHeight > desc.clientHeight + 1 : false,
          vw: window.innerWidth, vh: window.innerHeight};
}"""


def _check_lightbox(page, where: str) -> list[str]:
    """Enlarge the page's first figure: the whole image must be on screen, no smaller than in the page unless
    the screen's height is what limits it, and its caption below it (not over the chart) and on screen."""
    figure = page.locator("article figure.fc-figure a.glightbox img").first
    if figure.count() == 0:
        return []
    figure.scroll_into_view_if_needed()
    # What the reader sees of it in the page: on a phone the figure is wider than the screen and scrolls sideways.
    in_page = min(figure.bounding_box()["width"], page.viewport_size["width"])
    figure.click()
    page.locator(".gslide.current .gslide-image img").first.wait_for(state="visible", timeout=STATE_TIMEOUT_MS)
    page.wait_for_timeout(600)  # the zoom effect's animation
    box = page.evaluate(_LIGHTBOX_JS)
    page.keyboard.press("Escape")
    if box is None:
        return [f"{where}: clicking a figure opened no enlarged image"]
    problems = []
    if box["top"] < -1 or box["left"] < -1 or box["bottom"] > box["vh"] + 1 or box["right"] > box["vw"] + 1:
        problems.append(f"{where}: the enlarged figure runs off the screen ({box})")
    if box["width"] < in_page - 2 and box["height"] < 0.55 * box["vh"]:
        problems.append(f"{where}: the enlarged figure is {box['width']:.0f}px wide, smaller than in the page "
                        f"({in_page:.0f}px), though the screen has room")
    if box["descTop"] is not None:
        if box["descTop"] < box["bottom"] - 1:
            problems.append(f"{where}: the caption covers the enlarged figure ({box['bottom'] - box['descTop']:.0f}px)")
        if box["descBottom"] > box["vh"] + 1 and not box["descScrolls"]:
            problems.append(f"{where}: the enlarged figure's caption is cut off at the bottom of the screen")
    return problems


def _look_at(browser, base: str, explainer: str):
    """Screenshots a reader would see, with checks of what makes them readable."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    context = _new_context(browser, viewport=DESKTOP)
    page = context.new_page()
    page.goto(base, wait_until="load")
    page.screenshot(path=SCREENSHOTS / "home.png", full_page=True)
    page.goto(base + explainer[: -len("index.html")], wait_until="load")
    try:  # the theme's script adds the buttons; wait for them rather than look once
        page.locator("article .md-code__button, article button.md-clipboard").first.wait_for(
            state="attached", timeout=STATE_TIMEOUT_MS)
    except PlaywrightTimeout:
        problems.append(f"{explainer}: code blocks have no copy button")
    page.screenshot(path=SCREENSHOTS / "explainer.png", full_page=True)
    scheme = page.evaluate("() => document.body.getAttribute('data-md-color-scheme')")
    _click_palette_toggle(page)  # one click: the system's scheme (light here) -> the other
    dark = page.evaluate("() => document.body.getAttribute('data-md-color-scheme')")
    if dark == scheme:
        problems.append(f"the palette toggle did not switch the colour scheme (stayed {scheme!r})")
    page.screenshot(path=SCREENSHOTS / "explainer-dark.png")
    context.close()
    laptop = _new_context(browser, viewport=LAPTOP)
    page = laptop.new_page()
    page.goto(base + explainer[: -len("index.html")], wait_until="load")
    problems += _check_lightbox(page, f"{explainer} at {LAPTOP['width']}x{LAPTOP['height']}")
    laptop.close()
    phone = _new_context(browser, viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = phone.new_page()
    for rel in ("", explainer[: -len("index.html")]):
        page.goto(base + rel, wait_until="load")
        overflow = page.evaluate(_OVERFLOW_JS)
        if overflow > 0:
            problems.append(f"{rel or 'home'}: {overflow}px wider than a {PHONE['width']}px phone screen")
    page.screenshot(path=SCREENSHOTS / "explainer-phone.png")
    problems += _check_lightbox(page, f"{explainer} on a {PHONE['width']}px phone")
    phone.close()
    return problems


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless, launched once for the module (Playwright gives it a fresh profile)."""
    sync_playwright = _need_browser()
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def real_site_at_desktop(browser, real_site, serve):
    """The repository's site opened page by page at 1280 px, once for the module: (base URL, problems, pages
    opened, output measurements of the pages that hold output)."""
    base, measured = serve(real_site), {}
    problems, opened = _check_site(browser, real_site, base, measured)
    return base, problems, opened, measured


def test_every_page_in_a_browser(browser, real_site, real_site_at_desktop, fixture_site, serve):
    _, found, opened, _ = real_site_at_desktop
    problems = [f"[site] {p}" for p in found]
    found, count = _check_site(browser, fixture_site[1], serve(fixture_site[1]))
    problems += [f"[fixture site] {p}" for p in found]
    opened += count
    has_real_explainer = any("Run it yourself" in p.read_text(encoding="utf-8")
                             for p in real_site.glob("explainers/*/index.html"))
    site = real_site if has_real_explainer else fixture_site[1]
    problems += _look_at(browser, serve(site), _explainer_page(site))
    assert opened >= 6, f"only {opened} pages were opened"
    assert not problems, "the site has problems in the browser:\n" + "\n".join(problems)


BROKEN_PAGE = """---
title: Fixture Broken Page
theme: mitigation
order: 1
definition: A page with faults that mkdocs cannot see, for the browser test to find.
---

<img src="figures/no-such-figure.png" alt="a figure that was never drawn">
<img src="figures/fixture-selection-rate-1.png">
<a href="../no-such-page/">a link into the site that leads nowhere</a>
<script>console.error("fixture console error");</script>
"""


def test_the_browser_check_finds_faults(browser, tmp_path, serve):
    root = make_site_root(tmp_path / "root")
    (root / "explainers" / "fixture-broken-page.md").write_text(BROKEN_PAGE, encoding="utf-8")
    build_site(root, root / "out")
    problems, _ = _check_site(browser, root / "out", serve(root / "out"))
    report = "\n".join(problems)
    page = "explainers/fixture-broken-page/index.html"
    assert f"{page}: image 'figures/no-such-figure.png' did not load" in report, report
    assert f"{page}: image 'figures/fixture-selection-rate-1.png' has no alt text" in report, report
    assert f"{page}: <a> '../no-such-page/' points to" in report, report
    assert f"{page}: console error: fixture console error" in report, report
    assert all(p.startswith(page) for p in problems), report


def test_the_repository_site_builds_strict(real_site):
    """The whole repository's site (about a minute to build, hence under the browser marker with the test that
    opens it; `make site` builds it too)."""
    assert (real_site / "index.html").is_file() and (real_site / "concepts" / "index.html").is_file()


# Output tables and printed text in the output boxes (scripts/site/_outputs.py), measured against the box: a table
# overflows when its full width exceeds the box's content width, a printed block when its text needs scrolling.
_OUTPUTS_JS = """() => {
  const result = {tables: 0, tablesOver: 0, pres: 0, presOver: 0, over: [], prose: 0, proseOver: 0};
  for (const table of document.querySelectorAll('article table')) {  // tables in the prose, data cards included
    if (table.closest('.fc-output')) continue;
    result.prose++;
    const r = table.getBoundingClientRect();
    if (table.scrollWidth > table.clientWidth + 1 || r.right > window.innerWidth + 1 || r.left < -1) {
      result.proseOver++;
      result.over.push(`prose table ${table.scrollWidth}px, right edge at ${Math.round(r.right)}px`);
    }
  }
  // The smallest text of each figure as shown, in CSS px: the style's smallest font (pt) at the dpi the build
  // saves figures with, scaled by the width the image is shown at against its natural width.
  result.figures = 0; result.smallestText = null;
  for (const img of document.querySelectorAll('article figure.fc-figure img')) {
    if (!img.naturalWidth) continue;
    result.figures++;
    const px = img.getBoundingClientRect().width / img.naturalWidth * (%(dpi)s / 72) * %(min_pt)s;
    if (result.smallestText === null || px < result.smallestText) result.smallestText = px;
  }
  for (const box of document.querySelectorAll('article .fc-output')) {
    const style = getComputedStyle(box);
    const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    for (const table of box.querySelectorAll('table')) {
      result.tables++;
      if (table.scrollWidth > room + 1) {
        result.tablesOver++;
        result.over.push(`table ${table.scrollWidth}px in ${Math.round(room)}px`);
      }
    }
    for (const code of box.querySelectorAll(':scope > .highlight pre > code')) {
      result.pres++;
      if (code.scrollWidth > code.clientWidth + 1) result.presOver++;
    }
  }
  return result;
}"""
def _figure_text_sizes() -> tuple[float, float]:
    """(dpi the build saves figures at, smallest font size in points the figure style sets)."""
    import tomllib
    dpi = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pagebuild"]["dpi"]
    style = (ROOT / "scripts" / "pagebuild" / "figures.mplstyle").read_text()
    sizes = [float(v) for k, v in re.findall(r"^([\w.]*size)\s*:\s*([\d.]+)\s*$", style, re.MULTILINE)
             if k.endswith(("font.size", "fontsize", "labelsize", "titlesize"))]
    return dpi, min(sizes)


_DPI, _MIN_PT = _figure_text_sizes()
_OUTPUTS_JS = _OUTPUTS_JS.replace("%(dpi)s", str(_DPI)).replace("%(min_pt)s", str(_MIN_PT))
# The smallest figure text a phone (390 px) may show, in CSS px; desktop body text is 16 px.
MIN_PHONE_FIGURE_TEXT_PX = 11

# At 1280 px at most this share of the output tables may need sideways scrolling; at 390 px none may, since there
# each row is shown as a card (site.css, scripts/site/_tables.py). 1280 px is DESKTOP: those measurements are taken
# in the every-page pass (real_site_at_desktop); this test loads the pages again only at 390 px.
MAX_OVERFLOWING_TABLES = {"1280": 0.05, "390": 0.0}
PHONE_WIDTH = {"390": {"width": 390, "height": 844}}
# Searches a reader tried that found the wrong page or nothing (issue 25), and the explainer each must find first.
CONCEPT_QUERIES = {
    "four-fifths": "explainers/disparate-impact-and-legal-tests.md",
    "four fifths rule": "explainers/disparate-impact-and-legal-tests.md",
    "80% rule": "explainers/disparate-impact-and-legal-tests.md",
    "Wilson interval": "explainers/bootstrap-confidence-intervals.md",
    "COMPAS": "Pretrial Risk Assessment/pretrial-risk-assessment.md",
}


def _content_pages(site: pathlib.Path) -> list[str]:
    """The site's pages that hold output or a table: explainers, audit write-ups and data cards (not notebooks,
    which repeat the pages)."""
    return [p for p in _pages(site) if "/notebooks/" not in p and any(
        mark in (site / p).read_text(encoding="utf-8") for mark in ('class="fc-output"', "<table"))]


def _measure_outputs(browser, site: pathlib.Path, base: str) -> dict:
    """At 390 px: per page, how many output tables and printed blocks there are and how many overflow."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    found = {}
    for label, viewport in PHONE_WIDTH.items():
        context = _new_context(browser, viewport=viewport)
        page = context.new_page()
        for rel in _content_pages(site):
            page.goto(base + rel[: -len("index.html")], wait_until="load")
            found.setdefault(label, {})[rel] = page.evaluate(_OUTPUTS_JS)
            name = rel[: -len("/index.html")].replace("/", "-").replace(" ", "-")
            first = page.locator("article .fc-output:has(table)").first  # the first output table, as shown
            if first.count():
                first.screenshot(path=SCREENSHOTS / f"{name}-table-{label}.png")
            page.screenshot(path=SCREENSHOTS / f"{name}-{label}.png")
        context.close()
    return found


# The state of the search box's output (mkdocs-material: .md-search-result holds a meta line and the result list). The
# meta line says "Initializing search" until the worker has built its index; then, for every query the worker
# answers, it says the placeholder ("Type to start searching", empty query), "No matching documents", "1 matching
# document" or "N matching documents", in the same step that renders the first results into the list. The strings
# come from the page's own configuration (#__config), so they follow the site's language. `h` is the highlight
# parameter (search.highlight) of the first result's link: the query's terms that the result matched.
_SEARCH_STATE_JS = """() => {
  const t = JSON.parse(document.getElementById('__config').textContent).translations;
  const meta = (document.querySelector('.md-search-result__meta')?.textContent || '').trim();
  const [before, after] = t['search.result.other'].split('#');  // "# matching documents"; the count may read 1.2k
  const count = meta.slice(before.length, meta.length - after.length);
  const first = document.querySelector('.md-search-result__list > li a');
  const url = first ? new URL(first.href) : null;
  return {
    meta, items: document.querySelectorAll('.md-search-result__list > li').length,
    placeholder: meta === t['search.result.placeholder'],
    answered: meta === t['search.result.none'] || meta === t['search.result.one'] || (
      meta.startsWith(before) && meta.endsWith(after) && /^[0-9][0-9.,]*k?$/.test(count)),
    href: first ? first.getAttribute('href') : null,
    h: url && url.searchParams.has('h') ? url.searchParams.get('h') : null,
  };
}"""
# Ready for a query: the worker has answered the empty query (placeholder shown, nothing listed).
_SEARCH_IDLE_JS = """() => {
  const s = (STATE)();
  return s.placeholder && s.items === 0 && s;
}""".replace("STATE", _SEARCH_STATE_JS)
# Answered THIS query: the meta line gives a count (it showed the placeholder before the query was typed), and the
# first result, if any, is highlighted with terms that are all words of this query.
_SEARCH_ANSWERED_JS = """query => {
  const s = (STATE)();
  if (!s.answered) return false;
  if (s.items === 0) return s;
  if (s.h === null) return false;
  const words = query.toLowerCase();
  return s.h.split(/\\s+/).filter(Boolean).every(term => words.includes(term)) && s;
}""".replace("STATE", _SEARCH_STATE_JS)


def _first_search_hits(browser, base: str, queries: list[str]) -> dict[str, str]:
    """The path of the first search result for each query, typed into the site's search box.

    The site is loaded once and the search index built once; each query then waits for states, not for time: the
    box cleared and the worker's answer to the empty query shown, then the answer to this query shown."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    context = _new_context(browser, viewport=DESKTOP)
    page = context.new_page()
    page.goto(base, wait_until="load")
    box = page.locator("input.md-search__input")  # at 1280 px the header shows the search field itself
    try:
        page.wait_for_function(_SEARCH_IDLE_JS, timeout=SEARCH_READY_TIMEOUT_MS)
    except PlaywrightTimeout:
        state = page.evaluate(_SEARCH_STATE_JS)
        context.close()
        raise AssertionError(f"the site's search was not ready after {SEARCH_READY_TIMEOUT_MS / 1000:.0f} s "
                             f"(its meta line says {state['meta']!r})") from None
    box.click()
    hits = {}
    for query in queries:
        # The theme reads the box on keyup (and focus), not on input: a key press after each fill sends the query.
        box.fill("")
        box.press("End")
        page.wait_for_function(_SEARCH_IDLE_JS, timeout=STATE_TIMEOUT_MS)
        box.fill(query)
        box.press("End")
        try:
            state = page.wait_for_function(_SEARCH_ANSWERED_JS, arg=query, timeout=STATE_TIMEOUT_MS).json_value()
        except PlaywrightTimeout:
            state = page.evaluate(_SEARCH_STATE_JS)
            context.close()
            raise AssertionError(f"the search for {query!r} was not answered within {STATE_TIMEOUT_MS / 1000:.0f} s "
                                 f"(meta line {state['meta']!r}, first link {state['href']!r})") from None
        hits[query] = unquote(urlsplit(state["href"]).path) if state["items"] else "(no result)"
    context.close()
    return hits


def test_output_tables_fit_and_search_finds_each_page(browser, real_site, real_site_at_desktop):
    from scripts.site import load_explainers

    base, _, _, desktop = real_site_at_desktop
    measured = {"1280": desktop, **_measure_outputs(browser, real_site, base)}
    lines, problems = [], []
    for label, pages in measured.items():
        tables = sum(m["tables"] for m in pages.values())
        over = sum(m["tablesOver"] for m in pages.values())
        pres = sum(m["pres"] for m in pages.values())
        pres_over = sum(m["presOver"] for m in pages.values())
        lines.append(f"{label} px: {over} of {tables} output tables overflow; {pres_over} of {pres} printed blocks "
                     f"need sideways scrolling ({len(pages)} pages)")
        for rel, m in pages.items():
            if m["tablesOver"] or m["proseOver"]:
                lines.append(f"  {rel}: {m['tablesOver']} of {m['tables']} tables overflow ({'; '.join(m['over'])})")
        if tables and over / tables > MAX_OVERFLOWING_TABLES[label]:
            problems.append(f"at {label} px {over} of {tables} output tables overflow their box "
                            f"(at most {MAX_OVERFLOWING_TABLES[label]:.0%} may)")
        sizes = {rel: m["smallestText"] for rel, m in pages.items() if m["smallestText"] is not None}
        if sizes:
            smallest = min(sizes, key=sizes.get)
            lines.append(f"{label} px: smallest figure text {sizes[smallest]:.1f}px ({smallest}; "
                         f"{sum(m['figures'] for m in pages.values())} figures)")
            small = {rel: px for rel, px in sizes.items() if px < MIN_PHONE_FIGURE_TEXT_PX}
            if label == "390" and small:
                problems.append(f"at 390 px figure text is smaller than {MIN_PHONE_FIGURE_TEXT_PX}px on "
                                + "; ".join(f"{rel}: {px:.1f}px" for rel, px in sorted(small.items())))
        prose = sum(m["prose"] for m in pages.values())
        prose_over = sum(m["proseOver"] for m in pages.values())
        lines.append(f"{label} px: {prose_over} of {prose} tables in the prose run past the screen or scroll")
        if label == "390" and prose_over:  # on a phone they wrap (site.css); at 1280 a wide one may scroll
            problems.append(f"at 390 px {prose_over} of {prose} tables in the prose run past the screen: "
                            + "; ".join(f"{rel}: {m['over']}" for rel, m in pages.items() if m["proseOver"]))
    assert any(m["tables"] + m["pres"] for m in measured["1280"].values()), "no output found on any page"
    from scripts.site import load_audits
    from scripts.site._urls import SitePaths

    explainers = load_explainers(ROOT)
    write_ups = [p for a in load_audits(ROOT) for p in a.pages]
    # Each explainer's title, every other name a page's front matter gives its concept (aliases), and the
    # searches readers tried and missed (CONCEPT_QUERIES) must find their page first.
    queries = {e.title: e.src_uri for e in explainers}
    queries.update({alias: p.src_uri for p in [*explainers, *write_ups] for alias in p.aliases})
    queries.update(CONCEPT_QUERIES)
    hits = _first_search_hits(browser, base, list(queries))
    base_path = urlsplit(base).path
    paths = SitePaths(a.name for a in load_audits(ROOT))  # audit pages live under audits/<slug>/
    for query, src_uri in queries.items():
        expected = base_path + paths.page_url(src_uri)
        hit = hits[query]
        lines.append(f"search {query!r}: first hit {hit}")
        if hit.split("#")[0] != expected:
            problems.append(f"searching {query!r} finds {hit} first, not {expected}")
    print("\n".join(lines))
    (SCREENSHOTS / "measurements.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert not problems, "\n".join(problems) + "\n" + "\n".join(lines)
