# ruff: noqa: E501  (a table of hand-written scripts: one call a line reads best)
"""The experience engine's development set (issue 33): the replay benchmark's fourteen
families (``bench.engine_families``, their lessons, repeats and fixes unchanged) completed
with the call each lesson was learned from, near misses, innocent calls, a topic and the
kind of mistake, followed by the shell families (``bench.engine_families_shell``) and the
code and configuration families (``bench.engine_families_code``). Written before any tuning:
``bench.engine_cv`` scores the engine on it, in-sample and cross-validated by family.

Each family: a lesson as ``xdb add-lesson`` takes it; ``failing``, the call it was learned
from; ``repeats``, the same mistake in other words (other paths, variables, branches,
namespaces, flag orders and spellings, inside chains and pipes); ``fix``, what the answer
advises; ``near_misses``, safe calls sharing the mistake's words (a dry run, the flag the
mistake omits, reading instead of changing); ``innocent``, unrelated calls of the same
project. ``defect`` is ``present`` when the mistake is something done and ``missing`` when
it is something left out (a flag, an argument, a guard)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bench.engine_families import FAMILIES, Family, bash, edit, write
from bench.engine_families_code import CODE_FAMILIES
from bench.engine_families_shell import SHELL_FAMILIES

# What the replay benchmark's fourteen families lacked, by name.
_COMPLETION: dict[str, dict[str, Any]] = {
    "dbcontext": dict(
        failing=edit("/w/shop/Startup.cs", "services.AddSingleton<CatalogDbContext>(sp => new CatalogDbContext(options));"),
        near_misses=[edit("/w/shop/Startup.cs", "services.AddSingleton<IClock, SystemClock>();"),
                     edit("/w/api/Program.cs", "builder.Services.AddDbContext<AppDbContext>(o => o.UseSqlServer(cs));")],
        innocent=[edit("/w/shop/Startup.cs", "app.UseHttpsRedirection();"), bash("dotnet ef migrations add AddOrderStatus")],
        topic="csharp/dotnet"),
    "useeffect": dict(
        failing=edit("/w/web/src/components/Dashboard.tsx", "useEffect(() => { fetch('/api/stats').then(r => r.json()).then(setStats) })"),
        near_misses=[edit("/w/web/src/components/Dashboard.tsx", "useEffect(() => { document.title = `${count} orders` }, [count])"),
                     edit("/w/web/src/hooks/useClock.ts", "useEffect(() => { const id = setInterval(tick, 1000); return () => clearInterval(id) }, [])")],
        innocent=[edit("/w/web/src/components/Dashboard.tsx", "<h2 className=\"title\">Today</h2>"), bash("pnpm eslint src --fix")],
        topic="typescript/react", defect="missing"),
    "mutable-default": dict(
        failing=edit("/w/shop/app/merge.py", "def merge(a, b, acc={}):\n    acc.update(a)\n    acc.update(b)\n    return acc"),
        near_misses=[edit("/w/etl/utils/batch.py", "def collect(rows, out=None):\n    out = [] if out is None else out\n    out.extend(rows)"),
                     edit("/w/etl/lib/cache.py", "def remember(key, value, ttl: int = 300):")],
        innocent=[edit("/w/shop/app/cart.py", "TAX_RATE = Decimal('0.2')"), bash("pytest tests/test_cart.py -q")],
        topic="python"),
    "force-push": dict(
        failing=bash("git push --force origin master"),
        near_misses=[bash("git push --force-with-lease origin feature/login-fix"), bash("git push origin main")],
        innocent=[bash("git fetch --prune"), bash("gh pr merge 412 --squash")],
        topic="git"),
    "go-unmarshal": dict(
        failing=edit("/w/api/handlers/order.go", "json.Unmarshal(body, &order)\nstore.Save(order)"),
        near_misses=[edit("/w/api/handlers/order.go", "if err := json.Unmarshal(body, &order); err != nil {\n\treturn err\n}"),
                     edit("/w/api/handlers/order.go", "out, err := json.Marshal(order)")],
        innocent=[edit("/w/api/handlers/order.go", "const maxBody = 1 << 20"), bash("go test ./handlers/...")],
        topic="go", defect="missing"),
    "latest-tag": dict(
        failing=write("/w/shop/Dockerfile", "FROM python:latest\nCOPY . /app"),
        near_misses=[write("/w/shop/Dockerfile", "FROM python:3.12.4-slim\nCOPY . /app"),
                     edit("/w/web/Dockerfile", "FROM node:20.11-alpine@sha256:4b1e1a2c3d9f")],
        innocent=[edit("/w/shop/.dockerignore", ".venv\n__pycache__"), bash("docker compose logs -f api > /tmp/api.log")],
        topic="dockerfile"),
    "alter-table": dict(
        failing=write("/w/shop/migrations/0040_currency.sql", "ALTER TABLE orders ADD COLUMN currency char(3) NOT NULL DEFAULT 'EUR';"),
        near_misses=[write("/w/shop/migrations/0041_note.sql", "ALTER TABLE orders ADD COLUMN note text;"),
                     write("/w/shop/migrations/0045_status_not_null.sql", "ALTER TABLE orders ALTER COLUMN status SET NOT NULL; -- after the backfill")],
        innocent=[edit("/w/shop/app/orders.py", "STATUSES = ('new', 'paid', 'shipped')"), bash("alembic upgrade head")],
        topic="sql-migration"),
    "unwrap": dict(
        failing=edit("/w/engine/src/server.rs", "let port: u16 = env::var(\"PORT\").unwrap().parse().unwrap();"),
        near_misses=[edit("/w/engine/src/parser.rs", "let n = s.parse::<u32>().unwrap_or(0);"),
                     edit("/w/engine/tests/parse.rs", "let n = parse(\"42\").unwrap();\nassert_eq!(n, 42);")],
        innocent=[edit("/w/engine/src/lib.rs", "pub mod parser;"), bash("cargo build")],
        topic="rust"),
    "k8s-limits": dict(
        failing=write("/w/ops/k8s/payments-deployment.yaml", "kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - name: payments\n        image: payments:4.1"),
        near_misses=[edit("/w/ops/k8s/deployment.yaml", "containers:\n- name: api\n  image: api:1.3\n  resources:\n    requests: {cpu: 200m, memory: 256Mi}\n    limits: {memory: 512Mi}"),
                     edit("/w/ops/k8s/pdb.yaml", "kind: PodDisruptionBudget\nspec:\n  minAvailable: 1")],
        innocent=[edit("/w/ops/k8s/ingress.yaml", "kind: Ingress\nspec:\n  rules:\n  - host: shop.acme.dev"), bash("kubectl apply -f k8s/ingress.yaml -n staging")],
        topic="k8s-manifest", defect="missing"),
    "npm-force": dict(
        failing=bash("npm install @testing-library/react --force"),
        near_misses=[bash("npm install @testing-library/react@16.0.0 --save-dev --save-exact"), bash("npm cache clean --force")],
        innocent=[bash("npm run test -- --watch=false"), edit("/w/web/.npmrc", "save-exact=true")],
        topic="npm/pnpm/yarn"),
    "md5-passwords": dict(
        failing=edit("/w/site/users/models.py", "self.password = md5(pw.encode()).hexdigest()"),
        near_misses=[edit("/w/site/media/storage.py", "etag = hashlib.md5(content).hexdigest()  # cache key, not a secret"),
                     edit("/w/site/accounts/forms.py", "user.set_password(self.cleaned_data['password'])")],
        innocent=[edit("/w/site/accounts/urls.py", "path('login/', views.login, name='login'),"), bash("python manage.py createsuperuser --noinput")],
        topic="python"),
    "tf-state": dict(
        failing=bash("terraform apply"),
        near_misses=[bash("terraform plan -out=tfplan"), bash("terraform init -backend-config=backend.hcl")],
        innocent=[edit("/w/ops/infra/outputs.tf", "output \"bucket\" {\n  value = aws_s3_bucket.assets.id\n}"), bash("tflint --recursive")],
        topic="terraform", defect="missing"),
    "real-timers": dict(
        failing=edit("/w/web/src/__tests__/poll.test.ts", "await new Promise(resolve => setTimeout(resolve, 2000));\nexpect(poll).toHaveBeenCalled();"),
        near_misses=[edit("/w/web/src/__tests__/poll.test.ts", "jest.useFakeTimers();\npoll.start();\njest.advanceTimersByTime(2000);"),
                     edit("/w/web/src/toast.ts", "setTimeout(() => setVisible(false), 3000)")],
        innocent=[edit("/w/web/src/__tests__/format.test.ts", "expect(formatPrice(3)).toBe('3.00')"), bash("npx jest src/__tests__/format.test.ts")],
        topic="typescript/react"),
    "read-csv": dict(
        failing=edit("/w/etl/etl/clicks.py", "df = pd.read_csv('s3://acme-exports/clicks-2024.csv')"),
        near_misses=[edit("/w/etl/etl/clicks.py", "reader = pd.read_csv(path, chunksize=50_000, dtype=DTYPES)"),
                     edit("/w/etl/etl/clicks.py", "df.to_csv('out/clicks-daily.csv', index=False)")],
        innocent=[edit("/w/etl/etl/clicks.py", "DTYPES = {'user_id': 'int64', 'page': 'category'}"), bash("python -m etl.clicks --day 2024-10-01")],
        topic="python"),
}  # fmt: skip

DEVSET: list[Family] = [
    *(replace(family, **_COMPLETION[family.name]) for family in FAMILIES),
    *SHELL_FAMILIES,
    *CODE_FAMILIES,
]


def kind_of(call: dict[str, Any]) -> str:
    """The call's kind: shell (Bash), edit or write."""
    return {"Bash": "shell", "Edit": "edit", "Write": "write"}[call["tool_name"]]
