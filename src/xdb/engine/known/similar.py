"""The known mistake a lesson's words resemble, when they name none (``named_in``): the
pattern whose phrases or blind lessons (``known.lessons``: other people's words for the same
mistake) are nearest to it by tf-idf cosine over word roots.

A lesson is told in its writer's words; a pattern's phrases hold some of them, and about one
blind lesson in eight named its pattern by no phrase before the phrases were widened to
them. The next writer's words are as new, and the nearest lessons told of the same mistake
are the best guess of what they mean. A guess is weaker than a name: ``trigger_match`` lets a
resembled pattern find the mistake (HIT) and its safe variant (SAFE), never clear a call
another part of the trigger finds."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from xdb.engine.words import root

__all__ = ["CALL_FLOOR", "CALL_NEAREST", "FLOOR", "Index", "nearest"]

# The least cosine a lesson's nearest pattern must reach to be taken: chosen by
# ``bench.engine_naming`` (each blind lesson left out in turn, its siblings kept).
FLOOR = 0.4
# A lesson learned on a call: of its ``CALL_NEAREST`` nearest patterns at ``CALL_FLOOR``,
# those whose detector finds the mistake in that call (the same bench chose it).
CALL_NEAREST = 5
CALL_FLOOR = 0.2

_WORD = re.compile(r"[a-z0-9]+")
_ABSENT = frozenset(("no", "not", "without", "missing", "never", "forgot", "omitted"))
# Words every lesson uses: they say nothing of which mistake it tells.
_COMMON_WORDS = (
    "a an and are as at be been before by did do does for from had has have i if in into "
    "is it its me my of on or our so than that the their them then there these they this "
    "to was we were what when which while who will with you your all any after use used "
    "using run ran also only can could should would just one two first"
)
_COMMON = frozenset(_COMMON_WORDS.split())


def terms(text: str) -> list[str]:
    """A text's word roots, common words left out (absence words are one: "without")."""
    return [
        "without" if w in _ABSENT else root(w)
        for w in _WORD.findall(text.lower())
        if w in _ABSENT or w not in _COMMON
    ]


class Index:
    """Labelled texts (pattern name, text) and the cosine of a query to each."""

    def __init__(self, docs: Iterable[tuple[str, str]]) -> None:
        counted = [(label, Counter(terms(text))) for label, text in docs]
        df: Counter[str] = Counter()
        for _, c in counted:
            df.update(c.keys())
        self.size = len(counted)
        self.idf = {t: math.log(self.size / n) for t, n in df.items()}
        self.labels = [label for label, _ in counted]
        self.postings: dict[str, list[tuple[int, float]]] = {}
        for i, (_, c) in enumerate(counted):
            for t, w in self._vector(c).items():
                self.postings.setdefault(t, []).append((i, w))

    def _vector(self, counts: Counter[str]) -> dict[str, float]:
        unseen = math.log(self.size + 1)
        v = {t: (1 + math.log(n)) * self.idf.get(t, unseen) for t, n in counts.items()}
        norm = math.sqrt(sum(x * x for x in v.values())) or 1.0
        return {t: x / norm for t, x in v.items()}

    def nearest(
        self, text: str, k: int = 1, left_out: frozenset[int] = frozenset()
    ) -> list[tuple[str, float]]:
        """The ``k`` labels whose nearest text is nearest to ``text``, with that cosine,
        nearest first (``left_out``: texts by their position, for leaving one out)."""
        scores: dict[int, float] = {}
        for t, x in self._vector(Counter(terms(text))).items():
            for i, w in self.postings.get(t, ()):
                scores[i] = scores.get(i, 0.0) + x * w
        best: dict[str, float] = {}
        for i, s in scores.items():
            label = self.labels[i]
            if i not in left_out and s > best.get(label, 0.0):
                best[label] = s
        return sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))[:k]


@lru_cache(maxsize=1)
def _catalogue_index() -> Index:
    # (built on first use: a hook process reads stored triggers and never asks)
    from xdb.engine.known.catalogue import CATALOGUE
    from xdb.engine.known.lessons import LESSONS

    docs = [(p.name, " ".join(p.said)) for p in CATALOGUE.values()]
    docs += [(name, f"{q}\n{a}") for name, q, a in LESSONS if name in CATALOGUE]
    return Index(docs)


@lru_cache(maxsize=1024)
def nearest(text: str, k: int = 1, floor: float = FLOOR) -> tuple[str, ...]:
    """The known mistakes (at most ``k``) a lesson's text resembles at ``floor`` or more."""
    return tuple(name for name, s in _catalogue_index().nearest(text, k) if s >= floor)
