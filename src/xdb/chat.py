"""One call to an OpenAI-compatible chat endpoint (``POST {base}/chat/completions``), for
the features a model may serve (the summarizer, the engine's brain). Every failure is a
``ChatFailed`` naming what went wrong, so each caller falls back its own way."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx

__all__ = ["ChatFailed", "complete"]

MAX_ANSWER_BYTES = 1_000_000  # a chat answer here is short; a larger one is a misbehaving server


class ChatFailed(Exception):
    """The endpoint gave no usable answer (slow, down, not JSON, empty, too large)."""


def complete(client: httpx.Client, url: str, payload: dict[str, Any], timeout_s: float) -> str:
    """The first choice's message content, stripped. The whole answer is read against a
    deadline, so a server trickling bytes cannot stretch the call past ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    try:
        with client.stream("POST", url, json=payload, timeout=httpx.Timeout(timeout_s)) as resp:
            body = bytearray()
            for chunk in resp.iter_bytes():
                body += chunk
                if len(body) > MAX_ANSWER_BYTES:
                    raise ChatFailed(f"answer larger than {MAX_ANSWER_BYTES} bytes")
                if time.monotonic() > deadline:
                    raise ChatFailed(f"timed out (no whole answer within {timeout_s}s)")
    except httpx.TimeoutException as exc:
        raise ChatFailed(f"timed out after {timeout_s}s ({type(exc).__name__})") from None
    except httpx.ConnectError as exc:
        raise ChatFailed(f"cannot connect to {url} ({exc})") from None
    except (httpx.HTTPError, httpx.InvalidURL) as exc:  # InvalidURL is not an HTTPError
        raise ChatFailed(f"request failed ({type(exc).__name__}: {exc})") from None
    text = body.decode("utf-8", "replace")
    if not 200 <= resp.status_code < 300:
        raise ChatFailed(f"HTTP {resp.status_code}: {text[:200]!r}")
    try:
        answer = json.loads(body)
    except ValueError:
        raise ChatFailed(f"answer is not JSON: {text[:200]!r}") from None
    try:
        content = answer["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise ChatFailed(f"no choices[0].message.content in {text[:200]!r}") from None
    if not isinstance(content, str) or not content.strip():
        raise ChatFailed(f"empty answer: {text[:200]!r}")
    return content.strip()
