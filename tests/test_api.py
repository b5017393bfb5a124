"""The typed Python API (xdb/api.py): generated from the registry, not stale, and typed.

Every operation is one method of ``Database`` whose parameters are its request's fields;
calling it returns the response model; a user's script written like README.md passes
``mypy --strict`` and a wrong call fails it.
"""

from __future__ import annotations

import importlib.util
import inspect
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import MappingProxyType, ModuleType
from typing import Any

import pytest
from pydantic import BaseModel, Field

import xdb
from tests.concepts.packs import write_pack
from xdb.api import Operations
from xdb.interfaces import api_gen
from xdb.log.log_models import RecordRequest
from xdb.models.common import EventType
from xdb.ops.catalog import operations
from xdb.ops.registry import Context, Operation

ROOT = Path(__file__).resolve().parents[1]
USER_SCRIPT = ROOT / "tests" / "data" / "typed_user_script.py"
# A cache of its own, kept between runs: a cold mypy run takes seconds, a warm one well under.
MYPY_CACHE = ROOT / ".mypy_cache" / "typed-user-script"


@pytest.fixture
def db() -> Iterator[xdb.Database]:
    with xdb.connect(":memory:", embedder="hash") as database:
        yield database


def _load_user_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("typed_user_script", USER_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --------------------------------------------------------------------------- generation


def test_api_module_is_up_to_date() -> None:
    current = api_gen.TARGET.read_text(encoding="utf-8") if api_gen.TARGET.exists() else ""
    assert current == api_gen.render(), (
        "src/xdb/api.py is stale: run `python -m xdb.interfaces.api_gen` and commit it"
    )


def test_generator_writes_and_checks(tmp_path: Path) -> None:
    target = tmp_path / "api.py"
    assert api_gen.main(["--check", "--output", str(target)]) == 1  # missing counts as stale
    assert api_gen.main(["--output", str(target)]) == 0
    assert api_gen.main(["--check", "--output", str(target)]) == 0
    target.write_text(target.read_text() + "# edited by hand\n")
    assert api_gen.main(["--check", "--output", str(target)]) == 1


def _handler(ctx: Context, req: BaseModel) -> BaseModel:
    raise AssertionError("never run")


def _op(name: str, request: type[BaseModel], method: str | None = None) -> Operation[Any, Any]:
    return Operation(
        name=name,
        group="test",
        request=request,
        response=BaseModel,
        handler=_handler,
        readonly=True,
        summary="A test operation.",
        method=method,
    )


def test_generator_refuses_a_field_where_none_would_be_ambiguous() -> None:
    class Ambiguous(BaseModel):
        limit: int | None = 3  # None given: "not given" (3) or "no limit"?

    with pytest.raises(api_gen.GenerationError, match=r"limit.*None would mean two things"):
        api_gen.render_unformatted([_op("ambiguous", Ambiguous)])

    class Factory(BaseModel):
        tags: list[str] | None = []

    with pytest.raises(api_gen.GenerationError, match="tags"):
        api_gen.render_unformatted([_op("factory", Factory)])

    class Aliased(BaseModel):
        kind: str = Field(default="a", alias="type")  # the method would send "kind"

    with pytest.raises(api_gen.GenerationError, match=r"kind.*alias"):
        api_gen.render_unformatted([_op("aliased", Aliased)])


def test_generator_refuses_clashing_method_names() -> None:
    class Empty(BaseModel):
        pass

    with pytest.raises(
        api_gen.GenerationError, match=r"test\.b and test\.a both want the method 'a'"
    ):
        api_gen.render_unformatted([_op("a", Empty), _op("b", Empty, method="a")])
    with pytest.raises(api_gen.GenerationError, match="'run'"):
        api_gen.render_unformatted([_op("run", Empty)])


# --------------------------------------------------------------------------- shape


def test_every_operation_has_exactly_one_method_with_its_fields() -> None:
    ops = operations()
    names = [op.method_name for op in ops]
    assert len(set(names)) == len(names)
    generated = {n for n, v in vars(Operations).items() if inspect.isfunction(v) and n != "run"}
    assert generated == set(names)  # no method left over from a removed operation
    for op in ops:
        assert op.method_name not in vars(xdb.Database), f"Database overrides {op.method_name}"
        params = list(inspect.signature(getattr(xdb.Database, op.method_name)).parameters.values())
        assert params[0].name == "self"
        params = params[1:]
        fields = op.request.model_fields
        assert {p.name for p in params} == set(fields), op.name
        for p in params:
            required = p.default is inspect.Parameter.empty
            assert required == fields[p.name].is_required(), (op.name, p.name)
            if len(fields) == 1:  # the one field of a one-field request may come by position
                assert p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD, (op.name, p.name)
            else:
                assert p.kind is inspect.Parameter.KEYWORD_ONLY, (op.name, p.name)
        assert (
            op.response.__name__
            in inspect.signature(getattr(Operations, op.method_name)).return_annotation
        )


def test_each_method_is_documented_with_its_fields() -> None:
    for op in operations():
        doc = inspect.getdoc(getattr(xdb.Database, op.method_name)) or ""
        assert doc.split()[:3] == " ".join(op.description.split()).split()[:3], op.name
        for name in op.request.model_fields:
            assert re.search(rf"^    {name}: ", doc, re.MULTILINE), (op.name, name)


# --------------------------------------------------------------------------- behaviour


def _learn(db: xdb.Database, tmp_path: Path) -> None:
    """The learning harness's operations (docs/learning.md)."""
    bud = db.create_tag(name="hunch", tag_type="bud").tag_id
    step = db.record(event_type="input", content="a hunch")
    db.tag(tag_name_or_id=bud, timestep_id=step.timestep_id)
    assert db.buds().buds and db.bud_examples(bud_tag_id=bud).example_count == 1
    assert db.bud_ready(bud_tag_id=bud).new_status == "ready"
    assert db.set_bud_status(bud_tag_id=bud, status="training").previous_status == "ready"
    assert db.list_candidate_concepts().candidate_concepts
    assert db.promote_bud(bud_tag_id=bud).concept_id == "hunch"
    tags = [{"concept_id": "c/x", "score": 0.9}]
    first = db.add_episode(content="one", concept_tags=tags).episode_id
    db.add_episode(content="two")
    made = db.add_exemplar(concept_id="c/x", label="positive", episode_id=first).exemplar
    assert db.exemplars().exemplars
    built = db.build_dataset(target_concept_id="c/x")
    assert db.datasets().datasets and db.dataset(dataset_id=built.dataset_id).members
    written = db.export_dataset(dataset_id=built.dataset_id, path=str(tmp_path / "d.jsonl"))
    assert written.rows == 2
    run = db.record_training_run(type="lens", concept_ids=["c/x"], status="succeeded")
    checksum = "sha256:" + "0" * 64
    db.record_artifact(
        kind="lens", training_run_id=run.training_run_id, location="x", checksum=checksum
    )
    assert db.training_runs().training_runs
    assert db.training_run(training_run_id=run.training_run_id).artifacts
    assert db.remove_exemplar(exemplar_id=made.id).removed
    assert db.sync_export(path=str(tmp_path / "bundle")).objects["dataset"] == 1
    assert db.sync_import(path=str(tmp_path / "bundle")).conflicts == []


def _fidelity(db: xdb.Database) -> None:
    """The fidelity operations (docs/fidelity.md)."""
    step = db.record(event_type="input", content="keep this").timestep_id
    db.record(event_type="input", content="and then this")
    assert db.pin(timestep_ids=[step], reason="example").pinned_count == 1
    assert db.quota().warm.used_tokens == 3
    assert db.submit_evidence(submission_id="graft-1", timestep_ids=[step]).held_count == 1
    assert db.resolve_submission("graft-1").released_count == 1
    assert db.unpin(timestep_ids=[step]).unpinned_count == 1
    assert db.context().current_tokens > 0
    assert db.compact(keep_tokens=0).compacted
    assert db.maintenance().finished


def _engine(db: xdb.Database, tmp_path: Path) -> None:
    """The experience engine's operations (docs/engine.md)."""
    made = db.add_lesson(question="editing Startup.cs DbContext", answer="keep it scoped")
    assert db.lessons().total == 1 and db.lesson(made.lesson.short_id).edges == []
    assert db.lesson_stats().total == 1 and db.timeline(topic="Startup").total == 1
    action = {"file_path": "Startup.cs", "new_string": "services.AddSingleton<ShopDbContext>();"}
    assert db.check(session_id="s", tool_name="Edit", tool_input=action).warnings
    assert db.judge(session_id="s", tool_name="Edit", tool_input=action).pending == 1
    assert db.feedback(lesson_id=made.lesson.lesson_id, verdict="followed").lesson.follows == 2
    assert db.session_start(session_id="s").context is None  # no T0 or T1 yet
    transcript = tmp_path / "t.jsonl"
    transcript.write_text('{"type": "user", "message": {"content": "hi"}}')
    assert db.extract(session_id="s", transcript_path=str(transcript)).found == 0


def test_every_method_returns_its_response_model(db: xdb.Database, tmp_path: Path) -> None:
    responses: dict[str, BaseModel] = {}
    run = db.run

    def spy(
        op: Operation[Any, Any], payload: Any, *, caller: xdb.Caller | None = None
    ) -> BaseModel:
        responses[op.method_name] = run(op, payload, caller=caller)
        return responses[op.method_name]

    db.run = spy  # type: ignore[method-assign]
    script = _load_user_script()
    script.log(db)
    episode_id = script.episodes(db)
    pack = write_pack(tmp_path / "pack", tree={"Root": None, "Deception": "Root", "Dancing": None})
    script.concepts(db, str(pack), episode_id)
    script.memcp(db)
    # The operations README does not show.
    db.create_tag(name="Deception", tag_type="concept")
    assert db.recent(n=2).timesteps
    assert db.tags(tag_type="concept").tags
    assert db.annotations().session_id == db.session_id
    assert db.concept_packs().packs
    db.get_concept("Deception")
    assert db.delete_episode(episode_id=episode_id).deleted
    _learn(db, tmp_path)
    _fidelity(db)
    _engine(db, tmp_path)
    admin = db.as_caller(xdb.Caller(id="ops", roles=("admin",)))
    assert admin.set_resource_contract(warm_quota_tokens=10).contract.warm_quota_tokens == 10
    admin.set_disclosure_policy(id="p", allow={"subtrees": ["Dancing"]})
    admin.set_treaty(id="t", partner="acme", disclosure_policy_id="p")
    admin.hush(id="h", concepts={"concepts": ["Deception"]})
    admin.set_caller(id="acme", roles=["partner"], treaty_ids=["t"])
    assert admin.policies().treaties
    assert admin.remove_policy(kind="hush", id="h").removed
    made = admin.create_key(caller_id="acme")
    assert admin.keys().keys[0].id == made.id
    assert admin.revoke_key(id=made.id).revoked
    admin.set_access_policy(id="private")
    assert admin.assign_access_policy(policy_id="private", session_ids=[db.session_id]).changed
    assert admin.set_default_access_policy(policy_id=None).policy_id is None
    auditor = db.as_caller(xdb.Caller(id="audit", roles=("auditor",)))
    assert auditor.audit_verify().ok
    assert auditor.audit_show(auditor.audit_list(limit=1).records[0].seq).kind == "timestep"
    assert auditor.audit_prune(older_than_days=36500).removed == 0
    assert set(responses) == {op.method_name for op in operations()}
    for op in operations():
        assert type(responses[op.method_name]) is op.response, op.name


def test_only_the_arguments_given_are_sent(db: xdb.Database) -> None:
    sent: list[dict[str, Any]] = []
    run = db.run

    def spy(op: Operation[Any, Any], payload: Any, *, caller: xdb.Caller | None = None) -> Any:
        sent.append(dict(payload))
        return run(op, payload, caller=caller)

    db.run = spy  # type: ignore[method-assign]
    db.record(event_type="input", content="x", event_start=False, token_id=None)
    db.record(event_type=EventType.OUTPUT, content="y", event_end=True, event_id="e")
    db.query(limit=100, order="asc", tick_range={"start": 1, "end": 2})
    db.search_episodes(concept_filters=None, page={"page_size": 5})
    assert sent == [
        {"event_type": "input", "content": "x"},
        {"event_type": EventType.OUTPUT, "content": "y", "event_id": "e", "event_end": True},
        {"tick_range": {"start": 1, "end": 2}},
        {"page": {"page_size": 5}},
    ]


def test_record_batch_takes_mappings_and_models_by_position(db: xdb.Database) -> None:
    items = (
        {"event_type": "output", "content": "a"},
        MappingProxyType({"event_type": "output", "content": "b"}),
        RecordRequest(event_type=EventType.OUTPUT, content="c"),
    )
    assert len(db.record_batch(items).results) == 3
    assert [t.content for t in db.recent().timesteps] == ["a", "b", "c"]
    assert len(db.record_batch(timesteps=[{"event_type": "input", "content": "d"}]).results) == 1


def test_a_misspelt_argument_is_a_type_error_and_call_stays_dynamic(db: xdb.Database) -> None:
    with pytest.raises(TypeError, match="text_serch"):
        db.query(text_serch="x")  # type: ignore[call-arg]
    # Bad values still get the operation's own error, naming the field.
    with pytest.raises(xdb.InvalidRequest, match="event_type"):
        db.record(event_type="speech", content="x")  # type: ignore[arg-type]
    # call() takes any payload, as the skins do (the XAPI's nested target, say).
    db.record(event_type="input", content="x")
    made = db.call("tag", {"tag_name_or_id": "t", "target": {"tick_range": {"start": 1, "end": 1}}})
    assert made.model_dump()["timestep_count"] == 1


# --------------------------------------------------------------------------- static typing

_WRONG = """\
import xdb


def wrong(db: xdb.Database) -> None:
    db.record(event_type="input", content=1)
    db.record(event_type="speech", content="x")
    db.query(text_serch="x")
    db.record(content="no event type")
    db.tag(tag_name_or_id="t", tick_range=(1, 5))
    count: str = db.recent().timesteps[0].tick
"""


def test_mypy_strict_accepts_the_readme_calls_and_refuses_wrong_ones(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong_user_script.py"
    wrong.write_text(_WRONG)
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n")  # a user's project: strict, and no pydantic plugin
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--config-file",
            str(config),
            "--cache-dir",
            str(MYPY_CACHE),
            "--no-error-summary",
            str(USER_SCRIPT),
            str(wrong),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    out = done.stdout + done.stderr
    assert USER_SCRIPT.name not in out, out
    flagged = {
        int(m.group(1)) for m in re.finditer(rf"{wrong.name}:(\d+): error", out, re.MULTILINE)
    }
    assert flagged == {5, 6, 7, 8, 9, 10}, out
    assert done.returncode == 1, out
