"""The explorer in a real browser (Debian's chromium, driven by Playwright): search, open an
episode, follow a concept to its chart, by keyboard too; every page at a desktop's width and
at a phone's 390 px (no sideways scrolling there), with no console error, and every link a
page shows answering; a treaty partner's pages show no hidden concept. Screenshots of every
page are kept in the test's temporary folder (pytest's ``tmp_path``), never in the tree."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.explorer.conftest import CHAT
from tests.explorer.test_routes import pages, partner_key
from tests.policy.test_leak_hunter import LEARNED, cid, hidden_strings
from tests.serving import served
from xdb.interfaces.http import create_app

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PHONE = 390  # px: the narrowest screen the pages are made for

if CHROMIUM is None:
    pytest.skip(
        "no chromium on this machine: 'make test' installs Debian's chromium (apt) where it"
        " may; the explorer's pages are tested over HTTP in test_routes.py and test_views.py",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is a test extra")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture(autouse=True)
def one_store(module_target: str) -> None:
    if module_target.startswith("postgres"):
        pytest.skip("one store is enough for the browser; both serve the same pages (test_routes)")


def every_page(episodes: list[str], lessons: dict[str, str]) -> list[str]:
    """A page of each kind (the HTTP tests' list, and what the world's additions make)."""
    return [
        *pages(episodes),
        f"/sessions/{CHAT}",
        f"/sessions/{CHAT}?zoom=tick",
        "/search?q=the",
        "/search?q=the+river",
        f"/episodes/{episodes[0]}?hl=river",
        f"/datasets/{LEARNED['dataset Joy']}",
        f"/training-runs/{LEARNED['run']}",
        "/buds/Hunch",
        "/lessons?topic=DbContext",
        f"/lessons/{lessons['new']}",
        "/login",
    ]


def shot(page: Any, folder: Path, name: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def watch(page: Any) -> list[str]:
    """The page's console errors and uncaught exceptions (a CSP refusal is one), as they come."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"{page.url}: {m.text}") if m.type == "error" else 0)
    page.on("pageerror", lambda e: errors.append(f"{page.url}: {e}"))
    return errors


def test_search_open_an_episode_and_a_concepts_chart(
    rich: Any, browser: Any, tmp_path: Path
) -> None:
    db, _, _ = rich
    with served(create_app(db, mcp=False)) as url:
        page = browser.new_page()
        errors = watch(page)
        page.goto(url + "/")
        assert page.locator("h1").inner_text() == "What the agent lived through"
        page.get_by_role("link", name="Search", exact=True).click()
        page.get_by_label("Text").fill("river")
        page.get_by_role("button", name="Search").last.click()
        page.wait_for_url(re.compile(r"/search\?.*q=river"))
        assert page.locator("#results + ol mark").first.inner_text() == "river"
        page.locator("a.hit").first.click()
        page.wait_for_url(re.compile(r"/episodes/.*hl=river"))
        assert "a walk along the river" in page.locator("pre.content").inner_text()
        opened = page.url.split("?", 1)[0]
        joy = page.locator(f'a.concept[title="{cid("Joy")}"]').first
        assert joy.inner_text() == "Joy"  # its name; the full id on hover
        joy.click()
        page.wait_for_url(re.compile(r"/concepts/"))
        assert page.locator("svg.chart rect").count() > 0
        assert page.locator("svg.chart text.tick").count() > 2  # the axes' values
        # Walk the graph from the episode, then find a concept as one types.
        page.goto(url + f"/graph?seed={opened.rsplit('/', 1)[1]}&depth=2")
        assert page.locator("svg.graph a.node").count() > 1
        assert page.locator("ul.legend li").count() > 1
        page.locator("svg.graph a.node.concept").first.click()
        page.wait_for_url(re.compile(r"/graph\?seed="))
        page.goto(url + "/concepts")
        page.locator("#find-concept").press_sequentially("Cal", delay=30)
        page.wait_for_url(re.compile(r"/concepts\?q=Cal"))
        assert page.locator("#concept-list a.concept").first.inner_text() == "Calm"
        shot(page, tmp_path, "concepts-typed")
        page.goto(url + f"/sessions/{CHAT}")
        assert page.locator("ol.chat li.msg").count() == 5  # a short session: its conversation
        page.goto(url + "/sessions/s1?zoom=tick")
        assert page.locator("td.heat a.cell").count() > 0
        # By keyboard: the skip link first, then the navigation.
        page.goto(url + "/")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.className") == "skip"
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(r"/search"))
        page.close()
    assert not errors, errors


def test_every_page_fits_a_phone_and_its_links_answer(
    rich: Any, browser: Any, tmp_path: Path
) -> None:
    db, episodes, lessons = rich
    with served(create_app(db, mcp=False)) as url:
        checked: dict[str, int] = {}
        for width, height in ((1280, 900), (PHONE, 844)):
            context = browser.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            errors = watch(page)
            for number, path in enumerate(every_page(episodes, lessons)):
                answer = page.goto(url + path)
                assert answer is not None and answer.status == 200, path
                shot(page, tmp_path / str(width), f"{number:02d}")
                wide = page.evaluate("document.scrollingElement.scrollWidth")
                assert wide <= width, (path, width, wide)
                hrefs = page.eval_on_selector_all(
                    "a[href]",
                    "all => all.map(a => new URL(a.getAttribute('href'), location.href).href)",
                )
                for href in hrefs:
                    if href.startswith(url) and not href.endswith("/logout"):
                        key = href.split("#", 1)[0]
                        if key not in checked:
                            checked[key] = context.request.get(key).status
            context.close()
            assert not errors, errors
        broken = {href: status for href, status in checked.items() if status != 200}
        assert not broken, broken
        assert len(checked) > 100
    shots = list(tmp_path.glob("*/*.png"))
    assert len(shots) == 2 * len(every_page(episodes, lessons))


def test_a_treaty_partners_pages_show_no_hidden_concept(
    rich: Any, browser: Any, tmp_path: Path
) -> None:
    db, episodes, lessons = rich
    key = partner_key(db)
    with served(create_app(db, mcp=False)) as url:
        context = browser.new_context(extra_http_headers={"Authorization": f"Bearer {key}"})
        page = context.new_page()
        # (Asked for the bud Hunch by name, a partner would see its own word echoed.)
        shown_pages = [p for p in every_page(episodes, lessons) if p != "/buds/Hunch"]
        for number, path in enumerate(shown_pages):
            page.goto(url + path)
            shown = page.content() + page.locator("body").inner_text()
            for secret in hidden_strings():
                assert not re.search(rf"\b{re.escape(secret)}\b", shown), (path, secret)
            shot(page, tmp_path, f"partner-{number:02d}")
        context.close()
