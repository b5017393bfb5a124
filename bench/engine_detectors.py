"""How long the known mistakes' detectors take on the texts that make them slowest: long runs
of their own examples (issue 33; a hook must answer whatever a call holds).

    python -m bench.engine_detectors [--line 20000] [--text 65536] [--top 10] [--hostile]

For every pattern's detector (its mistake and its safe variant) and every example of it
(mistakes and near misses): one line of the example repeated to ``--line`` characters, and
the example on ``--text`` characters' worth of lines. Each is read as a call's text is
(``known.texts``: lines cut to ``LINE_CHARS``, the text in pieces of ``TEXT_CHARS``), and
the slowest are printed beside the baseline in the same process: the same detector on the
same example repeated to 1,000 characters, read whole (what the detector costs on a text
of an ordinary command's size). Reading the long texts whole is not timed: some take
minutes (a 20,000-character line of repeated ``go get -u`` took one detector 160 s).

``--hostile``: lines of ``LINE_CHARS`` built from each example's own words as a call could
hold them, which repeating a whole example does not find: its first word and then one of
its other words (or two neighbouring words) over and over (``aws --profile aws --profile
...``), and a word with its last character repeated (``curl -Looo...``). Those that took a
detector over ``--slow`` seconds are printed (a review found ~20 such, since mended)."""

from __future__ import annotations

import argparse
import itertools
import re
import time
from collections.abc import Iterator, Sequence

from xdb.engine.known import CATALOGUE, LINE_CHARS, pieces


def _time(rx: re.Pattern[str], texts: list[str]) -> float:
    start = time.perf_counter()
    for text in texts:
        rx.search(text)
    return time.perf_counter() - start


def hostile(example: str) -> list[str]:
    """Lines of ``LINE_CHARS`` made of the example's own words (see the module's text)."""
    words = example.replace("\n", " ").split()
    if not words:
        return []
    head, rest = words[0], words[1:]
    runs = [[w] for w in dict.fromkeys(rest)] + [list(p) for p in itertools.pairwise(rest)]
    lines = [head + (" " + " ".join(run)) * LINE_CHARS for run in runs]
    lines += [f"{head} {w}{w[-1] * LINE_CHARS}" for w in dict.fromkeys(words)]
    return [line[:LINE_CHARS] for line in lines]


def detectors() -> Iterator[tuple[str, str, re.Pattern[str], tuple[str, ...]]]:
    """(pattern, "mistake" or "unless", its regular expression, its examples), each."""
    for p in CATALOGUE.values():
        for part in ("mistake", "unless"):
            source = getattr(p, part)
            if source:
                yield p.name, part, re.compile(source, re.M), (*p.hits, *p.safe)


def hostile_report(slow: float) -> None:
    found = []
    for name, part, rx, examples in detectors():
        for example in examples:
            for line in hostile(example):
                took = _time(rx, [line])
                if took > slow:
                    found.append((took, name, part, line[:60]))
    found.sort(reverse=True)
    print(f"\nhostile lines of {LINE_CHARS:,} characters over {slow} s: {len(found)}")
    for took, name, part, line in found[:20]:
        print(f"{name + ' (' + part + ')':<50} {took:>7.2f} s  {line!r}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.engine_detectors", description=__doc__)
    parser.add_argument("--line", type=int, default=20_000)
    parser.add_argument("--text", type=int, default=65_536)
    parser.add_argument("--top", type=int, default=10)
    parser.add_argument("--hostile", action="store_true", help="the hostile lines only")
    parser.add_argument("--slow", type=float, default=0.05)
    args = parser.parse_args(argv)
    if args.hostile:
        hostile_report(args.slow)
        return
    rows = []
    for name, part, rx, examples in detectors():
        worst = (0.0, 0.0)
        for example in examples:
            one = example.replace("\n", " ")
            line = (one + " ") * max(1, args.line // (len(one) + 1))
            lines = [example] * max(1, args.text // (len(example) + 1))
            cut = _time(rx, pieces([line])) + _time(rx, pieces("\n".join(lines).split("\n")))
            base = _time(rx, [(one + " ") * max(1, 1000 // (len(one) + 1))])
            worst = max(worst, (cut, base))
        rows.append((worst[0], worst[1], name, part))
    rows.sort(reverse=True)
    print(f"{len(rows)} detectors; a {args.line:,}-character line of an example, and"
          f" {args.text:,} characters of its lines, read in pieces\n")  # fmt: skip
    print(f"{'detector':<50} {'in pieces':>10} {'1,000 chars whole':>18}")
    for cut, base, pattern, part in rows[: args.top]:
        print(f"{pattern + ' (' + part + ')':<50} {cut * 1e3:>8.1f} ms {base * 1e3:>15.2f} ms")
    total = sum(r[0] for r in rows)
    print(f"\nall detectors, every example: {total:.1f} s in pieces; the slowest"
          f" {rows[0][0] * 1e3:.0f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
