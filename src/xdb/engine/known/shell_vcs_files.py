"""Known mistakes of a shell command line: git (force pushes, pushes straight to main,
hard resets, discarded and stashed work dropped, secrets staged, hooks skipped, shared
history rewritten, branches and tags deleted or moved).

The file system's commands are in ``shell_vcs_files_fs``, the system's and the network's
in ``shell_vcs_files_sys``, package managers' in ``shell_vcs_files_pkg``.
"""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

# One simple command's text: no newline and no operator that starts another command.
S = r"[^\n;&|]"
# git with its global options (-C dir, -c key=value, --no-pager ...), not a path's ".git".
GIT = r"(?<![\w./-])git\s+(?:-[cC]\s+\S+\s+|--[\w-]+(?:=\S+)?\s+)*"
# A stash (push) before the command: uncommitted work is kept.
STASH_FIRST = r"\bgit\s+stash(?:\s+(?:push|save)\b|\s*(?:$|&&|;|\|\|))"
# A command's words up to a flag: a quoted word (a commit message) is one word, so a flag
# spelled inside it is not taken for one.
ARGS = r"(?:\s+(?:'[^'\n]*'|\"[^\"\n]*\"|[^\s'\";&|]+))*?\s+"
END = r"(?=\s|$|[;&|)'\"])"

PATTERNS: list[Pattern] = [
    pattern(
        "git-force-push",
        "force push | force-pushed | push --force | overwrote remote history"
        " | force with lease | force-with-lease | erased teammate commits"
        " | push overwrote | rewrite the remote | overwrote origin",
        "shell",
        GIT + r"push\b" + S + r"*?(?:\s(?:-[a-zA-Z]*f[a-zA-Z]*|--force(?:-with-lease|-if-includes)?"
        r"(?:=\S*)?|--mirror)" + END + r"|\s\+[\w./:-]+)",
        r"--force-with-lease|--force-if-includes",
        hits=(
            "git push --force origin main",
            "cd api && git push -f",
            "git push origin +release/2.3",
            "git -C ../svc push -uf origin HEAD",
            "git push --mirror git@github.com:acme/shop.git",
        ),
        safe=(
            "git push --force-with-lease origin feature/cart",
            "git push origin feature/cart",
            "git push -u origin fix/typo",
            "git push --force-if-includes --force-with-lease",
        ),
    ),
    pattern(
        "git-push-main-directly",
        "pushed directly to main | push directly to master | push straight to main"
        " | direct push to main | bypassed pull request | open a pull request instead"
        " | push master pr | push main pr",
        "shell",
        GIT + r"push\b(?:\s+-\S+)*\s+(?!-)[^\s;&|]+\s+(?:[^\s;&|]+\s+)*?(?:[^\s;&|]*:)?"
        r"(?:refs/heads/)?(?:main|master|trunk)" + END,
        hits=(
            "git push origin main",
            "git add . && git commit -m wip && git push -u origin master",
            "git push upstream HEAD:main",
            "git push origin refs/heads/trunk --tags",
        ),
        safe=(
            "git push origin feature/main-menu",
            "git push -u origin fix/typo",
            "git push origin main:release-candidate",
            "git pull origin main",
        ),
    ),
    pattern(
        "git-reset-hard",
        "reset --hard | hard reset | reset hard | lost uncommitted changes"
        " | wiped uncommitted work | stash before reset",
        "shell",
        GIT + r"reset\b" + S + r"*\s--hard\b",
        STASH_FIRST + r"|\bgit\s+(?:branch|tag)\s+(?!-)[\w./-]+",
        hits=(
            "git reset --hard origin/main",
            "git fetch && git reset --hard HEAD~2",
            "cd repo; git reset -q --hard",
            "git -C ../web reset --hard @{u}",
        ),
        safe=(
            "git stash && git reset --hard origin/main",
            "git branch backup/wip && git reset --hard HEAD~1",
            "git reset --soft HEAD~1",
            "git reset HEAD src/app.py",
        ),
    ),
    pattern(
        "git-clean-force",
        "clean -fdx | clean -fd | git clean -f | deleted untracked files"
        " | removed untracked files | untracked files lost | git clean dry run"
        " | cleaned untracked files | untracked files deleted | removed untracked files",
        "shell",
        GIT + r"clean\b" + S + r"*\s(?:-[a-zA-Z]*f[a-zA-Z]*|--force)\b",
        GIT + r"clean\b" + S + r"*\s(?:-[a-zA-Z]*[ni][a-zA-Z]*|--dry-run|--interactive)\b",
        hits=(
            "git clean -fdx",
            "git clean -f -d",
            "cd web && git clean --force -x -e .env",
            "git clean -ffd",
        ),
        safe=(
            "git clean -n -d",
            "git clean -ndx",
            "git clean -n && git clean -fd",
            "git status --ignored",
        ),
    ),
    pattern(
        "git-checkout-discard",
        "discarded local changes | discard uncommitted changes | git checkout discarded"
        " | git restore discarded | threw away uncommitted | lost uncommitted changes"
        " | overwrote local edits"
        " | threw away modifications | git restore threw away",
        "shell",
        GIT + r"(?:checkout\b" + S + r"*?\s(?:--(?=\s)|-f\b|--force\b|\.(?=\s|$|[;&|)]))"
        r"|switch\b" + S + r"*?\s(?:--discard-changes|-f|--force)\b"
        r"|restore\b(?!" + S + r"*\s(?:--staged|-S)(?=\s|$))" + S + r"*\s(?!-)\S)",
        STASH_FIRST,
        hits=(
            "git checkout -- src/cart.py",
            "git checkout .",
            "git restore web/app.tsx",
            "git checkout HEAD -- config/settings.yml",
            "git switch --discard-changes main",
            "git restore --source=HEAD~3 lib/",
        ),
        safe=(
            "git checkout -b fix/typo",
            "git checkout feature/cart",
            "git restore --staged src/app.py",
            "git stash push -m wip && git checkout -- .",
        ),
    ),
    pattern(
        "git-add-everything",
        "committed everything | staged everything | committed secret | committed env file"
        " | committed node_modules | committed build artifacts | stage specific files"
        " | stages every file | staged all files | stage all changes"
        " | git add repo root",
        "shell",
        GIT + r"(?:add\b" + S + r"*?\s(?:-A\b|--all\b|\.(?=\s|$|[;&|)])|\*(?=\s|$))"
        r"|commit" + ARGS + r"(?:-[a-zA-Z]*a[a-zA-Z]*\b|--all\b))",
        hits=(
            "git add -A && git commit -m 'update'",
            "git add .",
            "git commit -am 'wip'",
            "git add --all; git push",
            "git commit -a -m 'Fix build'",
        ),
        safe=(
            "git add src/app.py tests/test_app.py",
            "git commit -m 'Fix rounding in cart totals'",
            "git commit -m 'Remove -a flag handling'",
            "git add -p src/cart.py",
            "git commit --amend --no-edit",
        ),
    ),
    pattern(
        "git-add-secret-or-ignored",
        "committed .env | committed private key | force added ignored file | git add -f"
        " | gitignored file committed | committed secret | committed credentials",
        "shell",
        GIT + r"add\b" + S + r"*?\s(?:-[a-zA-Z]*f[a-zA-Z]*\b|--force\b|['\"]?[^\s;&|'\"]*"
        r"(?:\.env(?:\.(?!example|sample|template|dist)\w+)?|\.pem|\.key|\.p12|\.pfx|id_rsa"
        r"|id_ed25519|credentials\.json|\.npmrc|\.pypirc|secrets?\.(?:ya?ml|json|toml)"
        r"|\.tfstate(?:\.backup)?|\.jks|\.keystore)" + END + r")",
        hits=(
            "git add .env",
            "git add -f dist/bundle.js",
            "git add config/prod.key src/app.py",
            "git add --force .env.production",
            "git add deploy/credentials.json",
        ),
        safe=(
            "git add .env.example",
            "git add src/env.ts",
            "git add src/app.py",
            "git add .gitignore",
        ),
    ),
    pattern(
        "git-commit-no-verify",
        "--no-verify commit | skipped pre-commit hooks | skip commit hooks | bypassed hooks"
        " | bypass git hooks | hooks skipped | husky=0",
        "shell",
        GIT
        + r"(?:commit|push|merge|am|cherry-pick|rebase)"
        + ARGS
        + r"--no-verify\b|"
        + GIT
        + r"commit"
        + ARGS
        + r"-[a-zA-Z]*n[a-zA-Z]*\b"
        r"|\bHUSKY=0\b|\bHUSKY_SKIP_HOOKS=1|\bSKIP=[\w,-]+\s+git\s+commit"
        r"|core\.hooksPath=/dev/null",
        hits=(
            "git commit --no-verify -m 'wip'",
            "git commit -nm 'quick fix'",
            "HUSKY=0 git commit -m release",
            "git push --no-verify origin feature/x",
            "git commit -a -n -m 'skip lint'",
        ),
        safe=(
            "git commit -m 'Fix rounding in cart totals'",
            "pre-commit run --all-files && git commit -m lint",
            "git commit -m 'Document the -n and --no-verify flags'",
            "git push origin feature/cart",
            "git commit --amend --no-edit",
        ),
    ),
    pattern(
        "git-rebase-shared-branch",
        "rebased shared branch | rebase shared branch | rebased pushed commits"
        " | rebase published branch | rewrote shared history | merge instead of rebase"
        " | rebase rewrote commits | rebase unpublished commits"
        " | rebased teammates commits"
        " | rewrote history rebasing",
        "shell",
        GIT + r"rebase\b(?!" + S + r"*\s--(?:continue|abort|skip|quit|edit-todo"
        r"|show-current-patch)\b)" + S + r"*\s(?:(?!-)\S|--root\b)",
        hits=(
            "git rebase main",
            "git rebase -i HEAD~5",
            "git fetch && git rebase origin/develop",
            "git rebase --onto main feature/a feature/b",
        ),
        safe=(
            "git rebase --continue",
            "git pull --rebase",
            "git merge origin/main",
            "git rebase --abort",
        ),
    ),
    pattern(
        "git-amend-pushed-commit",
        "amended pushed commit | amend pushed commit | amend published commit"
        " | amended a commit already pushed | amending shared commits",
        "shell",
        GIT + r"commit" + ARGS + r"--amend\b",
        hits=(
            "git commit --amend --no-edit",
            "git commit -a --amend -m 'Fix typo'",
            "git add . && git commit --amend",
        ),
        safe=(
            "git commit -m 'Fix typo'",
            "git commit --fixup HEAD~1",
            "git revert --no-edit HEAD",
        ),
    ),
    pattern(
        "git-branch-force-delete",
        "git branch -D | force deleted branch | force delete branch | deleted unmerged branch"
        " | unmerged commits lost | not fully merged"
        " | deleted branch never merged",
        "shell",
        # -D, or a delete flag and a force flag anywhere in the command, in either order.
        GIT
        + r"branch\b(?:"
        + S
        + r"*?\s-[a-zA-Z]*D[a-zA-Z]*"
        + END
        + r"|(?="
        + S
        + r"*?\s(?:-[a-zA-Z]*d[a-zA-Z]*|--delete)"
        + END
        + r")"
        + S
        + r"*?\s(?:-[a-zA-Z]*f[a-zA-Z]*|--force)"
        + END
        + r")",
        hits=(
            "git branch -D feature/cart",
            "git branch -rD origin/old",
            "git branch --delete --force hotfix/1.2",
            "git branch -d -f spike/auth",
        ),
        safe=(
            "git branch -d feature/cart",
            "git branch --merged",
            "git branch -m old new",
            "git switch -c fix/typo",
        ),
    ),
    pattern(
        "git-push-delete-remote",
        "deleted remote branch | delete remote branch | deleted remote tag"
        " | removed remote branch | deleted branch on origin",
        "shell",
        GIT + r"push\b" + S + r"*?\s(?:--delete\b|-d\b|:[\w./-]+)",
        hits=(
            "git push origin --delete release/2.3",
            "git push origin :feature/old",
            "git push -d upstream v1.2.0",
            "git push origin :refs/tags/v2.0.0",
        ),
        safe=(
            "git push origin HEAD:feature/x",
            "git push origin feature/cart",
            "git branch -d feature/cart",
        ),
    ),
    pattern(
        "git-tag-moved",
        "moved release tag | retagged release | deleted git tag | git tag force | git tag -f"
        " | re-tag published | moved a published tag"
        " | recreated tag | recreated release tag | re-tagged | retag a release",
        "shell",
        GIT + r"tag\b" + S + r"*?\s(?:-[a-zA-Z]*[fd][a-zA-Z]*\b|--force\b|--delete\b)",
        hits=(
            "git tag -f v1.4.0",
            "git tag -d v2.0.0 && git tag v2.0.0",
            "git tag --force -a release-7 -m 'redo'",
            "git tag -fa v3.1 HEAD",
        ),
        safe=(
            "git tag -a v1.4.1 -m 'Release 1.4.1'",
            "git tag -l 'v1.*'",
            "git tag v2.0.1",
            "git push origin v1.4.1",
        ),
    ),
    pattern(
        "git-stash-drop",
        "stash drop | stash clear | dropped stash | cleared stash | lost stashed changes"
        " | stash lost",
        "shell",
        GIT + r"stash\s+(?:drop|clear)\b",
        hits=(
            "git stash drop",
            "git stash clear",
            "git stash drop stash@{2}",
            "git -C web stash clear",
        ),
        safe=("git stash list", "git stash pop", "git stash push -m wip", "git stash show -p"),
    ),
    pattern(
        "git-filter-branch",
        "filter-branch | filter-repo | rewrote git history | rewrite repository history"
        " | bfg repo-cleaner | purged file from history"
        " | rewrote the repo history | rewrote repository history",
        "shell",
        GIT
        + r"filter-(?:branch|repo)\b|(?:^|[\s;&|('\"])(?:java\s+-jar\s+\S*)?bfg(?:[\w.-]*\.jar)?"
        r"\s+--(?:delete|replace|strip)",
        r"--dry-run|--analyze",
        hits=(
            "git filter-branch --force --index-filter 'git rm --cached secrets.env' HEAD",
            "git filter-repo --path config/prod.key --invert-paths",
            "java -jar bfg-1.14.0.jar --delete-files id_rsa",
            "bfg --replace-text passwords.txt",
        ),
        safe=(
            "git filter-repo --analyze",
            "git log --follow config/prod.key",
            "git filter-repo --dry-run --path a",
        ),
    ),
    pattern(
        "git-clone-without-submodules",
        "recurse-submodules | submodules empty | submodule not initialized"
        " | empty submodule directory | submodule update --init",
        "shell",
        GIT + r"clone\b|(?:^|[\s;&|(])gh\s+repo\s+clone\b",
        r"--recurse-submodules|--recursive|\bsubmodule\s+update\b",
        hits=(
            "git clone git@github.com:acme/firmware.git",
            "git clone --depth 1 https://github.com/acme/app",
            "cd /src && git clone -b v2 https://gitlab.com/acme/core.git core",
        ),
        safe=(
            "git clone --recurse-submodules git@github.com:acme/firmware.git",
            "git clone https://github.com/acme/app && cd app && git submodule update --init",
            "git submodule status",
        ),
    ),
    pattern(
        "git-reflog-prune",
        "reflog expire | gc --prune=now | prune now | unrecoverable commits | lost reflog"
        " | reflog gone"
        " | gc aggressive | pruned unreachable objects | git gc prune",
        "shell",
        GIT
        + r"(?:reflog\s+delete\b|reflog\s+expire\b"
        + S
        + r"*--expire(?:-unreachable)?=(?:now|all|0)\b"
        r"|gc\b" + S + r"*--prune=(?:now|all)\b|prune\b(?!" + S + r"*\s(?:-n\b|--dry-run)))",
        hits=(
            "git reflog expire --expire=now --all",
            "git gc --prune=now --aggressive",
            "git prune",
            "git reflog expire --expire-unreachable=now --all && git gc",
        ),
        safe=("git gc", "git fetch --prune", "git remote prune origin", "git prune --dry-run"),
    ),
]
