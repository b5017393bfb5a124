"""Find concepts by name, alias and definition, typo-tolerant, in memory.

A pack is small (first-light: 7,947 concepts, 16k aliases), so each process keeps an index
of every loaded concept's names and definition words, rebuilt when the set of packs changes.
Names are compared normalised: camel case split, ``_`` and ``-`` as spaces, lower case
(``AIStrategicDeception`` -> ``ai strategic deception``).

Scores (a concept takes its best):
  1.0   the name, exactly (0.98 written without its spaces)
  0.8-0.9  a name or alias starting with the query (longer query, closer to 0.9)
  0.7-0.8  a name or alias holding every word of the query
  0.5-0.78 a near spelling (rapidfuzz ratio >= 75), name or alias
  up to 0.45  definition words (idf-weighted share of the query's words)
An alias scores 0.03 below the same match on a name. Ties: shallower layer, then name.
"""

from __future__ import annotations

import bisect
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "for",
        "from",
        "has",
        "in",
        "is",
        "it",
        "of",
        "on",
        "or",
        "that",
        "the",
        "to",
        "was",
        "were",
        "with",
    ]
)
FUZZY_CUTOFF = 75.0


def normalize(text: str) -> str:
    return " ".join(_WORD.findall(_CAMEL.sub(" ", text).lower()))


@dataclass(frozen=True)
class Entry:
    id: str
    spec_id: str
    term: str
    layer: int
    definition: str


@dataclass(frozen=True)
class Found:
    entry: Entry
    score: float
    matched: str  # name | alias | definition


class ConceptFinder:
    def __init__(self, rows: Iterable[tuple[str, str, str, int, list[str], str]]) -> None:
        self.entries: list[Entry] = []
        owners: dict[str, list[tuple[int, bool]]] = {}  # normalised name -> (entry, is alias)
        words: dict[str, set[int]] = {}
        for i, (cid, spec, term, layer, aliases, definition) in enumerate(rows):
            self.entries.append(Entry(cid, spec, term, layer, definition))
            for text, alias in [(term, False), *((a, True) for a in aliases)]:
                key = normalize(text)
                if key:
                    owners.setdefault(key, []).append((i, alias))
            for w in set(_WORD.findall(definition.lower())) - _STOP:
                words.setdefault(w, set()).add(i)
        self._names = sorted(owners)
        self._owners = [owners[k] for k in self._names]
        self._index = {k: n for n, k in enumerate(self._names)}
        self._compact = {k.replace(" ", ""): n for n, k in enumerate(self._names)}
        self._name_words: dict[str, list[int]] = {}
        for n, k in enumerate(self._names):
            for w in set(k.split()):
                self._name_words.setdefault(w, []).append(n)
        self._words = words
        # Names by length: a ratio of 75 needs lengths within a factor of 0.6, so the fuzzy
        # pass scores one contiguous slice of this list instead of every name.
        self._by_length = sorted(range(len(self._names)), key=lambda n: len(self._names[n]))
        self._lengths = [len(self._names[n]) for n in self._by_length]
        self._length_sorted = [self._names[n] for n in self._by_length]
        self._idf = {w: math.log(1 + len(self.entries) / len(s)) for w, s in words.items()}

    def find(
        self,
        query: str,
        limit: int,
        spec_ids: set[str] | None = None,
        keep: Callable[[str], bool] | None = None,
    ) -> list[Found]:
        """The best ``limit`` concepts for ``query``; ``keep``: which concept ids may be
        found at all (a caller's disclosure policy), asked before anything is counted."""
        q = normalize(query)
        if not q:
            return []
        best: dict[int, tuple[float, str]] = {}
        allowed: dict[int, bool] = {}

        def offer(name_index: int, score: float) -> None:
            for entry, alias in self._owners[name_index]:
                if keep is not None:
                    ok = allowed.get(entry)
                    if ok is None:
                        ok = allowed[entry] = keep(self.entries[entry].id)
                    if not ok:
                        continue
                s = score - 0.03 if alias else score
                what = "alias" if alias else "name"
                if s > best.get(entry, (-1.0, ""))[0]:
                    best[entry] = (s, what)

        exact = self._index.get(q, self._compact.get(q.replace(" ", "")))
        if exact is not None:
            offer(exact, 1.0 if exact == self._index.get(q) else 0.98)
        start = bisect.bisect_left(self._names, q)
        for n in range(start, min(start + 200, len(self._names))):
            name = self._names[n]
            if not name.startswith(q):
                break
            if n != exact:
                offer(n, 0.8 + 0.1 * len(q) / len(name))
        qwords = q.split()
        holders = [set(self._name_words.get(w, ())) for w in qwords]
        if holders and all(holders):
            for n in sorted(set.intersection(*holders))[:500]:
                if n != exact:
                    size = len(self._names[n])
                    offer(n, 0.7 + 0.1 * min(len(q), size) / max(len(q), size))
        # A near spelling scores at most 0.78: skip the pass when enough scored above that.
        if len(q) >= 3 and sum(1 for s, _ in best.values() if s > 0.78) < limit:
            # With a keep, every near name is read: a top few could all be hidden ones.
            self._near(q, None if keep is not None else limit * 3, offer)
        self._definitions(qwords, best)
        if keep is not None:  # definition matches were not offered through ``offer``
            best = {e: v for e, v in best.items() if allowed.get(e) or keep(self.entries[e].id)}
        ranked = sorted(
            (
                (score, e, what)
                for e, (score, what) in best.items()
                if spec_ids is None or self.entries[e].spec_id in spec_ids
            ),
            key=lambda t: (-t[0], self.entries[t[1]].layer, self.entries[t[1]].term, t[1]),
        )
        return [Found(self.entries[e], round(s, 4), what) for s, e, what in ranked[:limit]]

    def _near(self, q: str, limit: int | None, offer: Callable[[int, float], None]) -> None:
        factor = FUZZY_CUTOFF / (200 - FUZZY_CUTOFF)  # ratio >= cutoff bounds the lengths
        lo = bisect.bisect_left(self._lengths, math.floor(len(q) * factor))
        hi = bisect.bisect_right(self._lengths, math.ceil(len(q) / factor))
        near = process.extract(
            q,
            self._length_sorted[lo:hi],
            scorer=fuzz.ratio,
            limit=limit,
            score_cutoff=FUZZY_CUTOFF,
        )
        for _, ratio, at in near:
            offer(
                self._by_length[lo + at],
                0.5 + 0.28 * (ratio - FUZZY_CUTOFF) / (100 - FUZZY_CUTOFF),
            )

    def _definitions(self, qwords: Sequence[str], best: dict[int, tuple[float, str]]) -> None:
        wanted = [w for w in qwords if w not in _STOP and w in self._words]
        total = sum(self._idf.get(w, 0.0) for w in qwords if w not in _STOP)
        if not wanted or total <= 0:
            return
        gained: dict[int, float] = {}
        for w in wanted:
            if len(self._words[w]) > 2000:  # too common to say anything
                continue
            for e in self._words[w]:
                gained[e] = gained.get(e, 0.0) + self._idf[w]
        for e, g in gained.items():
            score = 0.45 * g / total
            if score > best.get(e, (-1.0, ""))[0]:
                best[e] = (score, "definition")
