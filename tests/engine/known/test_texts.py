"""What of a call a detector reads: every line, in pieces of bounded size (a detector's
time on a long run of its own words grows faster than the text), so a mistake far into a
large file is still found."""

from __future__ import annotations

from xdb.engine.calls import parse_call
from xdb.engine.known import HIT, LINE_CHARS, TEXT_CHARS, pieces, verdict

PUSH = frozenset({"git-force-push"})


def test_pieces_keep_every_line_in_order_and_bound_their_size() -> None:
    lines = [f"echo line {i} " + "x" * (i % 300) for i in range(2_000)] + ["y" * 50_000]
    made = pieces(lines)
    assert len(made) > 1
    assert all(len(text) <= TEXT_CHARS for text in made)
    back = [line for text in made for line in text.split("\n")]
    assert back == [line[:LINE_CHARS] for line in lines]


def test_a_mistake_deep_in_a_large_script_is_found() -> None:
    script = "\n".join([f"echo step {i}: building the {i}th target" for i in range(3_000)])
    tail = script + "\ngit push --force origin main\n"
    assert len(tail) > 4 * TEXT_CHARS
    call = parse_call("Write", {"file_path": "/w/ops/release.sh", "content": tail})
    assert verdict(PUSH, call) == HIT
    safe = parse_call("Write", {"file_path": "/w/ops/release.sh", "content": script})
    assert verdict(PUSH, safe) != HIT


def test_a_long_command_line_is_read_up_to_its_cut() -> None:
    noise = " --label=" + "a" * (2 * LINE_CHARS)
    assert verdict(PUSH, parse_call("Bash", {"command": "git push -f origin main" + noise})) == HIT
    late = parse_call("Bash", {"command": "echo" + noise + " && git push -f origin main"})
    assert verdict(PUSH, late) != HIT  # past the cut: unseen (docs/engine.md, "Known limits")
