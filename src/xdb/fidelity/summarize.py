"""Summaries for memory compression: merging a reply's ticks, or finer records into a
coarser one (session, day, week ... year).

    summarizer = summarizer_from_env()  # XDB_SUMMARY_URL unset: the extractive one
    text = summarizer.summarize(pieces, level="day", max_chars=600)

- ``ExtractiveSummarizer``: no model, deterministic; keeps the first sentence and the
  sentences whose words recur most across the pieces, in their original order.
- ``ChatSummarizer``: any OpenAI-compatible ``POST {base_url}/chat/completions`` (OpenAI,
  Ollama, vLLM, llama.cpp). Compression runs in the background and must always make
  progress, so every failure falls back to the extractive summary instead of raising.

Every summarizer returns at most ``max_chars`` characters and never raises.
"""

from __future__ import annotations

import logging
import math
import os
import re
import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import httpx

from xdb.chat import ChatFailed, complete
from xdb.errors import InvalidRequest

__all__ = ["ChatSummarizer", "ExtractiveSummarizer", "Summarizer", "summarizer_from_env"]

log = logging.getLogger(__name__)

MAX_INPUT_CHARS = 12_000  # what a chat model is shown: a year's merge must not blow the request

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")  # "3.14" and "file.py" are not ends
_WORD = re.compile(r"[^\W\d_]{3,}")
_STOPWORD_TEXT = (
    "the and for are but not you all any can had has have her his him she was were one our"
    " out this that with from they them then than there their what when which who how why"
    " will would could should into its also been being some such only just these those each"
    " very more most other about after before over under your did does done"
)
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


class Summarizer(Protocol):
    """Merges ``texts`` (a reply's ticks, or the summaries of the records being merged)
    into one summary of at most ``max_chars`` characters; ``level`` ("reply", "session",
    "day", "week", "month", "quarter", "year") only tunes a model's prompt."""

    name: str
    # Whether it summarizes in this process without I/O (no network, no model server):
    # compaction then builds its replies with the cyclic collector paused.
    in_process: bool

    def summarize(self, texts: Sequence[str], *, level: str, max_chars: int) -> str: ...


def _join(texts: Sequence[str]) -> str:
    """Token streams are concatenated as they are (tokens carry their own spaces); anything
    else is one piece per line. Many short pieces, some starting with whitespace, look like
    tokens: requiring the whitespace keeps short messages ("ok", "yes") from fusing."""
    pieces = [t if isinstance(t, str) else str(t) for t in texts]
    if (
        len(pieces) >= 2
        and sum(map(len, pieces)) < 12 * len(pieces)
        and any(p[:1].isspace() for p in pieces[1:])
    ):
        return "".join(pieces)
    return "\n".join(pieces)


def _cut(text: str, max_chars: int) -> str:
    """``text`` if it fits, else cut at a word boundary and ended with "…" (included in
    ``max_chars``); one word longer than the budget is cut inside the word."""
    if len(text) <= max_chars:
        return text
    if max_chars <= 1:
        return "…"[: max(max_chars, 0)]
    head = text[: max_chars - 1]
    if not text[max_chars - 1].isspace():  # the cut falls inside a word: drop that word
        parts = head.rsplit(None, 1)
        if len(parts) == 2:
            head = parts[0]
    head = head.rstrip(" \t\n,;:")
    return (head or text[: max_chars - 1].strip()) + "…"


class ExtractiveSummarizer:
    """Sentence extraction scored by how often a sentence's words recur across the input:
    what a merged stretch of experience keeps coming back to is what it was about."""

    name = "extractive"
    in_process = True

    def summarize(self, texts: Sequence[str], *, level: str, max_chars: int) -> str:
        if max_chars <= 0 or not texts:
            return ""
        sentences: list[str] = []
        seen: set[str] = set()
        for raw in _SENTENCE_END.split(_join(texts)):
            sentence = " ".join(raw.split())
            key = sentence.casefold().rstrip(".!? ")
            if key and key not in seen:  # a repeated sentence says nothing new
                seen.add(key)
                sentences.append(sentence)
        if not sentences:
            return ""
        words = [set(_WORD.findall(s.casefold())) - _STOPWORDS for s in sentences]
        df = Counter(w for ws in words for w in ws)
        # Normalised by sqrt(length): long sentences collect more words but cost more room.
        scores = [
            sum(df[w] for w in ws) / math.sqrt(max(len(s.split()), 1))
            for s, ws in zip(sentences, words, strict=True)
        ]
        chosen: set[int] = set()
        used = -1  # chars taken so far, counting a " " before each sentence but the first

        def take(i: int) -> None:
            nonlocal used
            if i not in chosen and used + 1 + len(sentences[i]) <= max_chars:
                chosen.add(i)
                used += 1 + len(sentences[i])

        take(0)  # the first sentence usually says what the stretch set out to do
        for i in sorted(range(len(sentences)), key=lambda i: (-scores[i], i)):
            if max_chars - used < 2:  # no sentence fits any more
                break
            take(i)
        if not chosen:
            return _cut(sentences[0], max_chars)
        return " ".join(sentences[i] for i in sorted(chosen))


class ChatSummarizer:
    """Summaries by a chat model; on any failure, ``fallback``'s summary, the reason kept in
    ``last_fallback`` (``None`` after a success) and counted in ``fallbacks``."""

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout_s: float = 5.0,
        fallback: Summarizer | None = None,
        max_input_chars: int = MAX_INPUT_CHARS,
    ) -> None:
        self.name = f"chat:{model}"
        # HTTP calls, each up to its timeout, whose failures make reference cycles.
        self.in_process = False
        self.model = model
        self.timeout_s = timeout_s
        self.fallback: Summarizer = fallback if fallback is not None else ExtractiveSummarizer()
        self.max_input_chars = max_input_chars
        self.last_fallback: str | None = None
        self.fallbacks = 0
        self._url = f"{base_url.rstrip('/')}/chat/completions"
        self._lock = threading.Lock()
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        # Every phase (connect, write, read, pool) gets the whole budget; the body is read
        # against a deadline too, so a server trickling bytes cannot stretch the call.
        self._client = httpx.Client(headers=headers, timeout=httpx.Timeout(timeout_s))

    def close(self) -> None:
        self._client.close()

    def _payload(self, texts: Sequence[str], level: str, max_chars: int) -> dict[str, Any]:
        joined = _join(texts).strip()
        if len(joined) > self.max_input_chars:
            omitted = len(joined) - self.max_input_chars
            joined = f"{joined[: self.max_input_chars]}\n[... {omitted} more characters omitted]"
        system = (
            "You compress an AI agent's recorded experience into summaries. Answer with the"
            " summary only: plain text, no markdown, no preamble."
        )
        user = (
            f"Summarize this experience at the {level} level in at most {max_chars}"
            " characters. Keep the concrete facts: goals, actions, outcomes, errors,"
            f" decisions and names.\n\n{joined}"
        )
        return {
            "model": self.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
            # ~4 characters a token, with room: the answer is cut to max_chars anyway.
            "max_tokens": min(max(max_chars // 3 + 16, 32), 4096),
            "temperature": 0,
        }

    def _ask(self, payload: dict[str, Any]) -> str:
        return complete(self._client, self._url, payload, self.timeout_s)

    def summarize(self, texts: Sequence[str], *, level: str, max_chars: int) -> str:
        if max_chars <= 0 or not texts or not _join(texts).strip():
            return ""  # nothing to ask a model about
        try:
            answer = _cut(self._ask(self._payload(texts, level, max_chars)), max_chars)
        except Exception as exc:  # never raise: compression falls back and goes on
            reason = str(exc) if isinstance(exc, ChatFailed) else f"{type(exc).__name__}: {exc}"
            with self._lock:
                if reason != self.last_fallback:  # log changes, not every call of an outage
                    log.warning(
                        "summary model %s: %s; using %s", self.model, reason, self.fallback.name
                    )
                self.last_fallback = reason
                self.fallbacks += 1
            return self.fallback.summarize(texts, level=level, max_chars=max_chars)
        with self._lock:
            self.last_fallback = None
        return answer


def summarizer_from_env(env: Mapping[str, str] | None = None) -> Summarizer:
    """The summarizer ``XDB_SUMMARY_*`` asks for (``env`` defaults to ``os.environ``):
    without ``XDB_SUMMARY_URL`` the extractive one, else a ``ChatSummarizer`` for
    ``XDB_SUMMARY_MODEL`` with optional ``XDB_SUMMARY_API_KEY`` and ``XDB_SUMMARY_TIMEOUT_S``."""
    env = os.environ if env is None else env
    url = env.get("XDB_SUMMARY_URL", "").strip()
    if not url:
        return ExtractiveSummarizer()
    if not url.startswith(("http://", "https://")):
        raise InvalidRequest(
            f"XDB_SUMMARY_URL must be an http:// or https:// URL (got {url!r}),"
            " e.g. http://localhost:11434/v1",
            field="XDB_SUMMARY_URL",
        )
    model = env.get("XDB_SUMMARY_MODEL", "").strip()
    if not model:
        raise InvalidRequest(
            "XDB_SUMMARY_MODEL must be set when XDB_SUMMARY_URL is set (e.g."
            " XDB_SUMMARY_URL=http://localhost:11434/v1 XDB_SUMMARY_MODEL=llama3.2),"
            " or unset XDB_SUMMARY_URL to use the built-in extractive summarizer",
            field="XDB_SUMMARY_MODEL",
        )
    timeout_text = env.get("XDB_SUMMARY_TIMEOUT_S", "").strip()
    timeout_s = 5.0
    if timeout_text:
        try:
            timeout_s = float(timeout_text)
        except ValueError:
            timeout_s = math.nan
        if not (math.isfinite(timeout_s) and timeout_s > 0):
            raise InvalidRequest(
                f"XDB_SUMMARY_TIMEOUT_S must be a number of seconds > 0 (got {timeout_text!r})",
                field="XDB_SUMMARY_TIMEOUT_S",
            )
    api_key = env.get("XDB_SUMMARY_API_KEY", "").strip() or None
    return ChatSummarizer(url, model, api_key=api_key, timeout_s=timeout_s)
