# ruff: noqa: E501  (a table of hand-written scripts: one call a line reads best)
"""The replay benchmark's material: fourteen mistakes a coding agent repeats (each a lesson,
three ways of making the mistake again and the fix), mutating calls about other things, and
calls that only read. Written by hand, in the words of real projects; ``filler`` makes more
lessons on other topics so the lesson store is not only the ones that matter."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict

Call = dict[str, Any]


class Lesson(TypedDict):
    """A lesson as ``xdb add-lesson`` takes it."""

    question: str
    answer: str
    domain: NotRequired[str]
    language: NotRequired[str]
    framework: NotRequired[str]


def edit(path: str, text: str) -> Call:
    return {"tool_name": "Edit", "tool_input": {"file_path": path, "old_string": "",
                                                "new_string": text}}  # fmt: skip


def write(path: str, text: str) -> Call:
    return {"tool_name": "Write", "tool_input": {"file_path": path, "content": text}}


def bash(command: str) -> Call:
    return {"tool_name": "Bash", "tool_input": {"command": command}}


@dataclass
class Family:
    """A mistake: its lesson (``xdb add-lesson``'s fields), ways of making it again, and the
    fix. The development set (``bench.engine_devset``) adds the call the lesson was learned
    from (``failing``), safe variants sharing its words (``near_misses``), unrelated calls of
    the same project (``innocent``), what it is about (``topic``) and whether the mistake is
    something done (``defect="present"``) or something left out (``"missing"``: a flag, an
    argument, a guard)."""

    name: str
    lesson: Lesson
    repeats: list[Call]
    fix: Call
    failing: Call | None = None
    near_misses: list[Call] = field(default_factory=list)
    innocent: list[Call] = field(default_factory=list)
    topic: str = ""
    defect: str = "present"


FAMILIES = [
    Family("dbcontext", {"question": "registering the EF Core DbContext as a singleton in Startup.cs",
                         "answer": "register it with AddDbContext or AddScoped: a singleton shares one context across requests",
                         "framework": "dotnet", "domain": "data"},
           [edit("/w/shop/Startup.cs", "services.AddSingleton<ShopDbContext>();"),
            edit("/w/api/Program.cs", "builder.Services.AddSingleton<AppDbContext>();"),
            write("/w/orders/ServiceRegistration.cs", "services.AddSingleton(typeof(OrdersDbContext));")],
           edit("/w/shop/Startup.cs", "services.AddDbContext<ShopDbContext>(o => o.UseNpgsql(cs));")),
    Family("useeffect", {"question": "useEffect fetching data without a dependency array re-ran on every render",
                         "answer": "pass the dependency array to useEffect and abort the fetch in its cleanup",
                         "framework": "react", "language": "typescript", "domain": "frontend"},
           [edit("/w/web/src/components/UserList.tsx", "useEffect(() => { fetch('/api/users').then(r => r.json()).then(setUsers) })"),
            edit("/w/web/src/pages/Orders.tsx", "useEffect(() => { loadOrders().then(setOrders) })"),
            write("/w/web/src/hooks/useProfile.ts", "useEffect(() => { fetchProfile(id).then(setProfile); });")],
           edit("/w/web/src/components/UserList.tsx", "useEffect(() => { const c = new AbortController(); fetch('/api/users', {signal: c.signal}); return () => c.abort() }, [])")),
    Family("mutable-default", {"question": "a mutable default argument like def f(items=[]) leaked state between calls",
                               "answer": "default to None and create the list or dict inside the function",
                               "language": "python"},
           [edit("/w/shop/app/cart.py", "def add_item(item, items=[]):\n    items.append(item)"),
            edit("/w/etl/lib/cache.py", "def remember(key, value, seen={}):\n    seen[key] = value"),
            write("/w/etl/utils/batch.py", "def collect(rows, out=[]):\n    out.extend(rows)\n    return out")],
           edit("/w/shop/app/cart.py", "def add_item(item, items=None):\n    items = [] if items is None else items")),
    Family("force-push", {"question": "git push --force to main overwrote teammates' commits",
                          "answer": "push a branch and open a pull request; --force-with-lease only on your own branch",
                          "domain": "git"},
           [bash("git push --force origin main"), bash("git push -f origin main"),
            bash("git push origin main --force")],
           bash("git push origin feature/login-fix && gh pr create --fill")),
    Family("go-unmarshal", {"question": "ignoring the error returned by json.Unmarshal hid malformed input",
                            "answer": "check err from json.Unmarshal and return it wrapped with fmt.Errorf",
                            "language": "go"},
           [edit("/w/api/handlers/user.go", "json.Unmarshal(body, &req)\nsaveUser(req)"),
            edit("/w/api/internal/config/load.go", "_ = json.Unmarshal(data, &cfg)"),
            write("/w/api/pkg/decode/decode.go", "func Decode(raw []byte) (Out, error) {\n\tvar out Out\n\tjson.Unmarshal(raw, &out)\n\treturn out, nil\n}")],
           edit("/w/api/handlers/user.go", "if err := json.Unmarshal(body, &req); err != nil {\n\treturn fmt.Errorf(\"decode user: %w\", err)\n}")),
    Family("latest-tag", {"question": "a Dockerfile built FROM an image's latest tag broke when latest moved",
                          "answer": "pin the base image to a version tag or a digest",
                          "domain": "infrastructure"},
           [write("/w/web/Dockerfile", "FROM node:latest\nWORKDIR /app\nCOPY . ."),
            edit("/w/api/services/api/Dockerfile", "FROM python:latest\nRUN pip install -r requirements.txt"),
            edit("/w/api/docker/worker.Dockerfile", "FROM golang:latest AS build")],
           edit("/w/web/Dockerfile", "FROM node:20.11-alpine")),
    Family("alter-table", {"question": "an ALTER TABLE migration adding a NOT NULL column with a default locked the orders table during deploy",
                           "answer": "add the column nullable, backfill in batches, then add the constraint",
                           "language": "sql", "domain": "data"},
           [write("/w/shop/migrations/0042_add_status.sql", "ALTER TABLE orders ADD COLUMN status text NOT NULL DEFAULT 'new';"),
            bash("psql \"$DATABASE_URL\" -c \"ALTER TABLE orders ADD COLUMN region text NOT NULL DEFAULT 'eu'\""),
            write("/w/shop/db/migrate/20261101_add_flag.sql", "ALTER TABLE orders ADD COLUMN flagged boolean NOT NULL DEFAULT false;")],
           write("/w/shop/migrations/0042_add_status.sql", "ALTER TABLE orders ADD COLUMN status text; -- backfill in batches, then SET NOT NULL")),
    Family("unwrap", {"question": "calling unwrap() on a Result in library code panicked in production",
                      "answer": "propagate the error with ? and return a typed error",
                      "language": "rust"},
           [edit("/w/engine/src/parser.rs", "let n = s.parse::<u32>().unwrap();"),
            edit("/w/engine/src/lib.rs", "let file = File::open(path).unwrap();"),
            write("/w/engine/src/config.rs", "let cfg: Config = toml::from_str(&text).unwrap();")],
           edit("/w/engine/src/parser.rs", "let n = s.parse::<u32>()?;")),
    Family("k8s-limits", {"question": "a Kubernetes Deployment without resource limits starved the node",
                          "answer": "set resources requests and limits for every container",
                          "domain": "infrastructure"},
           [write("/w/ops/k8s/deployment.yaml", "kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - name: api\n        image: api:1.2"),
            edit("/w/ops/deploy/web-deployment.yaml", "containers:\n- name: web\n  image: web:3.1"),
            bash("kubectl create deployment worker --image=worker:2.0")],
           edit("/w/ops/k8s/deployment.yaml", "resources:\n  requests: {cpu: 100m, memory: 128Mi}\n  limits: {memory: 256Mi}")),
    Family("npm-force", {"question": "npm install --force pulled incompatible peer dependencies and broke the build",
                         "answer": "resolve the peer dependency conflict by pinning versions; never force the install",
                         "language": "javascript", "domain": "build"},
           [bash("npm install --force"), bash("npm i react-router@7 --force"),
            bash("npm install --force && npm run build")],
           bash("npm install react-router@6.22.3 --save-exact")),
    Family("md5-passwords", {"question": "storing user passwords hashed with hashlib md5",
                             "answer": "use Django's set_password / make_password (PBKDF2 or Argon2)",
                             "framework": "django", "domain": "auth"},
           [edit("/w/site/accounts/models.py", "self.password = hashlib.md5(raw.encode()).hexdigest()"),
            write("/w/site/users/auth.py", "digest = hashlib.md5(password.encode()).hexdigest()\nuser.password = digest"),
            edit("/w/site/api/serializers.py", "user.password = md5(validated['password'].encode()).hexdigest()")],
           edit("/w/site/accounts/models.py", "user.set_password(raw)")),
    Family("tf-state", {"question": "terraform apply with local state lost the state file",
                        "answer": "configure a remote backend (S3 with DynamoDB locking) before apply",
                        "domain": "infrastructure"},
           [bash("terraform apply -auto-approve"), bash("cd infra && terraform apply"),
            bash("terraform -chdir=envs/prod apply")],
           edit("/w/ops/infra/main.tf", "terraform {\n  backend \"s3\" {\n    bucket = \"tf-state\"\n    dynamodb_table = \"tf-lock\"\n  }\n}")),
    Family("real-timers", {"question": "jest tests waiting on real setTimeout timers were flaky",
                           "answer": "use jest.useFakeTimers and advance the timers explicitly",
                           "language": "typescript", "domain": "testing"},
           [edit("/w/web/src/__tests__/retry.test.ts", "await new Promise(r => setTimeout(r, 500));\nexpect(fetchMock).toHaveBeenCalledTimes(2);"),
            write("/w/web/tests/debounce.test.ts", "setTimeout(() => { expect(fn).toHaveBeenCalled(); done(); }, 300);"),
            edit("/w/web/src/queue.test.ts", "await sleep(1000); // real setTimeout until the retry fires")],
           edit("/w/web/src/__tests__/retry.test.ts", "jest.useFakeTimers();\njest.advanceTimersByTime(500);")),
    Family("read-csv", {"question": "pandas read_csv of the whole export ran out of memory",
                        "answer": "read it in chunks (chunksize=) with explicit dtypes",
                        "language": "python", "domain": "data"},
           [edit("/w/etl/etl/load.py", "df = pd.read_csv('exports/events.csv')"),
            write("/w/etl/scripts/report.py", "data = pandas.read_csv(path)\nprint(data.groupby('day').size())"),
            edit("/w/etl/notebooks/clean.py", "frame = pd.read_csv(src, low_memory=False)")],
           edit("/w/etl/etl/load.py", "for chunk in pd.read_csv(path, chunksize=100_000, dtype=DTYPES):")),
]  # fmt: skip

# Mutating calls about something else (some near a lesson's words: the noise a filter meets).
OTHERS = [
    edit("/w/web/src/components/Button.tsx", "export const Button = ({ label }: Props) => <button>{label}</button>"),
    edit("/w/shop/README.md", "## Installation\nRun make install, then make run."),
    bash("mkdir -p build/out && cp -r assets build/out/"),
    bash("npm run build"),
    bash("pytest tests/ -x -q"),
    edit("/w/site/app/views.py", "return render(request, 'home.html', {'items': items})"),
    write("/w/shop/docs/adr/0007-caching.md", "We cache product pages for 60 s behind the CDN."),
    edit("/w/shop/Controllers/HomeController.cs", "return View(model);"),
    edit("/w/api/cmd/server/main.go", "log.Printf(\"listening on %s\", addr)"),
    bash("git commit -am 'fix typo in README'"),
    bash("git checkout -b feature/search"),
    edit("/w/engine/src/main.rs", "println!(\"{}\", total);"),
    edit("/w/web/styles/site.css", ".nav { display: flex; gap: 1rem; }"),
    bash("docker compose up -d db"),
    edit("/w/ops/k8s/service.yaml", "kind: Service\nspec:\n  ports:\n  - port: 80"),
    bash("cargo fmt"),
    edit("/w/web/src/utils/format.ts", "export function formatPrice(p: number) { return p.toFixed(2) }"),
    edit("/w/site/app/models.py", "class Order(models.Model):\n    total = models.DecimalField(max_digits=10, decimal_places=2)"),
    write("/w/shop/.github/workflows/ci.yml", "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest"),
    edit("/w/web/package.json", "\"scripts\": { \"lint\": \"eslint .\" }"),
    bash("touch src/new_module.py"),
    edit("/w/web/src/api/client.ts", "const res = await fetch(url, { headers })"),
    edit("/w/shop/Services/OrderService.cs", "public decimal Total(Order o) => o.Lines.Sum(l => l.Price);"),
    bash("make generate"),
    edit("/w/shop/migrations/0041_index.sql", "CREATE INDEX CONCURRENTLY idx_orders_user ON orders(user_id);"),
    edit("/w/web/Dockerfile.dev", "RUN apt-get update && apt-get install -y curl"),
    edit("/w/web/src/hooks/useTheme.ts", "const [theme, setTheme] = useState<'light' | 'dark'>('light')"),
    edit("/w/shop/tests/test_cart.py", "assert cart.total() == 30"),
    edit("/w/api/internal/db/query.go", "rows, err := db.Query(q, id)\nif err != nil {\n\treturn err\n}"),
    bash("terraform fmt -recursive"),
]  # fmt: skip

READS = [bash("git status"), bash("cat README.md"), bash("ls -la src"),
         bash("grep -rn TODO src | head"), {"tool_name": "Read", "tool_input": {"file_path": "/w/a.py"}},
         bash("git log --oneline -5 && git diff --stat")]  # fmt: skip

_SUBJECTS = ("the payment webhook handler", "the CSV importer", "the login form",
             "the nightly cron job", "the GraphQL resolver", "the S3 upload", "the Redis cache",
             "the email sender", "the feature flag client", "the search indexer",
             "the PDF renderer", "the rate limiter", "the websocket gateway", "the audit logger")  # fmt: skip
_FAILURES = ("timed out under load", "charged twice on retry", "dropped unicode characters",
             "ran twice after a deploy", "returned stale data", "leaked connections",
             "logged secrets", "failed on daylight saving day", "blocked the event loop")  # fmt: skip
_FIXES = ("make it idempotent with a request key", "set an explicit timeout and retry with backoff",
          "decode as UTF-8 explicitly", "take a lock before running", "invalidate on write",
          "close it in a finally block", "redact before logging", "store times in UTC",
          "move the work to a background task")  # fmt: skip
_LANGUAGES = ("python", "typescript", "go", "csharp", None)


def filler(n: int, seed: int = 7) -> list[dict[str, Any]]:
    """``n`` lessons about other things (distinct questions)."""
    rng = random.Random(seed)
    combos = [(s, f) for s in _SUBJECTS for f in _FAILURES]
    rng.shuffle(combos)
    made = []
    for subject, failure in combos[:n]:
        lesson: dict[str, Any] = {"question": f"{subject} {failure}", "answer": rng.choice(_FIXES)}
        language = rng.choice(_LANGUAGES)
        if language is not None:
            lesson["language"] = language
        made.append(lesson)
    return made
