"""How well ``known.similar`` guesses the known mistake of a lesson whose words name none,
and the floor it takes (issue 33):

    python -m bench.engine_naming

The blind lessons (``xdb.engine.known.lessons``: written from a pattern's name and examples
by helpers who had not read its phrases) were written after the first 498 patterns' phrases
and before those phrases were widened to them. ``bench/data/phrases_before_wave2.json``
keeps the phrases as they were then, so the bench can ask what a new writer's words meet:
the phrases as written before, and other writers' lessons.

For each blind lesson that the phrases before the widening name nothing in (by
``named_in``'s rule), its nearest pattern is asked of an index of those phrases and every
other blind lesson (the lesson itself left out):

- **right**: a lesson about one of the 498 patterns whose nearest is that pattern, at the
  floor or above;
- **wrong**: one whose nearest is another pattern, at the floor or above;
- **other mistakes named**: a lesson about a mistake none of the 498 is (a pattern of the
  second wave, or "") given a pattern at the floor or above.

The floor chosen is the one with the most right guesses less wrong ones and other mistakes
named: each wrong name costs what a right one gains (a resembled pattern only finds its own
mistake, so a wrong one mostly stays silent, and sometimes warns on the wrong thing).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from pathlib import Path

from xdb.engine.known import CATALOGUE, _roots
from xdb.engine.known.lessons import LESSONS
from xdb.engine.known.similar import CALL_FLOOR, CALL_NEAREST, FLOOR, Index

BEFORE = Path(__file__).parent / "data" / "phrases_before_wave2.json"

FLOORS = (0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)


def left_out_guesses(k: int = 1) -> list[tuple[str, list[tuple[str, float]]]]:
    """(the lesson's pattern of the 498, or "", its ``k`` nearest patterns with their
    cosines) per blind lesson the phrases before the widening name nothing in."""
    before: dict[str, list[str]] = json.loads(BEFORE.read_text())
    phrases = [(name, _roots(p)) for name, said in before.items() for p in said]
    docs = [(name, " ".join(said)) for name, said in before.items()]
    first = len(docs)
    docs += [(name if name in before else "", f"{q}\n{a}") for name, q, a in LESSONS]
    index = Index(docs)
    out = []
    for i, (name, text) in enumerate(docs[first:], first):
        roots = _roots(text)
        if any(p and p <= roots for _, p in phrases):
            continue  # named by a phrase: no guess is asked
        near = [(n, s) for n, s in index.nearest(text, k + 2, frozenset((i,))) if n]
        out.append((name, near[:k]))
    return out


Guesses = list[tuple[str, list[tuple[str, float]]]]
Tally = Callable[[Guesses, float], tuple[int, int, int]]


def tally(guesses: Guesses, floor: float) -> tuple[int, int, int]:
    """Right, wrong, other mistakes named: the nearest pattern alone."""
    top = [(n, near[0] if near else ("", 0.0)) for n, near in guesses]
    right = sum(1 for n, (g, s) in top if n and s >= floor and g == n)
    wrong = sum(1 for n, (g, s) in top if n and s >= floor and g != n)
    other = sum(1 for n, (g, s) in top if not n and s >= floor)
    return right, wrong, other


def tally_on_call(guesses: Guesses, floor: float) -> tuple[int, int, int]:
    """Right, wrong (and no other mistakes: these lessons have no call) of a lesson learned
    on a call: of its nearest patterns at the floor, those whose detector finds the mistake
    in that call (here the lesson's pattern's first example)."""
    right = wrong = 0
    for n, near in guesses:
        kept = [g for g, s in near if s >= floor]
        call = CATALOGUE[n].hits[0] if n in CATALOGUE else ""
        found = [g for g in kept if g in CATALOGUE and CATALOGUE[g].judge(call) == "hit"]
        right += n in found
        wrong += any(g != n for g in found)
    return right, wrong, 0


def _table(title: str, guesses: Guesses, count: Tally) -> float:
    about = sum(1 for n, _ in guesses if n)
    others = len(guesses) - about
    print(title)
    print(f"{'floor':>6} {'right':>12} {'wrong':>12} {'others named':>14} {'score':>6}")

    def score(floor: float) -> int:
        right, wrong, other = count(guesses, floor)
        return right - wrong - other

    best = max(FLOORS, key=score)
    for floor in FLOORS:
        right, wrong, other = count(guesses, floor)
        mark = "  <- chosen" if floor == best else ""
        print(f"{floor:>6} {right:>5}/{about} {right / about:.2f} {wrong:>5}/{about} "
              f"{wrong / about:.2f} {other:>5}/{others} {other / max(others, 1):.2f}"
              f" {right - wrong - other:>6}{mark}")  # fmt: skip
    return best


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.engine_naming", description=__doc__)
    parser.parse_args(argv)
    guesses = left_out_guesses(CALL_NEAREST)
    about = sum(1 for n, _ in guesses if n)
    print(f"{len(guesses)} blind lessons the phrases before the widening name nothing in"
          f" ({about} about one of their patterns, {len(guesses) - about} about other"
          " mistakes)\n")  # fmt: skip
    best = _table("told in words only (the nearest pattern):", guesses, tally)
    print(f"chosen floor {best}; similar.FLOOR is {FLOOR}\n")
    on_call = [(n, near) for n, near in guesses if n]
    best_call = _table(
        f"learned on a call (of the {CALL_NEAREST} nearest at the floor, those whose detector"
        " finds the mistake in the call; lessons of other mistakes have no call here):",
        on_call, tally_on_call,
    )  # fmt: skip
    print(f"chosen floor {best_call}; similar.CALL_FLOOR is {CALL_FLOOR}")


if __name__ == "__main__":
    main()
