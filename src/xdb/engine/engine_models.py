"""The experience engine's shapes: lessons, verdicts, and what a hook asks (seed 003;
docs/engine.md)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field

from xdb.models.common import DeferredModel, Model, NonEmpty, access_policy_field
from xdb.models.concept_markers import NoConcept

Tier = Literal["T0", "T1", "T2", "T3"]
VerdictWord = Literal["followed", "ignored", "noise", "irrelevant", "unclear"]
Reason = Literal["wrong_language", "wrong_repo", "wrong_task", "stale_rule"]
COLLECTION = {"T0": "principle", "T1": "behavioral", "T2": "qa", "T3": "raw"}


class AddLessonRequest(Model):
    """Store a lesson: what went wrong (the question a future action raises) and what to do.

    A lesson stored with a domain, language or framework is T2 (Q&A); without, T3 (raw,
    kept 30 days unless promoted). A newer lesson that contradicts an older one of the same
    scope supersedes it."""

    question: NonEmpty = Field(description="The situation: what was being done, what failed.")
    answer: NonEmpty = Field(description="What to do instead, and why.")
    domain: NonEmpty | None = Field(default=None, description="auth, data, infrastructure, ...")
    language: NonEmpty | None = Field(default=None, description="typescript, csharp, python, ...")
    framework: NonEmpty | None = Field(default=None, description="dotnet, react, django, ...")
    project: NonEmpty | None = Field(default=None, description="The project it was learned in.")
    tier: Tier | None = Field(default=None, description="Default: T2 with a scope, else T3.")
    source: Annotated[NonEmpty, NoConcept()] = Field(
        default="manual", description="manual, extracted, principle"
    )
    example_call: dict[str, Any] | None = Field(
        default=None,
        description="The tool call the mistake was made with ({tool_name, tool_input}): its"
        " command or code becomes the lesson's trigger.",
    )
    fix_call: dict[str, Any] | None = Field(
        default=None,
        description="The call that fixed it ({tool_name, tool_input}): what it adds (a flag,"
        " a guard) is the safe form, never warned.",
    )
    access_policy_id: str | None = access_policy_field()


class LessonView(DeferredModel):
    lesson_id: str
    short_id: str = Field(description="What warnings show as id:...; feedback takes either.")
    question: str
    answer: str
    tier: Tier
    collection: str = Field(description="principle, behavioral, qa or raw (the tier's name).")
    domain: str | None
    language: str | None
    framework: str | None
    project: str | None
    archived: bool
    superseded: bool
    hits: int
    follows: int
    ignores: int
    noise: dict[str, int]
    confidence: float
    lang_exclude: list[str]
    project_exclude: list[str]
    created_at: datetime


class AddLessonResponse(DeferredModel):
    lesson: LessonView
    superseded: list[str] = Field(description="Older lessons this one supersedes.")
    related: Annotated[list[str], NoConcept()] = Field(
        description="Lessons of the same failure class (relates-to)."
    )


class LessonsRequest(Model):
    """List lessons, by tier, archived ones only when asked."""

    tier: Tier | None = None
    include_archived: bool = False
    limit: int = Field(default=100, ge=1, le=10_000)


class LessonsResponse(DeferredModel):
    lessons: list[LessonView]
    total: int


class LessonRequest(Model):
    """One lesson with its edges (generalizes, relates-to, supersedes)."""

    lesson_id: NonEmpty = Field(description="Its id, or the short id a warning showed.")


class LessonEdge(DeferredModel):
    src: Annotated[str, NoConcept()]
    relation: str
    dst: Annotated[str, NoConcept()]


class LessonResponse(DeferredModel):
    lesson: LessonView
    edges: list[LessonEdge]


class FeedbackRequest(Model):
    """A verdict on a lesson's warning: followed, ignored, noise (with a reason), irrelevant
    (the judge's noise) or unclear. A manual verdict weighs twice the judge's."""

    lesson_id: NonEmpty = Field(description="Its id, or the short id a warning showed.")
    verdict: VerdictWord
    reason: Reason | None = Field(default=None, description="For noise and irrelevant.")
    language: NonEmpty | None = Field(
        default=None, description="The action's language (wrong_language excludes it)."
    )
    project: NonEmpty | None = Field(
        default=None, description="The action's project (wrong_repo excludes it)."
    )
    source: Literal["manual", "judge"] = "manual"


class FeedbackResponse(DeferredModel):
    lesson: LessonView
    changes: list[str] = Field(description="What the verdict changed, in words.")
    principle_id: str | None = Field(
        default=None, description="A T0 principle this promotion completed, if any."
    )


class CheckRequest(Model):
    """Layers 2 and 3 for one tool call: the warnings to inject, at most 3 a call and 8 a
    session, never the same twice in a session (the hooks' full path)."""

    agent: NonEmpty = Field(default="claude", description="claude, codex or gemini.")
    session_id: NonEmpty = Field(description="The agent's session.")
    tool_name: NonEmpty
    tool_input: dict[str, Any] = Field(default_factory=dict)
    cwd: str | None = Field(default=None, description="The project's directory.")
    tool_use_id: str | None = Field(
        default=None,
        description="The agent's id of the call, when it sends one (default: the call's"
        " name and input stand for it).",
    )


class Warning(DeferredModel):
    lesson_id: str
    short_id: str
    collection: str
    score: float
    text: str = Field(description="As injected: 'Last time ... [id:... col:...]'.")


class CheckResponse(DeferredModel):
    warnings: list[Warning]
    context: str | None = Field(description="The text given to the agent (null: nothing).")
    read_only: bool = Field(description="Layer 1 let the call through untouched.")


class SessionStartRequest(Model):
    """The principles (T0) and behaviours (T1) of this scope, within their token budgets
    (~400 and ~600), for the start of an agent's session."""

    agent: NonEmpty = "claude"
    session_id: NonEmpty
    cwd: str | None = None


class SessionStartResponse(DeferredModel):
    context: str | None
    lesson_ids: list[str]


class JudgeRequest(Model):
    """A tool call that ran: judge the warnings the session was shown before it (the hooks'
    post-tool-use, run by a detached worker)."""

    agent: NonEmpty = "claude"
    session_id: NonEmpty
    tool_name: NonEmpty
    tool_input: dict[str, Any] = Field(default_factory=dict)
    tool_response: Any = None
    cwd: str | None = None
    tool_use_id: str | None = Field(
        default=None, description="The agent's id of the call (as check was given it)."
    )
    only_shown: bool = Field(
        default=False,
        description="Only answer the warnings shown for this call, deciding and counting"
        " nothing (Gemini CLI's AfterTool, before the judge runs detached).",
    )


class Verdict(DeferredModel):
    lesson_id: str
    verdict: VerdictWord
    reason: Reason | None


class JudgeResponse(DeferredModel):
    verdicts: list[Verdict]
    pending: int = Field(description="Warnings still waiting for a verdict.")
    context: str | None = Field(
        default=None,
        description="The warnings shown before this call (Gemini CLI's AfterTool gives them"
        " to the model, which its BeforeTool cannot).",
    )


class ExtractRequest(Model):
    """Read a finished session's transcript (Claude Code's or Codex's JSONL, Gemini CLI's
    session file) and store what it teaches as raw (T3) lessons: retry loops, failures
    followed by a fix, corrections."""

    agent: NonEmpty = Field(default="claude", description="claude, codex or gemini (its format).")
    session_id: NonEmpty
    transcript_path: NonEmpty = Field(
        description="The transcript file, where xdb runs; over HTTP, MCP and Python, inside the"
        " data root or the agent's transcript folder (docs/policy.md)."
    )
    cwd: str | None = Field(default=None, description="The project's directory.")


class ExtractResponse(DeferredModel):
    found: int = Field(description="Lessons the rules found in the transcript.")
    lesson_ids: list[str] = Field(description="Those stored (new ones: the others were known).")


class LessonStatsRequest(Model):
    """How the lessons are doing: counts by tier, verdicts, warnings shown."""

    project: NonEmpty | None = Field(
        default=None, description="Only lessons learned in this project."
    )


class LessonStatsResponse(DeferredModel):
    total: int
    by_tier: dict[str, int] = Field(description="Live lessons (not archived) by tier.")
    archived: int
    superseded: int
    expired: int = Field(description="Raw (T3) lessons past 30 days, no longer retrieved.")
    warnings_shown: int = Field(description="Hits: warnings shown, all sessions.")
    follows: int
    ignores: int
    noise: dict[str, int] = Field(description="Noise and irrelevant verdicts by reason.")
    follow_rate: float | None = Field(
        description="follows / (follows + ignores + noise); null before any verdict."
    )
    sessions: int = Field(description="The caller's agent sessions the engine has seen.")
    pending: int = Field(description="Warnings shown in them and not yet judged.")


class TimelineRequest(Model):
    """What happened to the lessons about a topic, in order: made, shown, followed, ignored,
    promoted, demoted, superseded, generalized into a principle."""

    topic: NonEmpty | None = Field(
        default=None,
        description="Words the lessons are about (searched, with their 1-hop edges); null: all.",
    )
    limit: int = Field(default=200, ge=1, le=10_000, description="Most recent events kept.")


class TimelineEvent(DeferredModel):
    at: datetime
    lesson_id: str
    short_id: str
    event: str = Field(
        description="created, shown, followed, ignored, noise, irrelevant, unclear, changed,"
        " superseded or generalized."
    )
    detail: str | None = Field(description="The reason, the change or the session.")
    source: Annotated[str | None, NoConcept()] = Field(
        description="manual or judge, for a verdict; how a lesson was made."
    )


class TimelineResponse(DeferredModel):
    lessons: list[LessonView] = Field(description="The lessons the events are about.")
    edges: list[LessonEdge]
    events: list[TimelineEvent] = Field(description="Oldest first.")
    total: int = Field(description="Events before the limit.")
