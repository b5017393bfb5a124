"""The concept pack bundled with xdb (``xdb/demo/pack``): a few hundred concepts of HatCat's
first-light pack, with their hierarchy, for the demo and the README's examples.

What it holds: every concept of first-light's layers 0-2 (the roots and the abstract
classes, so the hierarchy can be browsed from the top), the concepts the demo's sessions
activate (``SEEDS``) with all their ancestors, and the seeds' direct children. Each concept's
file is first-light's own, unchanged; ``hierarchy.json`` keeps the ``child_to_parent`` entries
between the concepts kept. Its spec id is its own (``SPEC_ID``), so the whole first-light
pack can be imported beside it (a short name both hold is then ambiguous: give the full id).

First-light is MIT-licensed (its README and pack.json say so; authors: the HatCat Team);
the bundled README carries the notice. Regenerate the sample from the pack (the tests hold
the bundled copy to what this writes from ``tests/data/first-light.tar.xz``)::

    python -m xdb.demo.sample_pack PATH/TO/first-light
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

PACK_ID = "first-light-sample"
VERSION = "1.0.1"
SPEC_ID = f"org.xdb/{PACK_ID}@{VERSION}"
SOURCE_SPEC_ID = "org.hatcat/first-light@1.0.1"
TOP_LAYER = 2  # every concept of layers 0..TOP_LAYER is kept

# The concepts the demo's sessions and the docs' examples name.
SEEDS = (
    # a coding agent deploying, debugging and testing
    "ComputerProgramming",
    "CodeDebugging",
    "CodeRefactoring",
    "CodeReview",
    "ProgramDebuggingProcess",
    "ProgramTestingProcess",
    "SoftwareInstallation",
    "ErrorAnalysis",
    "RiskAssessmentProcess",
    "MetacognitiveCautionState",
    "EpistemicOverconfidence",
    "DecisionProcess",
    "BeliefRevision",
    # a support agent tempted to say the refund was sent
    "Deception",
    "DeceptionSignal",
    "Manipulation",
    "Apologizing",
    "SycophancySignal",
    "RefusalState",
    "HonestDefaults",
    "ConfidenceCalibration",
    "CommunicationFailure",
    # a research assistant checking a claim
    "SourceVerification",
    "VerificationProcess",
    "ConfirmationBias",
    "Doubting",
    "EpistemicUncertainty",
    "Hallucination",
    "ConfidenceAssessment",
    # the policy examples (docs/policy.md) and privacy
    "StateOfMind",
    "Misalignment",
    "EmotionalState",
    "RightToPrivacy",
    "IncomeTax",
)

README = f"""# {PACK_ID}

A sample of HatCat's first-light concept pack (`{SOURCE_SPEC_ID}`, 7,947 concepts) bundled
with xdb for `xdb demo` and the documentation's examples: every concept of layers 0-{TOP_LAYER},
the concepts the demo's agent sessions activate with all their ancestors, and their direct
children. Each file under `concepts/` is first-light's own, unchanged; `hierarchy.json` keeps
first-light's parent links between the concepts kept. Spec id: `{SPEC_ID}`.

Made by `python -m xdb.demo.sample_pack PATH/TO/first-light` (xdb/demo/sample_pack.py).

## Licence

First-light is distributed under the MIT licence (its README and pack.json say so);
authors: the HatCat Team.

Permission is hereby granted, free of charge, to any person obtaining a copy of this
software and associated documentation files (the "Software"), to deal in the Software
without restriction, including without limitation the rights to use, copy, modify, merge,
publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons
to whom the Software is furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or
substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED,
INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR
PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE
FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR
OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER
DEALINGS IN THE SOFTWARE.
"""


def chosen(child_to_parent: dict[str, str], keys: set[str]) -> set[str]:
    """The ``Term:layer`` keys of the sample, out of the pack's ``keys``."""
    by_term = {key.rsplit(":", 1)[0]: key for key in keys}
    missing = [term for term in SEEDS if term not in by_term]
    if missing:
        raise ValueError(f"not in the pack: {', '.join(missing)}")
    kept = {key for key in keys if int(key.rsplit(":", 1)[1]) <= TOP_LAYER}
    for term in SEEDS:
        key: str | None = by_term[term]
        while key is not None:
            kept.add(key)
            key = child_to_parent.get(key)
    seeds = {by_term[term] for term in SEEDS}
    kept |= {child for child, parent in child_to_parent.items() if parent in seeds}
    return kept & keys


def write(source: Path, target: Path) -> int:
    """Write the sample of the first-light pack in ``source`` to ``target`` (replaced);
    the number of concepts written."""
    files: dict[str, tuple[Path, dict[str, Any]]] = {}
    for path in sorted(source.glob("concepts/layer*/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        files[f"{data['term']}:{data['layer']}"] = (path, data)
    hierarchy = json.loads((source / "hierarchy.json").read_text(encoding="utf-8"))
    parents: dict[str, str] = hierarchy["child_to_parent"]
    kept = chosen(parents, set(files))
    if target.exists():
        shutil.rmtree(target)
    for key in sorted(kept):
        path, _ = files[key]
        where = target / path.relative_to(source)
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_bytes(path.read_bytes())
    links = {c: p for c, p in sorted(parents.items()) if c in kept and p in kept}
    (target / "hierarchy.json").write_text(
        json.dumps({"child_to_parent": links}, indent=1) + "\n", encoding="utf-8"
    )
    manifest = json.loads((source / "pack.json").read_text(encoding="utf-8"))
    (target / "pack.json").write_text(
        json.dumps(
            {
                "pack_id": PACK_ID,
                "spec_id": SPEC_ID,
                "version": VERSION,
                "description": f"A sample of {len(kept)} concepts of HatCat's first-light "
                f"pack ({manifest.get('spec_id', SOURCE_SPEC_ID)}) for xdb's demo: layers "
                f"0-{TOP_LAYER}, the demo's concepts with their ancestors and children.",
                "sampled_from": manifest.get("spec_id", SOURCE_SPEC_ID),
                "distribution": manifest.get("distribution", {}),
            },
            indent=1,
        )
        + "\n",
        encoding="utf-8",
    )
    (target / "README.md").write_text(README, encoding="utf-8")
    return len(kept)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m xdb.demo.sample_pack PATH/TO/first-light", file=sys.stderr)
        return 2
    count = write(Path(args[0]), Path(__file__).resolve().parent / "pack")
    print(f"{count} concepts written to {Path(__file__).resolve().parent / 'pack'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
