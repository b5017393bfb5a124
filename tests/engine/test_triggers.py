"""Lesson triggers (issue 33): derived from a lesson's words, its failing call and its fix;
matched on a call's structure, so a repeat in other words is caught and the safe form is
not; a principle's trigger warns on a new case of its class."""

from __future__ import annotations

from typing import Any

import pytest

import xdb
from xdb.engine import trigger_match, triggers
from xdb.engine.calls import parse_call
from xdb.engine.words import mistake_told


def bash(command: str) -> dict[str, Any]:
    return {"tool_name": "Bash", "tool_input": {"command": command}}


def edit(path: str, text: str) -> dict[str, Any]:
    return {"tool_name": "Edit",
            "tool_input": {"file_path": path, "old_string": "", "new_string": text}}  # fmt: skip


def said(trigger: triggers.Trigger, call: dict[str, Any]) -> str:
    seen = trigger_match.seen(parse_call(call["tool_name"], call["tool_input"], "/w/shop"))
    return trigger_match.match(trigger, seen, 1.0, 0.5)


HELM = triggers.derive(
    "a helm upgrade that failed halfway left the release in a failed state",
    "upgrade with --atomic and a --timeout so a failed release rolls back by itself",
)
CLEAN = triggers.derive(
    "git clean -fdx wiped the untracked .env", "preview with git clean -n first"
)


def test_a_trigger_from_the_words_names_the_command_and_what_its_fix_adds() -> None:
    (form,) = HELM.commands
    assert (form.program, form.subcommand, form.flags) == ("helm", ("upgrade",), frozenset())
    assert form.safe == {"--atomic", "--timeout"}  # absent: the mistake
    (clean,) = CLEAN.commands
    assert clean.flags == {"--force", "--dirs", "--ignored-too"}  # -fdx, normalised
    assert "--dry-run" in clean.safe


@pytest.mark.parametrize(
    "command",
    [
        "helm -n prod upgrade api charts/api --set image.tag=1.9.2",  # another namespace
        "helm dependency update charts/web && helm upgrade web charts/web -f values/stg.yaml",
    ],
)
def test_a_missing_flag_mistake_is_caught_in_other_words(command: str) -> None:
    assert said(HELM, bash(command)) == triggers.HIT


def test_the_fix_form_and_other_commands_are_not_warned() -> None:
    assert said(HELM, bash("helm upgrade api charts/api --atomic --timeout 5m")) == triggers.SAFE
    assert said(HELM, bash("helm repo update")) == triggers.MISS
    assert said(CLEAN, bash("cd svc && git clean -x -d -f")) == triggers.HIT  # flag order
    assert said(CLEAN, bash("git clean -fdx -n")) == triggers.SAFE
    assert said(CLEAN, bash("git clean -f")) == triggers.MISS  # not the -dx that wiped .env


def test_arguments_are_generalised_by_kind() -> None:
    destroy = triggers.derive(
        "terraform destroy -auto-approve in envs/staging removed the shared VPC",
        "run terraform plan -destroy first and never auto-approve a destroy",
    )
    assert said(destroy, bash("terraform -chdir=envs/prod destroy -auto-approve")) == triggers.HIT
    assert said(destroy, bash("terraform plan -destroy -out=x")) != triggers.HIT


def test_a_trigger_from_the_failing_call_and_its_fix() -> None:
    got = triggers.derive(
        "the deploy failed",
        "do it the other way",
        example_call=bash("kubectl delete deployment api"),
        fix_call=bash("kubectl delete deployment api --context staging"),
    )
    assert said(got, bash("kubectl -n shop delete pod web-1")) == triggers.HIT
    assert said(got, bash("kubectl delete pod web-1 --context prod")) == triggers.SAFE
    code = triggers.derive(
        "the context leaked between requests",
        "register it scoped",
        example_call=edit("/w/shop/Startup.cs", "services.AddSingleton<ShopDbContext>();"),
        fix_call=edit("/w/shop/Startup.cs", "services.AddScoped<ShopDbContext>();"),
    )
    assert "addscoped" in code.safe and "addsingleton" in code.code
    assert said(code, edit("/w/api/Program.cs", "services.AddScoped<ShopDbContext>();")) == "safe"


def test_code_and_what_the_question_says_was_missing() -> None:
    where = triggers.derive(
        "a DELETE with no WHERE clause typed into psql emptied the table", "write the WHERE"
    )
    assert said(where, bash("psql -c 'delete from carts'")) == triggers.HIT
    assert said(where, bash("psql -c 'DELETE FROM carts WHERE id = 3'")) == triggers.SAFE
    timeout = triggers.derive("requests.get with no timeout hung the worker", "pass timeout=")
    assert said(timeout, edit("/w/a/x.py", "r = requests.get(url)")) == triggers.HIT
    assert said(timeout, edit("/w/a/x.py", "r = requests.get(url, timeout=5)")) == triggers.SAFE


def test_a_trigger_survives_storage() -> None:
    assert triggers.Trigger.from_json(HELM.to_json()) == HELM
    assert triggers.Trigger.from_json({"version": -1}) is None


def test_a_principle_generalizes_its_lessons_triggers() -> None:
    members = [
        triggers.derive("helm upgrade of web failed halfway", "use --atomic"),
        triggers.derive("helm upgrade --install of api left a failed release", "use --atomic"),
    ]
    principle = trigger_match.generalize(members)
    (form,) = principle.commands
    assert (form.program, form.subcommand, form.safe) == (
        "helm",
        ("upgrade",),
        frozenset({"--atomic"}),
    )
    assert said(principle, bash("helm upgrade payments charts/p -n data")) == triggers.HIT


def test_check_warns_on_a_repeat_in_other_words_and_not_on_the_safe_form(tmp_path: Any) -> None:
    with xdb.connect(tmp_path / "t.sqlite3", embedder="hash") as db:
        made = db.add_lesson(
            question="a helm upgrade that failed halfway left the release half rolled out",
            answer="upgrade with --atomic and a --timeout",
            domain="infrastructure",
        ).lesson
        repeat = db.check(session_id="a", tool_name="Bash", cwd="/w/ops",
                          tool_input=bash("helm -n d upgrade pg x/pg")["tool_input"])  # fmt: skip
        assert [w.lesson_id for w in repeat.warnings] == [made.lesson_id]
        safe = db.check(session_id="b", tool_name="Bash", cwd="/w/ops",
                        tool_input=bash("helm upgrade pg x/pg --atomic")["tool_input"])  # fmt: skip
        assert safe.warnings == []


def test_check_uses_the_failing_call_given_with_the_lesson(tmp_path: Any) -> None:
    with xdb.connect(tmp_path / "t.sqlite3", embedder="hash") as db:
        made = db.add_lesson(
            question="the cluster lost its workers", answer="name the context",
            example_call=bash("kubectl delete deployment api"),
            fix_call=bash("kubectl --context staging delete deployment api"),
        ).lesson  # fmt: skip
        got = db.check(session_id="a", tool_name="Bash", cwd="/w/ops",
                       tool_input=bash("kubectl delete deploy w")["tool_input"])  # fmt: skip
        assert [w.lesson_id for w in got.warnings] == [made.lesson_id]


def test_the_check_that_caught_an_edit_is_not_the_mistake() -> None:
    """An extracted "Write f adding `x` broke `check`: error", learned on that write:
    running the check again, or an edit that writes the check's words, repeats nothing; the
    words of what was added still tell the mistake. A question in words keeps all of its."""
    question = (
        "Write /w/api/Dockerfile adding `FROM python:latest`, `COPY api /api` broke"
        " `docker build -t app .`: ERROR: failed to solve: process did not complete"
    )
    dockerfile = {"file_path": "/w/api/Dockerfile", "content": "FROM python:latest\nCOPY api /api"}
    wrote = {"tool_name": "Write", "tool_input": dockerfile}
    learned = triggers.derive(question, "it passed after: Edit Dockerfile: + USER app", wrote)
    makefile = edit("/w/api/Makefile", "image:\n\tdocker build -t api:dev .")
    repeat = edit("/w/web/Dockerfile", "FROM python:latest AS build")

    def matched(call: dict[str, Any]) -> str:
        seen = trigger_match.seen(parse_call(call["tool_name"], call["tool_input"], "/w/api"))
        return trigger_match.match(learned, seen, 1.0, 1.0, question, 2)

    assert learned.on_call
    assert matched(makefile) != "hit"
    assert matched(repeat) == "hit"
    assert mistake_told(question).endswith("`COPY api /api`")
    told = "an image built from `docker build` broke `prod` when tagged latest"
    assert mistake_told(told) == "an image built from `docker build`"  # (what match skips)


def test_a_lesson_learned_on_a_call_is_not_told_in_its_questions_words() -> None:
    """A lesson learned on a call (extracted) has a question that is that call's path and
    text, not prose: a command sharing words with the path (``api``, ``app``) repeats
    nothing. A lesson in words still tells its command."""
    question = "Edit /w/api/app/settings.py: + config = yaml.load(open(path))"
    learned = triggers.derive(
        question,
        "use yaml.safe_load",
        edit("/w/api/app/settings.py", "config = yaml.load(open(path))"),
    )
    argocd = bash("argocd app sync api-prod")
    seen = trigger_match.seen(parse_call("Bash", argocd["tool_input"], "/w/api"))
    assert learned.on_call and not trigger_match.told(question, learned, seen)
    assert said(learned, argocd) != "hit"
    told = triggers.derive("restarting the app service in api prod dropped requests", "drain")
    assert trigger_match.told(
        "restarting the app service in api prod dropped requests",
        told,
        trigger_match.seen(parse_call("Bash", {"command": "systemctl restart app"}, "/w")),
    )


def test_a_lessons_own_form_decides_its_programs_other_uses() -> None:
    """A lesson that says which use of a program erred (``kubectl delete``, ``sudo pip``)
    is not warned on the program's other uses, though a known mistake it names would be made
    in them (``FORM_DECIDES``); its own form in other words still is."""
    context = triggers.derive(
        "kubectl delete ran against the production cluster because the current context was prod",
        "name the cluster and namespace on every command: --context staging -n <namespace>",
    )
    sudo = triggers.derive(
        "installing packages with sudo pip into the system Python broke apt's own Python tools",
        "install into a virtual environment (python3 -m venv .venv, then .venv/bin/pip)",
    )
    assert context.known and sudo.known
    assert said(context, bash("kubectl delete pod -l app=worker")) == triggers.HIT
    assert said(context, bash("kubectl apply -f k8s/ingress.yaml -n staging")) != triggers.HIT
    assert said(sudo, bash("sudo pip3 install -r requirements.txt")) == triggers.HIT
    assert said(sudo, bash("pip install tzdata")) != triggers.HIT
    with pytest.MonkeyPatch.context() as patch:  # the folds' other choice: the class decides
        patch.setattr("xdb.engine.scoring.FORM_DECIDES", False)
        assert said(context, bash("kubectl apply -f k8s/ingress.yaml -n staging")) == "hit"
        assert said(sudo, bash("pip install tzdata")) == triggers.HIT


def test_a_lesson_learned_on_a_call_needs_each_mistake_that_call_made() -> None:
    """Learned on a call that made two known mistakes (no ``--context``, no ``-n``), a call
    making one of them is not that call again, and one doing either the safe way is safe
    (``KNOWN_ALL``); a call making both is."""
    learned = triggers.derive(
        '`kubectl delete deployment api` failed: Error from server (Forbidden): User "dev"'
        ' cannot delete resource in namespace "default"',
        "it passed as `kubectl --context staging -n shop delete deployment api` (added"
        " `--context=staging`, `--namespace=shop`)",
        example_call=bash("kubectl delete deployment api"),
        fix_call=bash("kubectl --context staging -n shop delete deployment api"),
    )
    assert len(learned.known) == 2 and learned.on_call
    assert said(learned, bash("kubectl scale deploy/api --replicas=3")) == triggers.HIT
    assert said(learned, bash("kubectl apply -f k8s/cm.yaml -n staging")) != triggers.HIT
    assert said(learned, bash("kubectl apply -f k8s/cm.yaml --context staging")) == "safe"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("xdb.engine.scoring.KNOWN_ALL", False)
        assert said(learned, bash("kubectl apply -f k8s/cm.yaml -n staging")) == triggers.HIT


def test_a_host_name_is_one_word_of_what_an_edit_writes() -> None:
    """``cdn.acme.dev`` written in an edit is not two of the words of a lesson that wrote
    ``registry.acme.dev``; the same host is one."""
    question = "Edit /w/ops/k8s/api.yaml: + image: registry.acme.dev/api:1.9.2 / + replicas: 1"

    def wrote(text: str) -> bool:
        seen = trigger_match.seen(parse_call("Edit", edit("/w/web/x.yaml", text)["tool_input"]))
        return trigger_match.written(question, seen, 2)

    assert not wrote("images: { domains: ['cdn.acme.dev'] }")
    assert wrote("image: registry.acme.dev/web:2.0")


def test_what_a_fix_stopped_doing_is_the_lesson_its_words_do_not_name() -> None:
    """Learned on an edit a check caught, a question naming no known mistake (its words are
    the path, the check and its error) keeps the one its fix stopped making, and warns on it
    in other names; not one the fix makes too."""
    question = (
        "Edit /w/shop/app/merge.py adding `def merge(a, b, acc={}):` broke `pytest -q`:"
        " FAILED tests/app/test_merge.py::test_merge - AssertionError"
    )
    learned = triggers.derive(
        question,
        "it passed after: Edit /w/shop/app/merge.py: + def merge(a, b, acc=None):",
        example_call=edit("/w/shop/app/merge.py", "def merge(a, b, acc={}):\n    acc.update(a)"),
        fix_call=edit("/w/shop/app/merge.py", "def merge(a, b, acc=None):\n    acc = acc or {}"),
    )
    assert learned.known == {"py-mutable-default"}
    repeat = edit("/w/etl/utils/batch.py", "def collect(rows, out=[]):\n    out.extend(rows)")
    seen = trigger_match.seen(parse_call(repeat["tool_name"], repeat["tool_input"], "/w/etl"))
    assert trigger_match.match(learned, seen, 1.0, 1.0, question, 2) == triggers.HIT
    unfixed = triggers.derive(
        question,
        "it passed after: Edit /w/shop/app/merge.py: + def merge(a, b, acc={}, *, deep=False):",
        example_call=edit("/w/shop/app/merge.py", "def merge(a, b, acc={}):\n    acc.update(a)"),
        fix_call=edit("/w/shop/app/merge.py", "def merge(a, b, acc={}, *, deep=False):"),
    )
    assert "py-mutable-default" not in unfixed.known


def test_a_principle_of_a_lesson_in_words_and_one_learned_on_a_call_is_no_narrower() -> None:
    """A failing call's command is no use its lesson singled out: a principle generalizing
    it with a lesson in words keeps the words lesson's reach over the program."""
    words = triggers.derive(
        "the wrong kube context sent changes to prod", "always pass --context to kubectl"
    )
    learned = triggers.derive(
        "the deploy failed",
        "name the context",
        example_call=bash("kubectl delete deployment api"),
        fix_call=bash("kubectl --context staging delete deployment api"),
    )
    principle = trigger_match.generalize([words, learned])
    assert not principle.on_call
    for command in ("kubectl apply -f k8s/", "kubectl scale deploy api --replicas=3"):
        assert said(words, bash(command)) == triggers.HIT
        assert said(principle, bash(command)) == triggers.HIT


def test_a_fix_that_leaves_two_mistakes_behind_names_neither() -> None:
    """A fix given as an edit is the part it replaced: of two known mistakes the failing
    edit made, both look fixed, and the lesson keeps neither (it would need both again)."""
    failing = edit("/w/a/m.py", "def merge(a, b, acc={}):\n    r = requests.get(URL)")
    learned = triggers.derive(
        "Edit /w/a/m.py adding `def merge(a, b, acc={}):` broke `pytest -q`: FAILED",
        "it passed after: Edit /w/a/m.py: + def merge(a, b, acc=None):",
        example_call=failing,
        fix_call=edit("/w/a/m.py", "def merge(a, b, acc=None):"),
    )
    assert learned.on_call and not learned.known


@pytest.mark.parametrize(
    "command",
    ["sudo kill -9 $(cat /run/pg.pid)", "sudo kill -KILL 4242", "sudo kill -s KILL 77",
     "sudo kill -SIGKILL $PID"],
)  # fmt: skip
def test_a_signal_named_in_the_prose_is_its_option_not_code(command: str) -> None:
    """``SIGKILL`` in the question is what ``kill -9`` gives; a repeat need not write it."""
    trigger = triggers.derive(
        "killed the slow Postgres server with SIGKILL (sudo kill -9 on its pid)",
        "stop it with pg_ctl stop -m fast",
    )
    assert "sigkill" not in trigger.code
    assert said(trigger, bash(command)) == "hit"
    assert said(trigger, bash("sudo kill -TERM 4242")) != "hit"


def test_only_a_signal_s_own_name_leaves_the_code() -> None:
    """A program's ``--signal-handler`` is no signal: the question's SIGHANDLER stays code."""
    trigger = triggers.derive(
        "`mydaemon --signal-handler` failed at start: SIGHANDLER was not set", "set it first"
    )
    assert trigger.code == {"sighandler"}


def test_an_at_sign_inside_a_word_is_no_annotation() -> None:
    """``pkg@version`` and an e-mail address write no ``@version`` or ``@acme`` annotation."""
    assert triggers.code_tokens("run npm install pkg@version, or mail ops@acme") == set()
    assert triggers.code_tokens("@Transactional on a private method") == {"transactional"}
