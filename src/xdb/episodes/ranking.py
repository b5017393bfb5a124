"""Hybrid relevance: the ranked lists a search reads, and how they are fused.

Relevance fuses up to three ranked lists, each computed under the request's filters:

- text: BM25 over summary and content, from the query's content words (``xdb.text``);
- vector: cosine similarity of the query's embedding to the episodes' (current model only);
- concept: the summed scores of the requested (present) concepts an episode carries.

Each list is min-max normalised to 0..1 over its own candidates. Text relevance is
``text * bm25 + (1 - text) * vector`` (``Weights``; BM25 alone for an episode with no
vector in the snapshot, which the embedding worker has not reached), then each episode gains
``session_boost`` times the best text score around it (its session, or without one its
namespace's sessionless episodes within ``SESSION_GAP_US``). Then ``score_weight`` mixes
concept match against text, and ``recency_weight`` mixes in ``exp(-age / RECENCY_SCALE)``
of the episode's end time. The ranking covers the best ``MAX_CANDIDATES`` episodes.
Why this fusion: on LoCoMo's dev half, reciprocal rank fusion of the same lists did worse
than BM25 alone, while this normalised weighted sum with the session boost, over BM25
documents that include each episode's session neighbours, beat both (bench/locomo.py).

Reading and fusing are apart (``Ranking.signals``, then ``fuse``): fusing the same signals
under other weights reads nothing again, which is how ``bench/locomo.py --cv`` fits the
weights on some conversations and scores them on others.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from xdb.index.candidates import Allowlist, VectorQuery
from xdb.ops.registry import Context
from xdb.store.context import SESSION_GAP_US
from xdb.store.types import EpisodeFilter, Place
from xdb.text import search_terms
from xdb.timeutil import now_us

MAX_CANDIDATES = 1000
LIST_DEPTH = 200  # how deep each ranked list reaches before fusion
RECENCY_SCALE_US = 30 * 86_400 * 1_000_000  # recency decays by 1/e every 30 days

Ranked = list[tuple[int, float]]
Places = dict[int, Place]


@dataclass(frozen=True)
class Weights:
    """How text relevance is made from its lists (see the module's docstring).

    The defaults are fitted by ``bench/locomo.py --cv`` on the LoCoMo dev half: leaving one
    conversation out, four of five folds picked these very weights from a grid (text 0.1 to
    0.9, boost 0 to 1.2), and so did the fit on all five; the held-out conversations scored
    turn recall_any@10 0.842 on average with the weights their other four picked."""

    text: float = 0.6  # BM25's share of text relevance; the vector list gets the rest
    session_boost: float = 0.6  # share of the best text score in an episode's session


DEFAULT_WEIGHTS = Weights()


@dataclass
class Signals:
    """What a ranking read: each list normalised, and where its episodes sit."""

    bm25: dict[int, float] = field(default_factory=dict)
    vectors: dict[int, float] = field(default_factory=dict)
    concepts: dict[int, float] = field(default_factory=dict)
    places: Places = field(default_factory=dict)
    has_text: bool = False
    # Text matches with no vector in the list's snapshot (the worker has not reached them).
    unembedded: set[int] = field(default_factory=set)


def normalised(ranked: Ranked) -> dict[int, float]:
    if not ranked:
        return {}
    values = [v for _, v in ranked]
    lo, hi = min(values), max(values)
    if hi - lo < 1e-12:
        return {seq: 1.0 for seq, _ in ranked}
    return {seq: (v - lo) / (hi - lo) for seq, v in ranked}


def fuse(
    signals: Signals,
    weights: Weights = DEFAULT_WEIGHTS,
    score_weight: float = 0.5,
    recency_weight: float = 0.0,
    exclude: set[int] | None = None,
    now: int | None = None,
    text: TextScores | None = None,
) -> Ranked:
    """(seq, score) best first, ties broken by newer seq first. ``text``: the signals'
    ``text_scores_of``, when the caller has them already."""
    _, text_scores = text or text_scores_of(signals, weights)
    text_share, concept_share = _shares(signals, text_scores, score_weight)
    concept_scores = signals.concepts
    # Every episode of a list that takes part, even at a share of 0 (it keeps its place,
    # and its recency, below the others).
    seqs: Iterable[int]
    if signals.has_text and concept_scores:
        seqs = text_scores.keys() | concept_scores.keys()
    else:
        seqs = text_scores.keys() if text_scores else concept_scores.keys()
    fused = {
        s: text_share * text_scores.get(s, 0.0) + concept_share * concept_scores.get(s, 0.0)
        for s in seqs
    }
    if exclude:
        fused = {s: v for s, v in fused.items() if s not in exclude}
    if recency_weight > 0 and fused:
        now = now_us() if now is None else now
        rw, places = recency_weight, signals.places
        fused = {s: (1 - rw) * v + rw * _recency(places, s, now) for s, v in fused.items()}
    # Best first, the newer first among equals: (score, seq) descending (seqs differ).
    ranked = sorted(fused.items(), key=_score_then_seq, reverse=True)
    return ranked[:MAX_CANDIDATES]


_score_then_seq = itemgetter(1, 0)
TextScores = tuple[dict[int, float], dict[int, float]]  # before and after the session boost


def text_scores_of(signals: Signals, weights: Weights) -> TextScores:
    """Each text match's relevance from its BM25 and vector scores, before and after the
    session boost."""
    bm25, vectors, unembedded = signals.bm25, signals.vectors, signals.unembedded
    plain: dict[int, float]
    if vectors:  # ``_text_parts``, inlined (a search adds up ~350 of them)
        share, rest = weights.text, 1 - weights.text
        plain = {
            seq: bm25.get(seq, 0.0) + 0.0
            if seq in unembedded
            else share * bm25.get(seq, 0.0) + rest * vectors.get(seq, 0.0)
            for seq in bm25.keys() | vectors.keys()
        }
    else:
        plain = {seq: b + 0.0 for seq, b in bm25.items()}
    return plain, _session_boost(plain, signals.places, weights.session_boost)


def _text_parts(signals: Signals, weights: Weights, seq: int) -> tuple[float, float]:
    """What BM25 and the vectors add to ``seq``'s text relevance."""
    b = signals.bm25.get(seq, 0.0)
    if signals.vectors and seq not in signals.unembedded:
        return weights.text * b, (1 - weights.text) * signals.vectors.get(seq, 0.0)
    # Not embedded yet (the worker is behind): text alone, as if its vector agreed, so a
    # search while the worker catches up is never worse than BM25 on these.
    return b, 0.0


def _shares(
    signals: Signals, text_scores: dict[int, float], score_weight: float
) -> tuple[float, float]:
    """The shares of text relevance and of the concept score in the fused score: both
    when there are both, else whichever there is."""
    if signals.has_text and signals.concepts:
        return 1 - score_weight, score_weight
    return (1.0, 0.0) if text_scores else (0.0, 1.0)


def _recency(places: Places, seq: int, now: int) -> float:
    return math.exp(-max(0, now - places.get(seq, Place(None, now)).end_us) / RECENCY_SCALE_US)


def explain(
    signals: Signals,
    seqs: Sequence[int],
    weights: Weights,
    score_weight: float,
    recency_weight: float,
    now: int,
    text: TextScores | None = None,
) -> dict[int, dict[str, float]]:
    """What each signal added to each of ``seqs``' fused score (``fuse`` with the same
    arguments; the parts sum to it): bm25 and vector (text relevance), session (the lift
    from the best text match around it), concepts (the tags asked for), recency. Parts that
    added nothing are left out."""
    plain, boosted = text or text_scores_of(signals, weights)
    text_share, concept_share = _shares(signals, boosted, score_weight)
    keep = 1 - recency_weight if recency_weight > 0 else 1.0
    out: dict[int, dict[str, float]] = {}
    for seq in seqs:
        b, v = _text_parts(signals, weights, seq) if seq in plain else (0.0, 0.0)
        parts = {
            "bm25": keep * text_share * b,
            "vector": keep * text_share * v,
            "session": keep * text_share * (boosted.get(seq, 0.0) - plain.get(seq, 0.0)),
            "concepts": keep * concept_share * signals.concepts.get(seq, 0.0),
            "recency": recency_weight * _recency(signals.places, seq, now)
            if recency_weight > 0
            else 0.0,
        }
        shown = {name: round(x, 6) for name, x in parts.items() if round(x, 6)}
        if shown:  # the rounding's remainder goes to the largest part: they sum to the score
            largest = max(shown, key=lambda name: shown[name])
            shown[largest] = round(shown[largest] + round(sum(parts.values()), 6)
                                   - sum(shown.values()), 6)  # fmt: skip
        out[seq] = shown
    return out


def _session_boost(scores: dict[int, float], places: Places, boost: float) -> dict[int, float]:
    """Lift each episode by the best text score around it: the turns around an answer are
    often what the question names. Around it: its session; for an episode without one, the
    sessionless episodes of its namespace that start within ``SESSION_GAP_US`` of it (the
    rule that makes them neighbours in the text index)."""
    if not scores or boost == 0:
        return scores
    best: dict[str, float] = {}
    loose: dict[str, list[tuple[int, int]]] = {}  # namespace -> (start, seq), sessionless
    for seq, v in scores.items():
        if (place := places.get(seq)) is None:
            continue
        if place.session_id is not None:
            best[place.session_id] = max(best.get(place.session_id, 0.0), v)
        else:
            loose.setdefault(place.namespace, []).append((place.start_us, seq))
    around = {seq: best[p.session_id] for seq, p in places.items() if p.session_id in best}
    for members in loose.values():
        around.update(_window_best(sorted(members), scores))
    return {seq: v + boost * around.get(seq, 0.0) for seq, v in scores.items()}


def _window_best(members: list[tuple[int, int]], scores: dict[int, float]) -> dict[int, float]:
    """For each (start, seq), sorted, the best score among members starting within
    ``SESSION_GAP_US`` of it: a sliding window's maximum, linear in the members."""
    out: dict[int, float] = {}
    window: deque[int] = deque()  # indexes into members, scores decreasing
    ahead = 0
    for start, seq in members:
        while ahead < len(members) and members[ahead][0] <= start + SESSION_GAP_US:
            value = scores[members[ahead][1]]
            while window and scores[members[window[-1]][1]] <= value:
                window.pop()
            window.append(ahead)
            ahead += 1
        while members[window[0]][0] < start - SESSION_GAP_US:
            window.popleft()
        out[seq] = scores[members[window[0]][1]]
    return out


# How deep the lists of a caller some episodes are hidden from are read: first half again
# the usual depth (a tenth hidden leaves enough), then 4x deeper each time, up to a bound past
# which an allowlist of what the caller reads serves instead.
HIDDEN_FIRST_DEPTH = LIST_DEPTH * 3 // 2
MAX_HIDDEN_DEPTH = LIST_DEPTH * 32


@dataclass
class _Lists:
    """The text and vector lists, read as deep as it takes to hold ``LIST_DEPTH`` episodes
    the caller may read (``_whole``)."""

    found: Any  # the Candidates
    flt: EpisodeFilter
    terms: list[str]
    query: VectorQuery
    bm25: Ranked = field(default_factory=list)
    vectors: Ranked = field(default_factory=list)

    def read(self, name: str, depth: int) -> Ranked:
        if name == "bm25":
            ranked: Ranked = self.found.text_ranking(self.flt, self.terms, depth, None)
        else:
            ranked = self.found.vector_ranking(self.flt, self.query, depth, None)
        return ranked


def _whole(ctx: Context, lists: _Lists) -> bool:
    """Read both lists, each cut to the episodes the caller reads (one look at the store
    for the two); False when a list holds fewer than ``LIST_DEPTH`` of them even
    ``MAX_HIDDEN_DEPTH`` deep (most of what matches is hidden)."""
    depth = dict.fromkeys(("bm25", "vectors"), HIDDEN_FIRST_DEPTH)
    raw = {name: lists.read(name, d) for name, d in depth.items()}
    readable: set[int] = set()
    checked: set[int] = set()
    hiding = ctx.store.reading
    assert hiding is not None and hiding.default  # (else signals asks for an allowlist)
    while True:
        fresh = {s for ranked in raw.values() for s, _ in ranked} - checked
        placed = ctx.store.episode_policies(sorted(fresh)) if fresh else {}
        readable |= {s for s in fresh if s not in placed or placed[s] in hiding.policies}
        checked |= fresh
        short = []
        for name, ranked in raw.items():
            kept = [(s, v) for s, v in ranked if s in readable]
            setattr(lists, name, kept[:LIST_DEPTH])
            if len(kept) < LIST_DEPTH and len(ranked) >= depth[name]:
                short.append(name)
        if not short:
            return True
        for name in short:
            depth[name] *= 4
            if depth[name] > MAX_HIDDEN_DEPTH:
                return False
            raw[name] = lists.read(name, depth[name])


@dataclass
class Ranking:
    """Fused relevance for a set of filters; what search and similar_episodes share.

    It plans which lists it needs, reads them through the handle's ``Candidates`` strategy
    (``index/candidates.py``), whatever the store, and fuses them. Store round trips of a
    relevance search, warm: text alone, 4 on SQLite (the snapshot's ``episode_max_seq``,
    the text index's look at the change log, on the thread the text list is read on beside
    the rest, the vector index's ``load_vectors`` catch-up, ``episodes_by_seqs`` for the
    page; the vector index places the ranked episodes for the session boost and recency,
    ``episode_places`` only those it lacks) and 4 on PostgreSQL (one
    ``episode_vector_ranking`` for the vectors; one more, ``episodes_embedded``, when text
    matches lie outside a full vector list); a filter the indexes cannot apply adds one
    allowlist read, which on PostgreSQL also brings the vector ranking, the change-log head
    and the sessions (3 in all). Concepts without text: the snapshot,
    ``episode_concept_ranking`` and the page."""

    text: str | None
    concept_ids: list[str]
    score_weight: float
    recency_weight: float
    max_vseq: int | None = None
    weights: Weights = DEFAULT_WEIGHTS
    query_vector: Any = None  # the text's embedding, when the caller already has it
    # The moment recency is measured from: set by the first ranking, kept by a search's
    # cursor so that every page scores alike (a later "now" moved scores between pages).
    now: int | None = None

    def rank(self, ctx: Context, flt: EpisodeFilter, exclude: set[int] | None = None) -> Ranked:
        """(seq, score) best first; ties broken by newer seq first."""
        return self.rank_explained(ctx, flt, exclude)[0]

    def rank_explained(
        self, ctx: Context, flt: EpisodeFilter, exclude: set[int] | None = None
    ) -> tuple[Ranked, Callable[[Sequence[int]], dict[int, dict[str, float]]]]:
        """``rank``, and what says which signal added what to the scores of given seqs."""
        signals = self.signals(ctx, flt)
        now = self.now = now_us() if self.now is None else self.now
        w, sw, rw = self.weights, self.score_weight, self.recency_weight
        text = text_scores_of(signals, w)  # once, for the ranking and its explanation
        ranked = fuse(signals, w, sw, rw, exclude, now, text)
        return ranked, lambda seqs: explain(signals, seqs, w, sw, rw, now, text)

    def signals(self, ctx: Context, flt: EpisodeFilter, sessions: bool | None = None) -> Signals:
        """Read the lists. ``sessions``: read where the text matches sit even when these
        weights do not boost by session (None: only when they do, or for recency)."""
        found = ctx.candidates
        out = Signals(has_text=bool(self.text))
        query = VectorQuery(self.text, self.query_vector, self.max_vseq) if self.text else None
        allowed: Allowlist | None = None
        # A caller some episodes are hidden from (access policies) ranks only those it may
        # read, so that no hidden episode takes a place or a share of the scores. SQL reads
        # through the caller's views by itself; the in-memory indexes hold every episode,
        # so their lists are read deeper and cut to what the caller reads (``_readable``),
        # or, when the database's default policy is hidden from it (then it reads little),
        # ranked within SQL's allowlist of what it reads.
        hiding = ctx.store.reading
        needs_allowlist = flt.needs_allowlist or (hiding is not None and not hiding.default)
        terms = search_terms(query.text) if query is not None else []
        # Nothing hidden: the text list may be read beside the allowlist and the vectors.
        soon = None
        if query is not None and hiding is None:
            soon = found.text_ranking_soon(flt, terms, LIST_DEPTH)
        if query is not None and needs_allowlist:
            # One SQL allowlist serves both in-memory indexes (concepts, labels, session);
            # with concepts to rank by, the same pass scores them (and may give sessions).
            allowed = found.allowlist(flt, self.concept_ids, query, LIST_DEPTH)
        if query is not None:
            lists = _Lists(found, flt, terms, query)
            if hiding is not None and allowed is None and not _whole(ctx, lists):
                # Too few readable near the top: rank within what the caller reads.
                allowed = found.allowlist(flt, self.concept_ids, query, LIST_DEPTH)
            if hiding is None or allowed is not None:
                lists.vectors = found.vector_ranking(flt, query, LIST_DEPTH, allowed)
                lists.bm25 = (
                    soon(allowed)
                    if soon is not None
                    else found.text_ranking(flt, terms, LIST_DEPTH, allowed)
                )
            out.bm25, out.vectors = normalised(lists.bm25), normalised(lists.vectors)
            self.max_vseq = query.max_vseq
            if out.vectors:
                # Only text matches outside the vector list can lack a vector; a list shorter
                # than its depth holds every match that has one, so none need asking.
                unsure = [seq for seq in out.bm25 if seq not in out.vectors]
                short = len(out.vectors) < LIST_DEPTH
                out.unembedded = set(unsure) - (set() if short else found.embedded(unsure, query))
        if self.concept_ids:
            raw = allowed.concepts if allowed is not None else None
            if raw is None:
                raw = found.concept_ranking(flt, self.concept_ids, MAX_CANDIDATES)
            n = len(self.concept_ids)
            out.concepts = {seq: v / n for seq, v in raw[:MAX_CANDIDATES]}
        if sessions is None:
            sessions = self.weights.session_boost != 0
        out.places = self._places(ctx, out, allowed, sessions, query)
        return out

    def _places(
        self,
        ctx: Context,
        signals: Signals,
        allowed: Allowlist | None,
        sessions: bool,
        query: VectorQuery | None,
    ) -> Places:
        """(session, end time) of the scored episodes, read once for both the session boost
        and recency; only the sessions (from the allowlist, when read) without recency."""
        text_seqs = signals.bm25.keys() | signals.vectors.keys()
        if self.recency_weight > 0:
            return _placed(ctx, list(text_seqs | signals.concepts.keys()), query)
        if not (sessions and text_seqs):
            return {}
        if allowed is not None and allowed.sessions is not None:
            known = allowed.sessions
            # Those without a session are placed by namespace and time: read those alone.
            loose = [seq for seq in text_seqs if seq not in known]
            places = _placed(ctx, loose, query) if loose else {}
            places.update((seq, Place(known[seq], 0)) for seq in text_seqs if seq in known)
            return places
        return _placed(ctx, list(text_seqs), query)


def _placed(ctx: Context, seqs: list[int], query: VectorQuery | None) -> Places:
    """Where ``seqs`` sit: from the lists' indexes where they hold them (a caller with
    nothing hidden: the indexes hold every episode), the rest read from the store."""
    places = ctx.candidates.places(seqs, query) if ctx.store.reading is None else {}
    rest = [seq for seq in seqs if seq not in places] if places else seqs
    if rest or not places:
        places.update(ctx.store.episode_places(rest))
    return places
