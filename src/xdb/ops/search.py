"""search_episodes: filters, hybrid relevance, and paging that never repeats or skips.

Relevance fuses up to three ranked lists, each computed under the request's filters:

- text: BM25 over summary and content, from the query's content words (``xdb.text``);
- vector: cosine similarity of the query's embedding to the episodes' (current model only);
- concept: the summed scores of the requested (present) concepts an episode carries.

Each list is min-max normalised to 0..1 over its own candidates. Text relevance is
``TEXT_WEIGHT * bm25 + (1 - TEXT_WEIGHT) * vector``, then each episode gains
``SESSION_BOOST`` times the best text score in its session (measured on LoCoMo, the dev
half: reciprocal rank fusion of the same lists did worse than BM25 alone; this normalised
weighted sum with the session boost, over BM25 documents that include each episode's session
neighbours, beat both; see bench/locomo.py). Then ``score_weight`` mixes concept match
against text, and ``recency_weight`` mixes in ``exp(-age / RECENCY_SCALE)`` of the episode's
end time. The relevance ranking covers the best ``MAX_CANDIDATES`` episodes.

Paging: a cursor pins the snapshot its first page saw (the newest episode and the newest
vector), so later pages rank the same set the same way, and continues after the last
(score, seq) returned: walking every page returns each match exactly once even while
episodes are being added. Time and random orders page by keyset on (time or shuffle key, seq).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from xdb.errors import InvalidRequest
from xdb.index.candidates import Allowlist, VectorQuery
from xdb.models.episodes import (
    ConceptTag,
    EpisodeHit,
    FilterKind,
    FilterRole,
    Polarity,
    SearchEpisodesRequest,
    SearchEpisodesResponse,
    SortBy,
    TimeWindow,
)
from xdb.ops import cursor as cursors
from xdb.ops.registry import Context, Operation
from xdb.store.types import ConceptCondition, EpisodeFilter, NewEpisode, StoredEpisode
from xdb.text import search_terms
from xdb.timeutil import from_us, now_us, to_us

TEXT_WEIGHT = 0.5  # BM25's share of text relevance; the vector list gets the rest
SESSION_BOOST = 0.3  # share of the best text score in an episode's session added to it
MAX_CANDIDATES = 1000
LIST_DEPTH = 200  # how deep each ranked list reaches before fusion
RECENCY_SCALE_US = 30 * 86_400 * 1_000_000  # recency decays by 1/e every 30 days
SNIPPET = 500


def episode_filter(req: SearchEpisodesRequest) -> EpisodeFilter:
    concepts = [
        ConceptCondition(
            f.concept_id,
            f.min_score,
            None if f.kind is FilterKind.ANY else f.kind.value,
            f.polarity is Polarity.ABSENT,
            f.role in (FilterRole.TAG, FilterRole.ANY),
            f.role in (FilterRole.EXEMPLAR_LABEL, FilterRole.ANY),
        )
        for f in req.concept_filters
    ]
    tr, lf = req.time_range, req.label_filters
    return EpisodeFilter(
        namespace=req.namespace,
        start_us=to_us(tr.start_time) if tr and tr.start_time else None,
        end_us=to_us(tr.end_time) if tr and tr.end_time else None,
        kinds=list(req.episode_kinds) if req.episode_kinds else None,
        concepts=concepts,
        label_concept=lf.concept_id if lf else None,
        label=lf.label.value if lf and lf.label else None,
        label_min_confidence=lf.min_confidence if lf else None,
    )


def shown_fields(ep: NewEpisode) -> dict[str, Any]:
    """The fields a search hit and a full episode both show, from the stored row."""
    return {
        "episode_id": ep.id,
        "kind": ep.kind,
        "namespace": ep.namespace,
        "session_id": ep.session_id,
        "summary": ep.summary,
        "concept_tags": [ConceptTag.model_validate(t) for t in ep.concept_tags],
        "motive_profile": ep.motive_profile,
        "time_window": TimeWindow(start_time=from_us(ep.start_us), end_time=from_us(ep.end_us)),
    }


def hit(stored: StoredEpisode, score: float) -> EpisodeHit:
    ep = stored.episode
    return EpisodeHit(**shown_fields(ep), snippet=ep.content[:SNIPPET], score=round(score, 6))


def _normalised(ranked: list[tuple[int, float]]) -> dict[int, float]:
    if not ranked:
        return {}
    values = [v for _, v in ranked]
    lo, hi = min(values), max(values)
    if hi - lo < 1e-12:
        return {seq: 1.0 for seq, _ in ranked}
    return {seq: (v - lo) / (hi - lo) for seq, v in ranked}


@dataclass
class Ranking:
    """Fused relevance for a set of filters; what search and similar_episodes share.

    It plans which lists a search needs and fuses them; the lists come from the handle's
    ``Candidates`` strategy (``index/candidates.py``), whatever the store. Store round trips
    of a relevance search, warm: text alone, 5 on SQLite (the snapshot's ``episode_max_seq``,
    the text index's look at the change log, the vector index's ``load_vectors`` catch-up,
    ``episode_places`` for the session boost and recency, ``episodes_by_seqs`` for the page)
    and 4 on PostgreSQL (one ``episode_vector_ranking`` for the vectors); a filter the
    indexes cannot apply adds one allowlist read, which on PostgreSQL also brings the vector
    ranking, the change-log head and the sessions (3 in all). Concepts without text: the
    snapshot, ``episode_concept_ranking`` and the page."""

    text: str | None
    concept_ids: list[str]
    score_weight: float
    recency_weight: float
    max_vseq: int | None = None
    text_weight: float = TEXT_WEIGHT  # BM25's share of text relevance (benchmarks vary it)
    query_vector: Any = None  # the text's embedding, when the caller already has it

    def rank(
        self, ctx: Context, flt: EpisodeFilter, exclude: set[int] | None = None
    ) -> list[tuple[int, float]]:
        """(seq, score) best first; ties broken by newer seq first."""
        found = ctx.candidates
        query = None
        if self.text:
            query = VectorQuery(self.text, self.query_vector, self.max_vseq)
        allowed: Allowlist | None = None
        if query is not None and flt.needs_allowlist:
            # One SQL allowlist serves both in-memory indexes (concepts, labels, session);
            # with concepts to rank by, the same pass scores them and gives the sessions.
            allowed = found.allowlist(flt, self.concept_ids, query, LIST_DEPTH)
        text_scores: dict[int, float] = {}
        if query is not None:
            terms = search_terms(query.text)
            bm25 = _normalised(found.text_ranking(flt, terms, LIST_DEPTH, allowed))
            vectors = _normalised(found.vector_ranking(flt, query, LIST_DEPTH, allowed))
            self.max_vseq = query.max_vseq
            for seq in bm25.keys() | vectors.keys():
                if vectors:
                    text_scores[seq] = self.text_weight * bm25.get(seq, 0.0) + (
                        1 - self.text_weight
                    ) * vectors.get(seq, 0.0)
                else:
                    text_scores[seq] = bm25[seq]
        concept_scores: dict[int, float] = {}
        if self.concept_ids:
            raw = allowed.concepts if allowed is not None else None
            if raw is None:
                raw = found.concept_ranking(flt, self.concept_ids, MAX_CANDIDATES)
            concept_scores = {seq: v / len(self.concept_ids) for seq, v in raw[:MAX_CANDIDATES]}
        places = self._places(ctx, text_scores, concept_scores, allowed)
        text_scores = _session_boost(text_scores, places)
        if query is not None and self.concept_ids:
            w = self.score_weight
            seqs = text_scores.keys() | concept_scores.keys()
            fused = {
                s: (1 - w) * text_scores.get(s, 0.0) + w * concept_scores.get(s, 0.0) for s in seqs
            }
        else:
            fused = text_scores or concept_scores
        if exclude:
            fused = {s: v for s, v in fused.items() if s not in exclude}
        if self.recency_weight > 0 and fused:
            now, rw = now_us(), self.recency_weight
            fused = {
                s: (1 - rw) * v
                + rw * math.exp(-max(0, now - places.get(s, (None, now))[1]) / RECENCY_SCALE_US)
                for s, v in fused.items()
            }
        ranked = sorted(fused.items(), key=lambda item: (-item[1], -item[0]))
        return ranked[:MAX_CANDIDATES]

    def _places(
        self,
        ctx: Context,
        text_scores: dict[int, float],
        concept_scores: dict[int, float],
        allowed: Allowlist | None,
    ) -> dict[int, tuple[str | None, int]]:
        """(session, end time) of the scored episodes, read once for both the session boost
        and recency; only the sessions (from the allowlist) when recency is not asked."""
        boost = bool(text_scores) and SESSION_BOOST != 0
        if self.recency_weight > 0:
            return ctx.store.episode_places(list(text_scores.keys() | concept_scores.keys()))
        if not boost:
            return {}
        if allowed is not None and allowed.sessions is not None:
            return {seq: (allowed.sessions.get(seq), 0) for seq in text_scores}
        return ctx.store.episode_places(list(text_scores))


def _session_boost(
    scores: dict[int, float], places: dict[int, tuple[str | None, int]]
) -> dict[int, float]:
    """Lift each episode by its session's best text score: the turns around an answer are
    often what the question names (LoCoMo turn recall@10 0.833 -> 0.853)."""
    if not scores or SESSION_BOOST == 0:
        return scores
    best: dict[str, float] = {}
    for seq, v in scores.items():
        if (session := places.get(seq, (None, 0))[0]) is not None:
            best[session] = max(best.get(session, 0.0), v)
    return {
        seq: v + SESSION_BOOST * best.get(places.get(seq, (None, 0))[0] or "", 0.0)
        for seq, v in scores.items()
    }


def search_episodes(ctx: Context, req: SearchEpisodesRequest) -> SearchEpisodesResponse:
    flt = episode_filter(req)
    sort = req.sort
    present = [f.concept_id for f in req.concept_filters if f.polarity is Polarity.PRESENT]
    text = (req.text_query or "").strip() or None
    relevance = sort.by is SortBy.RELEVANCE and bool(text or present)
    digest = cursors.digest(req.model_dump(mode="json", exclude={"page"}))
    size = req.page.page_size
    position = (
        cursors.decode(req.page.cursor, digest, "page.cursor")
        if req.page.cursor is not None
        else None
    )
    if not relevance:
        return _ordered(ctx, req, flt, position, digest)
    if position is not None:
        snapshot, max_vseq, last_score, last_seq = _relevance_position(position)
    else:
        snapshot, max_vseq, last_score, last_seq = ctx.store.episode_max_seq(), None, None, None
    flt.max_seq = snapshot
    ranking = Ranking(text, present, sort.score_weight, sort.recency_weight, max_vseq)
    ranked = ranking.rank(ctx, flt)
    if last_seq is not None:
        ranked = [(s, v) for s, v in ranked if (v, s) < (last_score, last_seq)]
    page = ranked[:size]
    found = ctx.store.episodes_by_seqs([s for s, _ in page])
    hits = [hit(found[s], v) for s, v in page if s in found]
    next_cursor = None
    if len(ranked) > size:
        last = page[-1]
        next_cursor = cursors.encode(
            ["relevance", snapshot, ranking.max_vseq, last[1], last[0]], digest
        )
    return SearchEpisodesResponse(episodes=hits, next_cursor=next_cursor)


def _relevance_position(position: list[Any]) -> tuple[int, int | None, float, int]:
    try:
        kind, snapshot, max_vseq, score, seq = position
        assert kind == "relevance"
        return int(snapshot), (None if max_vseq is None else int(max_vseq)), float(score), int(seq)
    except (AssertionError, ValueError, TypeError):
        raise InvalidRequest(
            "cursor is malformed; pass the next_cursor of a previous page unchanged",
            field="page.cursor",
        ) from None


def _ordered(
    ctx: Context,
    req: SearchEpisodesRequest,
    flt: EpisodeFilter,
    position: list[Any] | None,
    digest: str,
) -> SearchEpisodesResponse:
    by = req.sort.by
    seed = req.sort.seed if by is SortBy.RANDOM else None
    descending = by is not SortBy.TIME_ASC
    after = None
    if position is not None:
        try:
            after = (int(position[0]), int(position[1]))
        except (ValueError, TypeError, IndexError):
            raise InvalidRequest(
                "cursor is malformed; pass the next_cursor of a previous page unchanged",
                field="page.cursor",
            ) from None
    size = req.page.page_size
    keys = ctx.store.episode_page(flt, after, size + 1, descending, seed)
    page = keys[:size]
    found = ctx.store.episodes_by_seqs([s for _, s in page])
    hits = [hit(found[s], 0.0) for _, s in page if s in found]
    next_cursor = cursors.encode(list(page[-1]), digest) if len(keys) > size else None
    return SearchEpisodesResponse(episodes=hits, next_cursor=next_cursor)


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="search_episodes",
        group="experience",
        request=SearchEpisodesRequest,
        response=SearchEpisodesResponse,
        handler=search_episodes,
        readonly=True,
        summary="Search episodes: concepts, text, time, kinds, labels; hybrid relevance.",
        cli_name="search",
        positional="text_query",
        example='xdb search "deploy failed" --namespace proj --episode-kinds incident',
    ),
)
