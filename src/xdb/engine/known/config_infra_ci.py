"""Known mistakes in CI pipelines (GitHub Actions, GitLab CI): what zizmor, actionlint,
OpenSSF Scorecard and GitHub's hardening guide flag in workflows. ``.env`` files and
dependency manifests are in ``config_env_deps``."""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

# The attacker-controlled fields of an event (an issue's title, a PR's branch name...).
_UNTRUSTED = (
    r"github\.(?:event\.(?:issue|pull_request|comment|review|review_comment|discussion"
    r"|discussion_comment|head_commit|commits|pages|workflow_run|release)\b[\w.\[\]*]*?\."
    r"(?:title|body|ref|label|message|name|email|head_branch|page_name|default_branch)"
    r"|head_ref)\b"
)
_SECRET_VAR = (
    r"(?!\w*_(?:FILE|PATH|URL|NAME|ID)\b)\w*(?:TOKEN|SECRET|PASSWORD|API_KEY|PRIVATE_KEY"
    r"|ACCESS_KEY)\w*"
)
_CHECKS = (
    r"(?:pytest|py\.test|tox|nox|(?:npm|pnpm|yarn)\s+(?:run\s+)?(?:test|lint|typecheck)"
    r"|go\s+(?:test|vet)|cargo\s+(?:test|clippy)|mvn\b[^\n|;&]*\b(?:test|verify)"
    r"|\./gradlew\b[^\n|;&]*\b(?:test|check)|gradle\b[^\n|;&]*\b(?:test|check)|dotnet\s+test"
    r"|rspec|phpunit|jest|vitest|mocha|eslint|ruff|mypy|flake8|pylint|tsc"
    r"|make\s+(?:test|check|lint))"
)
BRANCHES = r"(?:main|master|develop|dev|trunk|HEAD)"  # (config_env_deps reads it too)
PATTERNS: list[Pattern] = [
    # --- GitHub Actions / GitLab CI ------------------------------------------------------
    pattern(
        "gha-script-injection",
        "script injection | expression injection | untrusted input in run | pr title injection"
        " | github.event in run | branch name injection | workflow injection | github.event run"
        " | untrusted event | pr title run | interpolated pr title | interpolated github event"
        " | injection github actions | issue body injection | commit message injection"
        " | github context env | shell metacharacters workflow | untrusted github context"
        " | head_ref injection | run step injection",
        "role:ci",
        r"^(?!(?:-\s+)?(?!run:|script:)[\w-]+:\s)[^\n]*\$\{\{[^}\n]*" + _UNTRUSTED + r"[^}\n]*\}\}",
        hits=(
            '- run: echo "Title: ${{ github.event.pull_request.title }}"',
            "run: |\n  git checkout ${{ github.head_ref }}\n  make test",
            "script: |\n  const body = `${{ github.event.issue.body }}`",
            "- run: echo \"${{ github.event.head_commit.message }}\" | grep -q '\\[skip\\]'",
        ),
        safe=(
            'env:\n  TITLE: ${{ github.event.pull_request.title }}\nrun: echo "Title: $TITLE"',
            "if: contains(github.event.pull_request.title, '[wip]')",
            "- name: Greet ${{ github.event.pull_request.title }}",
            '- run: echo "${{ github.event.pull_request.number }}"',
        ),
    ),
    pattern(
        "gha-pr-target-checkout-head",
        "pull_request_target | pull request target | pwn request | checkout pr head"
        " | untrusted pr code with secrets",
        "role:ci",
        r"\A(?=[\s\S]*?\bpull_request_target\b)[\s\S]*?(?:^ref:\s*[\"']?(?:\$\{\{\s*github\.(?:event\."
        r"pull_request\.(?:head\.(?:sha|ref)|merge_commit_sha)|head_ref)\b|refs/pull/)"
        r"|\bgh\s+pr\s+checkout\b|\bgit\s+(?:fetch|pull)\b[^\n]*\bpull/[^\n]*?/(?:head|merge)\b)",
        hits=(
            "on:\n  pull_request_target:\njobs:\n  test:\n    steps:\n"
            "      - uses: actions/checkout@v4\n        with:\n"
            "          ref: ${{ github.event.pull_request.head.sha }}\n      - run: npm test",
            "on: pull_request_target\nsteps:\n- uses: actions/checkout@v4\n  with:\n"
            "    ref: ${{ github.head_ref }}",
            "on: [pull_request_target]\nsteps:\n- run: gh pr checkout ${{ github.event.number }}",
            "on: pull_request_target\nsteps:\n- run: git fetch origin"
            " pull/${{ github.event.number }}/head:pr && git checkout pr",
        ),
        safe=(
            "on: pull_request\nsteps:\n- uses: actions/checkout@v4\n  with:\n"
            "    ref: ${{ github.event.pull_request.head.sha }}",
            "on: pull_request_target\nsteps:\n- uses: actions/labeler@v5",
            "on: push\nsteps:\n- uses: actions/checkout@v4",
        ),
    ),
    pattern(
        "gha-action-branch-ref",
        "action pinned to branch | action at main | action at master | unpinned action"
        " | action ref main | uses action main | uses action master | action branch pin"
        " | action not branch | action ref branch | actions referenced main"
        " | actions referenced master | action floating branch | action pinned main"
        " | action pinned master | action tracks main",
        "role:ci",
        r"^(?:-\s*)?uses:\s*[\"']?(?!\./|docker://)[\w.-]+/[\w./-]+"
        r"@(?:main|master|develop|dev|trunk|HEAD|latest)[\"']?\s*(?:#.*)?$",
        hits=(
            "- uses: acme/deploy-action@main",
            "uses: some-org/setup-tool@master",
            "- uses: org/shared/.github/workflows/release.yml@develop",
        ),
        safe=(
            "- uses: actions/checkout@v4",
            "- uses: acme/deploy-action@0a1b2c3d4e5f60718293a4b5c6d7e8f901234567",
            "- uses: ./.github/actions/setup",
            "- uses: dtolnay/rust-toolchain@stable",
        ),
    ),
    pattern(
        "gha-action-not-sha",
        "pin actions to sha | pin action commit sha | action full sha | action pinned to tag |"
        " mutable action tag | tj-actions | third-party action pin",
        "role:ci",
        r"^(?:-\s*)?uses:\s*[\"']?(?!\./|docker://)[\w.-]+/[\w./-]+@(?![0-9a-f]{40}\b)[\w./-]+",
        hits=(
            "- uses: actions/checkout@v4",
            "- uses: tj-actions/changed-files@v45",
            "uses: docker/build-push-action@v6.5.0",
            "- uses: acme/deploy@main",
        ),
        safe=(
            "- uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2",
            "- uses: ./.github/actions/build",
            "- uses: docker://alpine:3.20",
        ),
    ),
    pattern(
        "ci-secret-echoed",
        "secret echoed | echo secret | secret printed in log | token printed | secret in ci log"
        " | leaked token in logs | printed password",
        "role:ci",
        r"\b(?:echo|printf)\b(?![^\n]*::add-mask::)[^\n]*\$\{\{\s*secrets\.\w+\s*\}\}"
        r"(?![^\n]*[|>])|\b(?:echo|printf)\b(?![^\n]*::add-mask::)[^\n|>]*\$\{?"
        + _SECRET_VAR
        + r"\}?[\"']?\s*$",
        hits=(
            '- run: echo "token is ${{ secrets.NPM_TOKEN }}"',
            "script:\n  - echo $DEPLOY_TOKEN",
            "run: printf '%s\\n' \"${AWS_SECRET_ACCESS_KEY}\"",
        ),
        safe=(
            '- run: echo "${{ secrets.REGISTRY_PASSWORD }}" | docker login ghcr.io -u bot'
            " --password-stdin",
            '- run: echo "${{ secrets.SSH_KEY }}" > ~/.ssh/id_ed25519',
            '- run: echo "::add-mask::$API_TOKEN"',
            '- run: echo "Deploying $VERSION"',
            '- run: echo "reading $TOKEN_FILE"',
        ),
    ),
    pattern(
        "gha-permissions-broad",
        "permissions write-all | github_token permissions | token permissions workflow |"
        " default token permissions | contents read permissions | least privilege workflow",
        "role:ci",
        r"^permissions:\s*[\"']?write-all\b|^[\"']?on[\"']?:",
        r"\A(?![\s\S]*^permissions:\s*[\"']?write-all)[\s\S]*^permissions:",
        hits=(
            "name: release\non:\n  push:\n    tags: ['v*']\njobs:\n  build:\n"
            "    runs-on: ubuntu-latest",
            "permissions: write-all",
            "on: [push]\npermissions: write-all\njobs: {}",
        ),
        safe=(
            "name: ci\non: [push]\npermissions:\n  contents: read\njobs: {}",
            "jobs:\n  build:\n    permissions:\n      contents: read",
            "stages: [test]",
        ),
    ),
    pattern(
        "ci-continue-on-error",
        "continue-on-error | continue on error | allow_failure | allow failure | failing tests"
        " ignored | red build ignored",
        "role:ci",
        r"^continue-on-error:\s*[\"']?true\b|^allow_failure:\s*[\"']?(?:true|yes|on)\b",
        hits=(
            "- name: Test\n  run: pytest\n  continue-on-error: true",
            "test:\n  script: npm test\n  allow_failure: true",
            "continue-on-error: 'true'",
        ),
        safe=(
            "continue-on-error: ${{ matrix.experimental }}",
            "allow_failure:\n  exit_codes: [137]",
            "continue-on-error: false",
        ),
    ),
    pattern(
        "ci-test-failure-ignored",
        "test or true | tests failing true | pytest or true | or true masked | exit 0 test"
        " | swallowed test failure | test failure masked | failing tests ignored"
        " | lint errors ignored | test always passed | tests always pass"
        " | test exit code masked | test failures swallowed | test exit code ignored"
        " | swallow test exit code",
        "role:ci makefile",
        r"\b" + _CHECKS + r"\b[^\n;&]*\|\|\s*(?:true\b|:|exit\s+0\b|echo\b)"
        # (a Makefile recipe line's ``-`` prefix: make ignores its exit status)
        r"|^-@?" + _CHECKS + r"\b",
        hits=(
            "- run: pytest -q || true",
            "script:\n  - npm run lint || echo 'lint failed'",
            "test:\n\tgo test ./... || exit 0",
            "run: mvn -B verify || true",
        ),
        safe=(
            "- run: pytest -q",
            "- run: rm -rf build || true",
            "- run: npm test -- --ci",
        ),
    ),
    pattern(
        "ci-npm-install",
        "npm install in ci | npm install instead of npm ci | npm ci instead | lockfile ignored"
        " npm | package-lock ignored | lock file not respected npm",
        "role:ci dockerfile",
        r"\bnpm\s+(?:install|i)(?:\s+(?!-g\b|--global\b)--?\w[\w-]*(?:=\S+)?)*[ \t]*"
        r"(?:$|&&|;|\|\||\\)",
        hits=(
            "- run: npm install",
            "RUN npm install --production && npm cache clean --force",
            "script:\n  - npm i --no-audit\n  - npm test",
            "run: cd web && npm install && npm run build",
        ),
        safe=(
            "- run: npm ci",
            "RUN npm install -g pnpm@9",
            "- run: npm install --save-dev vitest",
            "RUN npm ci --omit=dev",
        ),
    ),
    pattern(
        "gha-self-hosted-pr",
        "self-hosted runner | self hosted runner pull request | runner on public repo"
        " | fork pr self-hosted",
        "role:ci",
        r"\A(?=[\s\S]*\bpull_request(?:_target)?\b)[\s\S]*^runs-on:[^\n]*?"
        r"(?:\n(?:-|labels:|group:)[^\n]*?){0,4}\bself-hosted\b",
        hits=(
            "on: [pull_request]\njobs:\n  test:\n    runs-on: self-hosted",
            "on:\n  pull_request:\njobs:\n  build:\n    runs-on: [self-hosted, linux, gpu]",
            "on: pull_request_target\njobs:\n  e2e:\n    runs-on:\n      - self-hosted",
            "on: pull_request\njobs:\n  gpu:\n    runs-on:\n      labels: [self-hosted, gpu]",
        ),
        safe=(
            "on: [pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest",
            "on:\n  push:\n    branches: [main]\njobs:\n  deploy:\n    runs-on: self-hosted",
            "runs-on: [self-hosted, linux]",
        ),
    ),
    pattern(
        "gha-checkout-persist-credentials",
        "persist-credentials | persisted credentials | checkout credentials | artipacked checkout"
        " | token left in git config",
        "role:ci",
        r"^(?:-\s*)?uses:\s*[\"']?actions/checkout@",
        r"^persist-credentials:\s*[\"']?false",
        hits=(
            "- uses: actions/checkout@v4",
            "steps:\n- uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683\n"
            "  with:\n    fetch-depth: 0",
            'uses: "actions/checkout@v3"',
        ),
        safe=(
            "- uses: actions/checkout@v4\n  with:\n    persist-credentials: false",
            "- uses: actions/setup-node@v4",
            "- run: git checkout main",
        ),
    ),
    pattern(
        "gha-no-timeout",
        "timeout-minutes | ci job timeout | six hours runner | 6 hours runner | hung ci job"
        " | runaway ci job | workflow job timeout | workflow without timeout | workflow timeout"
        " | hung workflow | job hung forever | actions minutes | timeout on every job",
        "role:ci",
        # (a job's runs-on with no timeout-minutes between the last jobs:/steps: and the next)
        r"(?:\A|^(?:jobs|steps):[^\n]*\n)(?:(?!(?:timeout-minutes|steps|jobs):)[^\n]*\n)*?"
        r"runs-on:[^\n]*(?:\n(?!(?:timeout-minutes|steps):)[^\n]*)*(?:\nsteps:[^\n]*"
        r"(?!(?:\n(?!runs-on:)[^\n]*)*?\ntimeout-minutes:)|\Z)",
        hits=(
            "jobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make test",
            "runs-on: [self-hosted, linux]",
            "build:\n  runs-on: ${{ matrix.os }}",
        ),
        safe=(
            "jobs:\n  test:\n    runs-on: ubuntu-latest\n    timeout-minutes: 15",
            "steps:\n- run: make test",
            "stages: [build, test]",
        ),
    ),
]
