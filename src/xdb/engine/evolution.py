"""How a lesson's state moves with the verdicts on its warnings (seed 003's evolution).

- **followed**: confidence up; a T3 lesson (raw, extracted) becomes T2 on its first
  confirmed follow (seed 003: T3 -> T2; the follow confirms it, and a T2 lesson does not
  expire), and T2 -> T1 after PROMOTE_AFTER confirmed follows (the seed's three), counted
  from the start: the follow that made it T2 is one of them;
- **ignored**, and noise of reason **wrong_task** or **stale_rule**: strikes; after
  DEMOTE_AFTER strikes a T0/T1 lesson drops a tier (strikes start again) and a T2/T3 lesson is
  archived (kept, with its history, out of retrieval). wrong_task and stale_rule also count
  toward supersede: the lesson is marked superseded (reduced rank) at the same count;
- **noise wrong_language**: the action's language joins ``lang_exclude`` (the lesson
  survives for other languages); **wrong_repo**: the project joins ``project_exclude``;
- **irrelevant** (the judge's word for noise) takes its reason the same way;
- **unclear**: recorded, nothing changes.

A manual verdict (``xdb feedback``) weighs MANUAL_WEIGHT judge verdicts.
"""

from __future__ import annotations

from typing import Any

PROMOTE_AFTER = 3
DEMOTE_AFTER = 3
MANUAL_WEIGHT = 2
CONFIDENCE_STEP = 0.1
VERDICTS = ("followed", "ignored", "noise", "irrelevant", "unclear")
REASONS = ("wrong_language", "wrong_repo", "wrong_task", "stale_rule")
TIERS = ("T0", "T1", "T2", "T3")


def new_state(tier: str, at_us: int) -> dict[str, Any]:
    return {
        "tier": tier,
        "archived": False,
        "superseded": False,
        "superseded_by": [],
        "hits": 0,
        "follows": 0,
        "ignores": 0,
        "strikes": 0,
        "noise": {},
        "verdicts": 0,
        "confidence": 0.8 if tier in ("T0", "T1") else 0.5,
        "last_signal_us": at_us,
        "lang_exclude": [],
        "project_exclude": [],
    }


def apply(
    state: dict[str, Any],
    verdict: str,
    reason: str | None,
    language: str | None,
    project: str | None,
    weight: int,
    at_us: int,
) -> list[str]:
    """Apply a verdict to ``state`` in place; what changed, in words."""
    changes: list[str] = []
    state["verdicts"] = int(state.get("verdicts", 0)) + 1
    if verdict == "unclear":
        return changes
    state["last_signal_us"] = at_us
    confidence = float(state.get("confidence", 0.5))
    if verdict == "followed":
        state["follows"] = int(state.get("follows", 0)) + weight
        state["confidence"] = min(1.0, confidence + CONFIDENCE_STEP * weight)
        if state["tier"] == "T3":
            state["tier"] = "T2"
            changes.append("promoted to T2 (qa)")
        if state["tier"] == "T2" and state["follows"] >= PROMOTE_AFTER:
            state["tier"] = "T1"
            changes.append("promoted to T1 (behavioral)")
        return changes
    state["confidence"] = max(0.0, confidence - CONFIDENCE_STEP * weight)
    if verdict in ("noise", "irrelevant") and reason is not None:
        noise = dict(state.get("noise", {}))
        noise[reason] = int(noise.get(reason, 0)) + weight
        state["noise"] = noise
        if reason == "wrong_language":
            if language and language not in state["lang_exclude"]:
                state["lang_exclude"] = [*state["lang_exclude"], language]
                changes.append(f"excluded for {language}")
            return changes
        if reason == "wrong_repo":
            if project and project not in state["project_exclude"]:
                state["project_exclude"] = [*state["project_exclude"], project]
                changes.append(f"excluded in project {project}")
            return changes
        toward = int(noise.get("wrong_task", 0)) + int(noise.get("stale_rule", 0))
        if toward >= DEMOTE_AFTER and not state.get("superseded"):
            state["superseded"] = True
            changes.append("marked superseded")
    if verdict == "ignored":
        state["ignores"] = int(state.get("ignores", 0)) + weight
    state["strikes"] = int(state.get("strikes", 0)) + weight
    if state["strikes"] >= DEMOTE_AFTER:
        state["strikes"] = 0
        if state["tier"] in ("T0", "T1"):
            state["tier"] = TIERS[TIERS.index(state["tier"]) + 1]
            changes.append(f"demoted to {state['tier']}")
        else:
            state["archived"] = True
            changes.append("archived")
    return changes
