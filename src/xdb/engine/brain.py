"""The engine's brain: an OpenAI-compatible chat model (Ollama locally, any hosted endpoint).
It picks which shortlisted lessons apply to an action (layer 3: about 200 tokens in, one
out), judges whether a warning was followed, and words a principle from a cluster of
lessons. Configured by ``XDB_BRAIN_URL`` (e.g. ``http://localhost:11434/v1``),
``XDB_BRAIN_MODEL``, ``XDB_BRAIN_API_KEY`` and ``XDB_BRAIN_TIMEOUT_S`` (default 3).

Every use fails open: when the brain is slow, down or answers nonsense, each method returns
None and the engine does what it does without a brain (every shortlisted warning passes;
the deterministic judge decides; the principle template is used)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence

from xdb.errors import InvalidRequest

__all__ = ["Brain", "brain_from_env"]

TIMEOUT_S = 3.0
_PICK = (
    "You decide which warnings apply to a coding agent's next action. Answer only with the"
    " numbers of the warnings that apply, separated by commas, or 0 if none does."
)
_JUDGE = (
    "A coding agent was warned before a tool call. Judge the call it made after the warning."
    " Answer with one word: FOLLOWED (it did what the warning advises), IGNORED (it did again"
    " what the warning warns about), IRRELEVANT (the warning does not concern this call),"
    " UNCLEAR (cannot tell yet). After IRRELEVANT add a reason: wrong_language, wrong_repo,"
    " wrong_task or stale_rule."
)
_PRINCIPLE = (
    "These lessons were each confirmed by a coding agent's behaviour. Write the one principle"
    " they share as a single sentence of the form: When <class of failure> appears, do <what>"
    " because <why>."
)
_WORDS = ("followed", "ignored", "irrelevant", "unclear")
_REASONS = ("wrong_language", "wrong_repo", "wrong_task", "stale_rule")
# "When X appears, do Y because Z": split at the last ", do" before "because".
_SENTENCE = re.compile(r"(?is)^\W*(when\b.+),\s*(do\b.+?\bbecause\b.+?)\s*$")
_NEGATED = re.compile(r"(?i)\b(not|n't|never|un)\s*-?\s*$")


class Brain:
    def __init__(
        self, base_url: str, model: str, *, api_key: str | None = None, timeout_s: float = TIMEOUT_S
    ) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.timeout_s = timeout_s
        self.headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.last_failure: str | None = None

    def _chat(self, system: str, user: str, max_tokens: int) -> str | None:
        """The model's answer, or None (``last_failure`` says why)."""
        body = {
            "model": self.model,
            "temperature": 0,
            "max_tokens": max_tokens,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
        }
        import httpx  # here: opening a database does not load an HTTP client

        from xdb.chat import ChatFailed, complete

        try:
            with httpx.Client(headers=self.headers) as client:
                text = complete(client, self.url, body, self.timeout_s)
        except ChatFailed as exc:  # slow, down, not JSON, not a completion: fail open
            self.last_failure = str(exc)
            return None
        self.last_failure = None
        return text

    def pick(self, action: str, warnings: Sequence[str]) -> list[int] | None:
        """The 0-based indexes of the warnings that apply; None: no answer (fail open)."""
        listed = "\n".join(f"{i}. {w[:300]}" for i, w in enumerate(warnings, 1))
        text = self._chat(_PICK, f"ACTION: {action[:600]}\n{listed}", 8)
        if text is None:
            return None
        numbers = [int(n) for n in re.findall(r"\d+", text)]
        if not numbers:
            self.last_failure = f"no numbers in {text[:80]!r}"
            return None
        return sorted({n - 1 for n in numbers if 1 <= n <= len(warnings)})

    def judge(self, warning: str, action: str, output: str) -> tuple[str, str | None] | None:
        """(verdict, reason) on the call after a warning; None: no usable answer."""
        user = f"WARNING: {warning[:400]}\nCALL: {action[:600]}\nRESULT: {output[:400]}"
        text = self._chat(_JUDGE, user, 8)
        if text is None:
            return None
        lowered = text.lower()
        said = sorted((lowered.find(w), w) for w in _WORDS if w in lowered)
        if not said:
            self.last_failure = f"no verdict in {text[:80]!r}"
            return None
        at, word = said[0]  # the first verdict named
        if _NEGATED.search(lowered[:at]):  # "not followed", "unfollowed": no clear word
            return "unclear", None
        reason = next((r for r in _REASONS if r in lowered), None)
        # Irrelevant without a reason strikes the lesson without narrowing its scope.
        return word, reason if word == "irrelevant" else None

    def principle(self, lessons: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
        """(when ..., do ... because ...) worded from (question, answer) lessons; None: no
        sentence of that form came back."""
        listed = "\n".join(f"- {q[:200]} -> {a[:200]}" for q, a in lessons)
        text = self._chat(_PRINCIPLE, listed, 80)
        if text is None:
            return None
        first = re.split(r"(?<=[.!?])\s+|\n", text.strip())[0]  # its first sentence
        found = _SENTENCE.search(first.rstrip(".!"))
        if found is None:
            self.last_failure = f"no principle in {text[:80]!r}"
            return None
        return found.group(1).strip()[:300], found.group(2).strip()[:500]


def brain_from_env(env: Mapping[str, str] | None = None) -> Brain | None:
    env = os.environ if env is None else env
    url = (env.get("XDB_BRAIN_URL") or "").strip()
    if not url:
        return None
    model = (env.get("XDB_BRAIN_MODEL") or "").strip()
    if not model:
        raise InvalidRequest(
            "XDB_BRAIN_URL is set but XDB_BRAIN_MODEL is not; name the model (e.g."
            " XDB_BRAIN_MODEL=qwen2.5:0.5b) or unset XDB_BRAIN_URL",
            field="XDB_BRAIN_MODEL",
        )
    try:
        timeout = float(env.get("XDB_BRAIN_TIMEOUT_S") or TIMEOUT_S)
    except ValueError:
        timeout = -1.0
    if not 0 < timeout < 600:
        raise InvalidRequest(
            "XDB_BRAIN_TIMEOUT_S must be a number of seconds between 0 and 600",
            field="XDB_BRAIN_TIMEOUT_S",
        )
    return Brain(url, model, api_key=env.get("XDB_BRAIN_API_KEY") or None, timeout_s=timeout)
