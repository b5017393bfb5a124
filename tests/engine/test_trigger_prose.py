"""What a lesson's prose tells of a command without writing it (issue 33): its verb and one
more of its words, the safety flag its answer advises, the flags its answer writes beside a
program it names; forms that do the same thing under another name; and the guards against
warning on what only looks alike (a preview, a product's name, a one-word flag of another
program). Examples are ours, outside the development set."""

from __future__ import annotations

from typing import Any

from xdb.engine import prose_vocabulary, trigger_match, triggers
from xdb.engine.calls import parse_call


def said(question: str, answer: str, command: str, tool: str = "Bash", **more: Any) -> str:
    trigger = triggers.derive(question, answer)
    data = {"command": command} if tool == "Bash" else {"file_path": command, **more}
    seen = trigger_match.seen(parse_call(tool, data, "/w/app"))
    return trigger_match.match(trigger, seen, 1.0, 1.0, question)


def test_a_command_told_in_words_is_a_repeat() -> None:
    question = "a forced checkout of the release branch threw away my staged changes"
    answer = "commit or stash first"
    assert said(question, answer, "git checkout --force release/3.1") == triggers.HIT
    assert said(question, answer, "git checkout release/3.1") != triggers.HIT  # no "forced"
    question = "reloading postgresql with a typo in pg_hba.conf locked everyone out"
    answer = "check the file with a second session open"
    assert said(question, answer, "sudo systemctl reload postgresql") == triggers.HIT
    assert said(question, answer, "sudo systemctl reload nginx") != triggers.HIT


def test_a_command_that_only_reads_or_previews_is_not_told() -> None:
    question = "a forced checkout of the release branch threw away my staged changes"
    assert said(question, "stash first", "git status --short") != triggers.HIT
    assert said(question, "stash first", "python tools/checkout.py --force") != triggers.HIT


def test_the_advised_safety_flag_makes_its_command_the_mistake_without_it() -> None:
    q, a = "a bad chart was released to the repository", "run helm release --dry-run first"
    trigger = triggers.derive(q, a)
    assert [f.safe for f in trigger.commands] == [frozenset({"--dry-run"})]
    assert said(q, a, "helm release ./charts/api") == triggers.HIT
    assert said(q, a, "helm release ./charts/api --dry-run") == triggers.SAFE
    # A flag that is no safety flag tells nothing of the mistake: it is a feature.
    q, a = "the image build took twenty minutes", "build with --cache-from the last image"
    assert said(q, a, "docker build -t api .") != triggers.HIT


def test_flags_the_answer_writes_beside_a_program_it_names_are_required() -> None:
    q = "an aws command in the cron job ran with the default profile, which was production"
    a = "pass --profile on every aws command the job runs"
    assert said(q, a, "aws ec2 terminate-instances --instance-ids i-0abc") == triggers.HIT
    assert said(q, a, "aws --profile dev ec2 terminate-instances --instance-ids i-0abc") == (
        triggers.SAFE
    )


def test_a_literal_the_lesson_writes_is_part_of_its_form() -> None:
    q, a = "chmod 666 on the socket let any user talk to the daemon", "use a group and 660"
    assert said(q, a, "chmod 0666 /run/app.sock") == triggers.HIT
    assert said(q, a, "chmod 660 /run/app.sock") != triggers.HIT


def test_forms_of_the_same_thing_under_other_names() -> None:
    q, a = "helm uninstall of the wrong release took the queue down", "name the namespace"
    assert said(q, a, "helm delete queue") == triggers.HIT
    q, a = "docker rmi -f removed an image a running service needed", "prune unused ones only"
    assert said(q, a, "docker image rm -f api:1.2") == triggers.HIT


def test_a_one_word_flag_repeats_only_on_the_command_told_of() -> None:
    q, a = "purging the old releases with --yes removed the current one too", "list first"
    assert said(q, a, "apt-get install -y jq") != triggers.HIT
    assert said(q, a, "releasectl purge --older-than 30d --yes") == triggers.HIT


def test_a_product_name_is_not_code() -> None:
    trigger = triggers.derive("a GitLab runner token leaked into the job log", "mask it")
    assert "gitlab" not in trigger.code


def _bash_call(command: str) -> dict[str, Any]:
    return {"tool_name": "Bash", "tool_input": {"command": command}}


def _matches(trigger: triggers.Trigger, command: str) -> str:
    seen = trigger_match.seen(parse_call("Bash", {"command": command}, "/w/app"))
    return trigger_match.match(trigger, seen, 1.0, 1.0)


def test_a_fix_that_runs_a_step_then_the_same_command_makes_the_step_the_lesson() -> None:
    trigger = triggers.derive(
        "`svn revert -R .` failed: E155007: not a working copy",
        "it passed as `svn diff > ../before.patch && svn revert -R .`",
        _bash_call("svn revert -R ."),
        _bash_call("svn diff > ../before.patch && svn revert -R ."),
    )
    assert _matches(trigger, "svn revert -R src/") == triggers.HIT
    assert _matches(trigger, "svn diff > /tmp/x.patch && svn revert -R src/") == triggers.SAFE


def test_a_lesson_learned_on_a_call_reads_nothing_from_its_error_output() -> None:
    trigger = triggers.derive(
        "`crontab -r` failed: crontab: no crontab for deploy",
        "it passed as `crontab -l > cron.bak && crontab -r`",
        _bash_call("crontab -r"),
        _bash_call("crontab -l > cron.bak && crontab -r"),
    )
    assert not {"crontab", "deploy"} & trigger.safe and trigger.code == frozenset()
    assert _matches(trigger, "sudo crontab -u www-data -r") == triggers.HIT


def test_what_an_edits_fix_adds_is_safe_only_where_it_reads_as_an_api() -> None:
    def edit(text: str) -> dict[str, Any]:
        return {"tool_name": "Edit",
                "tool_input": {"file_path": "/w/app/api.py", "new_string": text}}  # fmt: skip

    trigger = triggers.derive(
        "Edit /w/app/api.py adding `r = httpx.get(url)` broke `pytest -q`",
        "it passed after the fix",
        edit("r = httpx.get(url)"),
        edit("users = fetch_all()\nr = httpx.get(url, timeout=5)"),
    )
    assert "timeout" in trigger.safe and "users" not in trigger.safe


def test_a_form_that_says_only_its_fix_leaves_the_call_to_the_named_mistake() -> None:
    """``rsync`` without ``--dry-run`` is every rsync; the known mistake the lesson names
    (``rsync --delete``) tells which one harms."""
    question = "rsync mirrored a deletion to the backup host and removed last month of archives"
    answer = "preview every rsync with --dry-run first"
    assert triggers.derive(question, answer).known == frozenset(("fs-rsync-delete",))
    assert said(question, answer, "rsync -avz backups/ nas:/volume1/backups/") == triggers.MISS
    assert said(question, answer, "rsync -av --delete backups/ nas:/b/") == triggers.HIT
    assert said(question, answer, "rsync -av --delete --dry-run backups/ nas:/b/") == (
        triggers.SAFE
    )


def test_a_lesson_learned_on_a_call_is_about_the_mistake_that_call_made() -> None:
    """Its form is the failing command (``rm -rf``); the known mistake the command made (an
    unset variable) says which ``rm -rf`` repeats it."""
    failing = {"tool_name": "Bash", "tool_input": {"command": 'rm -rf "$BUILD_DIR"/*'}}
    answer = "guard the variable with ${BUILD_DIR:?} so an empty one stops the command"
    trigger = triggers.derive('Bash rm -rf "$BUILD_DIR"/*', answer, failing)
    assert trigger.on_call and "fs-rm-rf-variable" in trigger.known
    assert triggers.Trigger.from_json(trigger.to_json()) == trigger

    def run(command: str) -> str:
        seen = trigger_match.seen(parse_call("Bash", {"command": command}, "/w/app"))
        return trigger_match.match(trigger, seen, 1.0, 1.0, "")

    assert run("rm -rf ./build ./dist") == triggers.MISS
    assert run('rm -rf "$OUT_DIR"/*') == triggers.HIT
    assert run('rm -rf "${OUT_DIR:?}"/*') == triggers.SAFE
    # Found in the call by resemblance rather than named, the mistake decides the same.
    guessed = triggers.derive('Bash rm -rf "$BUILD_DIR"/*', "guard it", failing)
    assert "fs-rm-rf-variable" in guessed.resembles and not guessed.known
    trigger = guessed
    assert run("rm -rf ./build ./dist") == triggers.MISS
    assert run('rm -rf "$OUT_DIR"/*') == triggers.HIT


def test_a_quoted_flag_or_lone_word_is_no_command() -> None:
    """An answer quotes what changed ("added `--context=staging`", "`feature/x` instead of
    `main`"): a flag alone or a word that names no program is not a form to run."""
    made = triggers.prose_commands(
        "it passed as `kubectl --context staging delete deployment api` (added"
        " `--context=staging`); `feature/login-fix` instead of `master`; then `make`"
    )
    assert [c.program for c in made] == ["kubectl", "make"]
    assert [c.program for c in triggers.prose_commands("run `rsync -a --dry-run src/ dst/`")] == [
        "rsync"
    ]


def test_a_flag_told_in_words_is_the_flag() -> None:
    # "without the X flag": what the mistake lacked; "with the X flag": what it gave.
    q = "ran restic forget on the shared repository without the dry-run flag and lost snapshots"
    a = "look at what it would remove first"
    assert said(q, a, "restic forget --keep-last 3") == triggers.HIT
    assert said(q, a, "restic forget --keep-last 3 --dry-run") == triggers.SAFE
    q = "merged with glab mr merge and the capital Y flag, skipping the pipeline"
    assert triggers.derive(q, "wait for the pipeline").commands[0].flags == frozenset({"-Y"})
    # A word that describes rather than names a flag is left alone.
    assert prose_vocabulary.flags_told("used the wrong flag again") == "used the wrong flag again"
    assert prose_vocabulary.flags_told("the lowercase flag") == "the lowercase flag"


def test_a_tool_named_as_its_product_is_the_program_and_nothing_after_it() -> None:
    q = "Vagrant destroyed the box with the team's database on it"
    a = "snapshot the box before any teardown"
    assert [f.program for f in triggers.derive(q, a).commands] == ["vagrant"]
    assert prose_vocabulary.products("with the Kubernetes CLI") == "with kubectl ;"
    # (its following words are no subcommand: "a Docker build ARG" is no ``docker build``)
    trigger = triggers.derive("a token passed as a Docker build ARG leaked", "use secrets")
    assert all(not f.subcommand for f in trigger.commands)
    # An English word capitalised at a sentence's start is no program.
    assert not triggers.derive("Make sure the cache is warm", "warm it first").commands


def test_an_option_of_an_instruction_in_capitals_is_code_not_a_flag() -> None:
    q, a = (
        "a secret passed to docker as a build argument stayed in the image",
        ("mount it instead: RUN --mount=type=secret,id=npm"),
    )
    assert all("--mount" not in f.safe for f in triggers.derive(q, a).commands)


def test_a_program_read_generically_is_told_apart_by_its_first_two_words() -> None:
    q, a = "`hcloud server delete` removed the wrong machine", "use hcloud server shutdown first"
    assert said(q, a, "hcloud server delete web-3") == triggers.HIT
    assert said(q, a, "hcloud server describe web-3") != triggers.HIT


def test_only_a_flag_right_after_the_word_saying_so_was_lacking() -> None:
    # (a flag later in the clause is what the mistake gave)
    q = "git push without review and with --force overwrote main"
    assert said(q, "open a pull request", "git push --force origin main") == triggers.HIT


def test_a_flag_in_words_joins_its_command_only_where_a_letter_names_it() -> None:
    q = "git reset --hard and the feature flag was still on, so work was lost"
    assert said(q, "stash first", "git reset --hard HEAD~1") == triggers.HIT
    assert prose_vocabulary.flags_told("kubectl with the all namespaces flag") == (
        "kubectl with --all-namespaces"
    )
    assert prose_vocabulary.flags_told("without the dry run flag") == "without --dry-run"
    # A past tense before a flag is the sentence's verb, not a program.
    assert not triggers.derive("passed the force flag to the deploy", "never").commands


def test_only_a_dockerfile_instructions_options_are_code() -> None:
    q, a = "pg_restore on prod half applied", "run with ONLY --single-transaction"
    assert said(q, a, "pg_restore --single-transaction -d prod dump") == triggers.SAFE


def test_a_call_learned_on_keeps_one_word_of_a_generic_program() -> None:
    # (its second word is what it acted on: another box is the same mistake)
    failing = {"tool_name": "Bash", "tool_input": {"command": "vagrant destroy db -f"}}
    trigger = triggers.derive("it destroyed the box", "snapshot first", failing)
    seen = trigger_match.seen(parse_call("Bash", {"command": "vagrant destroy web -f"}, "/w"))
    assert trigger_match.match(trigger, seen, 1.0, 1.0, "") == triggers.HIT


def test_long_prose_is_read_in_linear_time() -> None:
    # (every tool call reads its candidates' lessons; 100 KB of words once took 6 s)
    assert triggers.prose_commands("x y " * 25_000) == []
    assert prose_vocabulary.flags_told("with the " * 20_000 + "flag").endswith("flag")


def test_a_flag_the_answer_gives_a_program_is_what_an_effect_lacked() -> None:
    # The question tells only the effect; the answer names the program and its flag.
    q = "the nightly copy to the NAS filled the disk with half-written files after the link dropped"
    a = "pass --partial-dir=.rsync-partial to rsync so an interrupted file is resumed"
    assert said(q, a, "rsync -a src/ nas:/backup/") == triggers.HIT
    assert said(q, a, "rsync -a --partial-dir=.rsync-partial src/ nas:/backup/") == triggers.SAFE


def test_a_programs_bare_name_in_the_answer_is_no_safe_use() -> None:
    # ("on both pg_dump and psql" names no use of either that is safe)
    q = "the restore cut every name with an accent"
    a = "dump and load with --encoding=UTF8 on both pg_dump and psql"
    assert said(q, a, "psql -d shop -f dump.sql") == triggers.HIT


def test_a_product_name_that_starts_a_command_line_keeps_it() -> None:
    # ("Terraform destroy -auto-approve": a word and a flag follow the name)
    trigger = triggers.derive("Terraform destroy -auto-approve wiped the shared VPC", "plan first")
    assert [(f.program, f.subcommand) for f in trigger.commands] == [("terraform", ("destroy",))]
