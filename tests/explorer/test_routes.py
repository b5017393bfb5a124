"""The explorer's pages over real HTTP on both stores: each answers, links where it says,
shows errors by field, shares its search as a URL, and shows a treaty partner nothing the
disclosure policy hides."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from jinja2.filters import do_urlencode

import xdb
from tests.policy.test_leak_hunter import ADMIN, cid, hidden_strings
from tests.serving import served
from xdb.explorer.routes import Reader
from xdb.interfaces.http import create_app


def partner_key(db: xdb.Database) -> str:
    admin = db.as_caller(ADMIN)
    admin.set_caller(id="acme-bot", roles=["partner"], treaty_ids=["t-acme"])
    return str(admin.create_key(caller_id="acme-bot").key)


def pages(episodes: list[str]) -> list[str]:
    return [
        "/",
        "/search?q=river",
        "/search?q=river&sort=time_desc&size=2",
        f"/search?q=river&concept_weight=0.8&recency=0.2&label={cid('Joy')}:positive",
        f"/search?concept={cid('Joy')}",
        *(f"/episodes/{e}" for e in episodes),
        f"/concepts/{cid('Joy')}",
        f"/concepts/{cid('Emotion')}",
        "/concepts",
        f"/concepts?parent={cid('Emotion')}",
        "/concepts?q=an",
        "/concepts?q=joy&partial=1",
        "/learning",
        "/learning?status=collecting",
        "/sessions/s1",
        "/sessions/s1?zoom=tick&from=2",
        "/sessions/s1?zoom=day",
        "/sessions/s-cold?zoom=100",
        f"/graph?seed={episodes[0]}&depth=2",
        f"/graph?seed={cid('Joy')}&relation=TAGGED_BY&type=Episode",
        "/lessons",
    ]


def test_every_page_answers_and_links(world: Any) -> None:
    db, episodes = world
    with served(create_app(db, mcp=False)) as url, httpx.Client(base_url=url) as client:
        for path in pages(episodes):
            page = client.get(path)
            assert page.status_code == 200, (path, page.text[-500:])
            assert page.headers["content-type"].startswith("text/html")
        joy = client.get(f"/concepts/{cid('Joy')}").text
        assert "<svg" in joy and "Usage over time" in joy
        detail = client.get(f"/episodes/{episodes[0]}").text
        assert "a walk along the river, day 0" in detail
        assert f'href="/concepts/{do_urlencode(cid("Joy"))}"' in detail
        first = client.get("/search?q=river&size=2").text
        assert "matched: words: river" in first
        assert re.search(r"score from: words \(BM25\) [0-9.]+ \+", first)  # the ranking's parts
        following = re.search(r'href="(/search\?[^"]*cursor=[^"]+)"', first)
        assert following is not None  # the next page is a link anyone can share
        second = client.get(following.group(1).replace("&amp;", "&"))
        assert second.status_code == 200 and "a walk along the <mark>river</mark>" in second.text
        bud = client.get("/buds/Hunch")  # (a partner asking would see its own words echoed)
        assert bud.status_code == 200 and "examples" in bud.text
        session = client.get("/sessions/s1?zoom=tick").text
        assert "the weather report number 0" in session and 'class="concept cell"' in session
        assert "ev0" in session  # the events, as spans
        marks = re.findall(r'<span class="mark tag" title="([^"]*)">', session)
        assert "custom tag weather on ticks 1–2" in marks  # a mark on each window it touches
        assert f'<a href="/concepts/{cid("Joy")}">Joy</a>' in session
        assert "a walk along the river" in session  # and the session's episodes
        cold = client.get("/sessions/s-cold").text
        assert "reply record" in cold  # compacted ticks are shown by their record
        assert client.get("/sessions/s1?zoom=week").status_code == 400
        bad = client.get("/search?q=river&from=yesterday")
        assert bad.status_code == 400 and "time_range" in bad.text
        missing = client.get("/episodes/episode-nope")
        assert missing.status_code == 404 and "episode-nope" in missing.text


def test_a_treaty_partner_sees_no_hidden_concept_anywhere(world: Any) -> None:
    db, episodes = world
    key = partner_key(db)
    headers = {"Authorization": f"Bearer {key}"}
    with served(create_app(db, mcp=False)) as url, httpx.Client(base_url=url) as client:
        for path in pages(episodes):
            text = client.get(path, headers=headers).text
            for secret in hidden_strings():
                assert not re.search(rf"\b{re.escape(secret)}\b", text), (path, secret)
        for term in ("Anger", "Secret"):
            hidden = client.get(f"/concepts/{cid(term)}", headers=headers)
            unknown = client.get(f"/concepts/{cid('Zzyzx')}", headers=headers)
            assert hidden.status_code == unknown.status_code == 404


def test_the_concept_box_takes_short_names_and_says_what_it_cannot_use(world: Any) -> None:
    db, episodes = world
    with served(create_app(db, mcp=False)) as url, httpx.Client(base_url=url) as client:
        for name in ("Calm", "Calm:1", cid("Calm")):  # tags hold the full id
            page = client.get("/search", params={"concept": name})
            assert page.status_code == 200, page.text[-500:]
            assert page.text.count("a walk along the river") == len(episodes), name
            assert f"carries {name} (0.50)" in page.text
        ambiguous = client.get("/search", params={"concept": "Joy"})  # alpha's and beta's
        assert ambiguous.status_code == 400 and "several packs" in ambiguous.text
        assert cid("Joy") in ambiguous.text and "org.test/beta@1.0.0::concept/Joy" in ambiguous.text
        unknown = client.get("/search", params={"without": "Zzyzx"})
        assert unknown.status_code == 404 and "names no concept" in unknown.text
        assert "concept_filters[0].concept_id" in unknown.text


def test_the_explorer_only_reads() -> None:
    with pytest.raises(ValueError, match="writes"):
        Reader.__call__(Reader.__new__(Reader), "xdb.record", {})


def test_a_browser_signs_in_with_a_key_that_only_reads(world: Any) -> None:
    db, _ = world
    key = partner_key(db)
    html = {"Accept": "text/html"}
    app = create_app(db, mcp=False, require_keys=True)
    with served(app) as url, httpx.Client(base_url=url) as client:
        asked = client.get("/", headers=html)
        assert (asked.status_code, asked.headers["location"]) == (303, "/login")
        assert client.get("/login").status_code == 200
        wrong = client.post("/login", data={"key": "xdb_nope"})
        assert wrong.status_code == 401 and "not valid" in wrong.text
        signed = client.post("/login", data={"key": key})
        assert signed.status_code == 303 and "httponly" in signed.headers["set-cookie"].lower()
        assert client.get("/", headers=html).status_code == 200  # the cookie, kept
        write = client.post("/v1/xdb/record", json={"event_type": "input", "content": "x"})
        assert write.status_code == 401  # a cookie is never a key for a write
        client.get("/logout")
        assert client.get("/", headers=html).status_code == 303


def test_an_episode_page_lists_the_tool_calls_it_covers(target: str) -> None:
    with xdb.connect(target, embedder="hash", session_id="work") as db:
        db.record(event_type="input", content="list the files")
        db.record(event_type="tool_call", content="ls -la /srv", event_id="call-1")
        db.record(event_type="tool_response", content="total 0 README", event_id="call-1",
                  event_end=True)  # fmt: skip
        (made,) = db.search_episodes(text_query="README").episodes
        with served(create_app(db, mcp=False)) as url, httpx.Client(base_url=url) as client:
            page = client.get(f"/episodes/{made.episode_id}").text
    assert "Tool calls" in page and "ls -la /srv" in page and "total 0 README" in page
    assert 'href="/sessions/work?zoom=tick&amp;from=2"' in page
