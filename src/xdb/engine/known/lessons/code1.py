# ruff: noqa: E501
"""Blind lessons for the code1 area (Python, SQL, web, Go and Rust patterns): how engineers
write about these mistakes, written from the patterns' examples before their phrases."""

from __future__ import annotations

LESSONS: list[tuple[str, str, str]] = [  # (pattern name, question, answer)
    # code_python, code_python_idioms
    (
        "py-mutable-default",
        "the helper's list argument defaulted to [] and kept growing across calls",
        "use None as the default and create the list in the body",
    ),
    (
        "py-mutable-default",
        "cache dict given as a default parameter value was shared by every caller",
        "default parameters are evaluated once; never use a mutable default",
    ),
    (
        "py-bare-except",
        "a bare except: swallowed KeyboardInterrupt and the worker couldn't be stopped",
        "catch Exception or the specific error, never a bare except",
    ),
    (
        "py-bare-except",
        "our try block caught everything including SystemExit",
        "name the exception class in the except clause",
    ),
    (
        "py-swallowed-exception",
        "except Exception: pass hid a failing email send for weeks",
        "log the exception or re-raise it; don't silently swallow errors",
    ),
    (
        "py-swallowed-exception",
        "errors in the parser were silently ignored and rows vanished",
        "an except block that just continues needs at least a logged warning",
    ),
    (
        "py-requests-no-timeout",
        "requests.get hung forever when the partner API stalled",
        "always pass timeout= to requests calls",
    ),
    (
        "py-requests-no-timeout",
        "the sync job froze on an HTTP call with no timeout",
        "set a connect and read timeout on every outbound request",
    ),
    (
        "py-http-status-unchecked",
        "we called .json() on a 500 error page and got a confusing decode error",
        "call raise_for_status() before reading the body",
    ),
    (
        "py-http-status-unchecked",
        "the client never checked the response status code so failures looked like empty data",
        "check resp.ok or raise_for_status first",
    ),
    (
        "py-naive-datetime",
        "datetime.utcnow() produced naive timestamps that compared wrong with aware ones",
        "use datetime.now(timezone.utc)",
    ),
    (
        "py-naive-datetime",
        "expiry times were off by hours because we stored naive datetimes without a timezone",
        "always create timezone-aware datetimes",
    ),
    (
        "py-pytz-replace-tzinfo",
        "replace(tzinfo=pytz.timezone(...)) gave a weird LMT offset of -4:56",
        "use tz.localize(dt) with pytz, or zoneinfo",
    ),
    (
        "py-pytz-replace-tzinfo",
        "passing a pytz timezone as tzinfo to the datetime constructor gave the wrong offset",
        "localize with pytz or switch to zoneinfo.ZoneInfo",
    ),
    (
        "py-raise-without-from",
        "re-raising a custom error inside except lost the original cause in the traceback",
        "use raise NewError(...) from e",
    ),
    (
        "py-raise-without-from",
        "exception chaining was missing so we couldn't tell what really failed",
        "raise ... from err to keep the chain",
    ),
    (
        "py-log-error-no-traceback",
        "logger.error(e) only logged the message, no stack trace, so debugging the outage took hours",
        "use logger.exception inside except blocks",
    ),
    (
        "py-log-error-no-traceback",
        "the log showed 'upload failed: timed out' without any traceback",
        "log with exc_info=True or logger.exception",
    ),
    (
        "py-sleep-in-async",
        "time.sleep inside an async function froze the whole event loop",
        "use await asyncio.sleep",
    ),
    (
        "py-sleep-in-async",
        "a blocking sleep in a coroutine stalled every other request",
        "never call time.sleep in async code",
    ),
    (
        "py-blocking-io-in-async",
        "calling requests from an async FastAPI endpoint blocked the event loop",
        "use httpx.AsyncClient or run it in a thread",
    ),
    (
        "py-blocking-io-in-async",
        "synchronous HTTP calls in async def handlers made latency spike under load",
        "use an async client library in coroutines",
    ),
    (
        "py-sync-db-in-async",
        "a sync SQLAlchemy Session query inside an async endpoint blocked the loop",
        "use AsyncSession with await, or make the endpoint plain def",
    ),
    (
        "py-sync-db-in-async",
        "Django ORM call from an async view raised SynchronousOnlyOperation",
        "wrap ORM calls with sync_to_async or use the async ORM methods",
    ),
    (
        "py-create-task-no-reference",
        "a fire-and-forget asyncio.create_task got garbage collected before it finished",
        "keep a reference to the task, e.g. in a set, and discard on done",
    ),
    (
        "py-create-task-no-reference",
        "background tasks disappeared mid-run because nothing held the task object",
        "store the result of create_task",
    ),
    (
        "py-missing-await",
        "calling the async notify() without await never sent the email; just a 'coroutine was never awaited' warning",
        "await the coroutine",
    ),
    (
        "py-missing-await",
        "forgot to await an async function so it silently did nothing",
        "every coroutine call needs await",
    ),
    (
        "py-get-event-loop",
        "asyncio.get_event_loop() raised a DeprecationWarning and then failed in a thread",
        "use asyncio.run() or get_running_loop()",
    ),
    (
        "py-get-event-loop",
        "get_event_loop in a worker thread raised 'There is no current event loop'",
        "use asyncio.run for the entry point",
    ),
    (
        "py-thread-shared-state",
        "the global counter incremented from several threads lost updates",
        "guard shared state with a threading.Lock",
    ),
    (
        "py-thread-shared-state",
        "race condition: worker threads wrote to a shared dict without a lock",
        "protect shared mutable state with a lock or use a queue",
    ),
    (
        "py-global-statement",
        "the module used a global statement to cache the engine and tests leaked state",
        "avoid global; pass dependencies explicitly or use a class",
    ),
    (
        "py-global-statement",
        "mutating a global variable from inside functions made the code impossible to test",
        "don't use the global keyword",
    ),
    (
        "py-mutable-class-attribute",
        "a list defined as a class attribute was shared between all instances",
        "initialise mutable attributes in __init__",
    ),
    (
        "py-mutable-class-attribute",
        "every Cart object saw the same items because items = [] was on the class body",
        "mutable class-level attributes are shared; create them per instance",
    ),
    (
        "py-lru-cache-method",
        "@lru_cache on a method kept every instance alive forever (memory leak)",
        "don't put lru_cache on instance methods; use cached_property or a module function",
    ),
    (
        "py-lru-cache-method",
        "functools.cache on a method leaked self references",
        "cache a free function keyed by the value instead",
    ),
    (
        "py-late-binding-closure",
        "lambdas created in a loop all printed the last value of i",
        "bind the loop variable as a default argument i=i",
    ),
    (
        "py-late-binding-closure",
        "closures in a for loop captured the variable late, so every handler used the last field",
        "use functools.partial or a default arg",
    ),
    (
        "py-del-finalizer",
        "closing the connection in __del__ ran at unpredictable times and sometimes never",
        "use a context manager with __exit__ or an explicit close()",
    ),
    (
        "py-del-finalizer",
        "relying on a __del__ finalizer for cleanup leaked file handles",
        "don't rely on __del__",
    ),
    (
        "py-open-no-encoding",
        "open() without encoding used cp1252 on Windows and garbled the UTF-8 file",
        "always pass encoding='utf-8' to open",
    ),
    (
        "py-open-no-encoding",
        "reading the file broke on the Windows runner: the default encoding is locale-dependent",
        "specify an explicit encoding",
    ),
    (
        "py-open-without-with",
        "a file opened without a with block was never closed and we ran out of file descriptors",
        "use with open(...) as f",
    ),
    (
        "py-open-without-with",
        "json.load(open(path)) leaked the file handle",
        "open files in a context manager",
    ),
    (
        "py-print-debugging",
        "left debug print statements in the service and they spammed stdout in prod",
        "use the logger at debug level, remove print debugging",
    ),
    (
        "py-print-debugging",
        "a stray print() dumped the request payload with customer data",
        "remove debug prints before committing",
    ),
    (
        "py-debugger-left",
        "a leftover breakpoint() hung the CI job waiting on stdin",
        "remove breakpoints before committing",
    ),
    (
        "py-debugger-left",
        "pdb.set_trace was committed and the worker froze",
        "grep for set_trace before pushing",
    ),
    (
        "py-is-literal",
        "`status is 'done'` was False for an equal string built at runtime",
        "compare strings and numbers with ==, not is",
    ),
    (
        "py-is-literal",
        "identity comparison with an int literal worked for small ints only",
        "use == for value equality; is is for None",
    ),
    (
        "py-eq-none",
        "comparing with == None broke with a numpy array / custom __eq__",
        "use is None",
    ),
    ("py-eq-none", "linter flagged != None", "check for None with `is not None`"),
    (
        "py-shadowed-builtin",
        "a variable named list shadowed the builtin and list() failed later in the function",
        "don't name variables after builtins like list, id, type",
    ),
    (
        "py-shadowed-builtin",
        "we assigned to id and then couldn't call id()",
        "rename variables that shadow a builtin",
    ),
    (
        "py-star-import",
        "from models import * pulled in a name that shadowed our own function",
        "import names explicitly; no wildcard imports",
    ),
    (
        "py-star-import",
        "a star import made it impossible to tell where a symbol came from",
        "avoid import *",
    ),
    (
        "py-float-money",
        "invoice totals were off by a cent because prices were floats",
        "use Decimal for money",
    ),
    (
        "py-float-money",
        "floating point rounding errors in currency amounts",
        "store money as integer cents or Decimal",
    ),
    (
        "py-zip-no-strict",
        "zip silently truncated when the two lists had different lengths and we lost rows",
        "use zip(..., strict=True)",
    ),
    (
        "py-zip-no-strict",
        "mismatched lengths in zip dropped the extra values without error",
        "pass strict=True",
    ),
    (
        "py-subprocess-unchecked",
        "subprocess.run of the migration failed but the script carried on because the exit code wasn't checked",
        "pass check=True",
    ),
    (
        "py-subprocess-unchecked",
        "the build step's non-zero return code was ignored",
        "check the returncode of subprocess calls or use check=True",
    ),
    # py_security
    (
        "py-sql-injection",
        "an f-string in cursor.execute let a user inject SQL",
        "use parameterized queries with placeholders",
    ),
    (
        "py-sql-injection",
        "building the SQL query with string concatenation allowed injection",
        "pass values as query parameters, never format them into SQL",
    ),
    (
        "py-shell-injection",
        "subprocess with shell=True and a user-supplied filename allowed command injection",
        "pass an argument list without shell=True",
    ),
    (
        "py-shell-injection",
        "we built a command string with f-string and ran it through the shell; a filename with ; ran arbitrary commands",
        "avoid shell=True; use a list of args",
    ),
    (
        "py-os-system",
        "os.system with a concatenated path deleted the wrong directory when the path had spaces",
        "use subprocess.run with a list",
    ),
    (
        "py-os-system",
        "os.system ignored failures and was injectable",
        "replace os.system with subprocess and check=True",
    ),
    (
        "py-eval-exec",
        "eval() on a request parameter allowed remote code execution",
        "never eval user input; use ast.literal_eval or a parser",
    ),
    (
        "py-eval-exec",
        "exec of user-provided code with an empty builtins dict was still escapable",
        "don't use exec/eval on untrusted input",
    ),
    (
        "py-unsafe-deserialization",
        "pickle.loads on data from the request allowed arbitrary code execution",
        "never unpickle untrusted data; use JSON",
    ),
    (
        "py-unsafe-deserialization",
        "loading a pickled model from an uploaded file ran attacker code",
        "only deserialize trusted pickles or use a safe format",
    ),
    (
        "py-yaml-unsafe-load",
        "yaml.load with the default Loader constructed arbitrary Python objects from config",
        "use yaml.safe_load",
    ),
    ("py-yaml-unsafe-load", "unsafe YAML loading of user-supplied files", "always safe_load YAML"),
    (
        "py-torch-load-unsafe",
        "torch.load on a downloaded checkpoint can execute pickled code",
        "pass weights_only=True",
    ),
    (
        "py-torch-load-unsafe",
        "loading an untrusted model checkpoint with torch.load ran arbitrary code",
        "use weights_only=True or safetensors",
    ),
    (
        "py-tls-verify-disabled",
        "verify=False on requests disabled certificate validation and we shipped it to prod",
        "point verify at the CA bundle instead of disabling it",
    ),
    (
        "py-tls-verify-disabled",
        "we turned off SSL verification to get past a cert error",
        "never disable TLS certificate checks; fix the trust store",
    ),
    (
        "py-hardcoded-secret",
        "the Stripe API key was hardcoded in settings.py and pushed to GitHub",
        "read secrets from environment variables",
    ),
    (
        "py-hardcoded-secret",
        "a secret key committed in source code had to be rotated",
        "never hard-code credentials; load them from env or a vault",
    ),
    (
        "py-secret-logged",
        "the login handler logged the user's password",
        "never log passwords, tokens or API keys",
    ),
    (
        "py-secret-logged",
        "API keys showed up in our log files from a debug log line",
        "redact secrets before logging",
    ),
    (
        "py-insecure-random",
        "password reset tokens generated with random.choices were predictable",
        "use the secrets module for tokens",
    ),
    (
        "py-insecure-random",
        "the OTP came from random.randint, which isn't cryptographically secure",
        "use secrets.randbelow / secrets.token_urlsafe",
    ),
    (
        "py-weak-password-hash",
        "passwords were stored as md5 hashes and got cracked after the leak",
        "hash passwords with bcrypt or argon2",
    ),
    (
        "py-weak-password-hash",
        "salted sha256 for password storage is too fast to resist brute force",
        "use a slow password hashing function like bcrypt, scrypt or argon2",
    ),
    ("py-weak-hash", "used md5 to sign webhook payloads", "use HMAC-SHA256 for signatures"),
    (
        "py-weak-hash",
        "sha1 digests were used for integrity checks and are broken",
        "avoid weak hash algorithms like md5/sha1 for security",
    ),
    (
        "py-tempfile-mktemp",
        "tempfile.mktemp has a race between naming and creating the file",
        "use mkstemp or NamedTemporaryFile",
    ),
    (
        "py-tempfile-mktemp",
        "insecure temp file creation with mktemp allowed a symlink attack",
        "use tempfile.mkstemp",
    ),
    (
        "py-hardcoded-tmp-path",
        "two jobs wrote to the same hardcoded /tmp path and clobbered each other",
        "use tempfile.TemporaryDirectory",
    ),
    (
        "py-hardcoded-tmp-path",
        "writing to a fixed file in /tmp is predictable and collides",
        "create temp files with the tempfile module",
    ),
    (
        "py-unescaped-html",
        "mark_safe on an f-string with a user title caused XSS",
        "use format_html which escapes arguments",
    ),
    (
        "py-unescaped-html",
        "the Jinja2 Environment had autoescape off so comments rendered raw HTML",
        "enable autoescape=True",
    ),
    (
        "py-xml-external-entities",
        "parsing uploaded XML with ElementTree was vulnerable to XXE / billion laughs",
        "use defusedxml",
    ),
    (
        "py-xml-external-entities",
        "xml.etree on untrusted input allowed an entity expansion attack",
        "parse untrusted XML with defusedxml",
    ),
    (
        "py-jwt-unverified",
        "jwt.decode with verify_signature False accepted forged tokens",
        "always verify the signature and pin algorithms",
    ),
    (
        "py-jwt-unverified",
        "PyJWT decode without algorithms allowed an alg confusion attack",
        "pass algorithms=['HS256'] to jwt.decode",
    ),
    (
        "py-tar-extractall",
        "tarfile.extractall on an upload wrote files outside the target dir via ../ paths",
        "use filter='data' or validate member paths",
    ),
    (
        "py-tar-extractall",
        "path traversal through a malicious tar archive",
        "extract with the data filter",
    ),
    (
        "py-cookie-insecure",
        "the session cookie was set without Secure and HttpOnly flags",
        "set secure=True, httponly=True, samesite",
    ),
    (
        "py-cookie-insecure",
        "set_cookie for the auth token lacked httponly so JS could read it",
        "mark auth cookies httponly and secure",
    ),
    # py_frameworks
    (
        "py-sleep-in-test",
        "time.sleep(2) in a test made the suite slow and still flaky",
        "use a fake clock (freezegun) or poll with a timeout",
    ),
    (
        "py-sleep-in-test",
        "tests that sleep to wait for background work were flaky on CI",
        "don't sleep in tests; wait on an event or mock time",
    ),
    (
        "py-skipped-test",
        "a test marked @pytest.mark.skip because it was flaky hid a real regression for months",
        "fix flaky tests instead of skipping them",
    ),
    (
        "py-skipped-test",
        "xfail on the totals test masked a real bug",
        "don't mark tests xfail to get CI green",
    ),
    (
        "py-assert-for-validation",
        "an assert used for a permission check was stripped with python -O",
        "raise an exception for validation, don't use assert",
    ),
    (
        "py-assert-for-validation",
        "assert statements guarding access control disappear in optimized mode",
        "use explicit if checks and raise PermissionDenied",
    ),
    (
        "py-django-debug-true",
        "DEBUG = True in Django settings leaked stack traces and settings in production",
        "read DEBUG from the environment, default False",
    ),
    (
        "py-django-debug-true",
        "shipping with debug mode on exposed secrets on the error page",
        "DEBUG must be false in prod",
    ),
    (
        "py-flask-debug",
        "app.run(debug=True) exposed the Werkzeug debugger and allowed code execution",
        "never run Flask with debug=True outside local dev",
    ),
    (
        "py-flask-debug",
        "the Flask debug mode was on in the container",
        "use a WSGI server and turn debug off",
    ),
    (
        "py-allowed-hosts-wildcard",
        "ALLOWED_HOSTS = ['*'] allowed host header poisoning of reset links",
        "list the real hostnames",
    ),
    (
        "py-allowed-hosts-wildcard",
        "a wildcard in allowed hosts",
        "restrict Django ALLOWED_HOSTS to our domains",
    ),
    (
        "py-cors-wildcard",
        "CORS allow all origins with credentials let any site call our API as the user",
        "list the allowed origins explicitly",
    ),
    (
        "py-cors-wildcard",
        "allow_origins=['*'] in the CORSMiddleware",
        "restrict CORS to known origins",
    ),
    (
        "py-n-plus-one",
        "looping over orders and querying lines for each one fired thousands of queries",
        "use select_related / prefetch_related",
    ),
    (
        "py-n-plus-one",
        "N+1 queries in the list view made the page take 10 seconds",
        "fetch related rows in one query",
    ),
    (
        "py-django-runpython-irreversible",
        "RunPython without a reverse function made the migration impossible to roll back",
        "pass reverse_code, even migrations.RunPython.noop",
    ),
    (
        "py-django-runpython-irreversible",
        "we couldn't unapply the data migration: it was irreversible",
        "give every RunPython a reverse_code",
    ),
    (
        "py-pandas-chained-assignment",
        "df[mask]['col'] = value silently did nothing (SettingWithCopyWarning)",
        "use df.loc[mask, 'col'] = value",
    ),
    (
        "py-pandas-chained-assignment",
        "chained indexing assignment updated a copy, not the DataFrame",
        "assign with .loc",
    ),
    (
        "py-pandas-inplace",
        "df = df.dropna(inplace=True) set df to None",
        "either use inplace=True without assigning or assign without inplace",
    ),
    (
        "py-pandas-inplace",
        "assigning the result of an inplace pandas call gave None",
        "inplace methods return None; don't assign them",
    ),
    (
        "py-pandas-iterrows",
        "iterrows over a million-row frame took 20 minutes",
        "vectorize the computation with column operations",
    ),
    (
        "py-pandas-iterrows",
        "looping row by row over a DataFrame was very slow",
        "use vectorized pandas ops instead of iterrows",
    ),
    (
        "py-pandas-read-csv-memory",
        "pd.read_csv on the 20GB export ran the box out of memory",
        "read in chunks with chunksize, or set dtypes/usecols",
    ),
    (
        "py-pandas-read-csv-memory",
        "loading the whole CSV into memory at once got the job OOM-killed",
        "use chunksize when reading big CSV files",
    ),
    (
        "py-db-connection-not-closed",
        "psycopg2 connections were never closed and the database hit max connections",
        "close connections in finally or use a with block",
    ),
    (
        "py-db-connection-not-closed",
        "sqlite3.connect without closing leaked connections in the worker",
        "use contextlib.closing or a connection pool",
    ),
    # code_sql, code_sql_schema
    (
        "sql-delete-without-where",
        "a DELETE without a WHERE clause wiped the whole sessions table",
        "always include a WHERE and run it in a transaction first",
    ),
    (
        "sql-delete-without-where",
        "cleanup script deleted every row because the condition was missing",
        "check the filter on delete statements",
    ),
    (
        "sql-update-without-where",
        "an UPDATE with no WHERE set every user's plan to free",
        "add a WHERE and check the affected row count",
    ),
    (
        "sql-update-without-where",
        "we updated all rows in orders by accident",
        "never run update statements without a where condition",
    ),
    (
        "sql-truncate",
        "TRUNCATE in a migration erased production event data",
        "don't truncate tables in migrations; delete by range",
    ),
    (
        "sql-truncate",
        "a truncate ... cascade also emptied the child tables",
        "avoid truncating tables with live data",
    ),
    (
        "sql-drop-without-if-exists",
        "DROP TABLE failed on the second run because the table was already gone",
        "use DROP TABLE IF EXISTS so migrations are idempotent",
    ),
    (
        "sql-drop-without-if-exists",
        "the rerun of the migration errored: table does not exist",
        "write drops with if exists",
    ),
    (
        "sql-destructive-drop",
        "dropping a column in the same deploy broke the old app version still reading it",
        "expand/contract: stop reading the column first, drop it later",
    ),
    (
        "sql-destructive-drop",
        "a migration that dropped a column lost data we needed",
        "back up and deprecate before dropping columns",
    ),
    (
        "sql-index-not-concurrently",
        "CREATE INDEX locked the orders table against writes for 10 minutes",
        "use CREATE INDEX CONCURRENTLY",
    ),
    (
        "sql-index-not-concurrently",
        "building an index on a big table blocked writes during the deploy",
        "create indexes concurrently in Postgres",
    ),
    (
        "sql-add-not-null-without-default",
        "adding a NOT NULL column without a default failed on the existing rows",
        "add it with a DEFAULT or backfill first",
    ),
    (
        "sql-add-not-null-without-default",
        "the migration adding a non-nullable column errored because the table wasn't empty",
        "give new not null columns a default",
    ),
    (
        "sql-volatile-default",
        "adding a column with DEFAULT gen_random_uuid() rewrote the whole table",
        "add the column nullable, then backfill in batches",
    ),
    (
        "sql-volatile-default",
        "a volatile default on a new column forced a full table rewrite and lock",
        "avoid volatile defaults like random() when adding columns",
    ),
    (
        "sql-rename-in-place",
        "renaming a column broke the running app that still used the old name",
        "add a new column, dual-write, then drop the old one",
    ),
    (
        "sql-rename-in-place",
        "RENAME TABLE in a migration caused errors during the rolling deploy",
        "don't rename tables/columns in place",
    ),
    (
        "sql-change-column-type",
        "ALTER COLUMN TYPE bigint rewrote the events table under an exclusive lock for an hour",
        "add a new column and backfill instead of changing the type",
    ),
    (
        "sql-change-column-type",
        "changing a column's data type locked the table",
        "avoid in-place column type changes on large tables",
    ),
    (
        "sql-set-not-null",
        "SET NOT NULL scanned the whole table while holding an access exclusive lock",
        "add a CHECK constraint NOT VALID, validate it, then set not null",
    ),
    (
        "sql-set-not-null",
        "making a column non-nullable on a big table blocked writes",
        "use a not valid check constraint first",
    ),
    (
        "sql-constraint-not-valid",
        "adding a foreign key constraint validated every row and locked both tables",
        "add the constraint NOT VALID and VALIDATE CONSTRAINT separately",
    ),
    (
        "sql-constraint-not-valid",
        "the new check constraint blocked writes while it scanned the table",
        "add constraints as not valid, then validate",
    ),
    (
        "sql-lock-timeout",
        "an ALTER TABLE waited behind a long query and blocked all traffic behind it",
        "set lock_timeout before DDL in migrations",
    ),
    (
        "sql-lock-timeout",
        "the migration's lock queue took the site down",
        "set a lock timeout and retry",
    ),
    (
        "sql-select-star",
        "a view defined with SELECT * broke when a column was added",
        "list the columns explicitly",
    ),
    (
        "sql-select-star",
        "select star in the archive insert failed after the schema changed",
        "name the columns instead of using *",
    ),
    (
        "sql-migration-without-transaction",
        "a migration failed halfway and left the schema half applied",
        "wrap the migration in BEGIN/COMMIT",
    ),
    (
        "sql-migration-without-transaction",
        "partial migration: no transaction around the statements",
        "run migrations in a transaction",
    ),
    (
        "sql-grant-all",
        "GRANT ALL PRIVILEGES to the app role let it drop tables",
        "grant least privilege: only the needed SELECT/INSERT",
    ),
    (
        "sql-grant-all",
        "we granted access to PUBLIC on all tables",
        "never grant to public; grant specific privileges to specific roles",
    ),
    (
        "sql-plaintext-password-column",
        "the users table stored passwords in plain text",
        "store a password_hash column with bcrypt",
    ),
    (
        "sql-plaintext-password-column",
        "a passwd column held cleartext passwords",
        "never store plaintext passwords",
    ),
    (
        "sql-leading-wildcard-like",
        "LIKE '%term%' did a full table scan and the search timed out",
        "use a trigram index or full-text search",
    ),
    (
        "sql-leading-wildcard-like",
        "a leading wildcard in the like pattern can't use the btree index",
        "avoid leading % in like queries",
    ),
    (
        "sql-not-in-subquery",
        "NOT IN with a subquery returned no rows because the subquery had a NULL",
        "use NOT EXISTS",
    ),
    (
        "sql-not-in-subquery",
        "not in (select ...) silently returned nothing when there were nulls",
        "rewrite as not exists or a left join",
    ),
    (
        "sql-foreign-key-without-index",
        "a foreign key column without an index made deletes on the parent slow",
        "index every foreign key column",
    ),
    (
        "sql-foreign-key-without-index",
        "missing index on the FK caused sequential scans on joins and cascades",
        "create an index on the referencing column",
    ),
    (
        "sql-on-delete-cascade",
        "ON DELETE CASCADE deleted a customer's entire order history",
        "use RESTRICT or soft delete",
    ),
    (
        "sql-on-delete-cascade",
        "cascading deletes removed far more rows than expected",
        "avoid on delete cascade on important data",
    ),
    (
        "sql-timestamp-without-time-zone",
        "timestamp columns without time zone shifted times by the server's offset",
        "use timestamptz",
    ),
    (
        "sql-timestamp-without-time-zone",
        "we stored naive timestamps in postgres and DST broke reports",
        "use timestamp with time zone columns",
    ),
    (
        "sql-int-primary-key",
        "the serial primary key overflowed at 2^31 and inserts failed",
        "use bigint / bigserial ids",
    ),
    (
        "sql-int-primary-key",
        "an integer id column ran out of values",
        "make primary keys bigint from the start",
    ),
    # code_web
    (
        "react-effect-no-deps",
        "useEffect without a dependency array ran after every render and looped",
        "pass a dependency array",
    ),
    (
        "react-effect-no-deps",
        "the effect that set state re-ran on each render causing an infinite loop",
        "always give useEffect its deps",
    ),
    (
        "react-effect-no-cleanup",
        "the setInterval in useEffect kept running after unmount",
        "return a cleanup function that clears it",
    ),
    (
        "react-effect-no-cleanup",
        "an event listener added in an effect was never removed and leaked",
        "remove listeners in the effect cleanup",
    ),
    (
        "react-fetch-no-abort",
        "a fetch in useEffect set state after the component unmounted / a stale response overwrote a newer one",
        "use an AbortController and abort in the cleanup",
    ),
    (
        "react-fetch-no-abort",
        "race condition: responses for an old id arrived late and replaced the current user",
        "cancel the request when the effect re-runs",
    ),
    (
        "react-index-as-key",
        "using the array index as key mixed up input state when items were reordered",
        "use a stable id as the key",
    ),
    (
        "react-index-as-key",
        "key={index} in the list caused wrong rows to update after a delete",
        "don't use index keys",
    ),
    (
        "react-missing-key",
        "list items rendered by map had no key prop, React warned and state got mixed up",
        "give each item a unique key",
    ),
    ("react-missing-key", "missing key on elements in a mapped list", "add key={item.id}"),
    (
        "react-setstate-in-render",
        "onClick={setOpen(true)} called setState during render: too many re-renders",
        "pass a function: onClick={() => setOpen(true)}",
    ),
    (
        "react-setstate-in-render",
        "calling the handler instead of passing it caused an infinite render loop",
        "wrap event handlers in an arrow function",
    ),
    (
        "react-state-mutation",
        "pushing into this.state.items directly didn't trigger a re-render",
        "never mutate state; create a new array",
    ),
    (
        "react-state-mutation",
        "we mutated state in place and the UI didn't update",
        "treat React state as immutable",
    ),
    (
        "react-stale-state-update",
        "setCount(count + 1) twice only incremented once because of a stale closure",
        "use the functional updater setCount(c => c + 1)",
    ),
    (
        "react-stale-state-update",
        "state updates based on the previous value were lost",
        "use a functional update when new state depends on old state",
    ),
    (
        "react-async-effect",
        "passing an async function to useEffect returned a promise as the cleanup",
        "define an async function inside the effect and call it",
    ),
    (
        "react-async-effect",
        "useEffect(async () => ...) produced a warning and broken cleanup",
        "don't make the effect callback async",
    ),
    (
        "react-conditional-hook",
        "a hook called after an early return broke the hooks order",
        "call hooks unconditionally at the top level",
    ),
    (
        "react-conditional-hook",
        "useEffect inside an if statement caused 'Rendered fewer hooks than expected'",
        "rules of hooks: never call hooks conditionally",
    ),
    (
        "react-dangerously-set-inner-html",
        "dangerouslySetInnerHTML with user post body caused stored XSS",
        "sanitize with DOMPurify first",
    ),
    (
        "react-dangerously-set-inner-html",
        "rendering raw HTML from markdown comments allowed script injection",
        "sanitize HTML before dangerouslySetInnerHTML",
    ),
    (
        "js-innerhtml-xss",
        "setting innerHTML with a template string containing user data caused XSS",
        "use textContent or create elements",
    ),
    (
        "js-innerhtml-xss",
        "we appended user messages to the DOM via innerHTML and someone injected a script",
        "never put untrusted strings in innerHTML",
    ),
    (
        "ts-any",
        "typing the event as any hid a bug the compiler would have caught",
        "use unknown and narrow it",
    ),
    ("ts-any", "an explicit any cast let a wrong property through", "avoid any in TypeScript"),
    (
        "ts-non-null-assertion",
        "the non-null assertion ! on getElementById crashed when the element was missing",
        "check for null or use optional chaining",
    ),
    (
        "ts-non-null-assertion",
        "user!.profile!.name threw at runtime on a guest",
        "don't use the ! operator to silence null checks",
    ),
    (
        "ts-ignore",
        "a @ts-ignore comment hid a real type error that later crashed",
        "fix the type or use @ts-expect-error with a reason",
    ),
    (
        "ts-ignore",
        "suppressing the TypeScript error with ts-ignore masked a bug",
        "no ts-ignore comments",
    ),
    (
        "ts-strict-off",
        "tsconfig had strict: false so null bugs slipped through",
        "enable strict mode in tsconfig",
    ),
    (
        "ts-strict-off",
        "turning off strictNullChecks to make the build pass hid undefined errors",
        "keep strict checks on",
    ),
    (
        "vue-prop-mutation",
        "mutating a prop in a child component got overwritten on the parent's next render",
        "emit an update event instead of mutating props",
    ),
    (
        "vue-prop-mutation",
        "assigning to props.modelValue triggered a Vue warning",
        "props are read-only; emit update:modelValue",
    ),
    (
        "vue-v-if-with-v-for",
        "v-if and v-for on the same element evaluated in the wrong order",
        "move v-if to a wrapper template or use a computed filter",
    ),
    (
        "vue-v-if-with-v-for",
        "using v-if with v-for on one li",
        "filter the list in a computed property",
    ),
    # code_web_js
    (
        "js-loose-equality",
        "== coerced '0' to false and the check passed wrongly",
        "use === strict equality",
    ),
    (
        "js-loose-equality",
        "loose equality comparison between string and number caused a bug",
        "always use strict equality",
    ),
    (
        "js-async-foreach",
        "forEach with an async callback didn't wait, so the function returned before saves finished",
        "use for...of with await or Promise.all",
    ),
    (
        "js-async-foreach",
        "await inside Array.forEach doesn't await anything",
        "don't pass async functions to forEach",
    ),
    (
        "js-await-in-loop",
        "awaiting each fetch inside a for loop made the page load sequentially and slowly",
        "run them in parallel with Promise.all",
    ),
    (
        "js-await-in-loop",
        "sequential await in loop made the upload take minutes",
        "batch with Promise.all",
    ),
    (
        "js-unhandled-promise",
        "a promise without .catch crashed node with an unhandled rejection",
        "add a catch handler or await in try/catch",
    ),
    (
        "js-unhandled-promise",
        "the floating promise failed silently",
        "always handle promise rejections",
    ),
    (
        "js-json-parse-no-try",
        "JSON.parse on localStorage threw on corrupted data and blanked the page",
        "wrap JSON.parse in try/catch",
    ),
    (
        "js-json-parse-no-try",
        "an invalid json message from the websocket crashed the handler",
        "parse json inside a try catch",
    ),
    ("js-parseint-radix", "parseInt without a radix parsed '08' oddly", "always pass radix 10"),
    (
        "js-parseint-radix",
        "parseInt of user input missing the radix argument",
        "use parseInt(x, 10) or Number()",
    ),
    (
        "js-console-log",
        "console.log of the user object leaked PII to the browser console",
        "remove console.log or use the logger",
    ),
    (
        "js-console-log",
        "leftover console logging statements shipped to production",
        "strip console.log debugging",
    ),
    (
        "js-public-env-secret",
        "a secret key in a NEXT_PUBLIC_ variable was bundled into the client JS",
        "never prefix secrets with NEXT_PUBLIC_ or VITE_",
    ),
    (
        "js-public-env-secret",
        "the OpenAI API key was exposed in the browser bundle via import.meta.env",
        "keep secrets server-side",
    ),
    (
        "js-localstorage-token",
        "storing the JWT in localStorage let an XSS steal it",
        "use an httpOnly cookie",
    ),
    (
        "js-localstorage-token",
        "access token saved in browser storage was exfiltrated",
        "don't keep auth tokens in localStorage or sessionStorage",
    ),
    (
        "js-fetch-no-ok-check",
        "fetch doesn't reject on 404/500, so we parsed an error page as data",
        "check res.ok before res.json()",
    ),
    (
        "js-fetch-no-ok-check",
        "the code never checked response.ok after fetch",
        "throw when the status isn't ok",
    ),
    (
        "js-fetch-no-timeout",
        "a fetch to the reports API hung forever with no timeout",
        "pass signal: AbortSignal.timeout(ms)",
    ),
    (
        "js-fetch-no-timeout",
        "webhook fetch calls never timed out and piled up",
        "set a timeout on fetch with an abort signal",
    ),
    (
        "js-axios-no-timeout",
        "axios has no default timeout and the request hung",
        "set timeout on the axios instance",
    ),
    (
        "js-axios-no-timeout",
        "an axios.post without a timeout stalled the worker",
        "configure an axios timeout",
    ),
    (
        "js-date-month-off-by-one",
        "getMonth() is zero-based so the dates showed the previous month",
        "add 1 to getMonth",
    ),
    (
        "js-date-month-off-by-one",
        "month off by one in the formatted date",
        "remember JS months are 0-indexed",
    ),
    (
        "js-date-string-parse",
        "new Date('2024-03-10') parsed as UTC and showed the previous day in US timezones",
        "parse date strings explicitly with a time or use a library",
    ),
    (
        "js-date-string-parse",
        "parsing a date string with the Date constructor is inconsistent across browsers",
        "avoid new Date(string) for date-only strings",
    ),
    (
        "js-moment",
        "moment added 300KB to the bundle and is in maintenance mode",
        "use dayjs, date-fns or Intl",
    ),
    ("js-moment", "we imported moment.js for one date format", "don't add moment to new code"),
    (
        "js-float-money",
        "floating point math on prices gave totals like 19.999999",
        "compute money in integer cents",
    ),
    (
        "js-float-money",
        "tax computed with float multiplication was off by a cent",
        "use integer minor units or a decimal library for currency",
    ),
    (
        "js-math-random-token",
        "reset tokens from Math.random() were guessable",
        "use crypto.randomBytes or crypto.getRandomValues",
    ),
    (
        "js-math-random-token",
        "insecure randomness for a session id",
        "Math.random is not cryptographically secure",
    ),
    (
        "js-eval",
        "eval of the user's expression allowed code injection",
        "use a safe expression parser",
    ),
    (
        "js-eval",
        "new Function(body) built from request input ran arbitrary code",
        "never eval untrusted strings",
    ),
    (
        "js-settimeout-string",
        "setTimeout with a string argument is an implicit eval and CSP blocked it",
        "pass a function to setTimeout",
    ),
    (
        "js-settimeout-string",
        "setInterval got a code string concatenated with an id",
        "pass a callback, not a string",
    ),
    (
        "js-postmessage-wildcard",
        "postMessage with '*' target origin leaked the token to a malicious frame",
        "pass the exact target origin",
    ),
    (
        "js-postmessage-wildcard",
        "sending a message to the parent window with a wildcard origin",
        "always specify targetOrigin in postMessage",
    ),
    # code_web_node
    (
        "node-exec-injection",
        "child_process.exec with a template string containing the branch name allowed command injection",
        "use execFile with an args array",
    ),
    (
        "node-exec-injection",
        "execSync with a concatenated filename ran a shell command from user input",
        "avoid exec with string commands; use spawn without a shell",
    ),
    (
        "node-sql-injection",
        "a template literal in db.query let users inject SQL",
        "use parameterized queries ($1)",
    ),
    (
        "node-sql-injection",
        "string-concatenated SQL in the node service was injectable",
        "pass values as query parameters",
    ),
    (
        "node-nosql-injection",
        "passing req.body straight into a Mongo findOne allowed {$ne: null} login bypass",
        "cast inputs to strings or sanitize operators",
    ),
    (
        "node-nosql-injection",
        "NoSQL injection through query operators in the request",
        "validate input before using it in mongoose queries",
    ),
    (
        "node-path-traversal",
        "path.join with req.params.name let ../ read files outside uploads",
        "use sendFile with a root option and validate the name",
    ),
    (
        "node-path-traversal",
        "directory traversal via a user-supplied filename in readFileSync",
        "resolve the path and check it stays inside the base dir",
    ),
    (
        "node-open-redirect",
        "res.redirect(req.query.next) was an open redirect used in phishing",
        "only allow relative paths or an allowlist",
    ),
    (
        "node-open-redirect",
        "redirecting to a user-controlled returnTo url",
        "validate redirect targets",
    ),
    (
        "node-mass-assignment",
        "User.create(req.body) let a user set isAdmin on signup",
        "pick the allowed fields explicitly",
    ),
    (
        "node-mass-assignment",
        "passing the whole request body to prisma update allowed mass assignment",
        "whitelist fields before writing to the model",
    ),
    (
        "node-cors-credentials-wildcard",
        "cors with origin '*' and credentials true reflected any origin with cookies",
        "list allowed origins",
    ),
    (
        "node-cors-credentials-wildcard",
        "origin: true with credentials let every site make authenticated requests",
        "never reflect any origin when credentials are allowed",
    ),
    (
        "node-jwt-decode-auth",
        "the middleware used jwt.decode, which doesn't verify the signature, so forged tokens worked",
        "use jwt.verify",
    ),
    (
        "node-jwt-decode-auth",
        "we trusted a decoded JWT without verifying it",
        "verify tokens with the secret before trusting claims",
    ),
    (
        "node-jwt-verify-no-algorithms",
        "jwt.verify without an algorithms list was open to algorithm confusion",
        "pass algorithms: ['RS256']",
    ),
    (
        "node-jwt-verify-no-algorithms",
        "jsonwebtoken verify accepted HS256 signed with the public key",
        "pin the allowed algorithms",
    ),
    (
        "node-jwt-hardcoded-secret",
        "jwt.sign used a hardcoded 'supersecret' string",
        "load the JWT secret from env and fail if missing",
    ),
    (
        "node-jwt-hardcoded-secret",
        "a fallback dev secret for JWT signing ended up in production",
        "no default secret; require JWT_SECRET",
    ),
    (
        "node-bcrypt-low-rounds",
        "bcrypt with 8 salt rounds is too weak",
        "use a cost factor of at least 12",
    ),
    (
        "node-bcrypt-low-rounds",
        "low bcrypt cost made password hashes fast to crack",
        "raise the bcrypt rounds",
    ),
    (
        "node-fast-hash-password",
        "passwords were hashed with crypto.createHash('md5')",
        "use bcrypt or argon2 for passwords",
    ),
    (
        "node-fast-hash-password",
        "sha256 of password plus salt is too fast for password storage",
        "use a slow password hash",
    ),
    (
        "node-sync-io-in-handler",
        "fs.readFileSync inside an express route blocked the event loop under load",
        "use fs.promises in request handlers",
    ),
    (
        "node-sync-io-in-handler",
        "synchronous file IO in a request handler stalled all requests",
        "use async fs APIs in handlers",
    ),
    (
        "node-express-missing-return",
        "after res.status(404).json the handler kept going and threw 'Cannot set headers after they are sent'",
        "return after sending the response",
    ),
    (
        "node-express-missing-return",
        "missing return after res.send caused a double response",
        "return res.status(...) in early exits",
    ),
    ("node-express-no-helmet", "the express app had no security headers", "add helmet middleware"),
    (
        "node-express-no-helmet",
        "pen test flagged missing helmet on our express server",
        "app.use(helmet())",
    ),
    (
        "node-tls-verify-off",
        "NODE_TLS_REJECT_UNAUTHORIZED=0 disabled certificate checks for the whole process",
        "add the CA instead of disabling TLS verification",
    ),
    (
        "node-tls-verify-off",
        "rejectUnauthorized: false on the https agent allowed MITM",
        "never turn off certificate validation",
    ),
    (
        "js-test-real-timers",
        "the jest test waited with a real setTimeout and was slow and flaky",
        "use fake timers and advance them",
    ),
    (
        "js-test-real-timers",
        "sleeping 2 seconds in a test to wait for the queue",
        "use vi.useFakeTimers / jest.useFakeTimers",
    ),
    # code_go_rust
    (
        "go-ignored-error",
        "n, _ := strconv.Atoi ignored the parse error and limit silently became 0",
        "handle every returned error",
    ),
    (
        "go-ignored-error",
        "discarding the error with the blank identifier hid a failure",
        "don't assign errors to _",
    ),
    (
        "go-json-unmarshal-unchecked",
        "json.Unmarshal failed and we used an empty struct because the error wasn't checked",
        "check the error from Unmarshal",
    ),
    (
        "go-json-unmarshal-unchecked",
        "yaml unmarshal error ignored, config silently zero-valued",
        "if err := yaml.Unmarshal(...); err != nil return it",
    ),
    (
        "go-resp-body-not-closed",
        "the Go client never closed resp.Body and leaked connections",
        "defer resp.Body.Close() after checking err",
    ),
    (
        "go-resp-body-not-closed",
        "HTTP response bodies left open exhausted file descriptors",
        "always close the response body",
    ),
    (
        "go-goroutine-no-wait",
        "main returned before the goroutines finished, so fetches were lost",
        "use a sync.WaitGroup or errgroup",
    ),
    (
        "go-goroutine-no-wait",
        "spawned goroutines in a loop without waiting for them",
        "wait for goroutines with wg.Wait",
    ),
    (
        "go-loop-var-capture",
        "goroutines in a for loop all processed the last job (loop variable capture)",
        "pass the variable as a parameter or shadow it",
    ),
    (
        "go-loop-var-capture",
        "closure captured the range variable before Go 1.22",
        "copy the loop variable inside the loop",
    ),
    (
        "go-defer-in-loop",
        "defer f.Close() inside the loop kept every file open until the function returned",
        "close explicitly or wrap the body in a func",
    ),
    ("go-defer-in-loop", "deferring in a loop leaked transactions", "don't defer inside loops"),
    (
        "go-http-no-timeout",
        "http.Get uses the default client with no timeout and hung",
        "create an http.Client with Timeout",
    ),
    (
        "go-http-no-timeout",
        "&http.Client{} without a timeout blocked forever on a slow server",
        "set Client.Timeout",
    ),
    (
        "go-context-background-in-handler",
        "context.Background() in the handler meant queries kept running after the client disconnected",
        "use r.Context()",
    ),
    (
        "go-context-background-in-handler",
        "context.TODO in a gin handler lost cancellation",
        "pass the request context down",
    ),
    (
        "go-time-after-in-loop",
        "time.After in a select inside a for loop leaked timers and memory",
        "create one time.NewTimer and reset it",
    ),
    (
        "go-time-after-in-loop",
        "memory grew because each loop iteration allocated a new timer via time.After",
        "reuse a timer",
    ),
    (
        "go-mutex-copied",
        "a value receiver copied the mutex so the lock protected nothing",
        "use pointer receivers for types with a sync.Mutex",
    ),
    (
        "go-mutex-copied",
        "go vet copylocks: the struct with a lock was passed by value",
        "don't copy mutexes",
    ),
    (
        "go-concurrent-map-write",
        "fatal error: concurrent map writes from goroutines",
        "guard the map with a mutex or use sync.Map",
    ),
    (
        "go-concurrent-map-write",
        "goroutines updated a shared map without a lock and crashed",
        "protect map writes with sync.Mutex",
    ),
    (
        "go-nil-map-write",
        "assignment to entry in nil map panic: the map was declared with var but never made",
        "initialize maps with make",
    ),
    ("go-nil-map-write", "writing to a nil map panicked", "make the map before writing"),
    (
        "go-panic-in-library",
        "the library called panic(err) and crashed the host service",
        "return errors from library code",
    ),
    (
        "go-panic-in-library",
        "panicking on a missing config value inside a package took down the server",
        "don't panic in libraries; return an error",
    ),
    (
        "go-log-fatal-in-library",
        "log.Fatal inside the store package exited the process without cleanup",
        "return the error to the caller",
    ),
    (
        "go-log-fatal-in-library",
        "a library function called log.Fatalf on a connection error",
        "only main should exit",
    ),
    (
        "go-exit-skips-defer",
        "log.Fatal in main skipped the deferred db.Close and flush",
        "return an exit code from run() and call os.Exit after defers",
    ),
    (
        "go-exit-skips-defer",
        "os.Exit doesn't run deferred functions, so the buffered writer was never flushed",
        "don't call os.Exit / log.Fatal with pending defers",
    ),
    (
        "go-errorf-no-wrap",
        "fmt.Errorf with %v lost the wrapped error so errors.Is stopped working",
        "wrap with %w",
    ),
    (
        "go-errorf-no-wrap",
        "error wrapping used %s and err.Error(), breaking errors.As",
        "use %w in fmt.Errorf",
    ),
    (
        "go-error-compare",
        "comparing err == sql.ErrNoRows failed once the error was wrapped",
        "use errors.Is",
    ),
    (
        "go-error-compare",
        "checking err.Error() string equality broke when the message changed",
        "compare errors with errors.Is / errors.As",
    ),
    (
        "go-sql-rows-not-closed",
        "db.Query rows were never closed and the connection pool ran dry",
        "defer rows.Close()",
    ),
    (
        "go-sql-rows-not-closed",
        "leaked database connections from unclosed rows",
        "close sql rows after querying",
    ),
    (
        "go-sql-rows-err-unchecked",
        "rows.Next stopped early on a network error and we returned partial results",
        "check rows.Err() after the loop",
    ),
    (
        "go-sql-rows-err-unchecked",
        "never checked rows.Err after iterating",
        "always check rows.Err",
    ),
    (
        "go-sql-concat",
        "building a query with fmt.Sprintf and user input allowed SQL injection",
        "use placeholders ($1, ?) with args",
    ),
    (
        "go-sql-concat",
        "string concatenation in db.Query was injectable",
        "parameterize Go SQL queries",
    ),
    (
        "go-waitgroup-add-in-goroutine",
        "wg.Add inside the goroutine raced with wg.Wait, which returned early",
        "call wg.Add before starting the goroutine",
    ),
    (
        "go-waitgroup-add-in-goroutine",
        "WaitGroup Add called in the goroutine itself",
        "Add(1) before go func",
    ),
    (
        "go-context-cancel-leak",
        "discarding the cancel func from context.WithTimeout leaked the context",
        "always defer cancel()",
    ),
    (
        "go-context-cancel-leak",
        "go vet lostcancel: cancel function never called",
        "call cancel when done",
    ),
    # code_go_rust_rs
    (
        "rust-unwrap",
        "unwrap() on the env var panicked in production when PORT was unset",
        "propagate errors with ?",
    ),
    (
        "rust-unwrap",
        "expect on file read crashed the binary",
        "handle the Result instead of unwrapping",
    ),
    (
        "rust-panic",
        "panic! on an empty batch crashed the server",
        "return an error instead of panicking",
    ),
    (
        "rust-panic",
        "a todo!() left in a code path panicked in prod",
        "don't leave todo!/unimplemented! in shipped code",
    ),
    (
        "rust-mutex-across-await",
        "holding a std Mutex guard across an .await deadlocked the runtime",
        "drop the guard before awaiting or use tokio::sync::Mutex",
    ),
    (
        "rust-mutex-across-await",
        "a lock guard held across an await point made the future not Send",
        "scope the lock so it's released before .await",
    ),
    (
        "rust-blocking-in-async",
        "std::thread::sleep in an async fn blocked the tokio worker",
        "use tokio::time::sleep",
    ),
    (
        "rust-blocking-in-async",
        "blocking std::fs calls inside async functions stalled the executor",
        "use tokio::fs or spawn_blocking",
    ),
    (
        "rust-block-on-in-async",
        "creating a Runtime and calling block_on inside an async handler panicked: cannot start a runtime from within a runtime",
        "just .await the future",
    ),
    (
        "rust-block-on-in-async",
        "futures::executor::block_on in async code deadlocked",
        "never block_on inside async",
    ),
    (
        "rust-unsafe",
        "an unsafe from_utf8_unchecked on network bytes caused UB",
        "use the safe API or document a SAFETY invariant",
    ),
    (
        "rust-unsafe",
        "unsafe impl Send without justification led to a data race",
        "every unsafe block needs a // SAFETY: comment",
    ),
    (
        "rust-as-truncation",
        "casting len() as u32 silently truncated on huge inputs",
        "use u32::try_from",
    ),
    (
        "rust-as-truncation",
        "an `as u16` cast of the port wrapped around",
        "use checked conversions instead of as casts",
    ),
    (
        "rust-ignored-result",
        "let _ = fs::remove_file ignored a failure and temp files piled up",
        "handle or log the Result",
    ),
    (
        "rust-ignored-result",
        "discarding a Result with let _ hid write errors",
        "don't ignore results",
    ),
    (
        "rust-process-exit",
        "process::exit in the middle of the code skipped destructors and didn't flush output",
        "return a Result from main / run",
    ),
    (
        "rust-process-exit",
        "std::process::exit deep in a function skipped Drop",
        "only exit from main",
    ),
    ("rust-sql-format", "format! into sqlx::query allowed SQL injection", "use bind parameters"),
    (
        "rust-sql-format",
        "building SQL with format!() and user data",
        "use query placeholders with .bind()",
    ),
    (
        "rust-shell-injection",
        'Command::new("sh").arg("-c") with a formatted url allowed command injection',
        "call the program directly with args",
    ),
    (
        "rust-shell-injection",
        "passing a format! string to bash -c from Rust",
        "avoid shell invocation; use Command args",
    ),
    # new patterns (code_more), written before their phrases
    (
        "py-modify-while-iterating",
        "removing items from the list inside the for loop over it skipped every other element",
        "iterate over a copy or build a new list with a comprehension",
    ),
    (
        "py-urlopen-no-timeout",
        "urllib.request.urlopen hung the cron job forever on a dead host",
        "pass timeout= to urlopen",
    ),
    (
        "py-task-in-transaction",
        "the celery task queued with .delay() inside transaction.atomic ran before the commit and couldn't find the row",
        "enqueue with transaction.on_commit",
    ),
    (
        "sql-null-comparison",
        "WHERE deleted_at = NULL returned no rows at all",
        "use IS NULL; comparing with = NULL is never true",
    ),
    (
        "sql-order-by-random",
        "ORDER BY random() LIMIT 1 on the products table did a full scan and sort",
        "pick a random id range or use TABLESAMPLE",
    ),
    (
        "sql-vacuum-full",
        "VACUUM FULL in a migration locked the events table for an hour",
        "use plain VACUUM or pg_repack",
    ),
    (
        "sql-reindex-not-concurrently",
        "REINDEX TABLE blocked writes to orders during business hours",
        "use REINDEX CONCURRENTLY",
    ),
    (
        "sql-refresh-matview-blocking",
        "refreshing the materialized view blocked every dashboard query until it finished",
        "REFRESH MATERIALIZED VIEW CONCURRENTLY with a unique index",
    ),
    (
        "sql-float-money",
        "the amount column was a float and balances drifted by fractions of a cent",
        "store money as numeric or integer cents",
    ),
    (
        "js-target-blank-noopener",
        "links with target=_blank let the opened page redirect our tab (reverse tabnabbing)",
        "add rel=noopener noreferrer",
    ),
    (
        "node-new-buffer",
        "new Buffer(n) returned uninitialized memory that leaked old data",
        "use Buffer.alloc or Buffer.from",
    ),
    (
        "node-createcipher",
        "crypto.createCipher derived the key with MD5 and no IV, so identical plaintexts encrypted identically",
        "use createCipheriv with a random IV and a proper key",
    ),
    (
        "node-cookie-insecure",
        "res.cookie set the session token without httpOnly so an XSS could read it",
        "set httpOnly, secure and sameSite on session cookies",
    ),
    (
        "go-tls-insecure-skip-verify",
        "InsecureSkipVerify: true in the Go TLS config shipped to prod and allowed MITM",
        "load the CA into RootCAs instead of skipping verification",
    ),
    (
        "go-listen-no-timeouts",
        "http.ListenAndServe without timeouts let slowloris clients exhaust connections",
        "use an http.Server with ReadHeaderTimeout",
    ),
    (
        "go-signal-unbuffered",
        "signal.Notify on an unbuffered channel missed the SIGTERM and the server didn't shut down gracefully",
        "make(chan os.Signal, 1)",
    ),
    (
        "go-math-rand-secret",
        "session tokens were generated with math/rand and could be predicted",
        "use crypto/rand for secrets",
    ),
    (
        "rust-reqwest-no-timeout",
        "reqwest client with no timeout hung the worker when the upstream stalled",
        "build the client with .timeout()",
    ),
    (
        "rust-accept-invalid-certs",
        "danger_accept_invalid_certs(true) left in the reqwest client disabled TLS checks in production",
        "add the root certificate instead",
    ),
    # about nothing in the catalogue
    (
        "",
        "the pytest fixture used the wrong scope so state leaked between tests",
        "use function scope for fixtures that mutate data",
    ),
    (
        "",
        "the migration renamed the wrong index name in the down step",
        "double-check index names against the schema",
    ),
    (
        "",
        "the React component imported the wrong icon from the design system",
        "check the icon name in storybook",
    ),
    (
        "",
        "mypy complained about an Optional return in the repository layer",
        "narrow the type with an explicit check",
    ),
    (
        "",
        "the Go module path in go.mod didn't match the repository, imports failed",
        "set the module path to the repo url",
    ),
    (
        "",
        "cargo build failed because a feature flag was not enabled on the tokio dependency",
        "enable the macros and rt-multi-thread features",
    ),
    ("", "the CSS grid layout broke on Safari", "add the -webkit prefix and test on Safari"),
    (
        "",
        "the Django admin list page was missing a search field for customers",
        "add search_fields to the ModelAdmin",
    ),
    (
        "",
        "the Vue component's emitted event name was camelCase and the parent listened in kebab-case",
        "use consistent event names",
    ),
    (
        "",
        "wrong Python version in the virtualenv made the build pick old wheels",
        "recreate the venv with python3.12",
    ),
    (
        "",
        "the SQL report grouped by the wrong column and double counted refunds",
        "group by order id",
    ),
    (
        "",
        "eslint config extended the wrong preset so the formatter fought with prettier",
        "use eslint-config-prettier",
    ),
    (
        "",
        "the Rust crate's public API exposed an internal type",
        "re-export a wrapper type instead",
    ),
    (
        "",
        "the Go test table had duplicate case names so failures were ambiguous",
        "give each test case a unique name",
    ),
    (
        "",
        "the TypeScript enum value changed order and broke the persisted numbers",
        "use string enums for persisted values",
    ),
    (
        "",
        "the pandas groupby dropped the category we needed because of observed=True",
        "check groupby options",
    ),
    ("", "the Express router mounted the API at the wrong prefix", "mount it under /api/v2"),
    # --- wave 4 (written blind from the names and examples)
    (
        "py-fromkeys-mutable-value",
        "dict.fromkeys(names, []) made every key share one list, appends showed up under all names",
        "use a dict comprehension or defaultdict(list)",
    ),
    (
        "py-fromkeys-mutable-value",
        "Our grouping code initialised a dict from the user ids with an empty set as the value. Adding to one user's set added to everyone's, since it was the same set object",
        "build it as {k: set() for k in keys}",
    ),
    (
        "py-list-multiply-aliasing",
        "[[0]*w]*h grid: setting one cell changed the whole column",
        "build the rows with a comprehension",
    ),
    (
        "py-list-multiply-aliasing",
        "The tic-tac-toe board was made by multiplying a list of rows, so one move appeared in all three rows: they were the same inner list",
        "[[' '] * 3 for _ in range(3)]",
    ),
    (
        "py-default-evaluated-once",
        "def log_event(msg, ts=time.time()) stamped every event with the import time",
        "default to None and compute it inside the function",
    ),
    (
        "py-default-evaluated-once",
        "The pydantic model had Field(default=datetime.now(...)), so every record created since the worker started got the same created_at timestamp",
        "use default_factory so it's computed per instance",
    ),
    (
        "py-builtin-hash-persisted",
        "sharded by hash(user_id) and users moved shards after a restart",
        "use a stable hash like sha256 or crc32",
    ),
    (
        "py-builtin-hash-persisted",
        "Cache keys built with Python's hash() of the query string never hit after a redeploy, because string hashing is salted per process (PYTHONHASHSEED)",
        "use a hashlib digest for anything stored or shared between processes",
    ),
    (
        "py-return-in-finally",
        "a return inside finally swallowed the exception",
        "don't return from finally; return after the try block",
    ),
    (
        "py-return-in-finally",
        "save() raised, yet the function reported True because the finally clause returned a value and silently discarded the error",
        "let exceptions propagate; use finally only for cleanup",
    ),
    (
        "py-timing-unsafe-compare",
        "compared the webhook signature with ==, open to a timing attack",
        "hmac.compare_digest",
    ),
    (
        "py-timing-unsafe-compare",
        "Security review flagged our API key check: a plain != comparison leaks how many leading characters match through response time",
        "use secrets.compare_digest for secrets and MACs",
    ),
    (
        "js-sort-without-comparator",
        "[10, 9, 100, 1].sort() gave [1, 10, 100, 9]",
        "pass (a, b) => a - b",
    ),
    (
        "js-sort-without-comparator",
        "The p50 latency on the dashboard was nonsense: we ordered the numbers with the default array sort, which compares them as strings",
        "always supply a numeric comparator when ordering numbers",
    ),
    (
        "js-regex-global-test",
        "a regex with the /g flag used with .test() alternated true and false on the same input",
        "drop the g flag for test(), or reset lastIndex",
    ),
    (
        "js-regex-global-test",
        "Email validation rejected valid addresses on every second submit because the shared global regex kept its lastIndex between calls",
        "no global flag on a reused validator regex",
    ),
    (
        "node-prototype-pollution-merge",
        "_.merge(config, req.body) let an attacker set __proto__.isAdmin",
        "validate with a schema and pick the allowed keys",
    ),
    (
        "node-prototype-pollution-merge",
        "A deep merge of the request JSON into our settings object polluted Object.prototype, and suddenly every object had an admin flag",
        "never deep-merge untrusted input; whitelist fields",
    ),
    (
        "node-trust-proxy-all",
        "app.set('trust proxy', true) let clients spoof X-Forwarded-For and bypass the rate limiter",
        "trust only the number of hops or the proxy's subnet",
    ),
    (
        "node-trust-proxy-all",
        "Our IP allowlist was bypassed because Fastify believed whatever forwarded-for header the client sent",
        "set trustProxy to the load balancer's CIDR",
    ),
    (
        "go-time-format-layout",
        'time.Parse with "YYYY-MM-DD" failed on every date',
        "Go layouts use the reference time: 2006-01-02",
    ),
    (
        "go-time-format-layout",
        "Our Go report printed the date as garbage digits instead of day/month/year, because Format doesn't understand strftime-style or Java-style patterns",
        'write the layout with the reference date, e.g. "02/01/2006"',
    ),
    (
        "go-http-error-no-return",
        "http.Error without a return, the handler kept going and wrote the body anyway",
        "return right after http.Error",
    ),
    (
        "go-http-error-no-return",
        "The forbidden check in the Go handler wrote a 403, but the function went on and deleted the record anyway",
        "always return after writing the error response",
    ),
    (
        "java-bigdecimal-equals",
        "BigDecimal equals said 0.00 wasn't zero, so zero-balance invoices never closed",
        "use compareTo(...) == 0 or signum()",
    ),
    (
        "java-bigdecimal-equals",
        "Comparing money amounts with equals() failed because 100.00 and 100.0 have a different scale",
        "compareTo ignores scale; use it for numeric equality",
    ),
    (
        "java-split-regex-metachar",
        'version.split(".") returned an empty array',
        'escape it: split("\\\\.") or Pattern.quote',
    ),
    (
        "java-split-regex-metachar",
        'Parsing pipe-delimited lines with String.split("|") broke them into single characters, since the argument is a regex and | means alternation',
        "Pattern.quote the delimiter",
    ),
    (
        "php-strpos-truthiness",
        "if (strpos($s, 'admin')) missed matches at position 0",
        "compare with !== false or use str_contains",
    ),
    (
        "php-strpos-truthiness",
        "array_search returned key 0 for the first role, and our if treated that user as having no role at all",
        "use strict comparison against false",
    ),
    (
        "",
        "pagination skipped a row on each page because the offset was page*size+1",
        "offset = (page - 1) * size",
    ),
    (
        "",
        "the test failed every night just after midnight because it assumed today's date",
        "freeze time in tests",
    ),
    ("", "a variable named l was misread as 1 in review", "use descriptive names"),
    (
        "",
        "the API returned 200 with an error body and clients couldn't tell it failed",
        "use proper HTTP status codes",
    ),
    (
        "",
        "the logs lacked request ids so we couldn't trace a request across services",
        "add a correlation id to every log line",
    ),
    (
        "",
        "the CSV reader kept the BOM in the first header name",
        "open the file with encoding utf-8-sig",
    ),
    (
        "",
        "the progress percentage in Go was always 0 because of integer division",
        "convert to float before dividing",
    ),
    (
        "",
        "a Rust match with a wildcard arm silently ignored a new enum variant",
        "list the variants explicitly",
    ),
    (
        "",
        "the TypeScript function getUser actually created users",
        "name functions for what they do",
    ),
    ("", "the phone number regex rejected international formats", "use libphonenumber"),
]
