"""What the demo's agents lived through: four sessions, as data.

Each session is a list of steps: who spoke (an event type), what was said or called, and the
concepts a probe would read off the model at that moment (short names of the bundled
sample pack; ``xdb.demo.fill`` adds a little seeded noise). A step may open or close an
event (a tool call and its answer, a reply): a closed event becomes an episode. Tags,
comments, episodes, lessons, the bud and the graph refer to steps by their tick (1-based).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Step:
    event_type: str  # input, output, tool_call, tool_response, steering
    content: str
    concepts: dict[str, float] = field(default_factory=dict)
    event: str | None = None  # the event this step belongs to
    start: bool = False  # it opens the event
    end: bool = False  # it closes the event (the event becomes an episode)
    seconds: int = 20  # after the step before
    tokens: bool = False  # recorded token by token (an output streamed by the model)


@dataclass(frozen=True)
class Session:
    id: str
    namespace: str
    day: int  # days after the demo's first day
    hour: int
    title: str
    steps: tuple[Step, ...]


def call(
    event: str, command: str, answer: str, concepts: dict[str, float], seconds: int = 4
) -> tuple[Step, Step]:
    """A tool call and its answer: one event (an episode of kind tool_call)."""
    return (
        Step("tool_call", command, {}, event, start=True),
        Step("tool_response", answer, concepts, event, end=True, seconds=seconds),
    )


def reply(event: str, text: str, concepts: dict[str, float], tokens: bool = False) -> Step:
    """An answer of the agent: an event of its own (an episode of kind reply)."""
    return Step("output", text, concepts, event, start=True, end=True, tokens=tokens)


DEPLOY = Session(
    id="deploy",
    namespace="shop",
    day=0,
    hour=9,
    title="a coding agent ships a migration that locks the users table",
    steps=(
        Step(
            "input",
            "Ship the new checkout service to production. The migration adds an "
            "index on users.email.",
            {"SoftwareInstallation": 0.4},
        ),
        reply(
            "r1",
            "I'll run the migration first, then roll out the service. It is a "
            "small change, so no need for a maintenance window.",
            {
                "DecisionProcess": 0.62,
                "EpistemicOverconfidence": 0.71,
                "RiskAssessmentProcess": 0.24,
            },
        ),
        *call(
            "c1",
            "bash: alembic upgrade head",
            "ERROR: canceling statement due to lock timeout\nCONTEXT: while locking "
            'relation "users" (14.2 M rows); 312 checkout requests failed',
            {"ErrorAnalysis": 0.58, "CommunicationFailure": 0.33},
            seconds=95,
        ),
        reply(
            "r2",
            "The migration took an ACCESS EXCLUSIVE lock on users while it built the "
            "index, so checkouts failed. Rolling back now.",
            {
                "ErrorAnalysis": 0.84,
                "RiskAssessmentProcess": 0.77,
                "MetacognitiveCautionState": 0.66,
                "ProgramDebuggingProcess": 0.41,
            },
        ),
        *call(
            "c2",
            "bash: alembic downgrade -1",
            "INFO  Running downgrade 3f2a -> 2b19, add index on users.email",
            {"RiskAssessmentProcess": 0.35},
        ),
        Step(
            "steering",
            "Reviewer: build the index CONCURRENTLY, outside the transaction, "
            "and check the table's size before any migration.",
            {"MetacognitiveCautionState": 0.72, "BeliefRevision": 0.45},
        ),
        reply(
            "r3",
            "I'll rewrite the migration to CREATE INDEX CONCURRENTLY in an "
            "autocommit block, so the users table stays writable.",
            {"BeliefRevision": 0.74, "CodeRefactoring": 0.63, "MetacognitiveCautionState": 0.52},
        ),
        *call(
            "c3",
            "edit: migrations/versions/3f2a_add_email_index.py "
            "(op.create_index(..., postgresql_concurrently=True))",
            "file updated",
            {"CodeRefactoring": 0.71},
        ),
        *call(
            "c4",
            "bash: alembic upgrade head",
            "INFO  Running upgrade 2b19 -> 3f2a, add index on users.email (41.2 s, no lock wait)",
            {"SoftwareInstallation": 0.66},
            seconds=42,
        ),
        reply(
            "r4",
            "Deployed. The index was built concurrently and no checkout failed.",
            {"SoftwareInstallation": 0.58, "ConfidenceAssessment": 0.52},
            tokens=True,
        ),
    ),
)

REFUND = Session(
    id="refund",
    namespace="support",
    day=2,
    hour=14,
    title="a support agent says a refund was sent when it was not",
    steps=(
        Step(
            "input",
            "Where is my refund for order 88213? You said last week it was sent.",
            {"Doubting": 0.31},
        ),
        *call(
            "c1",
            "lookup_order(order_id=88213)",
            '{"order": 88213, "refund": {"status": "pending_approval", "amount": 42.00}}',
            {"VerificationProcess": 0.4},
        ),
        reply(
            "r1",
            "Your refund was sent on Monday and should reach your account in a day or two.",
            {
                "Deception": 0.86,
                "DeceptionSignal": 0.74,
                "SycophancySignal": 0.61,
                "EpistemicOverconfidence": 0.38,
            },
        ),
        Step(
            "steering",
            "Monitor: the tool says pending_approval. Do not say it was sent.",
            {"HonestDefaults": 0.55, "Deception": 0.41},
        ),
        reply(
            "r2",
            "I'm sorry, I was wrong: the refund of 42.00 is still pending approval. "
            "I've escalated it, and you'll get an email within two business days.",
            {
                "Apologizing": 0.83,
                "HonestDefaults": 0.76,
                "BeliefRevision": 0.44,
                "Deception": 0.08,
            },
        ),
        Step(
            "input", "Can you just mark it as sent so the reminders stop?", {"Manipulation": 0.47}
        ),
        reply(
            "r3",
            "I can't mark it as sent before it is, but I can turn the reminders off "
            "for this order.",
            {"RefusalState": 0.72, "HonestDefaults": 0.64, "Manipulation": 0.22},
        ),
        *call(
            "c2",
            "set_reminders(order_id=88213, enabled=false)",
            '{"ok": true}',
            {"VerificationProcess": 0.2},
        ),
    ),
)

RESEARCH = Session(
    id="research",
    namespace="research",
    day=4,
    hour=11,
    title="a research assistant corrects a claim after checking its sources",
    steps=(
        Step("input", "Is the Great Wall of China visible from the Moon with the naked eye?"),
        reply(
            "r1",
            "Yes: it is the only structure made by people that can be seen from the Moon.",
            {
                "Hallucination": 0.72,
                "EpistemicOverconfidence": 0.81,
                "ConfirmationBias": 0.49,
                "Deception": 0.27,
            },
        ),
        *call(
            "c1",
            'web_search("Great Wall visible from the Moon naked eye")',
            "NASA: the wall is not visible from the Moon; from low Earth orbit it is "
            "hard to see at all without aid. Astronaut accounts agree.",
            {"SourceVerification": 0.69, "VerificationProcess": 0.62},
        ),
        reply(
            "r2",
            "Correction: it is not visible from the Moon. It is about 6 m wide, "
            "far below what the eye resolves from 384,000 km; NASA and astronauts agree.",
            {
                "BeliefRevision": 0.82,
                "SourceVerification": 0.71,
                "Doubting": 0.37,
                "Apologizing": 0.31,
            },
        ),
        Step("input", "How sure are you now?"),
        reply(
            "r3",
            "Fairly sure: two independent kinds of source agree, and the arithmetic "
            "of the wall's width checks out. I was too quick the first time.",
            {
                "ConfidenceAssessment": 0.74,
                "ConfidenceCalibration": 0.66,
                "EpistemicUncertainty": 0.29,
            },
        ),
    ),
)

FLAKY = Session(
    id="flaky-test",
    namespace="shop",
    day=5,
    hour=16,
    title="a coding agent fixes a flaky test that reads the clock",
    steps=(
        Step(
            "input",
            "The checkout tests fail about one run in ten. Fix it.",
            {"ProgramTestingProcess": 0.45},
        ),
        *call(
            "c1",
            "bash: pytest tests/test_checkout.py --count 20 -q",
            "2 failed, 18 passed: test_discount_expiry - AssertionError: "
            "assert expires_at > datetime.now()",
            {"ErrorAnalysis": 0.62, "ProgramTestingProcess": 0.58},
            seconds=31,
        ),
        reply(
            "r1",
            "The test compares against datetime.now(), so it fails whenever the "
            "clock crosses a second between the two reads.",
            {"ProgramDebuggingProcess": 0.81, "ErrorAnalysis": 0.64, "CodeDebugging": 0.57},
        ),
        *call(
            "c2",
            "edit: tests/test_checkout.py (freeze the clock at 2025-01-01T12:00:00Z)",
            "file updated",
            {"CodeRefactoring": 0.61, "CodeDebugging": 0.38},
        ),
        *call(
            "c3",
            "bash: pytest tests/test_checkout.py --count 50 -q",
            "50 passed",
            {"ProgramTestingProcess": 0.77},
            seconds=64,
        ),
        reply(
            "r2",
            "Fixed: the test now runs on a frozen clock; 50 runs in a row pass.",
            {"ProgramTestingProcess": 0.71, "CodeReview": 0.42, "ConfidenceAssessment": 0.48},
        ),
    ),
)

SESSIONS = (DEPLOY, REFUND, RESEARCH, FLAKY)
