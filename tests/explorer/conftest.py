"""The explorer's tests run on the leak hunter's world: visible and hidden concepts, a
treaty partner, episodes, exemplars, datasets and compacted records; ``rich`` adds a
conversation and lessons to it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import xdb
from tests.ops.conftest import module_target, target
from tests.policy.test_leak_hunter import cid, world

__all__ = ["module_target", "rich", "target", "world"]

CHAT = "chat-1"
QUESTION = "registering the EF Core DbContext as a singleton in Startup.cs"


@pytest.fixture(scope="module")
def rich(world: Any) -> Iterator[tuple[xdb.Database, list[str], dict[str, str]]]:
    """The leak hunter's world, with a conversation and lessons (one superseding another)."""
    db, episodes = world
    db.record(event_type="input", content="How do I list the files?", session_id=CHAT,
              concept_activations={cid("Calm"): 0.4})  # fmt: skip
    for i, token in enumerate(["Let", " me", " look", "."]):
        db.record(event_type="output", content=token, token_id=i, session_id=CHAT,
                  event_id="reply-1", event_end=i == 3,
                  concept_activations={cid("Joy"): 0.2 * (i + 1)})  # fmt: skip
    db.record(event_type="tool_call", content="ls -la /srv", session_id=CHAT, event_id="call-1")
    db.record(event_type="tool_response", content="total 0 README", session_id=CHAT,
              event_id="call-1", event_end=True)  # fmt: skip
    db.record(event_type="steering", content="Mind the singleton lifetime", session_id=CHAT)
    db.comment(content="a good answer", session_id=CHAT, tick_range={"start": 2, "end": 5})
    db.tag(tag_name_or_id="weather", session_id=CHAT, event_id="reply-1", note="sunny")
    old = db.add_lesson(question=QUESTION, answer="register it scoped", framework="dotnet",
                        domain="data").lesson  # fmt: skip
    new = db.add_lesson(question=QUESTION, answer="register it transient, not singleton",
                        framework="dotnet", domain="data").lesson  # fmt: skip
    db.wait_for_embeddings(60)
    yield db, episodes, {"old": old.lesson_id, "new": new.lesson_id}
