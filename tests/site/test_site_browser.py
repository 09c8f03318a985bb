"""The built site in a real browser: Debian's headless Chromium driven by Playwright.

Every page is opened; the test fails on a console error, an uncaught script error, a failed request, a link or
image inside the site that points nowhere, an image without alt text, a page without its h1, or a page wider
than a phone's screen. Screenshots go to tests/screenshots/ (kept out of git).
"""
import os
import pathlib
import posixpath
from urllib.parse import unquote, urlsplit

import pytest

from _site_helpers import ROOT, build_site, make_site_root

# Deselect by name where Chromium cannot be had: pytest -m "not browser" (make test SITE_BROWSER_TEST=skip).
pytestmark = pytest.mark.browser

CHROMIUM = pathlib.Path(os.environ.get("SITE_CHROMIUM", "/usr/bin/chromium"))
SKIP_VAR = "SITE_BROWSER_TEST"  # set to "skip" to skip this test where Chromium cannot be had
SCREENSHOTS = ROOT / "tests" / "screenshots"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 900}

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


def _pages(site: pathlib.Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


def _explainer_page(site: pathlib.Path) -> str:
    """A published explainer with a generated script: the richest page to look at."""
    candidates = [p for p in _pages(site) if p.startswith("explainers/") and "/notebooks/" not in p
                  and "Run it yourself" in (site / p).read_text(encoding="utf-8")]
    assert candidates, f"no explainer page with a script in {site}"
    return candidates[0]


def _check_site(browser, site: pathlib.Path, base: str) -> tuple[list[str], int]:
    """Open every page of the site; return the problems found and how many pages were opened."""
    problems: list[str] = []
    context = browser.new_context(viewport=DESKTOP)
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
    for rel in pages:
        url = base + (rel[: -len("index.html")] if rel.endswith("index.html") else rel)
        current["url"] = rel
        page.goto(url, wait_until="load")
        h1 = page.locator("article h1, .md-content h1").first
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
    context.close()
    return problems, len(pages)


def _look_at(browser, base: str, explainer: str):
    """Screenshots a reader would see, with checks of what makes them readable."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    page.goto(base, wait_until="load")
    page.screenshot(path=SCREENSHOTS / "home.png", full_page=True)
    page.goto(base + explainer[: -len("index.html")], wait_until="load")
    if page.locator("article .md-code__button, article button.md-clipboard").count() == 0:
        problems.append(f"{explainer}: code blocks have no copy button")
    page.screenshot(path=SCREENSHOTS / "explainer.png", full_page=True)
    scheme = page.evaluate("() => document.body.getAttribute('data-md-color-scheme')")
    page.locator("form[data-md-component=palette] label:visible").first.click()
    page.wait_for_timeout(200)
    page.locator("form[data-md-component=palette] label:visible").first.click()
    page.wait_for_timeout(200)
    dark = page.evaluate("() => document.body.getAttribute('data-md-color-scheme')")
    if dark == scheme:
        problems.append(f"the palette toggle did not switch the colour scheme (stayed {scheme!r})")
    page.screenshot(path=SCREENSHOTS / "explainer-dark.png")
    context.close()
    phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = phone.new_page()
    for rel in ("", explainer[: -len("index.html")]):
        page.goto(base + rel, wait_until="load")
        overflow = page.evaluate(_OVERFLOW_JS)
        if overflow > 0:
            problems.append(f"{rel or 'home'}: {overflow}px wider than a {PHONE['width']}px phone screen")
    page.screenshot(path=SCREENSHOTS / "explainer-phone.png")
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


def test_every_page_in_a_browser(browser, real_site, fixture_site, serve):
    problems, opened = [], 0
    for name, site in (("site", real_site), ("fixture site", fixture_site[1])):
        found, count = _check_site(browser, site, serve(site))
        problems += [f"[{name}] {p}" for p in found]
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
  const result = {tables: 0, tablesOver: 0, pres: 0, presOver: 0, over: []};
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
# At 1280 px at most this share of the output tables may need sideways scrolling; at 390 px none may, since there
# each row is shown as a card (site.css, scripts/site/_tables.py).
MAX_OVERFLOWING_TABLES = {"1280": 0.05, "390": 0.0}
WIDTHS = {"1280": {"width": 1280, "height": 900}, "390": {"width": 390, "height": 844}}


def _content_pages(site: pathlib.Path) -> list[str]:
    """The site's pages that hold output: explainers and audit write-ups (their notebooks repeat them)."""
    return [p for p in _pages(site) if "/notebooks/" not in p and '<div class="fc-output"' in
            (site / p).read_text(encoding="utf-8")]


def _measure_outputs(browser, site: pathlib.Path, base: str) -> dict:
    """Per width: per page, how many output tables and printed blocks there are and how many overflow."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    found = {}
    for label, viewport in WIDTHS.items():
        context = browser.new_context(viewport=viewport)
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


def _first_search_hits(browser, base: str, queries: list[str]) -> dict[str, str]:
    """The path of the first search result for each query, typed into the site's search box."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    hits = {}
    for query in queries:
        page.goto(base, wait_until="load")  # a fresh page per query: no state left from the last search
        box = page.locator("input.md-search__input")  # at 1280 px the header shows the search field itself
        box.click()
        box.fill(query)
        first = page.locator(".md-search-result__list > li a").first
        try:
            first.wait_for(timeout=10_000)
            page.wait_for_timeout(150)  # the result list is replaced as the query settles
            hits[query] = unquote(urlsplit(first.get_attribute("href")).path)
        except Exception:  # noqa: BLE001 - no result at all is a finding, not an error of the test
            hits[query] = "(no result)"
    context.close()
    return hits


def test_output_tables_fit_and_search_finds_each_page(browser, real_site, serve):
    from scripts.site import load_explainers

    base = serve(real_site)
    measured = _measure_outputs(browser, real_site, base)
    lines, problems = [], []
    for label, pages in measured.items():
        tables = sum(m["tables"] for m in pages.values())
        over = sum(m["tablesOver"] for m in pages.values())
        pres = sum(m["pres"] for m in pages.values())
        pres_over = sum(m["presOver"] for m in pages.values())
        lines.append(f"{label} px: {over} of {tables} output tables overflow; {pres_over} of {pres} printed blocks "
                     f"need sideways scrolling ({len(pages)} pages)")
        for rel, m in pages.items():
            if m["tablesOver"]:
                lines.append(f"  {rel}: {m['tablesOver']} of {m['tables']} tables overflow ({'; '.join(m['over'])})")
        if tables and over / tables > MAX_OVERFLOWING_TABLES[label]:
            problems.append(f"at {label} px {over} of {tables} output tables overflow their box "
                            f"(at most {MAX_OVERFLOWING_TABLES[label]:.0%} may)")
    assert any(m["tables"] + m["pres"] for m in measured["1280"].values()), "no output found on any page"
    explainers = load_explainers(ROOT)
    hits = _first_search_hits(browser, base, [e.title for e in explainers])
    base_path = urlsplit(base).path
    for explainer in explainers:
        expected = base_path + explainer.src_uri[: -len(".md")] + "/"
        hit = hits[explainer.title]
        lines.append(f"search {explainer.title!r}: first hit {hit}")
        if hit.split("#")[0] != expected:
            problems.append(f"searching {explainer.title!r} finds {hit} first, not {expected}")
    print("\n".join(lines))
    (SCREENSHOTS / "measurements.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert not problems, "\n".join(problems) + "\n" + "\n".join(lines)
