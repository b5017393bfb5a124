# ruff: noqa: E501
"""Wave 5 lessons (group c1), written blind: from each pattern's name and examples only,
before its phrases were read, one per pattern, told as a post-mortem or a user's
correction would tell it (see the measurement below).

Blind: 140/144 lessons named their pattern.
After widening: 144/144 (phrases added for py-global-statement, js-unhandled-promise,
js-settimeout-string, node-open-redirect).
"""

LESSONS: list[tuple[str, str, str]] = [  # (pattern name, question, answer)
    # --- code_python ---
    (
        "py-mutable-default",
        "Why did every new Mailer instance keep the CC list of the previous one?",
        "The method had `cc=[]` as a default argument. Python evaluates that list once, when the def runs, so every call that appended to it was growing the same shared list. Default to None and create the list inside.",
    ),
    (
        "py-bare-except",
        "no, don't write a bare `except:` there",
        "It also catches KeyboardInterrupt and SystemExit, so Ctrl-C stopped working and the worker couldn't be shut down. Catch the specific exception (ValueError, ImportError) you expect.",
    ),
    (
        "py-swallowed-exception",
        "Post-mortem: nightly cache refresh silently did nothing for two weeks",
        "The refresh was wrapped in try/except Exception: pass. Redis auth had changed and every call raised, but the error was thrown away without a log line. Never silence errors like that; at least log them with the traceback.",
    ),
    (
        "py-requests-no-timeout",
        "The sync script hung forever at 3am",
        "requests.get has no default timeout. The partner API accepted the TCP connection and then never answered, so the process sat there for 9 hours until someone killed it. Always pass timeout= to requests calls.",
    ),
    (
        "py-http-status-unchecked",
        "KeyError: 'name' when the users API was down",
        "We called r.json() on the response without checking the status code. The 503 page came back as JSON with an error body, and the code went on and blew up much later. Call raise_for_status() (or check r.ok) before using the body.",
    ),
    (
        "py-naive-datetime",
        "Token expiry was off by two hours for European users",
        "We stored datetime.utcnow() and compared it with aware datetimes from the DB. utcnow() returns a naive datetime with no tzinfo, so comparisons and serialization silently went wrong. Use datetime.now(timezone.utc).",
    ),
    (
        "py-pytz-replace-tzinfo",
        "Why was the meeting time shifted by 9 minutes?",
        "Because we did dt.replace(tzinfo=pytz.timezone('Europe/Berlin')). With pytz that attaches the LMT offset (+00:53) instead of CET. You must use tz.localize(dt), or switch to zoneinfo.",
    ),
    (
        "py-raise-without-from",
        "The traceback for ConfigError said 'During handling of the above exception, another exception occurred'",
        "We re-raised a new exception inside the except block without `from e`, so the original cause got buried in an implicit chain and the error looked like a bug in the handler. Use raise NewError(...) from err (or from None deliberately).",
    ),
    (
        "py-log-error-no-traceback",
        "All we had in the logs was 'upload failed: timed out'",
        "The except block did logger.error(f'...{e}'), which logs only the message of the exception, no stack trace. We had no idea which call timed out. Use logger.exception() or pass exc_info=True.",
    ),
    (
        "py-sleep-in-async",
        "The whole FastAPI service froze for a second on every request to /poll",
        "Someone had time.sleep(1) inside an async def. That blocks the event loop, so no other coroutine could run. In async code it must be await asyncio.sleep().",
    ),
    (
        "py-blocking-io-in-async",
        "Why is the async endpoint so slow under load?",
        "It called requests.get inside async def. requests is synchronous, so each call blocked the event loop thread and all other requests waited. Use httpx.AsyncClient / aiohttp, or run it with asyncio.to_thread.",
    ),
    (
        "py-sync-db-in-async",
        "Django raised SynchronousOnlyOperation: You cannot call this from an async context",
        "The async view used Order.objects.get() directly, a synchronous ORM query inside an async function. Use the async ORM methods (aget, acount) or sync_to_async, or an async database driver.",
    ),
    (
        "py-create-task-no-reference",
        "The welcome emails were sent only sometimes",
        "We fired asyncio.create_task(send_welcome(user)) and didn't keep the returned task. The event loop only holds a weak reference, so the task got garbage collected mid-flight. Keep a reference (a set of background tasks) until it finishes.",
    ),
    (
        "py-missing-await",
        "RuntimeWarning: coroutine 'publish' was never awaited",
        "We called an async function from the signup handler without awaiting it, so it just built a coroutine object and the event was never published. Forgetting the await on a coroutine fails silently apart from that warning.",
    ),
    (
        "py-get-event-loop",
        "DeprecationWarning: There is no current event loop",
        "asyncio.get_event_loop() is deprecated outside a running loop on Python 3.12 and it broke our startup. Use asyncio.run() for the entry point, and get_running_loop() inside coroutines.",
    ),
    (
        "py-thread-shared-state",
        "The processed counter ended lower than the number of items",
        "Eight threads did `global processed; processed += 1` without a lock. += on a global isn't atomic, so updates were lost. Protect shared state with a threading.Lock or return results from the workers instead.",
    ),
    # --- code_python_idioms ---
    (
        "py-global-statement",
        "please stop using `global` to cache the client",
        "The global _client set from inside a function made the tests order-dependent and we couldn't swap the client in tests. Use functools.cache or pass the dependency in.",
    ),
    (
        "py-mutable-class-attribute",
        "Every EventBus saw every other bus's listeners",
        "listeners = {} was declared at class level, so it was one dict shared by all instances; self.listeners[...] mutated the shared class attribute. Initialise mutable state in __init__.",
    ),
    (
        "py-lru-cache-method",
        "memory leak in the pricing service",
        "@lru_cache on an instance method caches `self` as part of the key, so every PriceService instance ever created stayed alive in the cache and the process grew to 4 GB. Don't put lru_cache/cache on methods.",
    ),
    (
        "py-late-binding-closure",
        "All the shard migrations ran against the last shard",
        "The lambdas created in the for loop captured the variable `shard`, not its value, so when they ran later they all saw the final value. Bind it with a default argument or functools.partial.",
    ),
    (
        "py-del-finalizer",
        "The temp workspace directories were never cleaned up",
        "We relied on __del__ to rmtree them. The finalizer isn't guaranteed to run (reference cycles, interpreter shutdown) and exceptions in it are ignored. Use a context manager or weakref.finalize.",
    ),
    (
        "py-open-no-encoding",
        "UnicodeDecodeError: 'charmap' codec can't decode byte 0x9d on the Windows build agent",
        "open(path) without encoding= uses the locale's default encoding, which is cp1252 on Windows. Always pass encoding='utf-8' to open, read_text and write_text.",
    ),
    (
        "py-open-without-with",
        "ResourceWarning: unclosed file, and then 'Too many open files'",
        "The schema loader did json.load(open(path)) and never closed the handle. Open files in a `with` block so they are closed.",
    ),
    (
        "py-print-debugging",
        "Remove the print statements before committing",
        "There was a print('XXX order', ...) left in apply_discount and it spammed stdout in production, leaking order ids into the container logs. Use the logger at debug level instead of print for debugging.",
    ),
    (
        "py-debugger-left",
        "The deployment hung at a (Pdb) prompt",
        "A pdb.set_trace() call had been left in reconcile() after debugging. In prod the worker just waited for input on stdin forever. Grep for breakpoint() / set_trace before pushing.",
    ),
    (
        "py-is-literal",
        'SyntaxWarning: "is" with a literal. Did you mean "=="?',
        "role is 'admin' compared identity, not equality, and was False for strings built at runtime, so admins were locked out. Use == for strings and numbers; `is` only for None.",
    ),
    (
        "py-eq-none",
        "lint flagged `!= None` again",
        "Comparing with == None calls __eq__, which objects like numpy arrays or ORM columns override. Use `is None` / `is not None` for plain Python values.",
    ),
    (
        "py-shadowed-builtin",
        "TypeError: 'int' object is not callable",
        "Earlier in the function we had assigned `sum = 0`, shadowing the builtin sum(), so the later sum(...) call crashed. Don't name variables list, dict, id, sum, input, etc.",
    ),
    (
        "py-star-import",
        "NameError after a refactor and nobody could tell where `Q` came from",
        "models.py used `from django.db.models import *` and `from .choices import *`. Wildcard imports hide where names come from and one silently shadowed another. Import names explicitly.",
    ),
    (
        "py-float-money",
        "Invoice totals were off by a cent",
        "amount was a float, and 0.1 + 0.2 != 0.3 in binary floating point. Money must be Decimal (DecimalField in Django, Numeric in SQLAlchemy) or integer cents, never float.",
    ),
    (
        "py-zip-no-strict",
        "Half the CSV columns were silently dropped",
        "zip(header, values) stops at the shorter input, so rows with a missing trailing field lost data without any error. Pass strict=True so a length mismatch raises.",
    ),
    (
        "py-subprocess-unchecked",
        "The build script copied a stale dist folder after `npm run build` failed",
        "subprocess.run without check=True ignores a non-zero exit status, so the failure went unnoticed. Use check=True or check_call.",
    ),
    # --- py_security ---
    (
        "py-sql-injection",
        "The pentest report listed a SQL injection in the order search",
        "The query was built with an f-string: f\"... WHERE status = '{status}'\", so a crafted status parameter could run arbitrary SQL. Use bound parameters (%s / :name) and pass the values separately to execute.",
    ),
    (
        "py-shell-injection",
        "no, don't pass shell=True with the filename in it",
        "Uploaded file names go straight into the command string, so a name like `x; rm -rf ~` runs on the server. Pass an argument list without shell=True.",
    ),
    (
        "py-os-system",
        "Why does the restart helper return success even though nothing restarted?",
        "os.system runs the string through the shell and we ignored the exit code; a service name with spaces broke the command too. Use subprocess.run with a list of args instead of os.system/os.popen.",
    ),
    (
        "py-eval-exec",
        "A user got a shell on the rules service",
        "The rule expression from the admin form went straight into eval(). eval/exec on input you don't control is remote code execution; use ast.literal_eval or a real expression parser.",
    ),
    (
        "py-unsafe-deserialization",
        "Security review: we unpickle data from redis and uploads",
        "pickle.loads on data an attacker can influence executes arbitrary code during unpickling. Use JSON or another data-only format for anything that crosses a trust boundary.",
    ),
    (
        "py-yaml-unsafe-load",
        "Bandit B506: use of unsafe yaml load",
        "yaml.load with the default/Full/Unsafe Loader can construct arbitrary Python objects from tags in the document. Use yaml.safe_load (or Loader=SafeLoader).",
    ),
    (
        "py-torch-load-unsafe",
        "FutureWarning: You are using torch.load with weights_only=False",
        "torch.load uses pickle under the hood, so loading a checkpoint downloaded from the internet can run code. Pass weights_only=True, or use safetensors.",
    ),
    (
        "py-tls-verify-disabled",
        "the agent set verify=False to get past an SSL error",
        "That disables certificate verification entirely and makes every request open to man-in-the-middle. Point it at the right CA bundle instead of turning off TLS verification.",
    ),
    (
        "py-hardcoded-secret",
        "GitHub secret scanning emailed us about the AWS key",
        "The secret access key was written directly in settings.py and pushed. Credentials must come from the environment or a secret manager, never hard-coded in source.",
    ),
    (
        "py-secret-logged",
        "The DB password showed up in Datadog",
        "A debug log line printed the connection password along with the DSN. Never log passwords, tokens or API keys; redact them.",
    ),
    (
        "py-insecure-random",
        "Invite codes were guessable",
        "They were generated with random.choice, which is the Mersenne Twister PRNG and predictable from its outputs. Use the secrets module (token_urlsafe, choice) for anything security-sensitive.",
    ),
    (
        "py-weak-password-hash",
        "After the DB leak, most user passwords were cracked within a day",
        "They were stored as unsalted sha256 hashes. General-purpose hashes are far too fast for password hashing; use bcrypt, scrypt or argon2.",
    ),
    (
        "py-weak-hash",
        "The webhook signature could be forged",
        "We signed payloads with md5(secret + body). MD5/SHA-1 are broken and secret-prefix hashing is open to length extension. Use HMAC-SHA256.",
    ),
    (
        "py-tempfile-mktemp",
        "don't use tempfile.mktemp",
        "It only returns a name; between that and opening the file another process can create it (race condition, symlink attack). Use mkstemp or NamedTemporaryFile.",
    ),
    (
        "py-hardcoded-tmp-path",
        "Two jobs overwrote each other's export",
        "Both wrote to the fixed path /tmp/export.csv. A hard-coded /tmp file name is shared by every process on the box and predictable. Create a unique file with the tempfile module.",
    ),
    (
        "py-unescaped-html",
        "Stored XSS in the user bio",
        "The template tag did mark_safe('<p>' + user.bio + '</p>'), which turned off Django's autoescaping for user-controlled text. Use format_html / escape instead.",
    ),
    (
        "py-xml-external-entities",
        "XXE found in invoice upload",
        "We parsed uploaded XML with the stdlib ElementTree/lxml defaults, which resolve external entities and allow entity expansion bombs. Use defusedxml for untrusted XML.",
    ),
    (
        "py-jwt-unverified",
        "Anyone could forge a token for any user",
        "The middleware decoded the JWT with verify_signature turned off, so the signature was never checked. Always verify the signature and pin the algorithms list.",
    ),
    (
        "py-tar-extractall",
        "Plugin install wrote a file to ../../etc/cron.d",
        "tarfile.extractall trusts the member paths in the archive, so ../ entries escape the target directory (path traversal). Use filter='data' or validate each member.",
    ),
    (
        "py-cookie-insecure",
        "The remember-me cookie was sent over plain HTTP",
        "set_cookie was called without secure=True (and SESSION_COOKIE_SECURE was False), so the browser sent it on http:// requests too. Set Secure, HttpOnly and SameSite on auth cookies.",
    ),
    # --- py_frameworks ---
    (
        "py-sleep-in-test",
        "The test suite takes 6 minutes and is still flaky",
        "Tests wait with time.sleep(3) for background work. Sleeping in tests is slow and still races on a loaded CI runner; poll with a timeout or freeze/advance the clock.",
    ),
    (
        "py-skipped-test",
        "We shipped a broken refund because its test had been skipped for months",
        "Someone added @pytest.mark.skip to a failing test 'for now' and it was forgotten. Don't skip tests to get CI green; fix them or mark xfail(strict=True) with an issue.",
    ),
    (
        "py-assert-for-validation",
        "Permission check disappeared in production",
        "The view used assert user.is_admin for authorization. Assertions are stripped when Python runs with -O, so the check vanished. Use an if and raise an exception.",
    ),
    (
        "py-django-debug-true",
        "The production error page showed our settings and SQL",
        "DEBUG = True was committed in the settings module. Debug mode exposes tracebacks, settings and environment to anyone who triggers an error. Read DEBUG from the environment, default False.",
    ),
    (
        "py-flask-debug",
        "Werkzeug debugger was reachable on the public server",
        "app.run(debug=True) enables the interactive debugger, which allows arbitrary code execution from the browser. Never run Flask with debug on outside your laptop.",
    ),
    (
        "py-allowed-hosts-wildcard",
        "Host header poisoning in the password reset emails",
        "ALLOWED_HOSTS was ['*'], so Django accepted any Host header and built reset links pointing to the attacker's domain. List the real hostnames.",
    ),
    (
        "py-cors-wildcard",
        "the agent 'fixed' the CORS error by allowing every origin",
        "Allowing all origins with a wildcard lets any website call our API from a user's browser. Configure the explicit list of front-end origins instead.",
    ),
    (
        "py-n-plus-one",
        "The orders export fired 10,000 queries",
        "The loop accessed order.customer for every order, and each access was a separate SELECT (the N+1 query problem). Use select_related / prefetch_related or a joinedload.",
    ),
    (
        "py-django-runpython-irreversible",
        "django.db.migrations.exceptions.IrreversibleError: Operation <RunPython> in shop.0013 is not reversible",
        "We couldn't roll back the release because the data migration had no reverse function. Always give RunPython a reverse_code (RunPython.noop if nothing to undo).",
    ),
    (
        "py-pandas-chained-assignment",
        "SettingWithCopyWarning: A value is trying to be set on a copy of a slice from a DataFrame",
        "df[mask]['col'] = x assigns into a temporary copy, so the original frame didn't change at all. Use df.loc[mask, 'col'] = x.",
    ),
    (
        "py-pandas-inplace",
        "AttributeError: 'NoneType' object has no attribute 'resample'",
        "We wrote df = df.set_index('ts', inplace=True). Methods called with inplace=True return None, so df became None. Either use inplace without assignment or (better) assign the returned frame.",
    ),
    (
        "py-pandas-iterrows",
        "The report job took 40 minutes",
        "It looped over the DataFrame with iterrows(), which builds a Series per row and is extremely slow. Use vectorized column operations or groupby; itertuples if you really need a loop.",
    ),
    (
        "py-pandas-read-csv-memory",
        "The ETL pod was OOMKilled",
        "pd.read_csv loaded the whole 12 GB clickstream file into memory with object dtypes. Read it in chunks (chunksize=), select usecols and dtypes, or use a lazy reader.",
    ),
    (
        "py-db-connection-not-closed",
        'FATAL: too many connections for role "app"',
        "The helper opened a new connection with psycopg2.connect on every call and never closed it. Close connections in a finally block or use contextlib.closing / a pool. Note that sqlite3's `with conn:` only commits, it doesn't close.",
    ),
    # --- code_sql ---
    (
        "sql-delete-without-where",
        "The staging database lost all its sessions and carts",
        "A maintenance script ran DELETE FROM without a WHERE clause and emptied the whole table. Always double-check a DELETE has its WHERE, and run it inside a transaction first.",
    ),
    (
        "sql-update-without-where",
        "Every user got downgraded to the free plan",
        "Someone ran UPDATE users SET plan = 'free'; and forgot the WHERE, so it updated all rows. Never run an UPDATE without a WHERE condition.",
    ),
    (
        "sql-truncate",
        "no, don't truncate the table in the migration",
        "TRUNCATE removes every row instantly, can't be filtered, cascades, and takes an ACCESS EXCLUSIVE lock. We lost the audit history in prod that way. Delete the specific rows instead.",
    ),
    (
        "sql-drop-without-if-exists",
        'Migration failed: ERROR: table "order_notes" does not exist',
        "The downgrade used DROP TABLE without IF EXISTS, so rerunning it on an environment where it was already gone aborted the whole migration. Use DROP ... IF EXISTS so it is idempotent.",
    ),
    (
        "sql-destructive-drop",
        "Column dropped while the old app version was still reading it",
        "The migration dropped legacy_status in the same deploy as the code change. During the rolling deploy old pods crashed, and the data was gone for good. Stop using a column first, then drop it in a later release.",
    ),
    (
        "sql-index-not-concurrently",
        "Checkout was down for 4 minutes during the deploy",
        "The migration ran CREATE INDEX on the events table, which locks the table against writes for the whole build. On Postgres create indexes on big tables CONCURRENTLY (algorithm: :concurrently in Rails).",
    ),
    (
        "sql-add-not-null-without-default",
        'ERROR: column "tenant_id" of relation "invoices" contains null values',
        "Adding a NOT NULL column without a default fails on a table that already has rows. Add it nullable, backfill, then add the constraint, or give it a default.",
    ),
    (
        "sql-volatile-default",
        "Adding a column locked the sessions table for 20 minutes",
        "The new column had DEFAULT gen_random_uuid(). A volatile default forces Postgres to rewrite the whole table, unlike a constant default. Add the column without the default and backfill in batches.",
    ),
    (
        "sql-rename-in-place",
        "The API returned 500s right after the migration renamed a column",
        "RENAME COLUMN zip TO postal_code broke the running app servers that still queried zip. Renames aren't backward compatible; add the new column, dual-write, then drop the old one later.",
    ),
    (
        "sql-change-column-type",
        "ALTER COLUMN ... TYPE rewrote the 200M-row payments table",
        "Changing a column's type takes an exclusive lock and rewrites the table; the site was read-only for half an hour. Add a new column and migrate the data instead of altering the type in place.",
    ),
    (
        "sql-set-not-null",
        "SET NOT NULL blocked writes on orders for minutes",
        "ALTER COLUMN ... SET NOT NULL scans the whole table under an ACCESS EXCLUSIVE lock. Add a CHECK (col IS NOT NULL) NOT VALID constraint, VALIDATE it, then set not null.",
    ),
    (
        "sql-constraint-not-valid",
        "Adding the foreign key took down writes on order_lines",
        "ADD CONSTRAINT ... FOREIGN KEY validates every existing row while holding a lock. Add it NOT VALID and VALIDATE CONSTRAINT in a separate step.",
    ),
    (
        "sql-lock-timeout",
        "A trivial ALTER TABLE caused an outage",
        "The migration queued behind a long-running query waiting for its lock, and every other query on the table queued behind it. Set lock_timeout before DDL in migrations so it fails fast and retries.",
    ),
    (
        "sql-select-star",
        "The view broke after we added a column",
        "The view was defined with SELECT *, which Postgres expands at creation time, and the backup table copy silently changed shape. List the columns explicitly in views and INSERT ... SELECT.",
    ),
    (
        "sql-migration-without-transaction",
        "Half-applied migration left the schema in a broken state",
        "The migration file had several statements and no BEGIN/COMMIT. The second UPDATE failed and the first ALTER stayed applied, so rerunning it failed too. Wrap multi-statement migrations in a transaction.",
    ),
    # --- code_sql_schema ---
    (
        "sql-grant-all",
        "The reporting user could drop tables",
        "The migration did GRANT ALL ON ALL TABLES to it. Grant only the privileges a role needs (least privilege), e.g. SELECT, and never make application roles superuser.",
    ),
    (
        "sql-plaintext-password-column",
        "We found we were storing user passwords in plain text",
        "The api_clients table had a `password text` column holding the actual password. Store only a salted hash (password_hash) computed by bcrypt/argon2.",
    ),
    (
        "sql-leading-wildcard-like",
        "Product search got slow once the catalogue grew",
        "The query used LIKE '%term%'; a pattern with a leading wildcard can't use a btree index, so every search was a sequential scan. Use full-text search or a trigram index.",
    ),
    (
        "sql-not-in-subquery",
        "The orphan cleanup found zero rows even though there were orphans",
        "WHERE owner_id NOT IN (SELECT id FROM users) returns nothing as soon as the subquery yields a single NULL. Use NOT EXISTS instead of NOT IN with a subquery.",
    ),
    (
        "sql-foreign-key-without-index",
        "Deleting a post took seconds",
        "comments.post_id referenced posts but had no index, so each delete on posts scanned the whole comments table to check the foreign key. Index the referencing column.",
    ),
    (
        "sql-on-delete-cascade",
        "Deleting one test account deleted its invoices too",
        "The FK was declared ON DELETE CASCADE, so removing an account silently removed all of its invoices and payments. Prefer RESTRICT and delete children explicitly.",
    ),
    (
        "sql-timestamp-without-time-zone",
        "Booking times were two hours off after we moved servers",
        "The columns were plain `timestamp` (without time zone), so the values were interpreted in whatever the session timezone was. Use timestamptz.",
    ),
    (
        "sql-int-primary-key",
        'ERROR: nextval: reached maximum value of sequence "page_views_id_seq" (2147483647)',
        "The id column was SERIAL, a 32-bit integer, and we ran out of ids. Use bigint / bigserial for primary keys of tables that grow.",
    ),
    # --- code_web ---
    (
        "react-effect-no-deps",
        "Why does the chart component re-render in a loop?",
        "The useEffect had no dependency array, so it ran after every render, and since it set state it triggered another render. Always pass the deps array ([] or the values it uses).",
    ),
    (
        "react-effect-no-cleanup",
        "Warning: Can't perform a React state update on an unmounted component",
        "The effect started a setInterval / event listener and never returned a cleanup function, so it kept running after the component unmounted and leaked. Return a function that clears the timer or removes the listener.",
    ),
    (
        "react-fetch-no-abort",
        "The search results sometimes showed the answer for an older query",
        "The effect fired a fetch for every keystroke without an AbortController, so a slow earlier request could resolve last and overwrite the newer results (race condition). Abort the request in the effect cleanup.",
    ),
    (
        "react-index-as-key",
        "Deleting a message removed the wrong row's input state",
        "We used the array index as the key in messages.map. When the list changes, React matches elements by key and the state sticks to the wrong item. Use a stable id as the key.",
    ),
    (
        "react-missing-key",
        'Warning: Each child in a list should have a unique "key" prop.',
        "The rows.map(...) returned <tr> elements without a key prop. Give each element rendered in a list a key.",
    ),
    (
        "react-setstate-in-render",
        "Error: Too many re-renders. React limits the number of renders to prevent an infinite loop.",
        "onClick={setDrawerOpen(false)} calls the setter during render instead of passing a handler. Wrap it: onClick={() => setDrawerOpen(false)}.",
    ),
    (
        "react-state-mutation",
        "The todo checkbox doesn't update when I click it",
        "The handler mutated the object in state (todo.done = !todo.done) and then called setTodos with the same array. React compares references, so it saw no change. Never mutate state directly; create a new array/object.",
    ),
    (
        "react-stale-state-update",
        "Clicking + quickly only increments once",
        "setQuantity(quantity + 1) uses the value captured by the closure; rapid clicks batch and read stale state. Use the functional updater form setQuantity(q => q + 1).",
    ),
    (
        "react-async-effect",
        "Warning: useEffect must not return anything besides a function, which is used for clean-up.",
        "We wrote useEffect(async () => ...). An async function returns a promise, which React treats as the cleanup. Define an async function inside the effect and call it.",
    ),
    (
        "react-conditional-hook",
        "Rendered more hooks than during the previous render",
        "useQuery was called after an early `return <Login />`, so the number of hooks changed between renders. Hooks must be called unconditionally at the top level, never after a conditional return or inside an if.",
    ),
    (
        "react-dangerously-set-inner-html",
        "XSS through article HTML from the CMS",
        "The component rendered the HTML with dangerouslySetInnerHTML and no sanitization. Sanitize with DOMPurify first, or render text.",
    ),
    (
        "js-innerhtml-xss",
        "Security fix: user names rendered as HTML in the admin table",
        "The code built rows with element.innerHTML = `<td>${user.name}</td>`, so a name containing a <script>/img onerror payload ran in the admin's browser. Use textContent or createElement.",
    ),
    (
        "ts-any",
        "stop typing everything as `any`",
        "The handler's event was declared as any, so TypeScript didn't catch that we read a field that doesn't exist and it crashed at runtime. Use proper types or unknown and narrow.",
    ),
    (
        "ts-non-null-assertion",
        "TypeError: Cannot read properties of null (reading 'getContext')",
        "We used the non-null assertion `!` on querySelector's result; the element wasn't on that page. The ! operator just silences the compiler. Check for null and handle it.",
    ),
    (
        "ts-ignore",
        "Why did the type error come back as a runtime bug?",
        "Someone had put // @ts-ignore above the line, which suppresses any error on it, including new unrelated ones. Use // @ts-expect-error with a reason, or fix the types.",
    ),
    (
        "ts-strict-off",
        "no, don't turn off strict mode in tsconfig to make the build pass",
        'Setting "strict": false (or strictNullChecks false) hides null bugs across the whole codebase. Fix the type errors instead.',
    ),
    (
        "vue-prop-mutation",
        '[Vue warn]: Attempting to mutate prop "selected". Props are readonly.',
        "The child component assigned to props.selected. Props flow down one way; emit an update event (v-model) instead of mutating the prop.",
    ),
    (
        "vue-v-if-with-v-for",
        "eslint vue/no-use-v-if-with-v-for",
        "We put v-if and v-for on the same <li>. In Vue 3 v-if has higher priority and can't see the loop variable; in Vue 2 it filtered on every render. Use a computed filtered list or a <template v-for> wrapper.",
    ),
    # --- code_web_js ---
    (
        "js-loose-equality",
        "The debug tools turned on for role 0",
        "We compared with == and JavaScript's type coercion made '0' == 0 and '' == 0 true. Use strict equality === / !== everywhere.",
    ),
    (
        "js-async-foreach",
        "'all invoices sent' logged before any invoice was sent",
        "orders.forEach(async order => { await ... }) doesn't wait: forEach ignores the promises the async callback returns. Use for...of with await or Promise.all(items.map(...)).",
    ),
    (
        "js-await-in-loop",
        "The stock lookup endpoint takes 8 seconds for 40 SKUs",
        "It awaited each lookup one after the other inside a for loop, so the requests ran sequentially. Start them together with Promise.all when they're independent.",
    ),
    (
        "js-unhandled-promise",
        "UnhandledPromiseRejectionWarning crashed the Node process",
        "A .then() chain on api.post had no .catch(), so when the request failed the rejection was unhandled and Node exited. Always handle rejections (catch or await in try).",
    ),
    (
        "js-json-parse-no-try",
        "SyntaxError: Unexpected token u in JSON at position 0",
        "The websocket handler called JSON.parse on the raw message without try/catch, and one malformed message killed the server. Wrap JSON.parse of external input in try/catch.",
    ),
    (
        "js-parseint-radix",
        "the linter (radix rule) complains about parseInt",
        "parseInt without the radix argument can parse '08' or '0x10' differently than you expect, and .map(parseInt) passes the index as the radix. Always pass 10 as the second argument.",
    ),
    (
        "js-console-log",
        "Remove the console.log calls before merging",
        "console.log('createOrder input', input) dumped customer data into the browser console and server logs. Use the app logger at debug level, and keep eslint no-console on.",
    ),
    (
        "js-public-env-secret",
        "Our Stripe secret key was visible in the JS bundle",
        "It was defined as VITE_STRIPE_SECRET_KEY. Variables with the VITE_ / NEXT_PUBLIC_ / REACT_APP_ prefix are inlined into client code, so anyone can read them. Keep secrets server-side.",
    ),
    (
        "js-localstorage-token",
        "no, don't keep the JWT in localStorage",
        "Anything in localStorage or sessionStorage is readable by any script on the page, so one XSS leaks the access token. Use an HttpOnly cookie for the session.",
    ),
    (
        "js-fetch-no-ok-check",
        "Unexpected token < in JSON at position 0",
        "fetch() only rejects on network failure; a 404 or 500 still resolves. We called response.json() on the HTML error page. Check response.ok / status before reading the body.",
    ),
    (
        "js-fetch-no-timeout",
        "The Slack notification hung the request handler forever",
        "fetch has no timeout by default. Pass signal: AbortSignal.timeout(ms), or use an AbortController.",
    ),
    (
        "js-axios-no-timeout",
        "Payment calls piled up when the provider was slow",
        "The axios instance had no timeout, which defaults to 0 (wait forever), so requests piled up until the pool was exhausted. Set timeout on axios.create or per request.",
    ),
    (
        "js-date-month-off-by-one",
        "The monthly report keys were all one month behind",
        "getMonth() is zero-based (January is 0). We used it directly in the label; add 1 when you format it.",
    ),
    (
        "js-date-string-parse",
        "Birthdays show one day early for users in America",
        "new Date('2024-06-01') parses a date-only string as UTC midnight, which is the previous evening in US time zones, and other formats are implementation-dependent. Parse with explicit components or a date library.",
    ),
    (
        "js-moment",
        "Bundle size jumped by 300 KB",
        "Someone imported moment (and moment-timezone). Moment is in maintenance mode and huge; use date-fns, dayjs, Luxon or Intl.",
    ),
    (
        "js-float-money",
        "The checkout total showed 59.980000000000004",
        "We computed prices with JS floating point numbers and parseFloat. Money should be integer cents (or a decimal library), rounding explicitly.",
    ),
    (
        "js-math-random-token",
        "Session ids were predictable",
        "They were built from Math.random(), which is not a cryptographically secure generator. Use crypto.randomBytes / crypto.getRandomValues / randomUUID for tokens.",
    ),
    (
        "js-eval",
        "A rule expression from the admin UI executed code on the server",
        "The rules engine built a function with new Function(...) from the expression string, which is just eval. Don't evaluate user-supplied strings as code.",
    ),
    (
        "js-settimeout-string",
        "CSP blocked our refresh script: 'unsafe-eval' is not allowed",
        "We passed a string of code to setTimeout, which is evaluated like eval. Pass a function instead.",
    ),
    (
        "js-postmessage-wildcard",
        "The OAuth code leaked to a malicious opener page",
        "window.opener.postMessage(..., '*') sends the message to whatever origin the other window has. Specify the target origin, and check event.origin in message listeners.",
    ),
    # --- code_web_node ---
    (
        "node-exec-injection",
        "Command injection in the resize endpoint",
        "The handler called child_process.exec with a template string containing req.body.file, which runs through a shell. Use execFile/spawn with an argument array.",
    ),
    (
        "node-sql-injection",
        "An attacker dumped the users table through the product filter",
        "The route interpolated req.query.cat into the SQL string with a template literal passed to knex.raw. Use placeholders (? or $1) and bind the values.",
    ),
    (
        "node-nosql-injection",
        'Login bypass with {"password": {"$ne": null}}',
        "We passed req.body fields straight into the Mongo findOne filter, so an object with a $ne operator matched any user. Cast inputs to strings or validate them, or use mongo-sanitize.",
    ),
    (
        "node-path-traversal",
        "GET /avatar/..%2f..%2fetc%2fpasswd returned the passwd file",
        "The handler joined req.params.file onto the avatars directory. path.join/resolve don't stop ../ from escaping. Use basename or the root option of sendFile and check the resolved path.",
    ),
    (
        "node-open-redirect",
        "Phishing emails used our login page to bounce users to a fake site",
        "After login we did res.redirect(req.query.from) with whatever URL was in the query string. Only redirect to relative paths or an allowlist of hosts.",
    ),
    (
        "node-mass-assignment",
        "A user made themselves admin through PATCH /me",
        "The handler passed req.body straight into findByIdAndUpdate, so any field including role could be set. Pick the allowed fields explicitly or validate with a schema.",
    ),
    (
        "node-cors-credentials-wildcard",
        "the agent configured cors to reflect any origin with credentials: true",
        "That lets any website make authenticated requests with the user's cookies and read the responses. With credentials, allow only a fixed list of origins.",
    ),
    (
        "node-jwt-decode-auth",
        "Admin routes accepted forged tokens",
        "The middleware used jwt.decode(), which just base64-decodes the payload and does not verify the signature. Use jwt.verify with the secret/public key.",
    ),
    (
        "node-jwt-verify-no-algorithms",
        "Security audit: jwt.verify is called without pinning algorithms",
        "Without an algorithms option the verifier trusts the token's alg header, enabling algorithm confusion attacks (none / HS256 with the public key). Always pass algorithms: ['RS256'] or whichever you use.",
    ),
    (
        "node-jwt-hardcoded-secret",
        "The JWT signing secret was in the repo",
        "It was a string literal 'my-super-secret-key-123' in token.js (and a fallback default of 'dev-secret'), so anyone with the code could mint tokens. Load it from the environment and fail if missing.",
    ),
    (
        "node-bcrypt-low-rounds",
        "Cracking benchmark on our hashes was way too fast",
        "The bcrypt cost factor was 4-6 to make logins faster. Use a work factor of at least 10-12.",
    ),
    (
        "node-fast-hash-password",
        "Leaked password hashes were all cracked",
        "Passwords were hashed with crypto.createHash('sha1') / md5. Those are fast hashes; use bcrypt, scrypt or argon2 for passwords.",
    ),
    (
        "node-sync-io-in-handler",
        "Latency spikes whenever someone downloads an export",
        "The Express route used fs.readFileSync inside the request handler, which blocks the event loop for every other request. Use fs.promises in handlers.",
    ),
    (
        "node-express-missing-return",
        "Error [ERR_HTTP_HEADERS_SENT]: Cannot set headers after they are sent to the client",
        "The handler sent a 404 when the order was missing but didn't return, so it went on to res.json() as well. Return after sending the response.",
    ),
    (
        "node-express-no-helmet",
        "Security scan: missing security headers on the API",
        "The Express app didn't set X-Content-Type-Options, HSTS, frame options, etc. Add app.use(helmet()) when creating the app.",
    ),
    (
        "node-tls-verify-off",
        "Warning: Setting the NODE_TLS_REJECT_UNAUTHORIZED environment variable to '0' makes TLS connections and HTTPS requests insecure",
        "We set it to get past a self-signed cert on the importer, which disabled certificate validation for the whole process. Use NODE_EXTRA_CA_CERTS with the CA instead.",
    ),
    (
        "js-test-real-timers",
        "The webhook test takes 3 seconds and flakes on CI",
        "It waits with a real setTimeout promise before asserting. Use fake timers (jest.useFakeTimers / vi.useFakeTimers) and advance them, or waitFor.",
    ),
]
