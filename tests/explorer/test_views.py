"""What makes the explorer pleasant to use, over real HTTP on both stores: every object is a
link and every link answers (a crawl from the overview, for the admin and for a treaty
partner, who meets no hidden concept on any page it can reach); concepts by their names with
the full id on hover; a search's common words neither searched by nor reported, its words
marked; an episode's tags, comments and labels; a session as a conversation; charts with
axes; counts that roll up; the lessons' tiers explained; the sign-in page on
localhost."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from tests.explorer.conftest import CHAT
from tests.explorer.test_routes import pages, partner_key
from tests.policy.test_leak_hunter import ADMIN, PARTNER, cid, hidden_strings
from tests.serving import served
from xdb.api import Operations
from xdb.concepts.concept_usage_models import UsageBucket
from xdb.explorer.concept_pages import usage_chart
from xdb.explorer.render import human_bytes, term
from xdb.interfaces.http import create_app


def links(page: str) -> list[str]:
    """The page's own links and sources (not other sites, not fragments), as paths."""
    found = []
    for href in re.findall(r'(?:href|src)="([^"]*)"', page):
        href = html.unescape(href)
        if href.startswith(("http:", "https:", "data:", "mailto:", "#")) or href == "/logout":
            continue
        found.append(href.split("#", 1)[0])
    return found


def crawl(client: httpx.Client, start: list[str], limit: int = 1500) -> dict[str, str]:
    """Every page reachable from ``start`` by the pages' links: path -> its HTML."""
    seen: dict[str, str] = {}
    todo = list(start)
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        answer = client.get(path)
        assert answer.status_code == 200, (path, answer.status_code, answer.text[-300:])
        seen[path] = answer.text if "html" in answer.headers["content-type"] else ""
        todo += [p for p in links(seen[path]) if p not in seen]
        assert len(seen) < limit, "the crawl does not end"
    return seen


def test_every_link_from_the_overview_answers(rich: Any, module_target: str) -> None:
    if module_target.startswith("postgres"):  # the links are the same; a partner's crawl
        pytest.skip("one store is enough for the links (the partner's crawl runs on both)")
    db, episodes, lessons = rich
    start = ["/", *pages(episodes), f"/sessions/{CHAT}", f"/lessons/{lessons['new']}"]
    with served(create_app(db, mcp=False)) as url, httpx.Client(base_url=url) as client:
        seen = crawl(client, start)
    kinds = {urlsplit(p).path.split("/")[1] for p in seen}
    for section in ("episodes", "concepts", "sessions", "graph", "buds", "datasets",
                    "training-runs", "lessons", "search", "learning", "explorer.js"):  # fmt: skip
        assert section in kinds, section
    for path, page in seen.items():  # concepts by name, the full id on hover
        for shown in re.findall(
            r'<a href="/concepts/[^"]*" class="concept"[^>]*>([^<]*)</a>', page
        ):
            assert "::" not in shown, (path, shown)


def test_a_partner_reaches_no_hidden_concept_by_any_link(rich: Any) -> None:
    db, episodes, lessons = rich
    headers = {"Authorization": f"Bearer {partner_key(db)}"}
    start = ["/", *pages(episodes), f"/sessions/{CHAT}", f"/lessons/{lessons['new']}"]
    with (
        served(create_app(db, mcp=False)) as url,
        httpx.Client(base_url=url, headers=headers) as client,
    ):
        seen = crawl(client, start)
    for path, page in seen.items():
        for secret in hidden_strings():
            assert not re.search(rf"\b{re.escape(secret)}\b", page), (path, secret)
    assert "Reading as <b>acme-bot</b>" in seen["/"]


def test_labels_are_human(rich: Any) -> None:
    db, episodes, _ = rich
    assert term(cid("Joy")) == "Joy" and term(f"concept:{cid('Calm')}") == "Calm"
    assert (human_bytes(512), human_bytes(1536), human_bytes(5 * 2**20)) == (
        "512 bytes", "1.5 KB", "5.0 MB")  # fmt: skip
    with served(create_app(db, mcp=False)) as url, httpx.Client(base_url=url) as client:
        detail = client.get(f"/episodes/{episodes[0]}").text
        joy = f'<a href="/concepts/org.test/alpha%401.0.0%3A%3Aconcept/Joy" class="concept" title="{cid("Joy")}">Joy</a>'  # noqa: E501
        assert joy in detail
        assert '<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,' in detail
        learning = client.get("/learning").text
        assert re.search(r"COLD storage: [0-9.]+ (bytes|KB|MB) of [0-9.]+ (KB|MB|GB)", learning)
        lessons = client.get("/lessons").text
        assert "<b>T0 principle</b>" in lessons and "a rule drawn from a cluster" in lessons
        assert 'title="T2 Q&amp;A: a question and answer with its scope' in lessons  # a lesson


def test_a_search_neither_searches_nor_reports_common_words(rich: Any) -> None:
    db, _, _ = rich
    with served(create_app(db, mcp=False)) as url, httpx.Client(base_url=url) as client:
        the = client.get("/search", params={"q": "the"}).text
        assert "has only common words" in the and 'class="hit"' not in the
        assert "words: the" not in the
        river = client.get("/search", params={"q": "the river"}).text
        assert "words: the" not in river and "matched: words: river" in river
        assert "a walk along the <mark>river</mark>, day 0" in river
        matches, _, beside = river.partition('id="beside"')
        assert "weather report" not in matches  # not padded with what lacks the words
        assert "weather report" in beside and "by meaning" in beside
        hit = re.search(r'href="(/episodes/[^"]*\?hl=river)"', river)
        assert hit is not None  # the episode marks the words too
        assert "<mark>river</mark>" in client.get(html.unescape(hit.group(1))).text
        filtered = client.get("/search", params={"q": "the", "concept": cid("Calm")}).text
        assert "has only common words" in filtered and 'class="hit"' in filtered


def test_an_episode_shows_its_tags_comments_and_labels(rich: Any) -> None:
    db, episodes, _ = rich
    made = db.search_episodes(text_query="weather report number 0").episodes[0]
    with served(create_app(db, mcp=False)) as url, httpx.Client(base_url=url) as client:
        page = client.get(f"/episodes/{made.episode_id}").text
        assert "custom tag weather on ticks 1–2" in page
        assert '<a href="/concepts/org.test/alpha@1.0.0::concept/Joy">Joy</a>' in page
        labelled = client.get(f"/episodes/{episodes[0]}").text
        assert 'class="label label-positive">positive</span>' in labelled
        reply = db.search_episodes(text_query="look", session_id=CHAT).episodes[0]
        said = client.get(f"/episodes/{reply.episode_id}").text
        assert "comment by" in said and "a good answer" in said and "sunny" in said


def test_a_short_session_opens_as_a_conversation(rich: Any) -> None:
    db, _, _ = rich
    with served(create_app(db, mcp=False)) as url, httpx.Client(base_url=url) as client:
        chat = client.get(f"/sessions/{CHAT}").text
        assert '<strong aria-current="true">conversation</strong>' in chat
        turns = re.findall(r'<li class="msg (\w+) (\w+)"', chat)
        assert turns == [("user", "input"), ("assistant", "output"), ("assistant", "tool_call"),
                         ("tool", "tool_response"), ("system", "steering")]  # fmt: skip
        assert "Let me look." in chat  # an answer's tokens, one message
        assert "a good answer" in chat and "Joy 0.80" in chat
        ticks = client.get(f"/sessions/{CHAT}", params={"zoom": "tick"}).text
        assert '<table class="timeline">' in ticks and 'class="chat"' not in ticks


def test_charts_have_axes_and_counts_roll_up(rich: Any) -> None:
    db, episodes, _ = rich
    with served(create_app(db, mcp=False)) as url, httpx.Client(base_url=url) as client:
        joy = client.get(f"/concepts/{cid('Joy')}").text
        chart = joy[joy.index('<svg class="chart"') : joy.index("</svg>")]
        assert re.search(r'<text class="tick"[^>]*text-anchor="end">0</text>', chart)  # y-axis
        assert re.search(r">(\d{2}:\d{2}(:\d{2})?|\d{2}\.\d{3} s)</text>", chart)  # times below,
        assert re.search(r'class="axis-title"[^>]*>(time|seconds) \(UTC\), \d{4}-', chart)  # dated
        assert '<a href="/search?concept=' in chart  # a bar leads to its episodes
        roots = client.get("/concepts").text  # counts that roll up, by default
        emotion = re.search(r"Emotion</a>\s*<span class=\"meta\">(.*?)</span></li>", roots, re.S)
        assert emotion is not None
        summed = re.search(r">([\d,]+) summed</a> with its (\d+) narrower", emotion.group(1))
        own = re.search(r">([\d,]+) its own</a>|([\d,]+) its own", emotion.group(1))
        assert summed is not None and own is not None
        assert int(summed.group(1)) > int(own.group(1) or own.group(2) or 0), emotion.group(1)
        assert "an episode carrying two of them counts twice" in roots
        page = client.get(f"/concepts/{cid('Emotion')}").text
        assert f">{summed.group(1)} summed with its narrower concepts</a>" in page
        once = client.get(f"/concepts/{cid('Emotion')}", params={"distinct": 1}).text
        distinct = re.search(r"([\d,]+) carry it or a narrower one, each counted once", once)
        assert distinct is not None and 0 < int(distinct.group(1)) <= int(summed.group(1))
        graph = client.get("/graph", params={"seed": episodes[0], "depth": 2}).text
        assert 'class="legend"' in graph and ">tagged by</text>" in graph


def test_counts_sum_over_the_hierarchy_the_caller_sees(rich: Any) -> None:
    """A treaty partner's Emotion adds up Joy and Calm, not the denied Anger and Rage nor
    Panic above its risk ceiling; the admin's adds up all of them."""
    db, _, _ = rich
    admin, partner = db.as_caller(ADMIN), db.as_caller(PARTNER)

    def own(who: Operations, term: str) -> int:
        return who.get_concept(concept_id=cid(term)).concept.episode_count

    terms = ["Emotion", "Joy", "Calm", "Anger", "Rage", "Panic"]
    everything = admin.get_concept(concept_id=cid("Emotion")).concept.summed_episode_count
    assert everything == sum(own(admin, t) for t in terms)
    (seen,) = [c for c in partner.concepts().concepts if c.name == "Emotion"]
    assert seen.summed_episode_count == sum(own(partner, t) for t in ("Emotion", "Joy", "Calm"))
    assert seen.summed_episode_count < everything
    shown = partner.get_concept(concept_id=cid("Emotion")).concept
    assert shown.summed_episode_count == seen.summed_episode_count


def test_lessons_link_to_their_pages(rich: Any) -> None:
    db, _, lessons = rich
    with served(create_app(db, mcp=False)) as url, httpx.Client(base_url=url) as client:
        listed = client.get("/lessons").text
        assert f'href="/lessons/{lessons["new"]}"' in listed
        one = client.get(f"/lessons/{lessons['new']}").text
        assert "register it transient" in one and "supersedes" in one
        assert f'href="/lessons/{lessons["old"]}"' in one
        assert client.get("/lessons/zzzzzz").status_code == 404


def test_the_sign_in_page_on_localhost_asks_for_no_key(rich: Any) -> None:
    db, _, _ = rich
    with served(create_app(db, mcp=False)) as url:
        local = httpx.get(url + "/login").text
    assert "wants no key" in local and 'href="/"' in local
    with served(create_app(db, mcp=False, require_keys=True)) as url:
        exposed = httpx.get(url + "/login").text
    assert "wants an API key from everyone" in exposed


def test_a_usage_chart_is_dated_at_its_buckets_scale() -> None:
    def buckets(start: datetime, width: timedelta, counts: list[int]) -> list[UsageBucket]:
        return [UsageBucket(start=start + i * width, end=start + (i + 1) * width,
                            episode_count=n, total=10) for i, n in enumerate(counts)]  # fmt: skip

    start = datetime(2026, 3, 1, tzinfo=UTC)
    days = usage_chart(cid("Joy"), buckets(start, timedelta(days=3), [0, 4, 7, 2]))
    ticks = re.findall(r'<text class="tick"[^>]*>([^<]*)</text>', days)
    assert ticks[:5] == ["0", "2", "4", "6", "8"]  # the y-axis: whole counts, past the top bar
    assert "2026-03-01" in ticks and "2026-03-07" in ticks and ">date (UTC)</text>" in days
    assert days.count('<a href="/search?concept=') == 3  # an empty bar leads nowhere
    minutes = usage_chart(cid("Joy"), buckets(start, timedelta(minutes=5), [1, 2]))
    assert ">00:00</text>" in minutes and ">00:05</text>" in minutes  # times of day
    assert "time (UTC), 2026-03-01</text>" in minutes
    assert usage_chart(cid("Joy"), []) == '<p class="empty">No data in this range.</p>'
