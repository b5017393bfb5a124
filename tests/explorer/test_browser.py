"""The explorer in a real browser (Debian's chromium, driven by Playwright): search, open an
episode, follow a concept to its chart, by keyboard too; a treaty partner's pages show no
hidden concept. Screenshots go to test-artifacts/explorer/."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.explorer.test_pages import pages, partner_key
from tests.policy.test_leak_hunter import cid, hidden_strings
from tests.serving import served
from xdb.interfaces.http import create_app

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "explorer"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

if CHROMIUM is None:
    pytest.skip(
        "no chromium on this machine: 'make test' installs Debian's chromium (apt) where it"
        " may; the explorer's pages are tested over HTTP in test_pages.py",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is a test extra")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_search_open_an_episode_and_a_concepts_chart(
    world: Any, browser: Any, module_target: str
) -> None:
    if module_target.startswith("postgres"):
        pytest.skip("one store is enough for the browser; both serve the same pages (test_pages)")
    db, _ = world
    with served(create_app(db, mcp=False)) as url:
        page = browser.new_page()
        # The pages' Content-Security-Policy (interfaces.guard) must block nothing they use.
        refused: list[str] = []
        page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else 0)
        page.goto(url + "/")
        assert page.locator("h1").inner_text() == "What the agent lived through"
        shot(page, "overview")
        page.get_by_role("link", name="Search", exact=True).click()
        page.get_by_label("Text").fill("river")
        page.get_by_role("button", name="Search").last.click()
        page.wait_for_url(re.compile(r"/search\?.*q=river"))
        shot(page, "search")
        page.locator("a.hit").first.click()
        page.wait_for_url(re.compile(r"/episodes/"))
        assert "a walk along the river" in page.locator("pre.content").inner_text()
        shot(page, "episode")
        opened = page.url
        page.locator(f'a.concept:text-is("{cid("Joy")}")').first.click()
        page.wait_for_url(re.compile(r"/concepts/"))
        assert page.locator("svg.chart rect").count() > 0
        shot(page, "concept")
        # Walk the graph from the episode, then find a concept as one types.
        page.goto(url + f"/graph?seed={opened.rsplit('/', 1)[1]}&depth=2")
        assert page.locator("svg.graph a.node").count() > 1
        shot(page, "graph")
        page.locator("svg.graph a.node.concept").first.click()
        page.wait_for_url(re.compile(r"/graph\?seed="))
        page.goto(url + "/concepts")
        page.locator("#find-concept").press_sequentially("Cal", delay=30)
        page.wait_for_url(re.compile(r"/concepts\?q=Cal"))
        assert page.locator("#concept-list a.concept").first.inner_text() == "Calm"
        shot(page, "concepts")
        page.goto(url + "/sessions/s1?zoom=tick")
        assert page.locator("td.heat a.cell").count() > 0
        shot(page, "session")
        # By keyboard: the skip link first, then the navigation.
        page.goto(url + "/")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.className") == "skip"
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        page.wait_for_url(re.compile(r"/search"))
        page.close()
    assert not refused, refused


def test_a_treaty_partners_pages_show_no_hidden_concept(
    world: Any, browser: Any, module_target: str
) -> None:
    if module_target.startswith("postgres"):
        pytest.skip("one store is enough for the browser; both are checked in test_pages")
    db, episodes = world
    key = partner_key(db)
    with served(create_app(db, mcp=False)) as url:
        context = browser.new_context(extra_http_headers={"Authorization": f"Bearer {key}"})
        page = context.new_page()
        for number, path in enumerate(pages(episodes)):
            page.goto(url + path)
            shown = page.content() + page.locator("body").inner_text()
            for secret in hidden_strings():
                assert not re.search(rf"\b{re.escape(secret)}\b", shown), (path, secret)
            shot(page, f"partner-{number}")
        context.close()
