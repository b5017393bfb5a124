"""Known mistakes of a shell command line: package managers (pip outside a virtualenv or
with --break-system-packages, global npm installs, upgrading every dependency at once in
each ecosystem, npm audit fix --force, --legacy-peer-deps, unpinned pip installs and git
dependencies, dev tools as runtime dependencies, CI installs ignoring the lockfile, a
deleted lockfile).
"""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

S = r"[^\n;&|]"
END = r"(?=\s|$|[;&|)'\"])"
# No positional argument follows in this command (a package name would).
NO_ARG = r"(?!" + S + r"*\s(?!-)[\w@'\"*])"
# No positional argument (a crate's name) follows cargo update: the values of its options
# that take one are not names.
CARGO_VALUE = r"--(?:manifest-path|lockfile-path|config|color|target-dir)(?![\w-])"
CARGO_NO_ARG = (
    r"(?![ \t]*(?:(?:" + CARGO_VALUE + r"(?:=|[ \t]+)|-Z[ \t]*)[^\s;&|]+(?![^\s;&|])[ \t]*"
    r"|-(?!-(?:manifest-path|lockfile-path|config|color|target-dir)(?![\w-])|Z)[^\s;&|]*"
    r"(?![^\s;&|])[ \t]*)*"
    r"(?<=\s)(?!-)[\w@'\"*])"
)
# Saying "all at once" for every ecosystem's bulk upgrade: a lesson about one names all.
BULK = (
    "upgraded all dependencies | updated all dependencies | upgrade all dependencies"
    " | bulk dependency upgrade | upgraded every package | upgrade one package at a time"
)
JS_DEV_TOOLS = (
    r"(?:eslint[\w-]*|@typescript-eslint/[\w.-]+|prettier|jest|vitest|mocha|chai|typescript"
    r"|@types/[\w.-]+|nodemon|ts-node|husky|lint-staged|@testing-library/[\w.-]+|cypress"
    r"|playwright|@playwright/test|ts-jest|webpack-cli|stylelint|@vitejs/plugin-[\w-]+)"
)

PATTERNS: list[Pattern] = [
    pattern(
        "pkg-pip-outside-venv",
        "outside the virtualenv | outside venv | installed into system python"
        " | global site-packages | without a virtual environment | activate the venv first"
        " | polluted interpreter | install into a venv | installed into the venv"
        " | virtualenv not activated | venv not activated",
        "shell",
        r"(?:^|[;&|(]\s*|\b(?:sudo|time|nohup|command|exec)\s+(?:-\S+\s+)*|\benv\s+(?:-\S+\s+)*"
        r"|\b(?:ba|z|da)?sh\s+-[a-z]*c\s+['\"]\s*|\bssh\s+[^'\"\n;&|]*?\s['\"]\s*)"
        r"(?:[A-Z_][A-Z\d_]*=\S*\s+)*(?:pip[\d.]*|python[\d.]*\s+-m\s+pip)\s+install\s+"
        r"(?!(?:-\S+\s+)*(?:-r|--requirement|-e|--editable|-c|--constraint)\b)(?:-\S+\s+)*"
        r"['\"]?[A-Za-z]",
        r"\bVIRTUAL_ENV\b|\b(?:source|\.)\s+\S*/bin/activate\b|\bvirtualenv\s|\bconda\s+activate"
        r"|\bpoetry\s+shell\b|\bpipx\s",
        hits=(
            "pip install requests",
            "pip3 install --upgrade boto3",
            "cd api && python3 -m pip install 'fastapi[all]'",
            "python -m pip install -U black",
        ),
        safe=(
            "source .venv/bin/activate && pip install requests",
            ".venv/bin/pip install requests",
            "uv pip install requests",
            "pip install -r requirements.txt",
            "pipx install ruff",
        ),
    ),
    pattern(
        "pkg-break-system-packages",
        "break-system-packages | externally-managed-environment | externally managed environment"
        " | pep 668 | deleted externally-managed",
        "shell dockerfile",
        r"--break-system-packages\b|\bPIP_BREAK_SYSTEM_PACKAGES=['\"]?(?:1|true)"
        r"|\bbreak-system-packages\s*[=\s]\s*['\"]?(?:1|true|yes|on)\b"
        r"|\brm\s" + S + r"*EXTERNALLY-MANAGED",
        hits=(
            "pip install --break-system-packages httpx",
            "sudo pip3 install --user --break-system-packages ansible",
            "PIP_BREAK_SYSTEM_PACKAGES=1 pip install flask",
            "sudo rm /usr/lib/python3.12/EXTERNALLY-MANAGED",
        ),
        safe=(
            "python3 -m venv .venv && .venv/bin/pip install httpx",
            "pipx install ansible",
            "pip install -r requirements.txt",
        ),
    ),
    pattern(
        "pkg-npm-global-install",
        "npm install -g | installed globally | global npm install | yarn global add"
        " | use npx instead | global package version drift",
        "shell",
        r"\b(?:npm\s+(?:install|i|add)|pnpm\s+(?:add|install|i)|bun\s+(?:add|install|i))\b"
        + S
        + r"*?\s(?:-g|--global|--location[=\s]global)"
        + END
        + r"|\bnpm\s+(?:-g|--global)\s+(?:install|i)\b|\byarn\s+global\s+add\b",
        hits=(
            "npm install -g typescript",
            "npm i --global @angular/cli",
            "yarn global add serve",
            "pnpm add -g vercel",
        ),
        safe=("npx tsc --noEmit", "npm install --save-dev typescript", "npm ci", "npm ls -g"),
    ),
    pattern(
        "pkg-js-upgrade-everything",
        BULK + " | yarn upgrade --latest | npm update everything | ncu -u | pnpm update --latest"
        " | npm update every package | update one dependency at a time",
        "shell",
        r"\bnpm\s+(?:update|upgrade|up)(?![\w-])"
        + NO_ARG
        + r"|\byarn\s+upgrade(?![\w-])"
        + NO_ARG
        + r"|\byarn\s+up\s+['\"]?\*|\bpnpm\s+(?:update|up|upgrade)(?![\w-])"
        + NO_ARG
        + r"|\b(?:npm-check-updates|ncu)\b"
        + S
        + r"*\s(?:-[a-zA-Z]*u|--upgrade)\b",
        hits=(
            "npm update",
            "yarn upgrade --latest",
            "pnpm up -r --latest",
            "npx npm-check-updates -u && npm install",
            "cd web && npm update --save",
        ),
        safe=(
            "npm update lodash",
            "yarn upgrade react@18.3.1",
            "pnpm update vite --latest",
            "npm outdated",
        ),
    ),
    pattern(
        "pkg-npm-audit-fix-force",
        "npm audit fix --force | audit fix force | audit --force breaking changes"
        " | audit fix installed major versions",
        "shell",
        # npm's own options (--prefix web, -C web) may come before the subcommand.
        r"\bnpm\s+(?:-{1,2}\w[\w-]*(?:[=\s](?!-)[^\s;&|]+)?\s+)*?audit\s+fix\b"
        + S
        + r"*\s(?:--force|-f)\b",
        hits=(
            "npm audit fix --force",
            "cd web && npm audit fix --force --legacy-peer-deps",
            "npm audit fix --only=prod --force",
        ),
        safe=("npm audit fix", "npm audit --production", "npm audit fix --dry-run"),
    ),
    pattern(
        "pkg-npm-force-legacy-peer-deps",
        "legacy-peer-deps | npm install --force conflict | peer dependency conflict"
        " | peer dependencies conflict | unable to resolve dependency tree"
        " | npm install --force | npm i --force | eresolve error | fix peer dependencies"
        " | peer dependency errors | ignored peer dependency",
        "shell",
        r"\b(?:npm|pnpm)\s+(?:install|i|ci|add|update)\b"
        + S
        + r"*\s(?:--force|-f|--legacy-peer-deps)\b|\bnpm_config_legacy_peer_deps=['\"]?true"
        r"|\bnpm\s+config\s+set\s+legacy-peer-deps\s+true\b"
        r"|\blegacy-peer-deps\s*=\s*true\b['\"]?\s*>>?\s*\S*\.npmrc\b",
        hits=(
            "npm install --legacy-peer-deps",
            "npm i react-query@5 --force",
            "npm ci --legacy-peer-deps",
            "npm config set legacy-peer-deps true",
        ),
        safe=("npm install", "npm ci", "npm install --save-dev vitest", "npm ls react"),
    ),
    pattern(
        "pkg-go-get-u-all",
        BULK + " | go get -u ./... | go get -u all | upgraded all go modules",
        "shell",
        r"\bgo\s+get\s+"
        + S
        + r"*?-u(?:=patch)?\b"
        + S
        + r"*?\s(?:\./\.\.\.|all)"
        + END
        + r"|\bgo\s+get\s+(?:-\S+\s+)*-u(?:=patch)?(?=\s*(?:$|[;&|)]))",
        hits=("go get -u ./...", "go get -u all", "go get -t -u ./... && go mod tidy", "go get -u"),
        safe=(
            "go get github.com/acme/lib@v1.4.2",
            "go get -u golang.org/x/net",
            "go mod tidy",
            "go build ./cmd/api",
        ),
    ),
    pattern(
        "pkg-cargo-update-all",
        BULK + " | cargo update | cargo upgrade --incompatible | updated every crate"
        " | updated all crates | update one crate | cargo update -p",
        "shell",
        r"\bcargo\s+update\b(?!"
        + S
        + r"*\s(?:-p|--package|--precise|--dry-run)\b)"
        + CARGO_NO_ARG
        + r"|\bcargo\s+upgrade\b(?!"
        + S
        + r"*\s(?:-p|--package|--dry-run)\b)",
        hits=("cargo update", "cargo update --workspace", "cargo upgrade --incompatible"),
        safe=(
            "cargo update -p serde",
            "cargo update --package tokio --precise 1.38.0",
            "cargo build --release",
            "cargo update --dry-run",
        ),
    ),
    pattern(
        "pkg-python-upgrade-everything",
        BULK + " | poetry update | pip-compile --upgrade | uv lock --upgrade"
        " | upgraded every python package",
        "shell",
        r"\bpoetry\s+(?:update|up)\b"
        + NO_ARG
        + r"|\b(?:pipenv|pdm)\s+update\b"
        + NO_ARG
        + r"|\buv\s+(?:lock|sync)\b"
        + S
        + r"*?\s(?:--upgrade|-U)"
        + END
        + r"|\bpip-compile\b"
        + S
        + r"*\s(?:--upgrade|-U)"
        + END
        + r"|\bpip[\d.]*\s+(?:freeze|list)\b[^\n]*\|\s*xargs\s+(?:-\S+\s+)*\S*pip[\d.]*\s+install"
        r"\s+" + S + r"*(?:-U|--upgrade)\b",
        hits=(
            "poetry update",
            "uv lock --upgrade",
            "pip-compile --upgrade requirements.in",
            "pip list --outdated --format=freeze | cut -d= -f1 | xargs -n1 pip install -U",
            "pipenv update --dev",
        ),
        safe=(
            "poetry update requests",
            "uv lock --upgrade-package httpx",
            "pip-compile requirements.in",
            "poetry install",
        ),
    ),
    pattern(
        "pkg-brew-upgrade-all",
        BULK + " | brew upgrade | upgraded all homebrew packages | brew upgrade everything"
        " | homebrew upgrade | upgrade formulas individually | brew pin",
        "shell",
        r"\bbrew\s+upgrade\b" + NO_ARG,
        hits=("brew upgrade", "brew update && brew upgrade", "brew upgrade --greedy"),
        safe=("brew upgrade postgresql@16", "brew install jq", "brew update"),
    ),
    pattern(
        "pkg-system-upgrade-all",
        "apt upgrade | apt-get upgrade | dist-upgrade | unattended upgrade"
        " | upgraded all system packages | yum update"
        " | dnf upgrade | full system upgrade",
        "shell",
        r"\b(?:apt|apt-get|aptitude)\s+(?:-\S+\s+)*(?:upgrade|dist-upgrade|full-upgrade"
        r"|safe-upgrade)\b|\b(?:yum|dnf|microdnf)\s+(?:-\S+\s+)*(?:update|upgrade|distro-sync)\b"
        + NO_ARG
        + r"|\bapk\s+(?:-\S+\s+)*upgrade\b|\bpacman\s+-Syu\b"
        r"|\bzypper\s+(?:-\S+\s+)*(?:up|update|dup|dist-upgrade)\b" + NO_ARG,
        hits=(
            "sudo apt-get upgrade -y",
            "apt-get update && apt-get dist-upgrade -y",
            "sudo yum update -y",
            "apk upgrade --no-cache",
        ),
        safe=(
            "apt-get update && apt-get install -y --no-install-recommends curl=7.88.1-10",
            "sudo apt-get install --only-upgrade openssl",
            "sudo yum update -y openssl",
            "apt-cache policy nginx",
        ),
    ),
    pattern(
        "pkg-pip-unpinned",
        "unpinned pip install | pin package versions | versions not pinned"
        " | unpinned dependencies | pinned versions | pin exact versions"
        " | pip install without version | pip without a version | pin pip versions"
        " | requirements without versions",
        "shell",
        r"\bpip[\d.]*\s+install\s+(?:(?:-r|-c|-e|-i|-t|--requirement|--constraint|--editable"
        r"|--index-url|--extra-index-url|--target|--prefix|--root)\s+\S+\s+"
        r"|-(?![rceit]\s|-(?:requirement|constraint|editable|index-url|extra-index-url|target"
        r"|prefix|root)\b)\S+\s+)*['\"]?[A-Za-z][\w.-]*(?:\[[\w,.-]+\])?(?![\w.\[=<>~!@/:-])",
        hits=(
            "RUN pip install flask gunicorn",
            "pip install --no-cache-dir requests",
            "python -m pip install 'uvicorn[standard]'",
            "- run: pip3 install --upgrade awscli",
        ),
        safe=(
            "pip install flask==3.0.3 gunicorn==22.0.0",
            "pip install -r requirements.txt",
            "pip install --no-cache-dir -r requirements.lock",
            "pip install -e .",
            "pip install 'requests>=2.31,<3'",
        ),
    ),
    pattern(
        "pkg-git-dependency-unpinned",
        "unpinned git dependency | git dependency without pin | pin git dependency to commit"
        " | git url without commit hash | dependency on main branch"
        " | package from git | git dependency branch | rev in the git url | git url tag",
        "shell toml json",
        r"\bgit\+(?:https?|ssh|git|file)://(?:[^\s/@'\"]+@)?[^\s/'\"]+/[^\s@'\"#]+"
        r"(?:@(?:main|master|develop|dev|HEAD|trunk))?(?=[\s'\"]|$|#egg=)"
        r"|^[\w-]+\s*=\s*\{(?![^}\n]*\b(?:rev|tag)\s*=)[^}\n]*\bgit\s*=\s*\"[^\"]+\""
        r"|\"[\w@/.-]+\"\s*:\s*\"(?:github:|git\+\w+://|git://)[^\"#]+\""
        # npm install github:org/repo (no #commit)
        r"|\b(?:npm|pnpm|yarn)\s+(?:install|i|add)\b"
        + S
        + r"*?\s['\"]?(?:github|gitlab|bitbucket):"
        r"[^\s'\"#;&|]+['\"]?(?=\s|$|[;&|)])"
        # go get of a module at a branch; cargo add --git without --rev or --tag.
        r"|\bgo\s+get\b" + S + r"*?\s\S+@(?:main|master|develop|dev|trunk|HEAD)(?=\s|$|[;&|)])"
        r"|\bcargo\s+add\b(?!" + S + r"*\s--(?:rev|tag)\b)" + S + r"*\s--git\b",
        hits=(
            "pip install git+https://github.com/acme/sdk.git",
            "pip install git+ssh://git@github.com/acme/sdk@main",
            'serde = { git = "https://github.com/serde-rs/serde", branch = "master" }',
            '"ui-kit": "github:acme/ui-kit",',
        ),
        safe=(
            "pip install git+https://github.com/acme/sdk.git@v1.4.2",
            'serde = { git = "https://github.com/serde-rs/serde", rev = "9f3c2a1" }',
            '"ui-kit": "github:acme/ui-kit#3b1f9c2",',
            "git clone https://github.com/acme/sdk.git",
        ),
    ),
    pattern(
        "pkg-dev-tool-as-runtime-dependency",
        "dev dependency | dev dependencies | devdependencies not dependencies | npm --save-dev"
        " | test tools in production dependencies | runtime dependency instead of dev"
        " | dependency group dev | put in devdependencies | instead of devdependencies",
        "shell json",
        r"\b(?:npm\s+(?:install|i|add)|yarn\s+add|pnpm\s+(?:add|install|i)|bun\s+(?:add|install"
        r"|i))\s+(?:"
        + S
        + r"*?\s)?"
        + JS_DEV_TOOLS
        + r"(?:@[\w.^~-]+)?"
        + END
        + r"|\b(?:poetry|uv|pdm|pipenv|hatch)\s+(?:add|install)\s+(?:"
        + S
        + r"*?\s)?"
        r"(?:pytest[\w-]*|black|ruff|mypy|flake8|isort|pylint|pre-commit|coverage|tox|nox|ipdb)"
        r"(?:[=<>~@]\S*)?" + END + r"|\"dependencies\"\s*:\s*\{[^}]*\"" + JS_DEV_TOOLS + r"\"\s*:",
        r"(?:^|\s)(?:-D|--save-dev|--dev|-d|-g|--global|--save-optional|--save-peer|--group"
        r"|-G|--optional)(?=[\s=]|$)",
        hits=(
            "npm install jest",
            "yarn add eslint prettier",
            "pnpm add @types/node typescript",
            "poetry add pytest",
            '"dependencies": {\n"react": "^18.3.1",\n"jest": "^29.7.0"\n}',
        ),
        safe=(
            "npm install --save-dev vitest",
            "yarn add -D eslint prettier",
            "poetry add --group dev pytest",
            "npm install react",
            '"devDependencies": {\n"jest": "^29.7.0"\n}',
        ),
    ),
    pattern(
        "pkg-ci-install-ignores-lockfile",
        "npm ci lockfile | frozen-lockfile | frozen lockfile | lockfile drift"
        " | immutable lockfile | lockfile ignored in ci | ci installed different versions",
        "role:ci dockerfile",
        r"\b(?:npm\s+(?:install|i)|yarn(?:\s+install)?|pnpm\s+(?:install|i))"
        r"(?=\s*(?:$|[;&|)'\"])|(?:\s+-[-\w=]+)+\s*(?:$|[;&|)'\"]))",
        r"--frozen-lockfile|--immutable\b|(?:^|\s)(?:-g|--global)\b",
        hits=(
            "- run: npm install",
            "RUN npm install --no-audit",
            "script:\n- yarn install",
            "- run: yarn",
        ),
        safe=(
            "- run: npm ci",
            "RUN yarn install --frozen-lockfile",
            "- run: pnpm install --frozen-lockfile",
            "- run: npm install -g pnpm@9",
            "- run: yarn test",
        ),
    ),
    pattern(
        "pkg-deleted-lockfile",
        "deleted the lockfile | deleted lock file | removed package-lock.json"
        " | regenerated the lockfile | lockfile deleted | delete yarn.lock"
        " | removed the lockfile | removed lock file | removed yarn.lock"
        " | removed cargo.lock | keep the lock file",
        "shell",
        r"\brm\s(?:" + S + r"*?[\s/'\"])?(?:package-lock\.json|yarn\.lock|pnpm-lock\.yaml"
        r"|Cargo\.lock|poetry\.lock|Pipfile\.lock|Gemfile\.lock|composer\.lock|go\.sum|uv\.lock"
        r"|bun\.lockb?)" + END,
        hits=(
            "rm -rf node_modules package-lock.json && npm install",
            "rm yarn.lock",
            "git rm --cached Cargo.lock",
            "cd api && rm -f poetry.lock && poetry install",
        ),
        safe=("rm -rf node_modules && npm ci", "cat package-lock.json", "rm build/app.o"),
    ),
]
