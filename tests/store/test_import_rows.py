"""The shortcuts an import's rows take are the long ways they replace, value for value."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from tests.store._data import episode
from xdb.episodes.episode_models import AddEpisodeRequest, ConceptTag
from xdb.errors import InvalidRequest
from xdb.store.episode_row import SUMMARY_CHARS, default_summary, episode_row
from xdb.store.postgres import PostgresStore

_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


def summary_as_written(content: str) -> str:
    """``default_summary`` as it was: the whole content normalised, then split."""
    text = " ".join(content.split())
    first = _SENTENCE_END.split(text, maxsplit=1)[0]
    return first if len(first) <= SUMMARY_CHARS else first[: SUMMARY_CHARS - 1].rstrip() + "…"


@pytest.mark.parametrize(
    "content",
    [
        "",
        " ",
        "One.",
        "One. Two.",
        "One.  Two.",
        "  One.\n\tTwo!  ",
        "One. ",
        "One .Two. Three",
        "Why? Because! Yes.",
        "a" * 300 + ". b",
        "word " * 80 + ". next",
        "No end at all",
        "End.\u00a0Next (a no-break space).",
        "Dots... and more.\u2003Then.",
        "x.\x1cy",
    ],
)
def test_the_summary_is_the_normalised_contents_first_sentence(content: str) -> None:
    assert default_summary(content) == summary_as_written(content)


def test_the_summary_matches_on_random_text() -> None:
    rng = random.Random(7)
    alphabet = "ab .!?\t\n\u00a0\u3000xé"
    for _ in range(20_000):
        content = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert default_summary(content) == summary_as_written(content), repr(content)


def test_an_episode_rows_tags_are_their_json_dumps() -> None:
    tags = [
        {"concept_id": "c1", "score": 0.25},
        {"concept_id": "c2", "score": 1, "kind": "candidate"},
        {"concept_id": "c1", "score": 0.0, "kind": "stable"},
        {"concept_id": "ça", "score": "0.5"},
    ]
    req = AddEpisodeRequest.model_validate({"content": "x", "concept_tags": tags})
    row = episode_row(req, episode_id="e", created_us=1, created_by="me")
    assert row.concept_tags == [ConceptTag.model_validate(t).model_dump(mode="json") for t in tags]
    assert [list(t) for t in row.concept_tags] == [list(ConceptTag.model_fields)] * len(tags)


def test_postgres_stores_a_batch_of_vectors_bit_for_bit(postgres_url: str) -> None:
    """The vectors travel as one binary real[], sliced per episode: every value comes back
    as given (signed zero, subnormal, the largest float32), a vector for an episode that is
    not there is skipped, and one PostgreSQL cannot hold is refused when it would be stored."""
    store = PostgresStore(postgres_url)
    try:
        for n in range(1, 5):
            store.add_episode(episode(n, f"Episode {n}."))
        odd = np.array([0.1, -0.0, 1e-40, 3.4e38, -1.5, 2.0 / 3.0], dtype="<f4").tobytes()
        rng = np.random.default_rng(3)
        given = [(1, odd), (99, odd), (2, rng.standard_normal(6).astype("<f4").tobytes())]
        assert store.store_vectors("m", given) == [1, 0, 2]
        assert {seq: blob for _, seq, blob, *_ in store.load_vectors("m")} == {
            1: odd,
            2: given[2][1],
        }
        for bad in ([(3, b"")], [(3, b""), (4, odd)], [(3, odd), (4, b"")]):
            with pytest.raises(InvalidRequest):
                store.store_vectors("m", bad)
        nan = np.array([np.nan, 0, 0, 0, 0, 0], dtype="<f4").tobytes()
        with pytest.raises(InvalidRequest):
            store.store_vectors("m", [(3, odd), (4, nan)])
        assert store.missing_vectors("m", 10)[0][0] == 3  # nothing of a refused batch stays
    finally:
        store.close()
