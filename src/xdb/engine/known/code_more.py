"""More known mistakes in application code: a collection changed while a loop walks it,
network calls with no timeout (urllib, reqwest), Celery tasks queued inside a transaction,
SQL that compares with NULL or blocks readers (VACUUM FULL, REINDEX, REFRESH MATERIALIZED
VIEW), money in floating-point columns, ``target="_blank"`` links, Node's deprecated
``new Buffer``/``createCipher`` and session cookies without flags, Go servers without read
timeouts, unbuffered signal channels, ``InsecureSkipVerify`` and ``math/rand`` secrets,
and reqwest clients that accept any certificate."""

from __future__ import annotations

from xdb.engine.known.code_python import args, call_without
from xdb.engine.known.pattern import Pattern, pattern

# A SQL statement's line that is not a ``--`` comment (added lines are stripped).
_SQL_LINE = r"(?im)^(?!--)[^\n]*?"
_MONEY = r"\w*(?:price|amount|total|cost|balance|fee|salary|revenue|subtotal|payment|charge)\w*"
_SESSION_NAME = (
    r"(?:['\"`][^'\"`\n]*(?i:sess|token|auth|sid|jwt|refresh|login|remember)[^'\"`\n]*['\"`]"
    r"|\w*(?i:session|token|auth|jwt)\w*)"
)
_SET_COOKIE = (
    r"\b(?:(?:res|response|reply)\.(?:cookie|setCookie)|(?:ctx|context|c)\.cookies\.set)\(\s*"
    + _SESSION_NAME
)
_GO_MATH_RAND = (
    r"\b(?:m|math|mr)?rand\.(?:Intn|IntN|Int31n?|Int63n?|N|Uint32|Uint64|Float64|Perm"
    r"|Int\((?!\s*\w*rand\.Reader))"
)
_SECRET_NAME = r"(?i:token|secret|passw|otp|nonce|salt|api_?key|session_?id|reset_?code)"

PATTERNS: list[Pattern] = [
    pattern(
        "py-modify-while-iterating",
        "modifying a list while iterating | removing items while iterating | dictionary "
        "changed size during iteration | changed size during iteration | remove inside "
        "the for loop | delete while iterating | iterate over a copy",
        "python",
        r"\bfor\s+[\w, ()]+?\s+in\s+(?:self\.)?(\w+)(?:\.(?:items|keys|values)\(\))?\s*:\n"
        r"(?:(?!for\b|def\b|class\b)[^\n]*\n){0,6}?[^\n]*"
        r"(?:\b\1\.(?:remove|pop|clear|discard)\(|\bdel\s+(?:self\.)?\1\[(?!:\]))",
        hits=(
            "for item in items:\n    if item.expired:\n        items.remove(item)",
            "for key in cache.keys():\n    if cache[key] is None:\n        del cache[key]",
            "for k, v in self.sessions.items():\n    if v.closed:\n        self.sessions.pop(k)",
            "for user in pending:\n    notify(user)\n    pending.discard(user)",
        ),
        safe=(
            "for item in items[:]:\n    if item.expired:\n        items.remove(item)",
            "for key in list(cache):\n    if cache[key] is None:\n        del cache[key]",
            "items = [i for i in items if not i.expired]",
            "for item in items:\n    seen.remove(item)",
            "for node in queue:\n    queue.append(node.left)",
        ),
    ),
    pattern(
        "py-urlopen-no-timeout",
        "urlopen without timeout | urlopen hung | urlopen timeout | urllib timeout | "
        "urllib request hung",
        "python",
        call_without(r"\burlopen|\b\w*opener\.open", "timeout"),
        hits=(
            "body = urllib.request.urlopen(url).read()",
            "with urlopen(req) as resp:\n    data = json.load(resp)",
            "data = request.urlopen(\n    Request(u, headers=h)\n).read()",
        ),
        safe=(
            "body = urllib.request.urlopen(url, timeout=10).read()",
            "with urlopen(req, timeout=5) as resp:",
            "parts = urlparse(url)",
            "opener = urllib.request.build_opener(handler)",
        ),
    ),
    pattern(
        "py-task-in-transaction",
        "transaction.on_commit | task inside transaction | delay inside atomic | "
        "task ran before commit | celery task before the commit | enqueue after commit | "
        "task queued inside transaction",
        "python",
        r"transaction\.atomic\b[^\n]*\n(?:(?:async\s+)?def\b[^\n]*\n)?(?:(?!(?:async\s+)?def\b)"
        r"[^\n]*\n){0,12}?[^\n]*(?:\.(?:delay|apply_async|enqueue|enqueue_call|send_task"
        r"|send_with_options)\(|\b(?!(?:\w*signal|\w*mail\w*|sock\w*|ws|conn\w*|channel\w*)\.)\w+"
        r"\.send\((?![^)\n]*\bsender\s*=))",
        r"\bon_commit\(",
        hits=(
            "with transaction.atomic():\n    order = Order.objects.create(**data)\n"
            "    send_receipt.delay(order.id)",
            "@transaction.atomic\ndef approve(request, pk):\n    doc = Doc.objects.get(pk=pk)\n"
            "    doc.approved = True\n    doc.save()\n    index_doc.apply_async(args=[doc.pk])",
            "with db_transaction.atomic(using='default'):\n    u = User.objects.create(email=e)\n"
            "    tasks.welcome_email.delay(u.pk)",
        ),
        safe=(
            "with transaction.atomic():\n    order = Order.objects.create(**data)\n"
            "    transaction.on_commit(lambda: send_receipt.delay(order.id))",
            "with transaction.atomic():\n    order.save()",
            "send_receipt.delay(order.id)",
        ),
    ),
    pattern(
        "sql-null-comparison",
        "compared with null | comparison with null | equals null | is null instead | "
        "null comparison never true | = null never true",
        "python role:migration sql",
        r"(?i)\b(?:WHERE|AND|OR|ON|WHEN|HAVING|NOT)\s+[\w.\"]+\s*(?:=|!=|<>)\s*NULL\b",
        hits=(
            "SELECT id FROM users WHERE deleted_at = NULL;",
            "delete from sessions where user_id <> null",
            "cur.execute(\"UPDATE orders SET status = 'x' WHERE shipped_at != NULL\")",
            "SELECT count(*) FROM events WHERE kind = 'click' AND o.user_id = NULL",
        ),
        safe=(
            "SELECT id FROM users WHERE deleted_at IS NULL;",
            "UPDATE users SET deleted_at = NULL WHERE id = 4;",
            "ALTER TABLE users ALTER COLUMN bio SET DEFAULT NULL;",
            "SELECT id FROM t WHERE a IS NOT NULL AND b = 'null'",
        ),
    ),
    pattern(
        "sql-order-by-random",
        "order by random | order by rand | order by newid | random row full scan | "
        "random ordering full table",
        "python role:migration sql",
        r"(?i)\bORDER\s+BY\s+(?:random|rand|newid|dbms_random\.value)\s*\(\)"
        r"|\border_by\(\s*(?:[\"']\?[\"']|(?:sa\.|sqlalchemy\.)?func\.(?:random|rand)\(\))",
        hits=(
            "SELECT * FROM products ORDER BY random() LIMIT 1;",
            "select id from quotes order by rand() limit 5",
            "cur.execute('SELECT id FROM users ORDER BY RANDOM() LIMIT %s', (n,))",
            "SELECT TOP 10 * FROM Orders ORDER BY NEWID()",
        ),
        safe=(
            "SELECT * FROM products ORDER BY created_at DESC LIMIT 1;",
            "SELECT * FROM products TABLESAMPLE SYSTEM (1) LIMIT 1;",
            "SELECT random() AS r FROM generate_series(1, 3);",
        ),
    ),
    pattern(
        "sql-vacuum-full",
        "vacuum full | pg_repack instead",
        "role:migration sql",
        _SQL_LINE + r"\bVACUUM\s*(?:FULL\b|\([^)]*\bFULL\b)",
        hits=(
            "VACUUM FULL events;",
            "vacuum full analyze orders;",
            "VACUUM (FULL, VERBOSE) audit_log;",
            "op.execute('VACUUM FULL sessions')",
        ),
        safe=(
            "VACUUM ANALYZE events;",
            "VACUUM (VERBOSE, ANALYZE) audit_log;",
            "-- never VACUUM FULL here: it locks the table",
        ),
    ),
    pattern(
        "sql-reindex-not-concurrently",
        "reindex concurrently | reindex blocked | reindex locked | reindex table | reindex index",
        "role:migration sql",
        _SQL_LINE + r"\bREINDEX\s+(?:\([^)]*\)\s*)?(?:TABLE|INDEX|SCHEMA|DATABASE|SYSTEM)\s+"
        r"(?!CONCURRENTLY\b)",
        hits=(
            "REINDEX TABLE orders;",
            "reindex index idx_users_email;",
            "REINDEX (VERBOSE) TABLE events;",
            'op.execute("REINDEX INDEX ix_orders_customer")',
        ),
        safe=(
            "REINDEX TABLE CONCURRENTLY orders;",
            "reindex index concurrently idx_users_email;",
            "-- REINDEX TABLE orders when bloated",
            "CREATE INDEX CONCURRENTLY idx_o ON orders (customer_id);",
        ),
    ),
    pattern(
        "sql-refresh-matview-blocking",
        "refresh materialized view | refreshing the materialized view | materialized view "
        "refresh blocked | matview refresh concurrently",
        "python role:migration sql",
        _SQL_LINE + r"\bREFRESH\s+MATERIALIZED\s+VIEW\s+(?!CONCURRENTLY\b)",
        r"(?i)\bWITH\s+NO\s+DATA\b",
        hits=(
            "REFRESH MATERIALIZED VIEW daily_sales;",
            'cur.execute("refresh materialized view mv_user_stats")',
            "await conn.execute('REFRESH MATERIALIZED VIEW reporting.revenue_by_day')",
        ),
        safe=(
            "REFRESH MATERIALIZED VIEW CONCURRENTLY daily_sales;",
            "CREATE MATERIALIZED VIEW daily_sales AS SELECT day, sum(total) FROM o GROUP BY 1;",
            "CREATE UNIQUE INDEX ON daily_sales (day);",
            "CREATE MATERIALIZED VIEW mv AS SELECT 1 WITH NO DATA;\nREFRESH MATERIALIZED VIEW mv;",
        ),
    ),
    pattern(
        "sql-float-money",
        "money float column | float for money | float amount column | money as float | "
        "double precision money | floating point currency | store money numeric | "
        "amount column float",
        "role:migration sql",
        r"(?i)\b" + _MONEY + r"\s+(?:float\d?|real|double\s+precision|double|money)\b"
        r"|(?i:['\"]" + _MONEY + r"['\"],\s*models\.FloatField)"
        r"|(?i:\bname\s*=\s*['\"]" + _MONEY + r"['\"]\s*,\s*field\s*=\s*models\.FloatField)",
        hits=(
            "CREATE TABLE items (id bigint PRIMARY KEY, price float NOT NULL);",
            "ALTER TABLE orders ADD COLUMN total_amount double precision;",
            "balance REAL DEFAULT 0,",
            "unit_cost float8 NOT NULL",
            "('price', models.FloatField(default=0)),",
        ),
        safe=(
            "CREATE TABLE items (id bigint PRIMARY KEY, price numeric(12,2) NOT NULL);",
            "amount_cents bigint NOT NULL,",
            "latitude double precision,",
            "score float",
            "('price', models.DecimalField(max_digits=12, decimal_places=2)),",
        ),
    ),
    pattern(
        "js-target-blank-noopener",
        "target _blank | target=_blank | rel noopener | noopener noreferrer | reverse "
        "tabnabbing | jsx-no-target-blank",
        "javascript typescript html vue svelte",
        # (an element's attributes, bounded: no walk to the text's end from each "<a")
        r"<a\b(?!(?:=>|[^>]){0,1500}?\brel\s*=\s*\{?[\"'][^\"']{0,200}\bno(?:opener|referrer)\b)"
        r"(?:=>|[^>]){0,1500}?\btarget\s*=\s*\{?[\"']_blank[\"']"
        r"|\bwindow\.open\([^,\n]+,\s*['\"`]_blank['\"`](?!\s*,\s*['\"`][^'\"`\n]*noopener)",
        hits=(
            '<a href={post.url} target="_blank">Read</a>',
            "<a target='_blank' href=\"https://docs.acme.dev\">docs</a>",
            '<a\nhref={link}\ntarget={"_blank"}\nclassName="ext"\n>',
            '<a :href="order.invoiceUrl" target="_blank">Invoice</a>',
        ),
        safe=(
            '<a href={url} target="_blank" rel="noopener noreferrer">x</a>',
            '<a href="/docs" target="_self">docs</a>',
            '<a rel="noreferrer" href={u} target="_blank">u</a>',
            '<Link to="/orders">Orders</Link>',
        ),
    ),
    pattern(
        "node-new-buffer",
        "new Buffer | Buffer constructor deprecated | Buffer.alloc | uninitialized buffer "
        "memory | Buffer.from instead",
        "javascript typescript",
        r"\bnew\s+Buffer\s*\(|(?<![\w.$])Buffer\s*\(",
        hits=(
            "const buf = new Buffer(size)",
            "const raw = new Buffer(req.body.data, 'base64')",
            "return new Buffer (str)",
        ),
        safe=(
            "const buf = Buffer.alloc(16)",
            "const raw = Buffer.from(req.body.data, 'base64')",
            "const view = new ArrayBuffer(8)",
        ),
    ),
    pattern(
        "node-createcipher",
        "createCipher | createDecipher | createCipheriv | cipher without iv | encryption "
        "without iv | ecb mode | aes ecb",
        "javascript typescript",
        r"\bcreate(?:Cipher|Decipher)\s*\(|\bcreate(?:Cipher|Decipher)iv\(\s*['\"`][\w-]*-ecb\b",
        hits=(
            "const cipher = crypto.createCipher('aes-256-cbc', password)",
            "const d = createDecipher('aes192', key)",
            "const c = crypto.createCipher(\n'aes-128-cbc',\nsecret\n)",
            "const c = crypto.createCipheriv('aes-128-ecb', key, null)",
        ),
        safe=(
            "const c = crypto.createCipheriv('aes-256-gcm', key, iv)",
            "const d = createDecipheriv(algo, key, iv)",
            "const h = crypto.createHash('sha256')",
        ),
    ),
    pattern(
        "node-cookie-insecure",
        "cookie httpOnly | cookie without httpOnly | cookie secure flag | session cookie "
        "flags | cookie samesite | res.cookie",
        "javascript typescript",
        _SET_COOKIE
        + args("httpOnly")
        + r"(?:\)|\Z)|"
        + _SET_COOKIE
        + args("secure")
        + r"(?:\)|\Z)|\b(?:setHeader|header|set|append)\(\s*['\"`]Set-Cookie['\"`]\s*,\s*['\"`]"
        r"(?=[^'\"`\n]*(?i:sess|token|auth|sid|jwt))(?!(?=[^'\"`\n]*(?i:httponly))"
        r"(?=[^'\"`\n]*(?i:;\s*secure)))",
        r"(?s)\A(?=.*\bhttpOnly\s*:\s*true)(?=.*\bsecure\s*:)",
        hits=(
            "res.cookie('session', sid)",
            'res.cookie("auth_token", token, { maxAge: 86400000 })',
            "reply.setCookie('refreshToken', rt, { httpOnly: true, path: '/' })",
            "res.cookie(SESSION_COOKIE, id, { secure: true })",
        ),
        safe=(
            "res.cookie('session', sid, { httpOnly: true, secure: true, sameSite: 'lax' })",
            "res.cookie('theme', 'dark')",
            "res.clearCookie('session')",
            "const cookieOpts = { httpOnly: true, secure: true }\n"
            "res.cookie('sid', id, cookieOpts)",
        ),
    ),
    pattern(
        "go-tls-insecure-skip-verify",
        "InsecureSkipVerify | skip tls verification | skipping certificate verification | "
        "tls verification disabled | certificate verification off",
        "go",
        r"\bInsecureSkipVerify\s*(?::|=)\s*true\b",
        hits=(
            "client := &http.Client{Transport: &http.Transport{TLSClientConfig: "
            "&tls.Config{InsecureSkipVerify: true}}}",
            "tr.TLSClientConfig.InsecureSkipVerify = true",
            "TLSClientConfig: &tls.Config{\nInsecureSkipVerify: true, // nolint\n},",
        ),
        safe=(
            "TLSClientConfig: &tls.Config{InsecureSkipVerify: false},",
            "cfg := &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}",
            "cfg := &tls.Config{InsecureSkipVerify: opts.Insecure}",
        ),
    ),
    pattern(
        "go-listen-no-timeouts",
        "ListenAndServe timeout | ListenAndServe without timeouts | ReadHeaderTimeout server | "
        "slowloris server | http.Server timeouts | server read timeout | gosec G114",
        "go",
        r"\bhttp\.ListenAndServe(?:TLS)?\(|\bhttp\.Server\{",
        r"\bRead(?:Header)?Timeout\s*[:=]",
        hits=(
            'log.Fatal(http.ListenAndServe(":8080", mux))',
            "if err := http.ListenAndServeTLS(addr, cert, key, h); err != nil {",
            'srv := &http.Server{\nAddr: ":" + port,\nHandler: router,\n}',
            "server := http.Server{Addr: cfg.Addr, Handler: h, WriteTimeout: 10 * time.Second}",
        ),
        safe=(
            'srv := &http.Server{Addr: ":8080", Handler: mux, '
            "ReadHeaderTimeout: 5 * time.Second}\nlog.Fatal(srv.ListenAndServe())",
            "srv := &http.Server{Addr: a, Handler: h}\nsrv.ReadTimeout = 10 * time.Second",
            "ts := httptest.NewServer(handler)",
            "resp, err := client.Get(url)",
        ),
    ),
    pattern(
        "go-signal-unbuffered",
        "unbuffered signal channel | signal.Notify unbuffered | chan os.Signal buffered | "
        "missed the signal | signal channel buffered",
        "go",
        r"\bmake\(\s*chan\s+os\.Signal\s*(?:,\s*0\s*)?\)",
        hits=(
            "sigs := make(chan os.Signal)\nsignal.Notify(sigs, syscall.SIGTERM)",
            "quit := make(chan os.Signal)",
            "c := make(chan os.Signal, 0)",
        ),
        safe=(
            "sigs := make(chan os.Signal, 1)\nsignal.Notify(sigs, syscall.SIGTERM)",
            "ctx, stop := signal.NotifyContext(ctx, os.Interrupt)",
            "done := make(chan struct{})",
        ),
    ),
    pattern(
        "go-math-rand-secret",
        "math/rand token | math/rand secret | math/rand password | predictable token | "
        "crypto/rand instead | insecure random token | gosec G404",
        "go",
        r"\b\w*"
        + _SECRET_NAME
        + r"\w*\s*(?:\[[^\]\n]*\]\s*)?(?::=|=)[^\n]*"
        + _GO_MATH_RAND
        + r"|"
        + _GO_MATH_RAND
        + r"[^\n]{0,200}?//[^\n]{0,200}?(?i:token|secret|passw|otp|nonce|salt|api.?key|session"
        + r"|verification"
        + r"|reset)"
        + r"|\bfunc\s+\w*"
        + _SECRET_NAME
        + r"\w*\([^\n]*\n(?:[^\n]*\n){0,12}?[^\n]*"
        + _GO_MATH_RAND,
        hits=(
            'token := fmt.Sprintf("%06d", rand.Intn(1000000))',
            "otpCode = rand.Int31n(900000) + 100000",
            "func randomToken(n int) string {\nb := make([]byte, n)\nfor i := range b {\n"
            "b[i] = letters[rand.Intn(len(letters))]\n}\nreturn string(b)\n}",
            "sessionID := strconv.FormatUint(rand.Uint64(), 16)",
        ),
        safe=(
            "token := make([]byte, 32)\nif _, err := rand.Read(token); err != nil {",
            "n, err := rand.Int(rand.Reader, big.NewInt(1e6))",
            "jitter := time.Duration(rand.Intn(100)) * time.Millisecond",
            "idx := rand.Intn(len(backends))",
        ),
    ),
    pattern(
        "rust-reqwest-no-timeout",
        "reqwest timeout | reqwest without timeout | reqwest client hung | reqwest::get | "
        "reqwest default no timeout",
        "rust",
        r"\breqwest::(?:blocking::)?(?:get\(|Client::new\(\)|Client::builder\(\)"
        r"|ClientBuilder::new\(\))"
        r"|\A(?=[\s\S]*\buse reqwest\b)[\s\S]*?\b(?:Client::new\(\)|Client::builder\(\))",
        r"\.timeout\(",
        hits=(
            "let body = reqwest::get(url).await?.text().await?;",
            "let client = reqwest::Client::new();",
            'use reqwest::Client;\nlet c = Client::builder().user_agent("x").build()?;',
            "let resp = reqwest::blocking::get(&url)?;",
        ),
        safe=(
            "let client = reqwest::Client::builder().timeout(Duration::from_secs(10)).build()?;",
            "let resp = client.get(url).timeout(Duration::from_secs(5)).send().await?;",
            "let client = redis::Client::open(url)?;",
        ),
    ),
    pattern(
        "rust-accept-invalid-certs",
        "danger_accept_invalid_certs | danger_accept_invalid_hostnames | accept invalid "
        "certs | certificate verification disabled | dangerous certificate verifier",
        "rust",
        r"\.danger_accept_invalid_(?:certs|hostnames)\(\s*true\s*\)"
        r"|\.dangerous\(\)\s*\.set_certificate_verifier\(",
        hits=(
            "let client = reqwest::Client::builder().danger_accept_invalid_certs(true).build()?;",
            "Client::builder()\n.danger_accept_invalid_hostnames(true)\n.build()?",
            "let tls = TlsConnector::builder().danger_accept_invalid_certs( true ).build()?;",
        ),
        safe=(
            ".danger_accept_invalid_certs(false)",
            "Client::builder().add_root_certificate(cert).build()?",
            ".danger_accept_invalid_certs(cfg.insecure)",
        ),
    ),
]
