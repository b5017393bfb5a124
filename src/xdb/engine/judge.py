"""The judge: after tool calls, whether the agent followed the warnings it was shown,
decided by the brain when one is configured (``brain.Brain.judge``) and otherwise, or when
it does not answer, by deterministic rules (docs/engine.md).

A warning is judged on the calls after the one it was shown for (that call was already
under way): a later call that does what the lesson's answer says (shares a significant word
only the answer has) is FOLLOWED; one that does again what its question warned about (a word
only the question has, and as much of the question as the deterministic filter asks,
``scoring.evidence``) and nothing of the answer is IGNORED; after WINDOW calls with
neither, UNCLEAR. A later call in another language than the lesson's makes it IRRELEVANT
(wrong_language) when the call it was shown for had no language of its own (a shell command
naming no file); after a call in the lesson's language it is about something else and
decides nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdb.engine.scoring import MIN_EVIDENCE, evidence, keywords

WINDOW = 5  # calls after the warning within which it is judged


@dataclass
class Pending:
    lesson_id: str
    question: str
    answer: str
    language: str | None
    shown_at: int  # the session's call count when it was shown
    text: str = ""  # the warning as shown
    shown_on_language: str | None = None  # the language of the call it was shown for


def verdict(
    pending: Pending, call: int, action_text: str, action_language: str | None
) -> tuple[str, str | None] | None:
    """(verdict, reason) for a pending warning at call number ``call``, or None: not yet."""
    if call <= pending.shown_at:
        return None  # the call the warning came with was already decided
    if action_language and pending.language and action_language != pending.language:
        if pending.shown_on_language is None:  # shown on a call of no known language, and
            return "irrelevant", "wrong_language"  # the work turned out to be in another
        # Shown on a call in its own language: one in another is about something else.
        return ("unclear", None) if call - pending.shown_at >= WINDOW else None
    said = keywords(action_text)
    fix = keywords(pending.answer) - keywords(pending.question)
    mistake = keywords(pending.question) - keywords(pending.answer)
    if fix & said:
        return "followed", None
    if mistake & said and evidence(pending.question, action_text) >= MIN_EVIDENCE:
        return "ignored", None
    if call - pending.shown_at >= WINDOW:
        return "unclear", None
    return None
