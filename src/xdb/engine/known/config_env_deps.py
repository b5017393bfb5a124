"""Known mistakes in ``.env`` files and dependency manifests: debug left on, secrets under
a public prefix and real credentials committed; unpinned, wildcard, git-branch, local and
misplaced dependencies (CI pipelines are in ``config_infra_ci``)."""

from __future__ import annotations

from xdb.engine.known.config_infra_ci import BRANCHES
from xdb.engine.known.pattern import Pattern, pattern

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
        + BRANCHES
        + r")?\""
        r"|^[\"']?(?:-e\s+)?(?:[\w.-]+(?:\[[^\]]*\])?\s*@\s*)?git\+(?:https?|ssh)://"
        r"(?:[^\s@#/]+@)?[^\s@#\"']+(?:@" + BRANCHES + r")?(?=#egg=|#subdirectory=|[\s\"',;\]]|$)"
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
