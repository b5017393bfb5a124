"""The row an episode is stored as: from an ``add_episode`` request, an event the log closed,
or an imported record. Here, below the operations, so that the store's import builds it
without reaching up into ``xdb.ops``."""

from __future__ import annotations

import re

from xdb.models.episode_objects import AddEpisodeRequest, Provenance
from xdb.store.types import NewEpisode
from xdb.timeutil import to_us

SUMMARY_CHARS = 200
_NO_PROVENANCE = Provenance().model_dump(mode="json")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


def default_summary(content: str) -> str:
    """The honest non-LLM summary: the content's first sentence, at most 200 characters.

    That is the first sentence of the content with its whitespace runs made single spaces;
    the sentence ends at the same place in the content itself (a run starts after the same
    ".", "!" or "?"), so only the part before it is normalised: a long content's whole text
    was split and joined for its first sentence (~3 us an imported episode)."""
    end = _SENTENCE_END.search(content)
    first = " ".join((content if end is None else content[: end.start()]).split())
    return first if len(first) <= SUMMARY_CHARS else first[: SUMMARY_CHARS - 1].rstrip() + "…"


def episode_row(
    req: AddEpisodeRequest,
    *,
    episode_id: str,
    created_us: int,
    created_by: str,
    source: str = "manual",
) -> NewEpisode:
    """The stored row for an add_episode request, its defaults filled in. Shared with the
    JSONL import, which keeps an exported episode's id and creation. ``source``: the
    provenance's source when the request names no provenance."""
    window = req.time_window
    start = to_us(window.start_time) if window else created_us
    end = to_us(window.end_time) if window else created_us
    if req.provenance is not None:
        provenance = req.provenance.model_dump(mode="json")
    else:  # Provenance(session_id=..., source=source) dumped, without making it (~40 us)
        provenance = {**_NO_PROVENANCE, "session_id": req.session_id, "source": source}
        provenance["details"] = {}
    return NewEpisode(
        id=episode_id,
        namespace=req.namespace,
        kind=req.kind,
        session_id=req.session_id or provenance["session_id"],
        summary=req.summary if req.summary else default_summary(req.content),
        content=req.content,
        start_us=start,
        end_us=end,
        created_us=created_us,
        created_by=created_by,
        # ConceptTag.model_dump(mode="json") spelled out (~1 us a tag less; the tests hold
        # the two equal).
        concept_tags=[
            {"concept_id": t.concept_id, "score": t.score, "kind": t.kind.value}
            for t in req.concept_tags
        ],
        labels=[lb.model_dump(mode="json") for lb in req.labels],
        motive_profile=dict(req.motive_profile),
        metadata=dict(req.metadata),
        provenance=provenance,
    )
