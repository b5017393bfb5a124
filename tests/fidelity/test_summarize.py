"""The summarizers: the extractive one on its own, the chat client against a real HTTP
server on a local thread (including one that never answers), and the env configuration."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import ThreadingHTTPServer
from typing import Any

import pytest

from tests.local_http import JsonHandler, serving, v1_url
from xdb.errors import InvalidRequest
from xdb.fidelity.summarize import ChatSummarizer, ExtractiveSummarizer, summarizer_from_env

EXTRACTIVE = ExtractiveSummarizer()

STORY = [
    "Deploy the billing service to staging.",
    "The database migration failed on the invoices table.",
    "Lunch was pizza with extra olives and a salad on the side today.",
    "The database migration was retried with a longer lock timeout.",
    "The invoices table migration succeeded after dropping the stale index.",
]


def extract(texts: list[str], max_chars: int) -> str:
    return EXTRACTIVE.summarize(texts, level="reply", max_chars=max_chars)


# --- extractive -------------------------------------------------------------------------


def test_extractive_is_deterministic() -> None:
    first = extract(STORY, 150)
    assert first == extract(STORY, 150)
    assert first == ExtractiveSummarizer().summarize(list(STORY), level="year", max_chars=150)


@pytest.mark.parametrize(
    "texts",
    [
        STORY,
        ["The", " cat", " sat", ".", " It", " purred", "!"],
        ["supercalifragilisticexpialidocious" * 3],
        ["word " * 20_000],  # one long sentence
        [f"Sentence number {i} is about topic {i % 7}." for i in range(2_000)],
        ["a. b. c.", "", "   ", "\n\n", "ok", "?!"],
        ["Ünïcödé façade – naïve café. 日本語のテキスト。 Emoji 🎉 party!"],
    ],
    ids=["story", "tokens", "long-word", "huge-sentence", "many-sentences", "odd", "unicode"],
)
def test_extractive_respects_max_chars(texts: list[str]) -> None:
    for max_chars in [*range(1, 21), 25, 40, 80, 150, 600, 5_000]:
        out = extract(texts, max_chars)
        assert len(out) <= max_chars, (max_chars, out)
        assert out == out.strip()
        assert "  " not in out and "\n" not in out  # whitespace collapsed
    assert extract(texts, 0) == "" and extract(texts, -5) == ""


def test_extractive_huge_input() -> None:
    texts = [f"Step {i} touched module m{i % 13} and the shared cache." for i in range(50_000)]
    texts.append("word " * 200_000)  # plus one 1 MB sentence
    for max_chars in (1, 7, 300, 4_000):
        assert len(extract(texts, max_chars)) <= max_chars
    assert extract(texts, 300).startswith("Step 0 touched module m0")


def test_extractive_empty_input() -> None:
    assert extract([], 100) == ""
    assert extract([""], 100) == ""
    assert extract(["   ", "\n\t"], 100) == ""


def test_token_pieces_joined_without_extra_spaces() -> None:
    assert extract(["The", " cat", " sat", "."], 100) == "The cat sat."
    assert extract(["Hel", "lo", " wor", "ld", "!"], 100) == "Hello world!"


def test_short_messages_are_not_fused() -> None:
    # Short pieces without leading whitespace are messages, not tokens.
    assert extract(["ok", "yes", "done"], 100) == "ok yes done"


def test_everything_kept_in_order_when_it_fits() -> None:
    assert extract(STORY, 10_000) == " ".join(STORY)


def test_first_sentence_kept_and_topic_preferred() -> None:
    out = extract(STORY, 160)
    assert out.startswith(STORY[0])
    assert "pizza" not in out  # the off-topic sentence loses to the migration ones
    assert "migration" in out
    # chosen sentences come out in their original order
    positions = [out.find(s) for s in STORY if s in out]
    assert positions == sorted(positions) and len(positions) >= 2


def test_duplicates_count_once() -> None:
    texts = [
        "The nightly build failed on the linker step.",
        "The nightly build failed on the linker step.",
        "the nightly   build failed on the linker step",
        "Then the cache was cleared.",
    ]
    assert extract(texts, 500) == (
        "The nightly build failed on the linker step. Then the cache was cleared."
    )


def test_long_single_sentence_cut_at_word_with_ellipsis() -> None:
    sentence = "The agent opened the configuration file and changed every timeout value " * 5
    for max_chars in (10, 33, 50, 100):
        out = extract([sentence], max_chars)
        assert out.endswith("…") and len(out) <= max_chars
        head = out[:-1]
        assert sentence.startswith(head)
        assert sentence[len(head)] == " "  # cut at a word boundary
    assert extract(["x" * 50], 10) == "x" * 9 + "…"  # one word: cut inside it
    assert extract(["hello world"], 1) == "…"


# --- chat client against a local server -------------------------------------------------

CANNED = "  The migration failed, was retried, and succeeded after dropping an index.  "


class Server(ThreadingHTTPServer):
    requests: list[tuple[str, dict[str, str], dict[str, Any]]]
    release: threading.Event  # set at teardown: frees the handlers that never answer


class Handler(JsonHandler):
    """Behaves by model name: ``ok`` and ``long`` answer, the others fail one way each."""

    server: Server

    def _answer(self, content: Any) -> None:
        body = {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]}
        self._send(200, json.dumps(body).encode())

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append((self.path, dict(self.headers), request))
        model = request["model"]
        if self.path != "/v1/chat/completions":
            return self._send(404, b'{"error": "not found"}')
        if model == "ok":
            return self._answer(CANNED)
        if model == "long":
            return self._answer("lengthy " * 500)
        if model == "boom":
            return self._send(500, b'{"error": "CUDA out of memory"}')
        if model == "notjson":
            return self._send(200, b"<html>proxy login</html>")
        if model == "nochoices":
            return self._send(200, b'{"object": "chat.completion"}')
        if model == "emptychoices":
            return self._send(200, b'{"choices": []}')
        if model == "blank":
            return self._answer("   ")
        if model == "hang":  # accepts, reads the request, never answers
            self.server.release.wait()
            return None
        if model == "trickle":  # answers one byte at a time, each well within the read timeout
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            try:
                while not self.server.release.wait(0.1):
                    self.wfile.write(b" ")
                    self.wfile.flush()
            except OSError:  # the client gave up and closed the connection
                pass
            return None
        return self._send(400, b'{"error": "unknown model"}')


@pytest.fixture(scope="module")
def running_server() -> Iterator[Server]:
    srv = Server(("127.0.0.1", 0), Handler)
    srv.release = threading.Event()
    with serving(srv):
        yield srv
        srv.release.set()  # a handler still holding its connection lets go


@pytest.fixture
def server(running_server: Server) -> Server:
    running_server.requests = []  # each test sees only its own requests
    return running_server


def url(srv: Server) -> str:
    return v1_url(srv)


@pytest.fixture
def chat(server: Server) -> Iterator[ChatSummarizer]:
    summarizer = ChatSummarizer(url(server) + "/", "ok", api_key="sk-test", timeout_s=2.0)
    yield summarizer
    summarizer.close()


def test_chat_success(chat: ChatSummarizer, server: Server) -> None:
    out = chat.summarize(STORY, level="day", max_chars=200)
    assert out == CANNED.strip()
    assert chat.name == "chat:ok"
    assert chat.last_fallback is None and chat.fallbacks == 0
    ((path, headers, body),) = server.requests
    assert path == "/v1/chat/completions"
    assert headers["Authorization"] == "Bearer sk-test"
    assert body["model"] == "ok" and body["temperature"] == 0
    assert isinstance(body["max_tokens"], int) and body["max_tokens"] > 0
    system, user = body["messages"]
    assert system["role"] == "system" and user["role"] == "user"
    assert "day" in user["content"] and "200" in user["content"]
    assert all(s in user["content"] for s in STORY)


def test_chat_no_key_no_header(server: Server) -> None:
    summarizer = ChatSummarizer(url(server), "ok")
    assert summarizer.summarize(["a thing happened."], level="reply", max_chars=500)
    summarizer.close()
    assert "Authorization" not in server.requests[0][1]


def test_chat_empty_input_asks_nothing(chat: ChatSummarizer, server: Server) -> None:
    assert chat.summarize([], level="day", max_chars=100) == ""
    assert chat.summarize(["  ", ""], level="day", max_chars=100) == ""
    assert chat.summarize(STORY, level="day", max_chars=0) == ""
    assert server.requests == [] and chat.fallbacks == 0


def test_chat_long_answer_cut(server: Server) -> None:
    summarizer = ChatSummarizer(url(server), "long")
    out = summarizer.summarize(STORY, level="week", max_chars=50)
    summarizer.close()
    assert len(out) <= 50 and out.endswith("…") and out.startswith("lengthy lengthy")
    assert out[:-1].split() == ["lengthy"] * len(out[:-1].split())  # whole words only
    assert summarizer.last_fallback is None


def test_chat_input_clipped(chat: ChatSummarizer, server: Server) -> None:
    chat.summarize(["Huge merge. " * 100_000], level="year", max_chars=300)
    user = server.requests[0][2]["messages"][1]["content"]
    assert len(user) < 13_000 and "more characters omitted" in user


def assert_fell_back(summarizer: ChatSummarizer, words: str, count: int = 1) -> None:
    start = time.monotonic()
    out = summarizer.summarize(STORY, level="session", max_chars=160)
    elapsed = time.monotonic() - start
    assert out == extract(STORY, 160)
    assert summarizer.last_fallback is not None and words in summarizer.last_fallback
    assert summarizer.fallbacks == count
    assert elapsed < summarizer.timeout_s + 1.0


@pytest.mark.parametrize(
    ("model", "words"),
    [
        ("boom", "HTTP 500"),
        ("notjson", "not JSON"),
        ("nochoices", "choices[0].message.content"),
        ("emptychoices", "choices[0].message.content"),
        ("blank", "empty answer"),
    ],
)
def test_chat_falls_back_on_bad_answers(server: Server, model: str, words: str) -> None:
    summarizer = ChatSummarizer(url(server), model, timeout_s=2.0)
    assert_fell_back(summarizer, words)
    assert_fell_back(summarizer, words, count=2)
    summarizer.close()


def test_chat_falls_back_when_server_down() -> None:
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    summarizer = ChatSummarizer(f"http://127.0.0.1:{port}/v1", "m", timeout_s=2.0)
    assert_fell_back(summarizer, "cannot connect")
    summarizer.close()


def test_chat_falls_back_when_server_never_answers(server: Server) -> None:
    summarizer = ChatSummarizer(url(server), "hang", timeout_s=0.5)
    assert_fell_back(summarizer, "timed out")
    assert len(server.requests) == 1  # it did connect and send: the wait was for the answer
    summarizer.close()


def test_chat_total_deadline_against_trickling_server(server: Server) -> None:
    summarizer = ChatSummarizer(url(server), "trickle", timeout_s=0.5)
    assert_fell_back(summarizer, "timed out")
    summarizer.close()


def test_success_clears_last_fallback(server: Server) -> None:
    summarizer = ChatSummarizer(url(server), "boom", timeout_s=2.0)
    assert_fell_back(summarizer, "HTTP 500")
    summarizer.model = "ok"  # the server is "fixed"
    assert summarizer.summarize(STORY, level="day", max_chars=200) == CANNED.strip()
    assert summarizer.last_fallback is None and summarizer.fallbacks == 1
    summarizer.close()


# --- configuration ----------------------------------------------------------------------


def test_from_env_unset_is_extractive(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(summarizer_from_env({}), ExtractiveSummarizer)
    assert isinstance(summarizer_from_env({"XDB_SUMMARY_URL": "  "}), ExtractiveSummarizer)
    monkeypatch.delenv("XDB_SUMMARY_URL", raising=False)
    assert summarizer_from_env().name == "extractive"


def test_from_env_url_without_model() -> None:
    with pytest.raises(InvalidRequest, match="XDB_SUMMARY_MODEL must be set") as info:
        summarizer_from_env({"XDB_SUMMARY_URL": "http://localhost:11434/v1"})
    assert info.value.field == "XDB_SUMMARY_MODEL"


def test_from_env_bad_url() -> None:
    with pytest.raises(InvalidRequest, match="XDB_SUMMARY_URL") as info:
        summarizer_from_env({"XDB_SUMMARY_URL": "localhost:11434", "XDB_SUMMARY_MODEL": "m"})
    assert info.value.field == "XDB_SUMMARY_URL"


@pytest.mark.parametrize("value", ["abc", "0", "-1", "nan", "inf"])
def test_from_env_bad_timeout(value: str) -> None:
    env = {
        "XDB_SUMMARY_URL": "http://localhost:11434/v1",
        "XDB_SUMMARY_MODEL": "m",
        "XDB_SUMMARY_TIMEOUT_S": value,
    }
    with pytest.raises(InvalidRequest, match="XDB_SUMMARY_TIMEOUT_S") as info:
        summarizer_from_env(env)
    assert info.value.field == "XDB_SUMMARY_TIMEOUT_S"


def test_from_env_chat(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    env = {
        "XDB_SUMMARY_URL": url(server),
        "XDB_SUMMARY_MODEL": " ok ",
        "XDB_SUMMARY_API_KEY": "sk-env",
        "XDB_SUMMARY_TIMEOUT_S": "2.5",
    }
    summarizer = summarizer_from_env(env)
    assert isinstance(summarizer, ChatSummarizer)
    assert summarizer.name == "chat:ok" and summarizer.timeout_s == 2.5
    assert summarizer.summarize(STORY, level="month", max_chars=300) == CANNED.strip()
    summarizer.close()
    assert server.requests[0][1]["Authorization"] == "Bearer sk-env"
    for name, value in env.items():  # without a mapping, os.environ is read
        monkeypatch.setenv(name, value)
    default = summarizer_from_env()
    assert isinstance(default, ChatSummarizer) and default.timeout_s == 2.5
    default.close()
