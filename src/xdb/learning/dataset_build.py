"""build_dataset: a clean, reproducible ConceptDataset from the episodes.

1. Candidates: the episodes the positive filters match (default: tagged with the target,
   any score, or labelled positive for it), and those the negative filters match (default:
   every episode but those the default positives would take), less every positive
   candidate: the two never overlap.
2. Sampling: each side is drawn in a random order seeded by ``random_seed`` over its
   candidates in store order (``seq``: an import keeps it), keeping the first episode of
   each distinct content (words, case-folded) and leaving out a negative whose content is a
   positive's, until ``max_positive``/``max_negative`` are kept. Balanced keeps as many
   negatives as positives (the smaller count of both) and says why when that is fewer than
   asked. Same inputs, seed and episodes: same dataset, on either store, in any process.
3. Storage: the next version of the dataset's series (v1, v2, ...), with each member's
   content, concept tags and label frozen as they were; older versions stay as they were.

A member's label source is its exemplar label's for the target when it has one, else the
episode's provenance ``source`` when that is a label source, else ``sensor`` for a concept
tag the probes gave, else ``self``.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import re
from collections.abc import Iterator, Sequence
from typing import Any

from xdb.concepts.requests import resolve_request
from xdb.episodes.episode_search import concept_conditions
from xdb.errors import InvalidRequest
from xdb.learning.dataset_models import (
    Balance,
    BuildDatasetRequest,
    BuildDatasetResponse,
    DatasetFilters,
)
from xdb.learning.exemplar_models import LabelSource
from xdb.ops.registry import Context
from xdb.policy.access_rules import check_create
from xdb.store.learning import LearningObject
from xdb.store.sqlbuild import chunks
from xdb.store.types import ConceptCondition, EpisodeFilter, StoredEpisode
from xdb.text import search_terms, words
from xdb.timeutil import now_us

SOURCES = {s.value for s in LabelSource}
FETCH = 256  # episodes read per round while drawing
TEXT_LIMIT = 10_000_000  # a text filter's matches are read whole


def is_default(filters: DatasetFilters | None) -> bool:
    return filters is None or not (filters.concept_filters or (filters.text_query or "").strip())


def candidates(
    ctx: Context, filters: DatasetFilters | None, carried: set[int], positive: bool
) -> Sequence[int]:
    """The seqs of the episodes a side's filters match, in store order. The defaults: the
    target's ``carried`` (positives); every episode (negatives: build_dataset passes over
    the carried and every positive as it draws)."""
    if is_default(filters):
        if positive:
            return sorted(carried)
        count, first, last = ctx.store.episode_seq_span()
        if count and last - first + 1 == count:  # no gaps: the seqs are a range, not a list
            return range(first, last + 1)
        return sorted(ctx.store.episode_seqs(EpisodeFilter()))
    assert filters is not None
    flt = EpisodeFilter(concepts=concept_conditions(filters.concept_filters))
    text = (filters.text_query or "").strip()
    if not text:
        return sorted(ctx.store.episode_seqs(flt))
    terms = search_terms(text)
    found: set[int] | None = None
    for term in terms:  # every content word (each a ranking of its matches)
        hits = {s for s, _ in ctx.store.episode_text_ranking(flt, [term], TEXT_LIMIT)}
        found = hits if found is None else found & hits
        if not found:
            return []
    # The index also matches a word in an episode's neighbours (its context) and by stem:
    # the filter is the episode's own summary and content holding each word.
    wanted = set(terms)
    kept: list[int] = []
    ordered = sorted(found or ())
    for chunk in chunks(ordered, 1000):
        eps = ctx.store.episodes_by_seqs(chunk)
        for seq in chunk:
            ep = eps.get(seq)
            if ep is not None and wanted <= set(
                words(f"{ep.episode.summary} {ep.episode.content}")
            ):
                kept.append(seq)
    return kept


def carriers(ctx: Context, target: str) -> set[int]:
    """The episodes tagged with the target (any score) or labelled positive for it."""
    tag = ConceptCondition(target, 0.0, None, False, True, False)
    tagged = ctx.store.episode_seqs(EpisodeFilter(concepts=[tag]))
    labelled = ctx.store.episode_seqs(EpisodeFilter(label_concept=target, label="positive"))
    return set(tagged) | set(labelled)


def draws(rng: random.Random, n: int) -> Iterator[int]:
    """0..n-1 in a seeded random order, drawn as needed: a dataset of 500 from a million
    candidates reads a few hundred numbers instead of shuffling a million."""
    seen: set[int] = set()
    while len(seen) < n:
        if len(seen) * 2 >= n:  # most are drawn: shuffle the rest
            rest = [i for i in range(n) if i not in seen]
            rng.shuffle(rest)
            yield from rest
            return
        i = rng.randrange(n)
        if i not in seen:
            seen.add(i)
            yield i


def fingerprint(text: str) -> str:
    return hashlib.sha256(" ".join(words(text)).encode()).hexdigest()


def _draw(
    ctx: Context,
    pool: Sequence[int],
    rng: random.Random,
    want: int,
    taken: set[str],
    skip: set[int] | None = None,
) -> list[StoredEpisode]:
    """Up to ``want`` episodes of ``pool`` but ``skip``, of content not in ``taken`` (added
    to it). Skipped ones are passed over as they are drawn: the pool is never copied."""
    kept: list[StoredEpisode] = []
    order = (pool[i] for i in draws(rng, len(pool)))
    if skip:
        order = (seq for seq in order if seq not in skip)
    while len(kept) < want:
        batch = list(itertools.islice(order, FETCH))
        if not batch:
            break
        found = ctx.store.episodes_by_seqs(batch)
        for seq in batch:
            ep = found.get(seq)
            if ep is None:
                continue
            mark = fingerprint(ep.episode.content)
            if mark in taken:
                continue
            taken.add(mark)
            kept.append(ep)
            if len(kept) == want:
                break
    return kept


def _series_slug(series: str) -> str:
    tail = series.rsplit("::concept/", 1)[-1].rsplit("/", 1)[-1]
    slug = re.sub(r"[^a-z0-9]+", "-", tail.lower()).strip("-") or "concept"
    return f"{slug[:48]}-{hashlib.sha256(series.encode()).hexdigest()[:6]}"


def _source(ep: StoredEpisode, target: str, label: dict[str, Any] | None) -> str:
    if label is not None and label.get("label_source") in SOURCES:
        return str(label["label_source"])
    given = ep.episode.provenance.get("source")
    if isinstance(given, str) and given in SOURCES:
        return given
    if any(t["concept_id"] == target for t in ep.episode.concept_tags):
        return LabelSource.SENSOR.value
    return LabelSource.SELF.value


def _member(ep: StoredEpisode, target: str, polarity: str, series: str) -> dict[str, Any]:
    e = ep.episode
    labels = [lb for lb in e.labels if lb["concept_id"] == target and lb["label"] == polarity]
    label = max(labels, key=lambda lb: lb["confidence"]) if labels else None
    score = max((t["score"] for t in e.concept_tags if t["concept_id"] == target), default=None)
    if label is not None:
        confidence = float(label["confidence"])
    elif polarity == "positive" and score is not None:
        confidence = float(score)
    else:
        confidence = 1.0
    key = f"{series}\x1f{e.id}\x1f{polarity}".encode()
    return {
        "exemplar_id": "exemplar-" + hashlib.sha256(key).hexdigest()[:24],
        "episode_id": e.id,
        "polarity": polarity,
        "label": polarity,
        "label_source": _source(ep, target, label),
        "confidence": round(confidence, 6),
        "text": e.content,
        "summary": e.summary,
        "concept_tags": e.concept_tags,
        "content_sha256": hashlib.sha256(e.content.encode()).hexdigest(),
        "start_us": e.start_us,
        "end_us": e.end_us,
    }


def build_dataset(ctx: Context, req: BuildDatasetRequest) -> BuildDatasetResponse:
    check_create(ctx, req.access_policy_id, "build_dataset")
    # The target and the filters name concepts to look for, as a read's do: a short name is
    # its pack concept's full id, an unknown one is refused (a write keeps names as given).
    req = resolve_request(ctx, req, lookup=True)
    target = req.target_concept_id
    defaults = is_default(req.positive_filters) or is_default(req.negative_filters)
    carried = carriers(ctx, target) if defaults else set()
    pos_pool = candidates(ctx, req.positive_filters, carried, True)
    excluded = set(pos_pool)
    if is_default(req.negative_filters):
        excluded |= carried  # a weak tag of the target is no negative
    neg_pool = candidates(ctx, req.negative_filters, carried, False)
    if not pos_pool:
        raise InvalidRequest(
            f"positive_filters: no episode matches them (target {target!r}); nothing was stored",
            field="positive_filters",
        )
    balanced = req.sampling.balance is Balance.BALANCED
    if balanced and req.max_negative > 0 and all(seq in excluded for seq in neg_pool):
        raise InvalidRequest(
            "negative_filters: no episode matches them (and is not a positive), so a balanced"
            " dataset would be empty; widen them or ask for sampling.balance 'skewed'",
            field="negative_filters",
        )
    rng = random.Random(req.sampling.random_seed)
    taken: set[str] = set()
    positives = _draw(ctx, pos_pool, rng, req.max_positive, taken)
    negatives = _draw(ctx, neg_pool, rng, req.max_negative, taken, excluded)
    note = None
    if balanced:
        k = min(len(positives), len(negatives))
        if k < min(req.max_positive, req.max_negative):
            short = "positives" if len(positives) <= len(negatives) else "negatives"
            note = (
                f"balanced at {k} of each: only {k} distinct {short} match their filters"
                f" (asked up to {req.max_positive} positives and {req.max_negative} negatives)"
            )
        elif req.max_positive != req.max_negative:
            note = f"balanced at {k} of each: the smaller of max_positive and max_negative"
        positives, negatives = positives[:k], negatives[:k]
    else:
        missing = [
            f"{len(got)} distinct {side} (asked {asked})"
            for side, got, asked in (
                ("positives", positives, req.max_positive),
                ("negatives", negatives, req.max_negative),
            )
            if len(got) < asked
        ]
        note = f"only {' and '.join(missing)} match their filters" if missing else None
    series = req.name or target
    slug = _series_slug(series)
    members = [_member(e, target, "positive", series) for e in positives]
    members += [_member(e, target, "negative", series) for e in negatives]
    counts: dict[str, int] = {}
    for m in members:
        counts[m["label_source"]] = counts.get(m["label_source"], 0) + 1
    mix = {k: round(v / len(members), 4) for k, v in sorted(counts.items())}
    for m in members:  # which stored exemplar, if any, gave the label (a reference only)
        m["label_exemplar_id"] = None
    _link_exemplars(ctx, members, target)
    # Each frozen copy keeps its episode's access policy (store/access.py's views).
    policies = ctx.store.episode_policies([e.seq for e in positives + negatives])
    for m, e in zip(members, positives + negatives, strict=True):
        m["access_policy_id"] = policies.get(e.seq)
    at = now_us()

    def make(version: int) -> LearningObject:
        body = {
            "positive_count": len(positives),
            "negative_count": len(negatives),
            "source_mix": mix,
            "balance_note": note,
            "notes": req.notes,
            "request": req.model_dump(mode="json"),
        }
        return LearningObject(
            "dataset", f"dataset-{slug}-v{version}", series, version, target, None, body, at,
            at, ctx.caller.id, req.access_policy_id,
        )  # fmt: skip

    made = ctx.store.create_dataset(make, series, members, _bud_note(ctx, target))
    return BuildDatasetResponse(
        dataset_id=made.id,
        version=made.version or 1,
        positive_exemplar_ids=[m["exemplar_id"] for m in members if m["polarity"] == "positive"],
        negative_exemplar_ids=[m["exemplar_id"] for m in members if m["polarity"] == "negative"],
        source_mix=mix,
        balance_note=note,
    )


def _link_exemplars(ctx: Context, members: list[dict[str, Any]], target: str) -> None:
    by_episode: dict[tuple[str, str], str] = {}
    for row in ctx.store.episode_exemplars([m["episode_id"] for m in members], target):
        if row.episode_id is not None:
            by_episode.setdefault((row.episode_id, row.label), row.id)
    for m in members:
        m["label_exemplar_id"] = by_episode.get((m["episode_id"], m["polarity"]))


def _bud_note(ctx: Context, target: str) -> Any:
    """When the target is a bud: its details naming a dataset id (stored with the dataset,
    in its transaction), else None."""
    found = ctx.store.find_tags(target, "bud")
    if not found:
        return None
    from xdb.learning.buds import details

    obj = details(ctx, found[0])

    def note(dataset_id: str) -> LearningObject:
        obj.body["dataset_id"] = dataset_id
        return obj

    return note
