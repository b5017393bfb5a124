"""Layer 2's factors one at a time, its gates, and the deterministic filter's evidence."""

from __future__ import annotations

import math

import pytest

from xdb.engine import scoring
from xdb.engine.scoring import Action, Lesson, code_words, deterministic_filter, evidence, score

NOW = 1_000 * scoring.DAY_US
BASE = Lesson(id="l", question="q", answer="a", last_signal_us=NOW)
ACTION = Action(tool="Edit", text="x")


def factor(lesson: Lesson, action: Action = ACTION, now: int = NOW) -> float:
    """The lesson's score relative to the neutral lesson's (relevance 1)."""
    got, neutral = score(lesson, action, 1.0, now), score(BASE, ACTION, 1.0, NOW)
    assert got is not None and neutral is not None
    return got / neutral


def test_the_neutral_lesson_scores_its_relevance() -> None:
    assert score(BASE, ACTION, 1.0, NOW) == pytest.approx(1.0)
    assert score(BASE, ACTION, 0.4, NOW) == pytest.approx(0.4)


def test_hits_grow_logarithmically() -> None:
    assert factor(Lesson(**{**BASE.__dict__, "hits": 9})) == pytest.approx(
        1 + scoring.HIT_WEIGHT * math.log(10)
    )


def test_recency_decays_to_its_floor() -> None:
    month = factor(BASE, now=NOW + 30 * scoring.DAY_US)
    assert month < 1 and factor(BASE, now=NOW + 3_000 * scoring.DAY_US) == pytest.approx(
        scoring.RECENCY_FLOOR, abs=1e-6
    )


def test_confidence_ages_toward_neutral() -> None:
    sure = Lesson(**{**BASE.__dict__, "confidence": 1.0})
    assert factor(sure) == pytest.approx(2.0)
    later = NOW + 3_000 * scoring.DAY_US
    aged = score(sure, ACTION, 1.0, later)
    assert aged == pytest.approx(score(BASE, ACTION, 1.0, later), rel=1e-6)


@pytest.mark.parametrize(
    ("lesson_domain", "action_domain", "expected"),
    [("data", "data", scoring.DOMAIN_MATCH), ("data", "auth", scoring.DOMAIN_MISMATCH),
     ("data", None, 1.0), (None, "auth", 1.0)],
)  # fmt: skip
def test_domain(lesson_domain: str | None, action_domain: str | None, expected: float) -> None:
    lesson = Lesson(**{**BASE.__dict__, "domain": lesson_domain})
    assert factor(lesson, Action(tool="Edit", text="x", domain=action_domain)) == expected


@pytest.mark.parametrize("tier", ["T0", "T1", "T2", "T3"])
def test_tier(tier: str) -> None:
    assert factor(Lesson(**{**BASE.__dict__, "tier": tier})) == scoring.TIER_WEIGHT[tier]


def test_superseded_and_other_project() -> None:
    assert factor(Lesson(**{**BASE.__dict__, "superseded": True})) == scoring.SUPERSEDED
    theirs = Lesson(**{**BASE.__dict__, "project": "billing"})
    assert factor(theirs, Action(tool="Edit", text="x", project="shop")) == scoring.OTHER_PROJECT
    assert factor(theirs, Action(tool="Edit", text="x", project="billing")) == 1.0


@pytest.mark.parametrize(
    ("lesson_language", "path", "passes"),
    [("typescript", "a.ts", True), ("javascript", "a.ts", False), ("csharp", "a.ts", False),
     ("typescript", "a.js", True), ("javascript", "a.js", True), ("csharp", "Startup.cs", True),
     ("python", "Startup.cs", False), (None, "a.ts", True), ("python", None, True)],
)  # fmt: skip
def test_the_language_gate(lesson_language: str | None, path: str | None, passes: bool) -> None:
    lesson = Lesson(**{**BASE.__dict__, "language": lesson_language})
    action = Action(tool="Edit", text="x", language=scoring.language_of(path))
    assert (score(lesson, action, 1.0, NOW) is not None) is passes


def test_exclusions_and_archive_gate() -> None:
    action = Action(tool="Edit", text="x", language="go", project="shop")
    for change in ({"lang_exclude": ["go"]}, {"project_exclude": ["shop"]}, {"archived": True}):
        assert score(Lesson(**{**BASE.__dict__, **change}), action, 1.0, NOW) is None
    assert score(Lesson(**{**BASE.__dict__, "lang_exclude": ["rust"]}), action, 1.0, NOW)


def test_code_words_are_what_a_question_writes_as_code() -> None:
    assert {"dbcontext", "useeffect", "read_csv", "unwrap", "force"} <= code_words(
        "DbContext and useEffect, pd.read_csv, unwrap() and --force"
    )
    assert code_words("a plain sentence about singletons") == set()


@pytest.mark.parametrize(
    ("action", "applies"),
    [
        ("Edit /p/Program.cs builder.Services.AddSingleton<AppDbContext>();", True),
        ("Edit /p/Startup.cs services.AddSingleton<ShopDbContext>();", True),
        ("Edit /p/HomeController.cs return View(model);", False),
        ("Bash docker compose up -d db", False),
    ],
)
def test_the_deterministic_filter_asks_for_evidence_where_the_words_decide(
    action: str, applies: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    lesson = Lesson(id="l", question="registering the EF Core DbContext as a singleton",
                    answer="register it scoped")  # fmt: skip
    monkeypatch.setattr(scoring, "WORDS_DECIDE", True)
    assert deterministic_filter(lesson, Action(tool="Edit", text=action)) is applies


def test_by_default_a_silent_trigger_never_warns_whatever_the_words_share() -> None:
    # The folds chose WORDS_DECIDE off (session 30): where structure is silent, the
    # words warned no repeat of the development sets' own lessons, only other lessons.
    lesson = Lesson(id="l", question="registering the EF Core DbContext as a singleton",
                    answer="register it scoped")  # fmt: skip
    text = "Edit /p/Program.cs registering the EF Core DbContext as a singleton"
    assert evidence(lesson.question, text) == 1.0
    assert not deterministic_filter(lesson, Action(tool="Edit", text=text), "silent")
    assert deterministic_filter(lesson, Action(tool="Edit", text=text), "hit")


def test_evidence_weighs_code_and_stems_words() -> None:
    question = "git push --force to main overwrote commits"
    assert evidence(question, "git push --force origin main") > evidence(question, "git push")
    assert evidence(question, "git checkout -b feature/search") < scoring.MIN_EVIDENCE
    assert evidence("registering services", "register the services") == 1.0
    assert evidence("", "anything") == 0.0


def test_the_framework_a_text_names() -> None:
    assert scoring.framework_of("pytest failed in the django app") == "django"
    assert scoring.framework_of("cargo test failed") is None
