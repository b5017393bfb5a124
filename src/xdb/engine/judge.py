"""The judge: after tool calls, whether the agent followed the warnings it was shown,
decided by the brain when one is configured (``brain.Brain.judge``) and otherwise, or when
it does not answer, by deterministic rules (docs/engine.md).

A warning is judged on the calls after the one it was shown for (that call was already
under way): a later call that does what the lesson's answer says (shares a significant word
only the answer has) is FOLLOWED; one that does again what its question warned about (shares
a word only the question has) and nothing of the answer is IGNORED; after WINDOW calls with
neither, UNCLEAR. A later call in another language than the lesson's is IRRELEVANT
(wrong_language).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdb.engine.scoring import keywords

WINDOW = 5  # calls after the warning within which it is judged


@dataclass
class Pending:
    lesson_id: str
    question: str
    answer: str
    language: str | None
    shown_at: int  # the session's call count when it was shown
    text: str = ""  # the warning as shown


def verdict(
    pending: Pending, call: int, action_text: str, action_language: str | None
) -> tuple[str, str | None] | None:
    """(verdict, reason) for a pending warning at call number ``call``, or None: not yet."""
    if call <= pending.shown_at:
        return None  # the call the warning came with was already decided
    if action_language and pending.language and action_language != pending.language:
        return "irrelevant", "wrong_language"
    said = keywords(action_text)
    fix = keywords(pending.answer) - keywords(pending.question)
    mistake = keywords(pending.question) - keywords(pending.answer)
    if fix & said:
        return "followed", None
    if mistake & said:
        return "ignored", None
    if call - pending.shown_at >= WINDOW:
        return "unclear", None
    return None
