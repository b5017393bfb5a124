"""Layer 2 of the experience engine: how well a stored lesson fits an action (docs/engine.md
gives the formula; the constants are here, named).

    score = relevance x hits x recency x confidence x domain x tier x superseded x project

- ``relevance``: the lesson's hybrid search score over the action's text, divided by the
  best one (0..1];
- ``hits`` = 1 + HIT_WEIGHT x ln(1 + times it was shown);
- ``recency`` = RECENCY_FLOOR + (1 - RECENCY_FLOOR) x exp(-days since its last signal /
  RECENCY_DAYS): recent confirmations outweigh old ones;
- ``confidence``: 2 x the confidence aged toward neutral (0.5) with the days since its last
  signal, exp(-days / CONFIDENCE_DAYS): neutral is 1;
- ``domain``: DOMAIN_MATCH when the lesson's domain is the action's, DOMAIN_MISMATCH when
  both are known and differ, else 1;
- ``tier``: TIER_WEIGHT (principles and behaviours above Q&A above raw);
- ``superseded``: SUPERSEDED when a newer lesson replaced it;
- ``project``: OTHER_PROJECT when the lesson was learned in another project.

Gates (a lesson failing one is not scored): archived; the language gate (a ``.ts`` file
matches only TypeScript lessons, a ``.cs`` file only C#/dotnet ones; a lesson or an action
without a language passes); the action's language in the lesson's ``lang_exclude`` or its
project in ``project_exclude``.
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field

HIT_WEIGHT = 0.1
RECENCY_DAYS = 30.0
RECENCY_FLOOR = 0.5
CONFIDENCE_DAYS = 60.0
DOMAIN_MATCH = 1.2
DOMAIN_MISMATCH = 0.7
TIER_WEIGHT = {"T0": 1.3, "T1": 1.2, "T2": 1.0, "T3": 0.8}
SUPERSEDED = 0.3
OTHER_PROJECT = 0.6
MIN_SCORE = 0.25  # below this a lesson is not a candidate
PER_CALL = 1  # warnings at most per tool call (bench.engine_cv chose 1 of (3, 1) on every fold)
SHORTLIST = 5  # candidates layer 3 (the brain) chooses among
CODE_WEIGHT = 3  # a word the question writes as code counts this many plain words
SESSION_BUDGET = 8  # warnings at most per session
EDGE_FACTOR = 0.5  # a lesson reached by a 1-hop edge scores this share of its neighbour's
# Chosen by leave-families-out cross-validation (bench.engine_cv.tune; every fold and the
# whole development set chose these; docs/engine.md, "Development set"):
# Off since session 30 (every fold of both development sets): the words warned no repeat of
# a lesson's own mistake where its trigger was silent, only false warnings of other lessons.
WORDS_DECIDE = False  # without a brain, where the trigger is silent, the words may warn
MIN_EVIDENCE = 0.5  # ... then the share of a lesson's question an action must do
FLAG_SHARE = 1.0  # the share of a trigger form's flags a command must give to repeat it
TRIGGER_CODE_SHARE = 1.0  # the share of a trigger's code an action must write to repeat it
KNOWN_MISS = True  # a call a named known mistake reads but is not made in is no repeat
FORM_DECIDES = True  # a lesson's form of a program decides that program's other uses
KNOWN_ALL = True  # a lesson learned on a call: its call's known mistakes, all made, repeat it
LINE_WORDS = 2  # an edit's line writing this many of the question's words repeats it (0: off)
HIT_RELEVANCE = 0.0  # a structural repeat warns when its search relevance is at least this
SILENT_RELEVANCE = 0.0  # where structure is silent, the words decide above this relevance
DAY_US = 86_400 * 1_000_000

# File extensions by language; frameworks name their language.
LANGUAGES = {
    ".ts": "typescript", ".tsx": "typescript", ".mts": "typescript", ".js": "javascript",
    ".jsx": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".py": "python",
    ".cs": "csharp", ".csproj": "csharp", ".go": "go", ".rs": "rust", ".java": "java",
    ".kt": "kotlin", ".rb": "ruby", ".php": "php", ".swift": "swift", ".c": "c", ".h": "c",
    ".cpp": "cpp", ".cc": "cpp", ".hpp": "cpp", ".sql": "sql", ".sh": "shell",
    ".tf": "terraform", ".scala": "scala", ".ex": "elixir", ".exs": "elixir", ".dart": "dart",
}  # fmt: skip
FRAMEWORK_LANGUAGE = {
    "dotnet": "csharp", "aspnet": "csharp", "efcore": "csharp", "react": "javascript",
    "nextjs": "typescript", "angular": "typescript", "vue": "javascript", "django": "python",
    "flask": "python", "fastapi": "python", "rails": "ruby", "spring": "java",
    "laravel": "php", "express": "javascript", "nestjs": "typescript",
}  # fmt: skip
# Languages that stand for one another at the gate.
SAME_LANGUAGE = {"typescript": {"typescript"}, "javascript": {"javascript", "typescript"}}
DOMAINS = {
    "auth": ("auth", "login", "password", "token", "oauth", "jwt", "session", "permission"),
    "data": ("sql", "database", "migration", "query", "dbcontext", "schema", "orm", "table"),
    "infrastructure": ("docker", "kubernetes", "kubectl", "terraform", "deploy", "nginx",
                       "helm", "ci", "pipeline", "k8s"),
    "testing": ("test", "pytest", "jest", "spec", "assert", "mock", "fixture"),
    "build": ("build", "compile", "npm", "pip", "cargo", "dotnet", "webpack", "package"),
    "frontend": ("css", "html", "component", "react", "vue", "render", "dom"),
    "git": ("git", "commit", "branch", "merge", "rebase", "push"),
}  # fmt: skip
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
_CODE = re.compile(r"--?[a-z][\w-]+|[A-Za-z_][\w.]*(?:\(\))?")
_STOP = frozenset(
    (
        "the", "and", "for", "with", "that", "this", "from", "into", "when", "then", "than",
        "have", "has", "not", "use", "using", "never", "always", "was", "were", "are", "its",
        "our", "your", "you", "file", "line", "code", "make", "last", "time",
    )
)  # fmt: skip


@dataclass
class Action:
    """What the agent is about to do, as scoring reads it."""

    tool: str
    text: str  # the tool's input, flattened: path, command, the text it writes
    language: str | None = None
    domain: str | None = None
    project: str | None = None


@dataclass
class Lesson:
    """A lesson as scoring reads it: its text and scope, and its state."""

    id: str
    question: str
    answer: str
    tier: str = "T2"
    domain: str | None = None
    language: str | None = None
    project: str | None = None
    archived: bool = False
    superseded: bool = False
    hits: int = 0
    confidence: float = 0.5
    last_signal_us: int = 0
    lang_exclude: list[str] = field(default_factory=list)
    project_exclude: list[str] = field(default_factory=list)


def language_of(path: str | None) -> str | None:
    if not path:
        return None
    return LANGUAGES.get(os.path.splitext(path)[1].lower())


def action_language(text: str, path: str | None) -> str | None:
    """The language of the file acted on, else of the first path-like word with a known
    extension in the text (a command's arguments)."""
    found = language_of(path)
    if found is not None:
        return found
    for word in re.findall(r"[\w./-]+\.\w+", text):
        found = language_of(word)
        if found is not None:
            return found
    return None


def domain_of(text: str) -> str | None:
    """The domain whose keywords the text mentions most (None: none)."""
    words = {w.lower() for w in _WORD.findall(text)}
    counts = {d: sum(1 for k in keys if k in words) for d, keys in DOMAINS.items()}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else None


def framework_of(text: str) -> str | None:
    """The framework a text names (of those FRAMEWORK_LANGUAGE knows), if any."""
    said = keywords(text)
    return next((name for name in FRAMEWORK_LANGUAGE if name in said), None)


def keywords(text: str) -> set[str]:
    """The significant words of a text (lowercase, no stop words), identifiers split."""
    out = set()
    for word in _WORD.findall(text):
        for part in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", word) or [word]:
            if len(part) >= 3:
                out.add(part.lower())
        out.add(word.lower())
    return out - _STOP


def gate(lesson: Lesson, action: Action) -> bool:
    """Whether the lesson may apply to the action at all."""
    if lesson.archived:
        return False
    if action.language is not None:
        if action.language in lesson.lang_exclude:
            return False
        if lesson.language is not None and lesson.language not in SAME_LANGUAGE.get(
            action.language, {action.language}
        ):
            return False
    return not (action.project is not None and action.project in lesson.project_exclude)


def score(lesson: Lesson, action: Action, relevance: float, now_us: int) -> float | None:
    """The lesson's score for the action, or None when a gate keeps it out."""
    if not gate(lesson, action):
        return None
    days = max(now_us - lesson.last_signal_us, 0) / DAY_US
    hits = 1 + HIT_WEIGHT * math.log1p(max(lesson.hits, 0))
    recency = RECENCY_FLOOR + (1 - RECENCY_FLOOR) * math.exp(-days / RECENCY_DAYS)
    aged = 0.5 + (lesson.confidence - 0.5) * math.exp(-days / CONFIDENCE_DAYS)
    if lesson.domain is None or action.domain is None:
        domain = 1.0
    else:
        domain = DOMAIN_MATCH if lesson.domain == action.domain else DOMAIN_MISMATCH
    tier = TIER_WEIGHT.get(lesson.tier, 1.0)
    superseded = SUPERSEDED if lesson.superseded else 1.0
    project = (
        OTHER_PROJECT
        if lesson.project is not None and action.project not in (None, lesson.project)
        else 1.0
    )
    return relevance * hits * recency * 2 * aged * domain * tier * superseded * project


def _stem(word: str) -> str:
    """A word without its plural or tense ending (registering, registered -> register)."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 3 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def code_words(text: str) -> set[str]:
    """The keywords of what a text writes as code: camelCase or PascalCase identifiers
    (DbContext, useEffect), snake_case and dotted names (read_csv, json.Unmarshal), calls
    (unwrap()) and flags (--force)."""
    out: set[str] = set()
    for token in _CODE.findall(text):
        if re.search(r"[a-z][A-Z]|_|\.\w|\(\)|^-", token):
            out |= keywords(token)
    return out


def evidence(question: str, action_text: str) -> float:
    """How much of what the lesson's question warns about the action does, 0..1: the share
    of the question's significant words (stemmed) the action contains, a word the question
    writes as code weighing CODE_WEIGHT and found inside the action's identifiers too
    (DbContext in ShopDbContext)."""
    asked = {_stem(w) for w in keywords(question)}
    if not asked:
        return 0.0
    code = {_stem(w) for w in code_words(question)}
    said = {_stem(w) for w in keywords(action_text)}
    flat = action_text.lower()
    hit = {w for w in asked if w in said or (w in code and len(w) >= 4 and w in flat)}

    def weight(word: str) -> int:
        return CODE_WEIGHT if word in code else 1

    return sum(map(weight, hit)) / sum(map(weight, asked))


def deterministic_filter(
    lesson: Lesson, action: Action, structure: str = "silent", relevance: float = 1.0
) -> bool:
    """Layer 3 without a brain. ``structure`` is what the lesson's trigger says of the
    call (``xdb.engine.trigger_match.match``): a repeat of its form (hit) applies when the
    search found it at least HIT_RELEVANCE relevant; the safe form, or a call without the
    command or code the lesson is about (safe, miss), never does; where the trigger is
    silent, the lesson applies when WORDS_DECIDE, the action does enough of what its
    question warns about (``evidence`` at least MIN_EVIDENCE) and the search found it at
    least SILENT_RELEVANCE relevant."""
    if structure == "hit":
        return relevance >= HIT_RELEVANCE
    if structure != "silent" or not WORDS_DECIDE:
        return False
    return relevance >= SILENT_RELEVANCE and evidence(lesson.question, action.text) >= MIN_EVIDENCE
