"""``engine.extract``: lessons from a finished session's transcript (``engine/extract.py``),
stored as raw (T3) lessons with the project's domain, language, framework and project tags,
and the calls each was learned from (metadata ``learned_from``), unless the same lesson is
stored already (the same failure's signature; for older lessons, the same question)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from xdb.engine import extract as rules
from xdb.engine import scoring
from xdb.engine.engine_models import AddLessonRequest, ExtractRequest, ExtractResponse
from xdb.engine.lesson_operations import SAME_QUESTION, _jaccard, _load, _search, add_lesson
from xdb.errors import InvalidRequest
from xdb.ops.registry import Context, Operation
from xdb.paths import place, root_of

# Where each agent writes its session transcripts (its Stop hook names one of them).
# (the variable that moves its folder, if any; the folder in the home; the transcripts')
TRANSCRIPTS: dict[str, tuple[str | None, str, str]] = {
    "claude": ("CLAUDE_CONFIG_DIR", ".claude", "projects"),
    "codex": ("CODEX_HOME", ".codex", "sessions"),
    "gemini": (None, ".gemini", "tmp"),
}


def transcript_home(agent: str) -> Path:
    """The folder ``agent`` keeps its transcripts in, on this machine: besides the data
    root, the one place ``engine.extract`` reads for any caller but the terminal."""
    variable, folder, inner = TRANSCRIPTS[agent]
    base = os.environ.get(variable) if variable else None
    return Path(base).expanduser() / inner if base else Path.home() / folder / inner


READERS = {"claude": rules.claude_steps, "codex": rules.codex_steps, "gemini": rules.gemini_steps}
MAX_BYTES = 64 * 1024 * 1024


def extract(ctx: Context, req: ExtractRequest) -> ExtractResponse:
    reader = READERS.get(req.agent)
    if reader is None:
        raise InvalidRequest(
            f"agent {req.agent!r}: transcripts are read for {', '.join(READERS)}", field="agent"
        )
    # The data root, or the folder where the agent keeps its transcripts (xdb.paths).
    home = transcript_home(req.agent)
    path = place(root_of(ctx.settings), "transcript_path", req.transcript_path, also=[home])
    try:
        if path.stat().st_size > MAX_BYTES:
            raise InvalidRequest(f"transcript_path: {path} is over 64 MiB", field="transcript_path")
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as exc:
        raise InvalidRequest(f"transcript_path: cannot read {path} ({exc.strerror})",
                             field="transcript_path") from None  # fmt: skip
    found = rules.lessons(reader(lines))
    project = os.path.basename(req.cwd.rstrip("/")) if req.cwd else None
    stored = []
    for lesson in found:
        known = _load(ctx, [i for i, _ in _search(ctx, lesson.question, 5)])
        if any(_known(lesson, e.metadata) for e, _ in known.values()):
            continue
        text = f"{lesson.question} {lesson.answer}"
        made = add_lesson(
            ctx,
            AddLessonRequest(
                question=lesson.question,
                answer=lesson.answer,
                domain=scoring.domain_of(text),
                language=scoring.action_language(text, None),
                framework=scoring.framework_of(text),
                project=project,
                tier="T3",
                source=f"extracted:{lesson.rule}",
            ),
            learned_from={**lesson.learned_from, "signature": lesson.signature},
        )
        stored.append(made.lesson.lesson_id)
    return ExtractResponse(found=len(found), lesson_ids=stored)


def _known(lesson: rules.Found, stored: dict[str, Any]) -> bool:
    """Whether a stored lesson is this one: the same failure (signature) when both were
    extracted with one; else the same question in words. Two failures that share only
    generic error text ("Exit code 1") have different signatures and are both kept."""
    learned = stored.get("learned_from")
    theirs = learned.get("signature") if isinstance(learned, dict) else None
    if theirs and lesson.signature:
        return bool(theirs == lesson.signature)
    return _jaccard(lesson.question, str(stored.get("question"))) >= SAME_QUESTION


OPERATIONS: tuple[Operation[Any, Any], ...] = (
    Operation(
        name="extract",
        group="engine",
        request=ExtractRequest,
        response=ExtractResponse,
        handler=extract,
        readonly=False,
        summary="Raw lessons from a finished session's transcript (retries, fixes, corrections).",
        example="xdb extract --session-id s1 --transcript-path session.jsonl",
    ),
)
