"""Layer 3's brain: an OpenAI-compatible chat model (Ollama locally, any hosted endpoint)
that picks which shortlisted lessons apply to an action: about 200 tokens in, one out.
Configured by ``XDB_BRAIN_URL`` (e.g. ``http://localhost:11434/v1``), ``XDB_BRAIN_MODEL``,
``XDB_BRAIN_API_KEY`` and ``XDB_BRAIN_TIMEOUT_S`` (default 3). Fail open: when the brain is
slow, down or answers nonsense, every shortlisted warning passes."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence

from xdb.errors import InvalidRequest

__all__ = ["Brain", "brain_from_env"]

TIMEOUT_S = 3.0
_PROMPT = (
    "You decide which warnings apply to a coding agent's next action. Answer only with the"
    " numbers of the warnings that apply, separated by commas, or 0 if none does."
)


class Brain:
    def __init__(
        self, base_url: str, model: str, *, api_key: str | None = None, timeout_s: float = TIMEOUT_S
    ) -> None:
        self.url = base_url.rstrip("/") + "/chat/completions"
        self.model = model
        self.timeout_s = timeout_s
        self.headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self.last_failure: str | None = None

    def pick(self, action: str, warnings: Sequence[str]) -> list[int] | None:
        """The 0-based indexes of the warnings that apply; None: no answer (fail open)."""
        listed = "\n".join(f"{i}. {w[:300]}" for i, w in enumerate(warnings, 1))
        body = {
            "model": self.model,
            "temperature": 0,
            "max_tokens": 8,
            "messages": [
                {"role": "system", "content": _PROMPT},
                {"role": "user", "content": f"ACTION: {action[:600]}\n{listed}"},
            ],
        }
        import httpx  # here: opening a database does not load an HTTP client

        try:
            response = httpx.post(self.url, json=body, headers=self.headers,
                                  timeout=httpx.Timeout(self.timeout_s))  # fmt: skip
            response.raise_for_status()
            text = response.json()["choices"][0]["message"]["content"]
        except Exception as exc:  # slow, down, not JSON, not a completion: fail open
            self.last_failure = f"{type(exc).__name__}: {exc}"
            return None
        numbers = [int(n) for n in re.findall(r"\d+", str(text))]
        if not numbers:
            self.last_failure = f"no numbers in {str(text)[:80]!r}"
            return None
        self.last_failure = None
        return sorted({n - 1 for n in numbers if 1 <= n <= len(warnings)})


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
