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


def test_a_large_files_safe_marker_counts_from_any_piece() -> None:
    # A test module's marker (import pytest) clears a fixture's password anywhere in it.
    fixtures = [f"def fixture_{i}():\n    return {{'id': {i}}}" for i in range(1500)]
    body = "import pytest\n" + "\n".join(fixtures) + '\nDB_PASSWORD = "hunter2secret"\n'
    assert len(body) > 2 * TEXT_CHARS
    secret = frozenset({"py-hardcoded-secret"})
    call = parse_call("Write", {"file_path": "/w/app/tests/conftest.py", "content": body})
    assert verdict(secret, call) != HIT
    plain = body.replace("import pytest\n", "import json\n")
    call = parse_call("Write", {"file_path": "/w/app/settings.py", "content": plain})
    assert verdict(secret, call) == HIT


def test_a_whole_text_guard_must_hold_in_each_piece() -> None:
    # "Every requests call has a timeout" is a claim about the whole file: one call without
    # it, in a later piece, is the mistake though the first piece's calls all have one.
    guarded = [f"r{i} = requests.get(URL_{i}, timeout=5)" for i in range(1200)]
    body = "\n".join(guarded) + "\nlast = requests.get(URL_LAST)\n"
    assert len(body) > 2 * TEXT_CHARS
    call = parse_call("Write", {"file_path": "/w/app/fetch.py", "content": body})
    assert verdict(frozenset({"py-requests-no-timeout"}), call) == HIT
    fixed = body.replace("requests.get(URL_LAST)", "requests.get(URL_LAST, timeout=5)")
    call = parse_call("Write", {"file_path": "/w/app/fetch.py", "content": fixed})
    assert verdict(frozenset({"py-requests-no-timeout"}), call) != HIT
