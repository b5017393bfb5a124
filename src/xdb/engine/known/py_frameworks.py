"""Known mistakes in Python code, tests and frameworks: sleeping and skipping in tests,
asserts as checks, Django/Flask/FastAPI settings and ORM use (N+1 queries, irreversible
migrations), pandas traps (chained assignment, ``inplace``, ``iterrows``, whole-file
``read_csv``) and database connections left open."""

from __future__ import annotations

from xdb.engine.known.code_python import call_without, none_of
from xdb.engine.known.pattern import Pattern, pattern

PATTERNS: list[Pattern] = [
    # Tests.
    pattern(
        "py-sleep-in-test",
        "sleep in test | flaky test sleep | time.sleep test | sleeping in tests | wait"
        " instead of sleep test | fixed sleep flaky",
        "python",
        r"^(?:async\s+)?def test_\w*\([^\n]*\n(?:(?!(?:async\s+)?def\b)[^\n]*\n){0,60}?[^\n]*"
        r"(?:\b(?:time|asyncio)\.|(?<![\w.]))sleep\(\s*(?!0\s*\))",
        hits=(
            "def test_job_finishes(client):\nclient.post('/jobs')\ntime.sleep(2)\nassert x",
            "async def test_cache_expiry():\nawait cache.set('k', 1, ttl=1)\nawait asyncio.sleep"
            "(1.5)",
            "def test_retry():\nfor _ in range(3):\ntime.sleep(0.2)",
        ),
        safe=(
            "def test_job_finishes(client, freezer):\nfreezer.tick(2)",
            "def poll(job):\ntime.sleep(1)",
            "async def test_yield():\nawait asyncio.sleep(0)",
        ),
    ),
    pattern(
        "py-skipped-test",
        "skipped the flaky test | skip failing test | marked xfail | disabled the failing test"
        " | pytest.mark.skip | skipped failing tests | skipped test hid | test was skipped",
        "python",
        r"\bpytest\.mark\.(?:skip\b|xfail\b(?![^\n]*strict\s*=\s*True))|@unittest\.skip\("
        r"|^(?:async\s+)?def test_\w*\([^\n]*\n(?:(?:[rbuf]?[\"']{3}|#)[^\n]*\n)?(?:pytest\.skip"
        r"|self\.skipTest)\(",
        hits=(
            "@pytest.mark.skip(reason='flaky')\ndef test_checkout():",
            "@pytest.mark.xfail\ndef test_totals():",
            "@unittest.skip('broken on CI')",
            "pytestmark = pytest.mark.skip(reason='wip')",
        ),
        safe=(
            "@pytest.mark.skipif(sys.platform == 'win32', reason='posix only')",
            "@pytest.mark.parametrize('n', [1, 2])",
            "@pytest.mark.xfail(strict=True, reason='bug 123')",
            "if shutil.which('psql') is None:\npytest.skip('psql not installed')",
        ),
    ),
    pattern(
        "py-assert-for-validation",
        "assert for validation | assert stripped optimized | assertions removed optimize"
        " | assert permission check | python -o assert | assert in production code"
        " | assert optimized mode | assert access control",
        "python",
        r"^assert\s+(?:not\s+)?(?:request\.|(?:[\w.]*\.)?(?:has_perm\w*|has_permission"
        r"|is_authenticated|is_authorized|is_admin|is_superuser|is_staff|is_owner|can_\w+"
        r"|check_password|verify_\w+)\b|[\w.]*\b(?:role|roles|permissions?|scopes?|owner(?:_id)?"
        r"|user_id|tenant_id)\s*(?:[!=]=|\bin\b|\bnot\s+in\b)|[^\n]*\b(?:request|payload|form|params|body)\b[.\[][^\n]*,"
        r"\s*f?[\"'])|^(?:async\s+)?def (?!test)\w+\([^\n]*\n(?:[rbuf]?[\"']{3}[^\n]*\n)?"
        r"(?:assert[^\n]*\n){0,2}?assert\s+(?!isinstance\(|type\(|len\()[^\n]*?(?:[<>]=?|\bnot\s+in\b"
        r"|\bin\b)",
        r"^(?:async\s+)?def test_|^import pytest|^from pytest\b|^(?:import|from) unittest\b"
        r"|^class \w*Test(?:Case)?\w*\(",
        hits=(
            "def delete_post(user, post):\nassert user.is_admin\npost.delete()",
            "assert request.user.has_perm('orders.refund')",
            "assert payload['amount'] > 0, 'amount must be positive'",
        ),
        safe=(
            "if not user.is_admin:\nraise PermissionDenied()",
            "def test_admin_can_delete(admin):\nassert admin.is_admin",
            "assert len(rows) == 3",
            "assert isinstance(node, Call), 'parser invariant'",
        ),
    ),
    # Django, Flask, FastAPI.
    pattern(
        "py-django-debug-true",
        "debug true production | django debug | debug mode production | debug enabled prod"
        " | django debug true"
        " | debug mode prod | debug false prod",
        "python",
        r"^DEBUG\s*(?::\s*bool\s*)?=\s*True\b",
        hits=("DEBUG = True", "DEBUG=True\nALLOWED_HOSTS = []", "DEBUG = True  # TODO"),
        safe=(
            "DEBUG = env.bool('DJANGO_DEBUG', default=False)",
            "DEBUG = False",
            "DEBUG = os.environ.get('DEBUG') == '1'",
        ),
    ),
    pattern(
        "py-flask-debug",
        "flask debug | werkzeug debugger | app.run debug | debug mode production"
        " | werkzeug console",
        "python",
        r"\.run\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*?\bdebug\s*=\s*True|\b(?:app|application)\.run\("
        r"\s*[^,()\n]+,\s*[^,()\n]+,\s*True\b|\bapp\.debug\s*=\s*True|\.config\["
        r"[\"']DEBUG[\"']\]\s*=\s*True|\.config\.(?:update|from_mapping)\([^()]*\bDEBUG\s*=\s*True",
        hits=(
            "app.run(host='0.0.0.0', debug=True)",
            "application.run(debug=True, port=8080)",
            "app.debug = True",
            "app.config['DEBUG'] = True",
        ),
        safe=(
            "app.run(host='0.0.0.0', port=8000)",
            "app.run(debug=os.environ.get('FLASK_DEBUG') == '1')",
            "uvicorn.run(app, host='127.0.0.1', reload=True)",
        ),
    ),
    pattern(
        "py-allowed-hosts-wildcard",
        "allowed_hosts | allowed hosts wildcard | host header attack | allowed_hosts *",
        "python",
        r"\bALLOWED_HOSTS\s*(?:=|\+=)\s*(?:[\[(][^\])]*[\"']\*[\"']|[^\n]*,\s*[\"']\*[\"']\s*\))",
        hits=(
            "ALLOWED_HOSTS = ['*']",
            'ALLOWED_HOSTS = ["api.acme.dev", "*"]',
            "ALLOWED_HOSTS=('*',)",
        ),
        safe=(
            "ALLOWED_HOSTS = ['api.acme.dev']",
            "ALLOWED_HOSTS = env.list('ALLOWED_HOSTS')",
            "ALLOWED_HOSTS = ['.acme.dev']",
        ),
    ),
    pattern(
        "py-cors-wildcard",
        "cors wildcard | allow all origins | cors allow all | allow_origins wildcard"
        " | allow_origins credentials | cors any origin | access-control-allow-origin *"
        " | restrict cors origins | cors known origins | allow_origins",
        "python",
        r"\bCORS_(?:ORIGIN_)?ALLOW_ALL(?:_ORIGINS)?\s*=\s*True|\ballow_origins\s*=\s*\[\s*[\"']"
        r"\*[\"']|\bCORS\(\s*app\s*\)|\borigins\s*=\s*[\"']\*[\"']|[\"']origins[\"']\s*:\s*[\"']"
        r"\*[\"']|[\"']Access-Control-Allow"
        r"-Origin[\"']\s*[\]:,]\s*=?\s*[\"']\*[\"']",
        hits=(
            "CORS_ALLOW_ALL_ORIGINS = True",
            "app.add_middleware(CORSMiddleware, allow_origins=['*'], allow_credentials=True)",
            "CORS(app)",
            "resp.headers['Access-Control-Allow-Origin'] = '*'",
        ),
        safe=(
            "CORS_ALLOWED_ORIGINS = ['https://app.acme.dev']",
            "app.add_middleware(CORSMiddleware, allow_origins=settings.origins)",
            "CORS(app, origins=['https://app.acme.dev'])",
        ),
    ),
    pattern(
        "py-n-plus-one",
        "n+1 queries | n+1 query | n+1 problem | select_related | prefetch_related | query"
        " inside loop | query per row | queries in a loop | bulk_create",
        "python",
        r"^for\s+(\w+)\s+in\b[^\n]*:\n(?:(?!(?:async\s+)?def\b)[^\n]*\n){0,4}?[^\n]*(?:\.objects"
        r"\.(?:get|filter|exclude|count|create|update_or_create|get_or_create)\(|\bsession\.(?:query"
        r"|scalars?)\(|\bsession\.get\(\s*[A-Z]|\bdb\.query\(\s*[A-Z]|\b\1\.\w+(?:_set)?\.(?:all|count|first|last"
        r"|exists)\(\))"
        # (a queryset's rows, each reading a related object's field: a query per row)
        r"|^for\s+(\w+)\s+in\s+[\w.]*\.objects\.(?:all|filter|exclude)\([^\n]*:\n"
        r"(?:(?!(?:async\s+)?def\b)[^\n]*\n){0,4}?[^\n]*\b\2\.(?!objects\b|pk\b|id\b)[a-z]\w*\."
        r"[a-z]\w*\b(?!\s*\()",
        r"\b(?:select_related|prefetch_related|selectinload|joinedload|bulk_create|in_bulk)\b"
        r"|__in\s*=",
        hits=(
            "for order in Order.objects.all():\ntotal += order.lines.count()",
            "for uid in user_ids:\nuser = User.objects.get(id=uid)",
            "for row in rows:\nproduct = session.query(Product).get(row.product_id)",
            "for a in authors:\nfor b in a.book_set.all():",
        ),
        safe=(
            "users = User.objects.in_bulk(user_ids)\nfor uid in user_ids:\nu = users[uid]",
            "for order in Order.objects.prefetch_related('lines'):\nn += order.lines.count()",
            "for row in rows:\ntotal += row.amount",
            "for p in products:\nname = p.title.strip()",
        ),
    ),
    pattern(
        "py-django-runpython-irreversible",
        "runpython reverse | reverse_code | irreversible migration | migration cannot"
        " reverse | runpython noop",
        "python",
        r"\bRunPython\(\s*(?:code\s*=\s*)?[\w.]+\s*(?:,\s*(?:atomic|hints|elidable)\s*=\s*[^,()]+)*"
        r",?\s*\)",
        hits=(
            "migrations.RunPython(backfill_slugs)",
            "operations = [migrations.RunPython(forwards)]",
            "RunPython( copy_prices )",
        ),
        safe=(
            "migrations.RunPython(backfill_slugs, migrations.RunPython.noop)",
            "migrations.RunPython(forwards, reverse_code=backwards)",
            "migrations.RunSQL(sql, reverse_sql=undo)",
        ),
    ),
    # pandas.
    pattern(
        "py-pandas-chained-assignment",
        "chained assignment | setting with copy warning | setting with copy | df loc assignment"
        " | chained indexing pandas | chained indexing assignment"
        " | df.loc",
        "python",
        r"\b\w+\[(?:[^\[\]\n]|\[[^\[\]\n]*\])*(?:[<>]=?|==|!=|\.isin\(|\.str\.|\.between\()"
        r"(?:[^\[\]\n]|\[[^\[\]\n]*\])*\]\s*\[\s*[\"'][^\"'\n]+[\"']\s*\]\s*=(?!=)|\b\w+\[\s*"
        r"[\"'][^\"'\n]+[\"']\s*\]\s*\[(?:[^\[\]\n]|\[[^\[\]\n]*\])*(?:[<>]=?|==|!=|\.isin\()"
        r"(?:[^\[\]\n]|\[[^\[\]\n]*\])*\]\s*=(?!=)|\.i?loc\[[^\]\n]+\]\s*\[[^\]\n]+\]\s*=(?!=)",
        hits=(
            "df[df.age > 30]['group'] = 'senior'",
            "orders[orders['status'] == 'open']['late'] = True",
            "df['price'][df['price'] < 0] = 0",
            "df.loc[idx]['flag'] = 1",
        ),
        safe=(
            "df.loc[df.age > 30, 'group'] = 'senior'",
            "matrix[i][j] = 0",
            "config['db']['host'] = host",
            "df['y'] = df['x'] * 2",
        ),
    ),
    pattern(
        "py-pandas-inplace",
        "inplace=true | inplace returns none | inplace assignment | dropna inplace"
        " | fillna inplace",
        "python",
        r"=\s*[\w.\[\]\"']+\.\w+\((?:[^()\n]|\([^()\n]*\))*\binplace\s*=\s*True|\b\w+\[[^\]\n]+"
        r"\]\.\w+\((?:[^()\n]|\([^()\n]*\))*\binplace\s*=\s*True",
        hits=(
            "df = df.dropna(inplace=True)",
            "clean = raw.drop_duplicates(subset=['id'], inplace=True)",
            "df['age'].fillna(0, inplace=True)",
        ),
        safe=(
            "df.dropna(inplace=True)",
            "df = df.dropna()",
            "df['age'] = df['age'].fillna(0)",
        ),
    ),
    pattern(
        "py-pandas-iterrows",
        "iterrows | iterrows slow | vectorized pandas | row by row pandas | itertuples instead",
        "python",
        r"\.iterrows\(\)",
        hits=(
            "for _, row in df.iterrows():",
            "for idx, r in orders.iterrows():\ntotal += r['qty'] * r['price']",
            "rows = [f(r) for _, r in frame.iterrows()]",
        ),
        safe=(
            "df['total'] = df['qty'] * df['price']",
            "for row in df.itertuples(index=False):",
            "for k, v in d.items():",
        ),
    ),
    pattern(
        "py-pandas-read-csv-memory",
        "read_csv memory | read_csv chunksize | read_csv dtype | csv out of memory"
        " | large csv memory",
        "python",
        r"\bread_csv\(",
        none_of(call_without(r"\bread_csv", r"chunksize|dtype|usecols|nrows|iterator|engine")),
        hits=(
            "df = pd.read_csv('events.csv')",
            "frame = pandas.read_csv(path, sep=';', parse_dates=['ts'])",
            "big = pd.read_csv(\ns3_url,\ncompression='gzip',\n)",
        ),
        safe=(
            "for chunk in pd.read_csv(p, chunksize=100_000):",
            "df = pd.read_csv(p, usecols=['id', 'ts'], dtype={'id': 'int32'})",
            "df = pl.scan_csv(p)",
        ),
    ),
    pattern(
        "py-db-connection-not-closed",
        "connection not closed | connection leak | cursor not closed | too many connections"
        " | leaked connections | close the connection",
        "python",
        r"\b(?:psycopg2?|sqlite3|pymysql|MySQLdb|mysql\.connector|cx_Oracle|oracledb|pyodbc)"
        r"\.connect\(",
        r"\.close\(\)|\bclosing\(|\benter_context\(|^with\s+psycopg\.connect\(",
        hits=(
            "conn = psycopg2.connect(DSN)\ncur = conn.cursor()\ncur.execute(q)",
            "db = sqlite3.connect('app.db')\nrows = db.execute('SELECT 1').fetchall()",
            "with sqlite3.connect(path) as conn:\nconn.execute(sql)",
        ),
        safe=(
            "conn = psycopg2.connect(DSN)\ntry:\nrun(conn)\nfinally:\nconn.close()",
            "with closing(sqlite3.connect(path)) as conn:",
            "with psycopg.connect(DSN) as conn:",
        ),
    ),
]
