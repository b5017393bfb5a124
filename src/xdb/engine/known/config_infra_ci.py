"""Known mistakes in CI pipelines (GitHub Actions, GitLab CI), ``.env`` files and
dependency manifests: what zizmor, actionlint, OpenSSF Scorecard and GitHub's hardening
guide flag in workflows; leaked and mis-prefixed secrets; unpinned, wildcard, local and
misplaced dependencies."""

from __future__ import annotations

from xdb.engine.known.model import Pattern, pattern

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
_BRANCHES = r"(?:main|master|develop|dev|trunk|HEAD)"
# requirements.txt, line by line: a requirement (name, specifiers, markers, hashes,
# comment) or an option, a comment, a URL or a path.
_NAME = r"[A-Za-z0-9][\w.-]*(?:\[[\w,\s-]*\])?"
_SPEC = r"(?:===?|~=|>=|<=|!=|<|>)[ \t]*[\w.*+!-]+"
_MARK = r"(?:[ \t]*;[^\n]*)?"
_COMMENT = r"(?:[ \t]+#[^\n]*)?"
_REQ = (
    rf"{_NAME}[ \t]*(?:{_SPEC}(?:[ \t]*,[ \t]*{_SPEC})*)?{_MARK}(?:[ \t]+--hash=\S+)*"
    rf"{_COMMENT}"
)
_OPT = (
    r"(?:#[^\n]*|-[rcef][ \t]+\S+|--[\w-]+(?:[= ]\S+)?|(?:git\+|https?://)\S+"
    r"|\.{1,2}/\S*|\S+[ \t]+@[ \t]+\S+)"
)
_UNPINNED_REQ = rf"^(?=[A-Za-z]){_NAME}[ \t]*(?:>=?[ \t]*[\w.*+!-]+)?{_MARK}{_COMMENT}$"
_JS_DEV_TOOLS = (
    r"(?:eslint|prettier|jest|vitest|mocha|nodemon|ts-node|ts-jest|husky|lint-staged"
    r"|@testing-library/[\w-]+|@types/jest|@types/mocha|eslint-[\w-]+|@typescript-eslint/"
    r"[\w-]+|typescript|webpack-dev-server|cypress|@playwright/test|supertest|chai|sinon)"
)
_PY_DEV_TOOLS = (
    r"(?:pytest|black|mypy|ruff|flake8|pylint|isort|pre-commit|coverage|tox|nox|ipython|ipdb"
    r"|bandit)"
)

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
        r"\b" + _CHECKS + r"\b[^\n;&]*\|\|\s*(?:true\b|:|exit\s+0\b|echo\b)",
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
        r"\bnpm\s+(?:install|i)(?:\s+(?!-g\b|--global\b)--?[\w-]+(?:=\S+)?)*[ \t]*"
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
        r"^runs-on:",
        r"^timeout-minutes:",
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
    # --- .env and configuration ---------------------------------------------------------
    pattern(
        "env-debug-enabled",
        "debug in production | debug true production | debug mode production | debug enabled"
        " prod | debug left on | app_debug true",
        "dotenv",
        r"(?i)^(?:export\s+)?(?:[A-Z0-9]+_)*DEBUG\s*=\s*[\"']?(?:true|1|yes|on)[\"']?\s*$",
        r"(?i)^(?:export\s+)?(?:NODE_ENV|APP_ENV|ENV|ENVIRONMENT|RAILS_ENV|FLASK_ENV|DJANGO_ENV"
        r"|RACK_ENV|ASPNETCORE_ENVIRONMENT|STAGE)\s*=\s*[\"']?(?:dev|development|local|test"
        r"|testing)\b",
        hits=(
            "APP_ENV=production\nAPP_DEBUG=true",
            "DEBUG=1",
            "export DJANGO_DEBUG=True",
        ),
        safe=(
            "APP_ENV=local\nAPP_DEBUG=true",
            "DEBUG=false",
            "LOG_LEVEL=info",
        ),
    ),
    pattern(
        "env-public-prefix-secret",
        "next_public secret | vite secret | react_app secret | secret exposed to browser"
        " | secret in client bundle | public env prefix | next_public_ prefix | vite_ prefix",
        "dotenv typescript javascript json yaml vue svelte",
        r"\b(?:NEXT_PUBLIC|VITE|REACT_APP|EXPO_PUBLIC|NUXT_PUBLIC|GATSBY|PUBLIC)_(?!\w*(?:"
        r"PUBLISHABLE|ANON|FIREBASE|MAPS|MAPBOX|RECAPTCHA|SITE_KEY|PUBLIC_KEY))\w*(?:SECRET"
        r"|PRIVATE_KEY|PASSWORD|SERVICE_ROLE|SERVICE_KEY|ADMIN_KEY|API_KEY|ACCESS_TOKEN"
        r"|AUTH_TOKEN|ACCESS_KEY)\w*\b",
        hits=(
            "NEXT_PUBLIC_STRIPE_SECRET_KEY=sk_live_abc",
            "const key = import.meta.env.VITE_OPENAI_API_KEY",
            "REACT_APP_DB_PASSWORD=hunter2",
            "fetch(url, { headers: { Authorization: process.env.NEXT_PUBLIC_SUPABASE_SERVICE_ROLE"
            "_KEY } })",
            "createClient(url, process.env.NEXT_PUBLIC_SUPABASE_SERVICE_KEY)",
        ),
        safe=(
            "NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=pk_live_abc",
            "VITE_FIREBASE_API_KEY=AIzaSyA",
            "STRIPE_SECRET_KEY=sk_live_abc",
            "NEXT_PUBLIC_SUPABASE_ANON_KEY=eyJhbGciOi",
        ),
    ),
    pattern(
        "env-real-credential",
        "real credentials committed | live key committed | aws key committed | access key in"
        " config | private key committed | leaked api key | secret in repo",
        "yaml json toml ini xml terraform role:ci",
        r"\bAKIA(?!IOSFODNN7EXAMPLE)[0-9A-Z]{16}\b|\b[sr]k_live_[0-9A-Za-z]{20,}"
        r"|\bgh[pousr]_[A-Za-z0-9]{36,}\b|\bgithub_pat_\w{40,}|\bxox[baprs]-[0-9A-Za-z-]{10,}"
        r"|-----BEGIN (?:RSA |EC |DSA |OPENSSH |ENCRYPTED )?PRIVATE KEY-----"
        r"|\bglpat-[0-9A-Za-z_-]{20,}|\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{32,}"
        r"|\bnpm_[A-Za-z0-9]{36}\b",
        hits=(
            "aws:\n  access_key_id: AKIAZ7QXJ3L5PQRS2TUV",
            '{"stripe": {"secret": "sk_live_51HxYzAbCdEfGhIjKlMnOpQr"}}',
            'token = "ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"',
            "key: |\n  -----BEGIN OPENSSH PRIVATE KEY-----",
        ),
        safe=(
            "aws:\n  access_key_id: ${AWS_ACCESS_KEY_ID}",
            'access_key = "AKIAIOSFODNN7EXAMPLE"',
            "token: ${{ secrets.GITHUB_TOKEN }}",
            "-----BEGIN PUBLIC KEY-----",
        ),
    ),
    # --- dependency manifests -----------------------------------------------------------
    pattern(
        "deps-wildcard-version",
        "wildcard version | version star | any version dependency | latest version dependency"
        " | unpinned dependency version | dependency version latest | asterisk version"
        " | caret version | wildcard versions | dependency any version"
        " | dependencies any version | unpinned dependencies versions | star dependency version"
        " | pin dependency versions | dependency latest tag",
        "json toml",
        r"^\"(?!(?:node|npm|yarn|pnpm|version|ecmaVersion|target|tag|channel|image|engine)\")(?:@[\w.-]+/)?[\w.-]+\"\s*:\s*\"(?:\*"
        r"|latest|x|X)\"\s*,?\s*$"
        # (a one-line dependencies object)
        r"|\"(?:dev|peer|optional)?[dD]ependencies\"\s*:\s*\{[^}\n]*"
        r"\"(?:@[\w.-]+/)?[\w.-]+\"\s*:\s*"
        r"\"(?:\*|latest)\""
        r"|^(?!version\b)[\w-]+\s*=\s*(?:\"\*\"|\{[^}\n]*\bversion\s*="
        r"\s*\"\*\")|^version\s*=\s*\"\*\"\s*$",
        r"^\[(?:dev-)?packages\]",
        hits=(
            '"dependencies": {\n  "lodash": "*",\n  "express": "^4.19.2"\n}',
            '"@acme/ui": "latest"',
            '[dependencies]\nserde = "*"',
            '[dependencies]\ntokio = { version = "*", features = ["full"] }',
            '{"dependencies": {"react": "*", "react-dom": "*"}}',
        ),
        safe=(
            '"lodash": "^4.17.21"',
            '[dependencies]\nserde = "1.0"',
            '"engines": {\n  "node": "*"\n}',
            '[packages]\nrequests = "*"',
            '"parserOptions": {\n"ecmaVersion": "latest"\n}',
        ),
    ),
    pattern(
        "deps-git-unpinned",
        "git dependency | dependency from git branch | git dependency without commit"
        " | pin git dependency | git url dependency | dependency on main branch"
        " | git dependencies | gem github branch | gem git branch | dependency github branch"
        " | pin git dependencies | git dependencies commit | package github branch",
        "json text toml ruby",
        r"^\"(?!url\"|repository\"|homepage\"|bugs\")(?:@[\w.-]+/)?[\w.-]+\"\s*:\s*\"(?:git\+"
        r"(?:https?|ssh)://|git://|github:|gitlab:|bitbucket:|https://github\.com/)[^\"#]*(?:#"
        + _BRANCHES
        + r")?\""
        r"|^[\"']?(?:-e\s+)?(?:[\w.-]+(?:\[[^\]]*\])?\s*@\s*)?git\+(?:https?|ssh)://"
        r"(?:[^\s@#/]+@)?[^\s@#\"']+(?:@" + _BRANCHES + r")?(?=#egg=|#subdirectory=|[\s\"',;\]]|$)"
        r"|=\s*\{(?![^}\n]*\b(?:rev|tag|ref)\s*=)[^}\n]*\bgit\s*=\s*\""
        r"|^gem\s+['\"][\w.-]+['\"](?![^\n]*\b(?:ref|tag)(?::|\s*=>))[^\n]*\b(?:git|github)"
        r"(?::|\s*=>)\s*['\"]",
        hits=(
            '"internal-lib": "git+https://github.com/acme/internal-lib.git"',
            '"ui-kit": "github:acme/ui-kit#main"',
            "git+https://github.com/acme/sdk.git#egg=acme-sdk",
            "acme-sdk @ git+ssh://git@github.com/acme/sdk.git@main",
            '[dependencies]\nacme = { git = "https://github.com/acme/acme-rs", branch = "main" }',
            "gem 'rails_admin', git: 'https://github.com/acme/rails_admin.git'",
        ),
        safe=(
            '"internal-lib": "git+https://github.com/acme/internal-lib.git#v1.4.0"',
            "git+https://github.com/acme/sdk.git@3f2a9c1d7e#egg=acme-sdk",
            'acme = { git = "https://github.com/acme/acme-rs", rev = "3f2a9c1" }',
            "gem 'rails_admin', git: 'https://github.com/acme/rails_admin.git', ref: 'a1b2c3d'",
            "requests==2.32.3",
            '"repository": {\n"type": "git",\n"url": "git+https://github.com/acme/lib.git"\n}',
            'acme = {git = "https://github.com/acme/acme.git", ref = "v1.2.0"}',
        ),
    ),
    pattern(
        "deps-requirements-unpinned",
        "unpinned requirements | pin requirements | requirements not pinned | unpinned"
        " dependencies python | pinned versions requirements | pip freeze",
        "text",
        rf"\A(?=[\s\S]*?{_UNPINNED_REQ})(?:(?:{_REQ}|{_OPT})[ \t]*\\?(?:\n|\Z))+\Z",
        hits=(
            "flask\nrequests>=2.0\ngunicorn==22.0.0",
            "django>=4.2\ncelery[redis]",
            "-r base.txt\nboto3\n# tooling\nuvicorn[standard]==0.30.1",
            "numpy",
        ),
        safe=(
            "flask==3.0.3\nrequests==2.32.3\ngunicorn==22.0.0",
            "django>=4.2,<5\ncelery[redis]~=5.4",
            "Release notes for the 2.0 version of the app",
            "-r base.txt\n-c constraints.txt",
            "1.4.2",
            "flask==3.0.3 \\\n--hash=sha256:0a1b2c",
        ),
    ),
    pattern(
        "deps-local-path-dependency",
        "replace directive | go mod replace | replace local path | local replace | file:"
        " protocol dependency | local path dependency",
        "gomod json",
        r"^(?:replace\s+)?[\w.-]+(?:/[\w.~-]+)*(?:\s+v[\w.+-]+)?\s+=>\s+(?:\.{1,2}/|/|~/)\S*\s*$"
        r"|^\"(?:@[\w.-]+/)?[\w.-]+\"\s*:\s*\"(?:file|link):",
        hits=(
            "replace github.com/acme/payments => ../payments",
            "replace (\n  github.com/acme/auth v1.2.0 => /home/dev/src/auth\n)",
            '"@acme/shared": "file:../shared"',
        ),
        safe=(
            "replace github.com/acme/payments => github.com/acme-fork/payments v1.3.1",
            "require github.com/acme/auth v1.2.0",
            '"@acme/shared": "workspace:*"',
        ),
    ),
    pattern(
        "deps-dev-tool-in-runtime",
        "move to devdependencies | devdependencies runtime | dev dependency in dependencies"
        " | test tool in runtime dependencies | dev dependencies production"
        " | jest in dependencies | pytest in dependencies | dev tools runtime"
        " | dev tools dependencies | dev dependency group | runtime dependency pytest"
        " | runtime dependency jest | test tools runtime dependencies"
        " | devdependencies instead of dependencies | move to dev dependencies"
        " | devdependencies production | eslint in dependencies | use devdependencies"
        " | linter in dependencies | test framework dependencies runtime",
        "json toml",
        r"(?:^|[{,]\s*)\"dependencies\"\s*:\s*\{[^}]*(?:^|[{,]\s*)\"" + _JS_DEV_TOOLS + r"\"\s*:"
        r"|^dependencies\s*=\s*\[[^\]]*[\"']" + _PY_DEV_TOOLS + r"\b"
        r"|^\[tool\.poetry\.dependencies\]\s*$(?:\n(?!\[)[^\n]*)*?\n" + _PY_DEV_TOOLS + r"\s*=",
        r"^\"name\"\s*:\s*\"(?:@[\w.-]+/)?(?:eslint|prettier|jest|vitest|stylelint)[\w-]*\""
        r"|^name\s*=\s*\"(?:pytest|flake8|mypy|pylint)[\w-]*\"",
        hits=(
            '"dependencies": {\n  "express": "^4.19.2",\n  "jest": "^29.7.0"\n},',
            '[project]\ndependencies = [\n  "fastapi>=0.110",\n  "pytest>=8",\n]',
            '[tool.poetry.dependencies]\npython = "^3.12"\nblack = "^24.4"',
            '"dependencies": {\n"react": "^18.3.1",\n"eslint": "^9.0.0"\n}',
            '{"dependencies": {"express": "^4.19.2", "nodemon": "^3.1.0"}}',
        ),
        safe=(
            '"dependencies": {\n  "express": "^4.19.2"\n},\n"devDependencies": {\n'
            '  "jest": "^29.7.0"\n}',
            '[project]\ndependencies = ["fastapi>=0.110"]\n[project.optional-dependencies]\n'
            'test = ["pytest>=8"]',
            '[tool.poetry.group.dev.dependencies]\npytest = "^8.2"',
            '[project]\nname = "pytest-acme"\ndependencies = ["pytest>=8"]',
        ),
    ),
]
