"""The search page: ``search_episodes`` from the page's query string, each hit with what of
the search it shows. A query of common words alone ("the") is not searched by (it would
match nearly everything); the hits that share none of the query's words with their text
(found by meaning, or beside a match in their session) are listed apart from the matches,
and the query's words are marked in what is shown."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from fastapi import Request

from xdb.explorer.render import Page, page, stem
from xdb.text import STOPWORDS, words

if TYPE_CHECKING:
    from xdb.explorer.routes import Reader

PAGE_SIZE = 20


def search_request(params: Any) -> dict[str, Any]:
    """A ``search_episodes`` request from the page's query string (what a shared URL holds):
    q, concept (present), without (absent), kind, label (CONCEPT:positive|negative), from,
    to, sort, concept_weight and recency (the relevance weights), cursor, size."""
    request: dict[str, Any] = {"page": {"page_size": int(params.get("size") or PAGE_SIZE)}}
    if params.get("q"):
        request["text_query"] = params["q"]
    filters = [{"concept_id": c, "polarity": "present"} for c in params.getlist("concept") if c]
    filters += [{"concept_id": c, "polarity": "absent"} for c in params.getlist("without") if c]
    if filters:
        request["concept_filters"] = filters
    kinds = [k for k in params.getlist("kind") if k]
    if kinds:
        request["episode_kinds"] = kinds
    label = params.get("label")
    if label:
        concept, _, word = label.rpartition(":")
        request["label_filters"] = {"concept_id": concept or None, "label": word or None}
    if params.get("from") or params.get("to"):
        request["time_range"] = {"start_time": params.get("from") or None,
                                 "end_time": params.get("to") or None}  # fmt: skip
    sort: dict[str, Any] = {"by": params["sort"]} if params.get("sort") else {}
    for name, key in (("concept_weight", "score_weight"), ("recency", "recency_weight")):
        if params.get(name):
            sort[key] = float(params[name])
    if sort:
        request["sort"] = sort
    if params.get("cursor"):
        request["page"]["cursor"] = params["cursor"]
    return request


def content_words(text: str | None) -> list[str]:
    """The words of ``text`` that say what is looked for: its words, minus the common ones
    (``xdb.text.STOPWORDS``, which the search itself drops too), in order, once each."""
    return list(dict.fromkeys(w for w in words(text or "") if w not in STOPWORDS))


def search_page(read: Reader, request: Request) -> Page:
    params = request.query_params
    asked = search_request(params)
    terms = content_words(asked.get("text_query"))
    notice = None
    if asked.get("text_query") and not terms:  # "the": common words alone match everything
        common = ", ".join(dict.fromkeys(words(asked["text_query"]))) or asked["text_query"]
        notice = (f"“{asked['text_query']}” has only common words ({common}), which nearly"
                  " every episode has, so they are not searched by: add a word that says"
                  " what you are looking for.")  # fmt: skip
        del asked["text_query"]
    hits: list[Any] = []
    following = None
    if "text_query" in asked or notice is None or _filtered(asked):
        found = read("experience.search_episodes", asked)
        hits = found.episodes
        if found.next_cursor:  # the same search's next page, as a link to share
            rest = [(k, v) for k, v in params.multi_items() if k != "cursor"]
            following = "/search?" + urlencode([*rest, ("cursor", found.next_cursor)])
    why = {hit.episode_id: _why(hit, asked, terms) for hit in hits}
    matched = [h for h in hits if not terms or _says(h, terms)]
    beside = [h for h in hits if terms and not _says(h, terms)]
    return page("search.html", params=params, hits=matched, beside=beside, next_url=following,
                why=why, terms=terms, notice=notice, kinds=params.getlist("kind"),
                concepts=params.getlist("concept"), without=params.getlist("without"))  # fmt: skip


def _filtered(asked: dict[str, Any]) -> bool:
    """Whether a search asks for more than text (then it runs without its common words)."""
    keys = ("concept_filters", "episode_kinds", "label_filters", "time_range")
    return any(asked.get(k) for k in keys)


def _said(hit: Any) -> set[str]:
    return {stem(w) for w in words(f"{hit.summary} {hit.snippet}")}


def _says(hit: Any, terms: list[str]) -> bool:
    """Whether the hit's own text (summary, snippet) has one of the query's words."""
    said = _said(hit)
    return any(stem(t) in said for t in terms)


def _why(hit: Any, asked: dict[str, Any], terms: list[str]) -> list[str]:
    """What of the search a hit shows: the query's words in its text, the concepts asked
    for that it carries (with their scores), the kinds asked for. What each signal added
    to its score is the ranking's own (``hit.signals``), shown beside."""
    reasons = []
    said = _said(hit)
    shared = [t for t in terms if stem(t) in said]
    if shared:
        reasons.append("words: " + ", ".join(shared))
    elif terms:
        signals = hit.signals or {}
        if signals.get("vector"):
            reasons.append("by meaning: none of the query's words is in its text")
        if signals.get("bm25"):
            reasons.append("beside a match: its session has the query's words")
    tags = {t.concept_id: t.score for t in hit.concept_tags}
    for flt in asked.get("concept_filters", []):
        concept = flt["concept_id"]
        if flt["polarity"] == "present":
            # The box takes any name the resolver does (``concepts/resolve.py``): the full
            # id, the term, Term:layer; a hit carries the full id it resolved to.
            term, _, layer = concept.rpartition(":")
            term = term if term and layer.isdigit() else concept
            found = next(
                (v for k, v in tags.items() if k == concept or k.endswith("/" + term)), None
            )
            reasons.append(f"carries {concept}" + (f" ({found:.2f})" if found is not None else ""))
        else:
            reasons.append(f"does not carry {concept}")
    if asked.get("episode_kinds"):
        reasons.append(f"kind {hit.kind}")
    return reasons
