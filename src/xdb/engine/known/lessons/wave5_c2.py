# ruff: noqa: E501
"""Wave 5 lessons (group c2), written blind: from each pattern's name and examples only,
before its phrases were read, one per pattern, told as a post-mortem or a user's
correction would tell it (see the measurement below).

Blind: 171/180 lessons named their pattern; after widening the phrases: 180/180 (the
misses told the mistake in words no phrase had: "deferred functions" for os.Exit,
"defers ... inside the for loop", "let _ ... swallowed", "randomised per process",
"permit! allows every attribute", "a shell command built with #{path}", "the require
path built from request input", "$request->input() straight into update()", "command
string passed to system()/popen")."""

LESSONS: list[tuple[str, str, str]] = [  # (pattern name, question, answer)
    (
        "go-ignored-error",
        "Why did the page size silently become 0?",
        "The handler did `size, _ := strconv.Atoi(...)` and threw the error away, so junk input turned into 0 and we returned an empty page. In Go never discard an error with the blank identifier; check err and return a 400.",
    ),
    (
        "go-json-unmarshal-unchecked",
        "Webhook events had all-zero fields",
        "We called json.NewDecoder(r.Body).Decode(&evt) without looking at the returned error. Malformed payloads decoded into a zero struct and got queued. Always check the error from Unmarshal/Decode.",
    ),
    (
        "go-resp-body-not-closed",
        "Service ran out of file descriptors after a day",
        "Post-mortem: we never closed resp.Body after client.Do, so every call leaked a connection until `too many open files`. Add `defer resp.Body.Close()` right after the err check on every HTTP response.",
    ),
    (
        "go-goroutine-no-wait",
        "Broadcast returned before messages were sent",
        "No, don't fire `go sub.Send(msg)` in a loop and return: nothing waits for those goroutines, errors are lost and the process can exit before they finish. Use a sync.WaitGroup or errgroup and wait.",
    ),
    (
        "go-loop-var-capture",
        "All goroutines migrated the same tenant",
        "The closure inside the for range captured the loop variable, so with Go < 1.22 every goroutine saw the last tenant. Pass the loop variable as an argument or shadow it (tenant := tenant) before starting the goroutine.",
    ),
    (
        "go-defer-in-loop",
        "Pool exhausted while importing",
        "We had `defer conn.Release()` inside the for loop; defers only run when the function returns, so every connection stayed held until the whole import ended. Move the loop body into its own function.",
    ),
    (
        "go-http-no-timeout",
        "Worker hung forever on a dead upstream",
        "http.Get / the default http.Client has no timeout at all. A half-open connection blocked the worker for hours. Always build an http.Client with Timeout set.",
    ),
    (
        "go-context-background-in-handler",
        "Queries kept running after clients disconnected",
        "Code review caught it: the HTTP handler passed context.Background() to the repository instead of r.Context(), so cancellation and deadlines from the request never propagated.",
    ),
    (
        "go-time-after-in-loop",
        "Memory grew steadily in the worker loop",
        "time.After inside a for/select allocates a new timer on every iteration and it isn't collected until it fires. Use one time.NewTimer and Reset it instead.",
    ),
    (
        "go-mutex-copied",
        "go vet: Lookup passes lock by value: Registry contains sync.RWMutex",
        "The method had a value receiver so every call locked a copy of the mutex and there was no mutual exclusion at all. Use a pointer receiver for structs holding a sync.Mutex.",
    ),
    (
        "go-concurrent-map-write",
        "fatal error: concurrent map writes",
        "Several goroutines wrote results into a plain map. Go maps are not safe for concurrent writes; guard it with a mutex or use sync.Map, or collect over a channel.",
    ),
    (
        "go-nil-map-write",
        "panic: assignment to entry in nil map",
        "We declared `var labels map[string]string` and wrote into it. A nil map can be read but not written; initialise it with make() or a literal first.",
    ),
    (
        "go-panic-in-library",
        "A bad key crashed the whole API",
        "Our storage package called panic() on invalid input. Library code should return an error, not panic; only main (or a Must* helper) decides to crash.",
    ),
    (
        "go-log-fatal-in-library",
        "Tests exited with status 1 and no output",
        "The cache package called log.Fatal when the dial failed, which calls os.Exit inside a library and killed the test binary. Return the error to the caller instead.",
    ),
    (
        "go-exit-skips-defer",
        "Logs were missing after a failed run",
        "os.Exit (and log.Fatal) do not run deferred functions, so logger.Sync() and tx.Rollback() never ran. Put the logic in run() returning an exit code and call os.Exit only in main.",
    ),
    (
        "go-errorf-no-wrap",
        "errors.Is stopped matching ErrNotFound",
        'Someone wrote fmt.Errorf("get user: %v", err). %v flattens the error into a string, so the chain is gone. Use %w to wrap.',
    ),
    (
        "go-error-compare",
        "Not-found handling broke after we wrapped errors",
        "We compared errors with == (err == sql.ErrNoRows) and matched err.Error() strings. Once the repo wrapped the error the comparison failed. Use errors.Is / errors.As.",
    ),
    (
        "go-sql-rows-not-closed",
        "database/sql pool stuck at max open connections",
        "We returned early from the rows.Next loop without rows.Close(), so the connection was never returned. defer rows.Close() right after Query succeeds.",
    ),
    (
        "go-sql-rows-err-unchecked",
        "Export silently truncated",
        "The for rows.Next() loop ended early on a network error, and since we never checked rows.Err() after the loop we reported success with half the rows.",
    ),
    (
        "go-sql-concat",
        "Security review flagged SQL injection in the orders repo",
        "We built the query with fmt.Sprintf / string concatenation of the status value. Use placeholders ($1, ?) and pass the values as args to Query/Exec.",
    ),
    (
        "go-waitgroup-add-in-goroutine",
        "wg.Wait returned before uploads finished",
        "wg.Add(1) was called inside the goroutine, so Wait could run before any Add happened. Call wg.Add before the go statement.",
    ),
    (
        "go-context-cancel-leak",
        "go vet: the cancel function returned by context.WithTimeout should be called",
        "We discarded the cancel func (`ctx, _ := context.WithTimeout(...)`), leaking the timer until it fired. Always defer cancel().",
    ),
    (
        "rust-unwrap",
        "Service crashed on startup with `called Result::unwrap() on an Err value`",
        "A missing config file took production down because load_settings used .unwrap(). In non-test code propagate with ? and add context instead of unwrap/expect.",
    ),
    (
        "rust-panic",
        "thread 'tokio-runtime-worker' panicked at 'not implemented'",
        "An S3 exporter shipped with unimplemented!() in its body and a customer enabled it. Don't leave todo!/unimplemented!/panic! in production paths; return an Err.",
    ),
    (
        "rust-mutex-across-await",
        "Token refresh deadlocked under load",
        "We held a std::sync::Mutex guard across an .await. The task got parked holding the lock and other tasks on the same thread blocked on it. Drop the guard before awaiting or use tokio::sync::Mutex.",
    ),
    (
        "rust-blocking-in-async",
        "Latency spikes on all endpoints",
        "An async fn used std::fs and std::thread::sleep, blocking the tokio worker thread. Use tokio::fs / tokio::time::sleep or spawn_blocking.",
    ),
    (
        "rust-block-on-in-async",
        "panic: Cannot start a runtime from within a runtime",
        "Someone called Handle::current().block_on inside an async function. Never block_on inside async code; just .await it.",
    ),
    (
        "rust-unsafe",
        "Clippy/review: unsafe block without a SAFETY comment",
        "We added unsafe impl Sync and a from_raw_parts cast with no justification; it caused UB under concurrency. Avoid unsafe, or document the invariants with a // SAFETY: comment.",
    ),
    (
        "rust-as-truncation",
        "Frames over 64 KiB were corrupted",
        "`payload.len() as u16` silently truncated the length. `as` casts wrap around; use u16::try_from and handle the error.",
    ),
    (
        "rust-ignored-result",
        "Cleanup errors vanished",
        "We wrote `let _ = fs::remove_dir_all(dir);` and `.ok();` on the DB update, so failures were swallowed. Handle the Result or at least log it.",
    ),
    (
        "rust-process-exit",
        "Destructors didn't run and the buffer wasn't flushed",
        "A library function called std::process::exit on a config error. process::exit skips Drop; return an error and let main decide the exit code.",
    ),
    (
        "rust-sql-format",
        "sqlx query built with format! was injectable",
        "We interpolated user input into SQL via format!(). Use bind parameters ($1/?1) with sqlx::query(...).bind() instead.",
    ),
    (
        "rust-shell-injection",
        "Filenames with ; ran arbitrary commands",
        'Command::new("sh").arg("-c").arg(format!(...)) passed user input through a shell. Call the program directly with .arg() per argument.',
    ),
    (
        "py-modify-while-iterating",
        "Some dead connections survived prune()",
        "We removed items from the list while iterating over it with a for loop, which skips the next element each time (and for dicts raises RuntimeError: dictionary changed size during iteration). Iterate over a copy or build a new list.",
    ),
    (
        "py-urlopen-no-timeout",
        "Cron job hung for 9 hours",
        "urllib.request.urlopen was called without timeout=, so a stalled server blocked the job forever. Always pass a timeout to urlopen.",
    ),
    (
        "py-task-in-transaction",
        "Celery worker raised User.DoesNotExist",
        "No, don't call .delay() inside transaction.atomic(): the worker can pick the task up before the transaction commits and won't see the row. Use transaction.on_commit(lambda: task.delay(...)).",
    ),
    (
        "sql-null-comparison",
        "The UPDATE matched zero rows",
        "`WHERE paid_at = NULL` is never true in SQL, NULL compared with = or != is unknown. Use IS NULL / IS NOT NULL.",
    ),
    (
        "sql-order-by-random",
        "Featured articles query got slow as the table grew",
        "ORDER BY RANDOM() LIMIT 3 sorts the whole table on every request. Use TABLESAMPLE or pick random ids instead.",
    ),
    (
        "sql-vacuum-full",
        "Site was down during the cleanup migration",
        "A migration ran VACUUM FULL on page_views, which takes an ACCESS EXCLUSIVE lock and rewrites the table. Use plain VACUUM or pg_repack.",
    ),
    (
        "sql-reindex-not-concurrently",
        "Writes blocked during the reindex deploy",
        "REINDEX without CONCURRENTLY locks out writes on the table for the whole rebuild. Use REINDEX ... CONCURRENTLY (outside a transaction).",
    ),
    (
        "sql-refresh-matview-blocking",
        "Dashboards timed out every night at 2am",
        "REFRESH MATERIALIZED VIEW without CONCURRENTLY locks the view against reads while it rebuilds. Add a unique index and refresh concurrently.",
    ),
    (
        "sql-float-money",
        "Payout totals off by a cent",
        "The amount column was declared double precision. Floating point can't represent money exactly; use numeric/decimal or integer cents.",
    ),
    (
        "js-target-blank-noopener",
        "Security scan: reverse tabnabbing",
        'Links with target="_blank" without rel="noopener noreferrer" let the opened page access window.opener. Always add rel=noopener.',
    ),
    (
        "node-new-buffer",
        "DeprecationWarning: Buffer() is deprecated due to security and usability issues",
        "Replace new Buffer(...) with Buffer.from() or Buffer.alloc(); the constructor can return uninitialised memory.",
    ),
    (
        "node-createcipher",
        "Why do our encrypted fields all start with the same bytes?",
        "crypto.createCipher derives the key from a password with MD5 and uses no IV, so it's deterministic and deprecated. Use createCipheriv with a random IV and AES-GCM.",
    ),
    (
        "node-cookie-insecure",
        "Pen test: session cookie readable from JavaScript and sent over http",
        "res.cookie for the session id was set without httpOnly, secure and sameSite flags. Set them on every auth cookie.",
    ),
    (
        "go-tls-insecure-skip-verify",
        "gosec G402: TLS InsecureSkipVerify set true",
        "We disabled certificate verification to get past a self-signed cert in staging and it shipped. Load the CA into RootCAs instead of skipping verification.",
    ),
    (
        "go-listen-no-timeouts",
        "Slowloris drained our connections",
        "http.ListenAndServe uses a server with no ReadHeaderTimeout/ReadTimeout. Create an http.Server with timeouts set.",
    ),
    (
        "go-signal-unbuffered",
        "go vet: misuse of unbuffered os.Signal channel as argument to signal.Notify",
        "signal.Notify does not block, so with an unbuffered channel the SIGTERM can be dropped. Make it make(chan os.Signal, 1).",
    ),
    (
        "go-math-rand-secret",
        "Password reset tokens were predictable",
        "We generated them with math/rand, which is not cryptographically secure. Use crypto/rand for tokens, keys and OTPs.",
    ),
    (
        "rust-reqwest-no-timeout",
        "Sync task stuck waiting on a vendor",
        "reqwest::Client::new() / builder without .timeout() has no overall timeout. Set timeout and connect_timeout on the client.",
    ),
    (
        "rust-accept-invalid-certs",
        "TLS verification turned off in the vendor client",
        "danger_accept_invalid_certs(true) was left in from debugging, making MITM trivial. Add the vendor CA as a root certificate instead.",
    ),
    (
        "py-fromkeys-mutable-value",
        "Every team showed every member",
        "dict.fromkeys(teams, []) shares one single list object as the value for all keys, so appending to one appended to all. Use a dict comprehension or defaultdict(list).",
    ),
    (
        "py-list-multiply-aliasing",
        "Setting one cell changed the whole column",
        "[[None] * size] * size creates size references to the same inner list. Build the rows with a list comprehension instead.",
    ),
    (
        "py-default-evaluated-once",
        "All audit entries had the same timestamp",
        "The default `at: datetime = datetime.utcnow()` is evaluated once at import time, not per instance. Use default_factory or a None default.",
    ),
    (
        "py-builtin-hash-persisted",
        "Events went to different partitions after every restart",
        "Python's built-in hash() of strings is randomised per process (PYTHONHASHSEED), so hash(tenant_id) % N isn't stable. Use hashlib or zlib.crc32 for anything persisted or shared.",
    ),
    (
        "py-return-in-finally",
        "Publish failures never reached Sentry",
        "There was a return inside the finally block, which silently swallows any exception raised in the try. Never return/break/continue from finally.",
    ),
    (
        "py-timing-unsafe-compare",
        "Security review on the webhook verifier",
        "Comparing the HMAC signature with != leaks timing information. Use hmac.compare_digest (or secrets.compare_digest) for secrets, tokens and signatures.",
    ),
    (
        "js-sort-without-comparator",
        "p99 latency was reported as 9ms when it was 120ms",
        'Array.prototype.sort() without a comparator sorts numbers as strings ("100" < "9"). Pass (a, b) => a - b.',
    ),
    (
        "js-regex-global-test",
        "Validator alternated between true and false for the same input",
        "The regex had the g flag and we reused it with .test(); lastIndex carries over between calls. Drop the /g flag for test().",
    ),
    (
        "node-prototype-pollution-merge",
        "Pen test got __proto__ into our config",
        'We deep-merged req.body into an object with lodash merge/defaultsDeep, allowing prototype pollution via {"__proto__": ...}. Validate the body and copy only known keys.',
    ),
    (
        "node-trust-proxy-all",
        "Rate limiting was bypassed by spoofing X-Forwarded-For",
        "app.set('trust proxy', true) trusts every hop, so clients could set their own IP. Set it to the number of proxies or their subnet.",
    ),
    (
        "go-time-format-layout",
        "Report filenames were literally 'yyyyMMdd'",
        "Go's time.Format doesn't use yyyy/MM/dd patterns, it uses the reference time 2006-01-02 15:04:05. Use that layout.",
    ),
    (
        "go-http-error-no-return",
        "Handler wrote the error and then the JSON body too",
        "http.Error doesn't stop the handler; we forgot to return after it and got 'superfluous response.WriteHeader call'. Always return right after http.Error.",
    ),
    (
        "java-bigdecimal-equals",
        "Invoice with 0.00 outstanding not marked paid",
        "BigDecimal.equals compares scale too, so 0.00 is not equal to 0. Use compareTo(...) == 0 or signum().",
    ),
    (
        "java-split-regex-metachar",
        "Version parsing returned an empty array",
        'String.split takes a regex, and "." matches every character. Escape it ("\\\\.") or use Pattern.quote.',
    ),
    (
        "php-strpos-truthiness",
        "Admin check failed for paths starting with /admin",
        "strpos returns 0 when the needle is at the start, and 0 is falsy. Compare with !== false or use str_contains/str_starts_with.",
    ),
    (
        "java-swallowed-exception",
        "Events were silently lost",
        'Post-mortem: the catch block around producer.send was empty ("ignore, best effort"), so broker errors disappeared without a trace. Never swallow an exception with an empty catch; at least log it and rethrow or handle it.',
    ),
    (
        "java-catch-generic-exception",
        "A NullPointerException was reported as 'rate lookup failed'",
        "We wrapped the call in catch (Exception ex), which also caught programming bugs and hid them. Catch the specific exceptions the client throws, not Exception or Throwable.",
    ),
    (
        "java-print-stack-trace",
        "Stack traces never showed up in our log aggregator",
        'e.printStackTrace() writes to stderr, bypassing the logger, no MDC, no level. Use log.error("...", e) instead.',
    ),
    (
        "java-sql-concatenation",
        "SQL injection found in the user search endpoint",
        "The DAO concatenated the search term into the SQL string for jdbcTemplate. Use a PreparedStatement with ? placeholders and pass the term as a parameter.",
    ),
    (
        "java-optional-get",
        "java.util.NoSuchElementException: No value present",
        "We called .get() on an Optional from findFirst()/findById without checking. Use orElseThrow with a meaningful exception, or orElse.",
    ),
    (
        "java-string-reference-equality",
        "isAdmin() returned false for admins",
        'The role check used == on Strings, which compares references, not contents. Use "admin".equals(role).',
    ),
    (
        "java-shared-simpledateformat",
        "Garbled dates in reports under load",
        "A static SimpleDateFormat was shared between threads; it isn't thread-safe and produced corrupted output. Use DateTimeFormatter or a ThreadLocal.",
    ),
    (
        "java-resource-not-closed",
        "Connection pool exhausted after a few hours",
        "The Statement/ResultSet and an InputStream were opened without try-with-resources and never closed. Wrap every Closeable in try (...) { }.",
    ),
    (
        "java-thread-sleep-in-test",
        "Flaky OrderServiceTest on CI",
        "The test used Thread.sleep(1500) to wait for the async listener; on the slow CI runner 1.5s wasn't enough. Use Awaitility or a latch instead of sleeping in tests.",
    ),
    (
        "java-jackson-default-typing",
        "Deserialization gadget RCE report against our API",
        "We had enabled Jackson default typing (enableDefaultTyping / @JsonTypeInfo with Id.CLASS), which lets the client choose which class to instantiate. Use Id.NAME with explicit subtypes or a PolymorphicTypeValidator.",
    ),
    (
        "java-object-input-stream",
        "Insecure deserialization finding",
        "No, don't use ObjectInputStream.readObject on bytes that come from outside (cache, socket, cookie); it allows gadget-chain RCE. Use JSON or set an ObjectInputFilter allowlist.",
    ),
    (
        "java-xxe",
        "Security scan: XXE in invoice upload",
        "DocumentBuilderFactory/SAXParserFactory were used with default settings, so external entities and DOCTYPEs were processed and /etc/passwd could be read. Disable DTDs (disallow-doctype-decl) before parsing.",
    ),
    (
        "java-fast-hash-password",
        "Breached password hashes cracked within hours",
        "Passwords were hashed with plain SHA-256/MD5. Fast digests are not password hashes; use BCrypt, Argon2 or PBKDF2 via PasswordEncoder.",
    ),
    (
        "java-insecure-random-token",
        "Invite codes could be predicted",
        "They came from java.util.Random, which is seeded predictably. Use SecureRandom for tokens, codes and keys.",
    ),
    (
        "java-interrupted-exception-swallowed",
        "Executor shutdown hung for 60 seconds",
        "Our worker caught InterruptedException and just carried on without restoring the interrupt flag. Call Thread.currentThread().interrupt() (or rethrow) when you catch it.",
    ),
    (
        "java-bigdecimal-from-double",
        "VAT was 0.19000000000000000222 and rounding came out wrong",
        'new BigDecimal(0.19) takes the exact binary double value. Use new BigDecimal("0.19") or BigDecimal.valueOf.',
    ),
    (
        "java-double-for-money",
        "Order totals were off by a cent",
        "unitPrice and amount were declared as double. Use BigDecimal (or long cents) for money fields.",
    ),
    (
        "java-trust-all-certificates",
        "Pentest: the HTTP client accepts any certificate",
        "We installed a trust-all X509TrustManager with an empty checkServerTrusted (and a hostname verifier returning true). Remove it and load the proper truststore.",
    ),
    (
        "java-command-injection",
        "Command injection via uploaded filename",
        'We called Runtime.exec with a string built from the filename, and ProcessBuilder("sh", "-c", ...). Pass each argument separately and never go through a shell.',
    ),
    (
        "kt-not-null-assertion",
        "KotlinNullPointerException in shipping labels",
        "The code used order.shippingAddress!! and crashed when the address was missing. Avoid !!; use ?., ?: or requireNotNull with a message.",
    ),
    (
        "kt-run-blocking",
        "Controller threads were all blocked",
        "runBlocking inside a request handler / adapter blocks the calling thread (and the main thread on Android). Make the function suspend or launch in a scope.",
    ),
    (
        "kt-global-scope",
        "Emails kept sending after the service shut down",
        "GlobalScope.launch isn't tied to any lifecycle, so the coroutines leak and aren't cancelled. Use an injected CoroutineScope or viewModelScope.",
    ),
    (
        "kt-swallowed-cancellation",
        "Leaving the screen didn't cancel the request",
        "catch (t: Throwable) / runCatching in a suspend function also catches CancellationException, so the coroutine kept running. Rethrow CancellationException.",
    ),
    (
        "kt-shared-preferences-secret",
        "Tokens readable on rooted devices",
        "We stored access_token and refresh_token in plain SharedPreferences. Use EncryptedSharedPreferences or the Android Keystore for secrets.",
    ),
    (
        "cs-async-void",
        "Process crashed with an unhandled exception from WarmAsync",
        "The method was declared async void, so its exception couldn't be awaited or caught and tore down the process. Only event handlers should be async void; return Task.",
    ),
    (
        "cs-sync-over-async",
        "Thread pool starvation under load",
        "Review found .Result and .GetAwaiter().GetResult() on async calls in controllers. Blocking on async code starves the pool and can deadlock; make the call chain async and await.",
    ),
    (
        "cs-new-httpclient",
        "SocketException: Only one usage of each socket address is normally permitted",
        "We created a new HttpClient per request in a using block, exhausting sockets (TIME_WAIT). Use IHttpClientFactory or a single shared HttpClient.",
    ),
    (
        "cs-dbcontext-lifetime",
        "A second operation was started on this context instance before a previous operation completed",
        "The DbContext was registered as singleton (and newed up in a long-lived cache), so it was shared across requests. DbContext must be scoped; use AddDbContext defaults or a factory.",
    ),
    (
        "cs-sql-interpolation",
        "SQL injection in the lockout endpoint",
        "We passed an interpolated string to ExecuteSqlRawAsync and concatenated the name into a Dapper query. Use ExecuteSqlInterpolated/FromSqlInterpolated or @parameters.",
    ),
    (
        "cs-swallowed-exception",
        "Audit entries silently missing",
        "There was an empty catch { } around the audit write. Don't swallow exceptions; log and rethrow, or handle it explicitly.",
    ),
    (
        "cs-catch-generic-exception",
        "Invoice bugs were hidden as warnings",
        "catch (Exception e) caught everything including NullReferenceException. Catch the specific exception types you can handle.",
    ),
    (
        "cs-datetime-now",
        "Sessions expired an hour early after the DST switch",
        "We used DateTime.Now (local time) for timestamps stored in the DB. Use DateTime.UtcNow or TimeProvider.GetUtcNow().",
    ),
    (
        "dotnet-connection-string-password",
        "Secret scanning alert on appsettings.Production.json",
        "The connection string had Password=... committed in plain text. Use user-secrets, environment variables or Key Vault / managed identity.",
    ),
    (
        "cs-certificate-validation-disabled",
        "Why does the legacy client accept any TLS certificate?",
        "Someone set ServerCertificateCustomValidationCallback to a lambda that always returns true to get around a self-signed cert, and it went to production. Never disable certificate validation; trust the CA or pin the thumbprint.",
    ),
    (
        "cs-binaryformatter",
        "SYSLIB0011: BinaryFormatter serialization is obsolete",
        "We used BinaryFormatter to deep-copy and to read view state; deserializing untrusted data with it is remote code execution. Use System.Text.Json.",
    ),
    (
        "cs-typenamehandling",
        "Security review on the message consumer",
        "Newtonsoft TypeNameHandling.Auto/Objects lets the $type in the payload pick the .NET type, a known deserialization RCE. Keep TypeNameHandling.None or use a SerializationBinder allowlist.",
    ),
    (
        "cs-thread-sleep-in-async",
        "The background worker ignored shutdown and starved threads",
        "Thread.Sleep inside an async method blocks a thread pool thread. Use await Task.Delay(..., ct) instead.",
    ),
    (
        "cs-lock-on-this",
        "Deadlock with a library that locked on our instance",
        "We used lock (this) and lock (typeof(Registry)), which are publicly reachable objects anyone can lock. Lock on a private readonly object.",
    ),
    (
        "cs-xxe",
        "XML import could read local files",
        "XmlDocument with an XmlUrlResolver and DtdProcessing.Parse resolves external entities (XXE). Set DtdProcessing.Prohibit and XmlResolver = null.",
    ),
    (
        "cs-fast-hash-password",
        "Our password table was cracked after the leak",
        "Passwords were stored as SHA512/MD5 hashes. General-purpose hashes are too fast; use PasswordHasher, BCrypt or PBKDF2 with many iterations.",
    ),
    (
        "cs-insecure-random-token",
        "Reset tokens generated with System.Random",
        "new Random() and Random.Shared are not cryptographically secure, so OTPs and reset tokens were guessable. Use RandomNumberGenerator.",
    ),
    (
        "cs-materialize-before-filter",
        "The orders page loaded the entire table into memory",
        "We called .ToList() before .Where(), so EF Core pulled every row and filtered client-side. Keep the query IQueryable until after filtering.",
    ),
    (
        "cs-throw-ex-resets-stack",
        "Stack trace pointed at the catch block, not the real failure",
        "`throw pex;` resets the stack trace. Use plain `throw;` to rethrow, or wrap it as an inner exception.",
    ),
    (
        "dotnet-developer-exception-page",
        "Production error pages showed stack traces and connection strings",
        "app.UseDeveloperExceptionPage() was called unconditionally (and customErrors was Off in web.config). Only enable it when IsDevelopment().",
    ),
    (
        "dotnet-cors-any-origin",
        "CORS policy allowed any website to call our API with cookies",
        "We had AllowAnyOrigin / SetIsOriginAllowed(_ => true) with AllowCredentials. List the allowed origins explicitly.",
    ),
    (
        "cs-double-for-money",
        "Invoice subtotal came out as 99.99000000001",
        "Subtotal and TaxAmount were double properties. Use decimal for currency in C#.",
    ),
    (
        "spring-transactional-private",
        "Transfers weren't rolled back on failure",
        "The @Transactional annotation was on a private method called from the same class. Spring's proxy never sees private or self-invoked methods, so there was no transaction at all. Put it on a public method of the bean.",
    ),
    (
        "spring-ddl-auto-update",
        "Hibernate altered a production table on startup",
        "Don't leave spring.jpa.hibernate.ddl-auto=update (or create/create-drop) in prod config; schema changes must go through Flyway/Liquibase migrations. Use validate or none.",
    ),
    (
        "spring-show-sql",
        "Logs filled with SQL and bound parameters, including emails",
        "spring.jpa.show-sql=true and Hibernate SQL/bind logging at DEBUG/TRACE leaked PII into the logs and slowed things down. Turn them off outside local dev.",
    ),
    (
        "spring-field-injection",
        "Reviewer asked to stop using @Autowired on fields",
        "Field injection hides dependencies and makes the class hard to test without Spring. Use constructor injection with final fields.",
    ),
    (
        "spring-datasource-password",
        "The database password was committed in application-prod.properties",
        "spring.datasource.password must come from the environment or a secret store (${DB_PASSWORD}), never a literal in the repo.",
    ),
    (
        "spring-actuator-exposed",
        "heapdump and env endpoints were reachable from the internet",
        "management.endpoints.web.exposure.include=* exposed every actuator endpoint, including /actuator/env and /actuator/heapdump. Expose only health and info.",
    ),
    (
        "spring-csrf-disabled",
        "CSRF protection turned off on a form-login app",
        "http.csrf().disable() was copied from a REST tutorial into a session-based app. Only disable CSRF for stateless token APIs.",
    ),
    (
        "spring-permit-all",
        "All endpoints were accessible without login",
        "The security config had anyRequest().permitAll() (and /** permitAll). Default to authenticated() and permit only the public paths.",
    ),
    (
        "spring-cors-wildcard",
        "Any origin could make credentialed requests",
        'We allowed origin "*" (allowedOriginPatterns *, @CrossOrigin with no origins) together with credentials. Restrict allowed origins to our frontends.',
    ),
    (
        "rails-sql-interpolation",
        "Brakeman: Possible SQL injection in ProductsController#search",
        'We interpolated params[:q] into a where string with #{}. Use placeholders (where("name ILIKE ?", ...)) or hash conditions.',
    ),
    (
        "rails-permit-all",
        "A user promoted themselves to admin",
        "The profile update used params[:profile].permit!, which allows every attribute including role. Whitelist the fields with permit(:a, :b).",
    ),
    (
        "rb-rescue-exception",
        "The job couldn't be stopped with Ctrl-C / SIGTERM",
        "rescue Exception also catches Interrupt, SignalException and NoMemoryError. Rescue StandardError (or a specific class) instead.",
    ),
    (
        "rb-rescue-swallow",
        "Bad input silently became 0 in the report",
        "Inline `rescue 0` / a bare rescue returning nil hid every error. Rescue only the specific exception and log or re-raise.",
    ),
    (
        "rails-skip-callbacks",
        "Trial expiry didn't send emails or bump updated_at",
        "update_all and update_columns skip validations and callbacks, so the after_update hooks never ran. Use update!/save when callbacks matter.",
    ),
    (
        "rails-default-scope",
        "Admins couldn't find archived products",
        "A default_scope on the model applied where(archived: false) to every query, including associations and create. Use named scopes instead of default_scope.",
    ),
    (
        "rb-dynamic-dispatch-input",
        "Brakeman flagged dangerous send / constantize",
        "We passed params[:field] to public_send and constantized params[:format], letting users call arbitrary methods and classes. Map the input through an allowlist.",
    ),
    (
        "rb-unsafe-yaml-load",
        "RCE through the rules import endpoint",
        "YAML.load on request data (and Marshal.load of the session blob) can instantiate arbitrary Ruby objects. Use YAML.safe_load / JSON.",
    ),
    (
        "rails-html-safe",
        "Stored XSS via post summaries",
        "The helper built HTML with string interpolation and called .html_safe on it (and raw(user.bio)). Use tag helpers or sanitize instead.",
    ),
    (
        "rails-csrf-skipped",
        "CSRF check disabled for the admin controller",
        "No, don't skip verify_authenticity_token (or protect_from_forgery except:) on browser-facing controllers just to make a JSON request work; send the token instead.",
    ),
    (
        "rails-remove-column",
        "500s right after deploying the migration",
        "remove_column ran while the old app servers still had the column cached in their schema, so inserts failed. Add it to ignored_columns first, deploy, then drop.",
    ),
    (
        "rails-rename-column",
        "Errors during the rolling deploy: column amount does not exist",
        "rename_column breaks the running old code. Add the new column, backfill, switch the code, then drop the old one.",
    ),
    (
        "rails-add-index-not-concurrently",
        "Writes to events blocked for minutes during deploy",
        "add_index in a normal migration locks the table on Postgres. Use algorithm: :concurrently with disable_ddl_transaction!.",
    ),
    (
        "rails-change-column",
        "Deploy stuck on an ACCESS EXCLUSIVE lock",
        "change_column on a big table rewrites it under a lock. Add a new column and backfill instead of changing the type in place.",
    ),
    (
        "rb-command-injection",
        "Filenames with backticks executed commands",
        "The thumbnailer built a shell command with #{path} in %x() / Open3 with a single string. Pass arguments as separate parameters so no shell is involved.",
    ),
    (
        "php-sql-injection",
        "sqlmap dumped our products table",
        "The category id from $_GET was interpolated straight into the SQL string and whereRaw concatenated the email. Use prepared statements with bound parameters.",
    ),
    (
        "php-echo-unescaped",
        "Reflected XSS on the welcome page",
        "We echoed $_GET['name'] without escaping. Wrap output in htmlspecialchars (or use Blade {{ }}).",
    ),
    (
        "php-extract-input",
        "Anyone could set $isAdmin via the query string",
        "extract($_GET) creates variables from request input and can overwrite existing ones. Read the specific keys you need instead.",
    ),
    (
        "php-fast-hash-password",
        "Password hashes from our DB were cracked",
        "The signup stored sha1($_POST['password']). Use password_hash() and password_verify().",
    ),
    (
        "php-loose-compare-secret",
        "Webhook signature check could be bypassed",
        'We compared the signature with ==, which is both type-juggling and timing-unsafe ("0e..." magic hashes). Use hash_equals().',
    ),
    (
        "php-unserialize",
        "PHP object injection via the filters parameter",
        "unserialize() on user-supplied data can trigger magic methods (POP chains). Use json_decode, or allowed_classes => false.",
    ),
    (
        "php-file-inclusion",
        "LFI: ?module=../../../../etc/passwd%00",
        "The require path was built from request input. Map allowed pages to fixed file paths.",
    ),
    (
        "php-display-errors",
        "Production pages showed full PHP errors with paths",
        "display_errors was on in php.ini / set with ini_set. Turn display_errors off in production and log errors instead.",
    ),
    (
        "php-mass-assignment",
        "Users could change their own role via the profile form",
        "We passed $request->input() / all() straight into update()/fill(). Use validated() or only([...]) and define $fillable.",
    ),
    (
        "php-command-injection",
        "Remote command execution through the DNS lookup tool",
        "The domain from the request was interpolated into exec(). Use escapeshellarg or Symfony Process with an argument array.",
    ),
    (
        "swift-force-unwrap",
        "Crash: Unexpectedly found nil while unwrapping an Optional value",
        "The profile screen force-unwrapped the avatar URL and image data with !. Use guard let / if let or ?? instead of force unwrapping (and as? instead of as!).",
    ),
    (
        "swift-force-try",
        "App crashed when the database file was locked",
        "We used try! to open the SQLite connection and encode the order. try! crashes on any thrown error; use do/catch or try?.",
    ),
    (
        "swift-main-sync-deadlock",
        "App froze when SessionStore was called from the main thread",
        "DispatchQueue.main.sync called from the main queue deadlocks. Use main.async or @MainActor.",
    ),
    (
        "swift-ats-arbitrary-loads",
        "App Store review asked us to justify NSAllowsArbitraryLoads",
        "Info.plist disabled App Transport Security globally with NSAllowsArbitraryLoads = true. Use per-domain exceptions (NSExceptionDomains) for the few hosts that need it.",
    ),
    (
        "swift-userdefaults-secret",
        "Access token found in the app's plist backup",
        "We saved tokens and the PIN in UserDefaults, which is an unencrypted plist. Store secrets in the Keychain.",
    ),
    (
        "c-unbounded-string-copy",
        "Stack smashing detected in set_hostname",
        "strcpy/strcat/sprintf into a fixed 64-byte buffer overflowed with a long hostname. Use snprintf / strlcpy with the buffer size.",
    ),
    (
        "c-format-string",
        "Crash when a URL path contained %n",
        'We passed the user-controlled string as the format argument to fprintf/printf. Always use a literal format: printf("%s", s).',
    ),
    (
        "c-system-injection",
        "Backup directory name with ; ran rm -rf",
        "The code built a command string with snprintf and passed it to system()/popen. Use execv/posix_spawn with an argv array instead of the shell.",
    ),
    (
        "cpp-using-namespace-in-header",
        "Name clashes after including order_repository.h",
        "The header had `using namespace std;` at file scope, which leaks into every translation unit that includes it. Never put using namespace in a header.",
    ),
    (
        "cpp-catch-by-value",
        "Derived exception details were lost (slicing)",
        "We caught std::exception by value, which slices the derived object and copies it. Catch by const reference: catch (const std::exception& e).",
    ),
    (
        "elixir-string-to-atom",
        "BEAM node crashed: atom table full",
        "String.to_atom on user-supplied params creates atoms that are never garbage collected. Use String.to_existing_atom or an explicit map.",
    ),
    (
        "elixir-sql-interpolation",
        "Sobelow: SQL injection in Catalog.search",
        "We interpolated the term into the SQL string passed to Repo.query. Use $1 parameters or Ecto queries with ^pinned values.",
    ),
    (
        "dart-null-assertion",
        "Null check operator used on a null value",
        "The profile screen used ! on a value that's null while loading. Handle null with ?. and ?? or a null check.",
    ),
    (
        "dart-context-across-async-gap",
        "Lint: Don't use 'BuildContext's across async gaps",
        "After the await the widget might be unmounted and Navigator.of(context) throws. Check `if (!context.mounted) return;` after awaiting before using context.",
    ),
    (
        "dart-shared-preferences-secret",
        "Tokens stored in plain text on the device",
        "SharedPreferences is not encrypted, so storing accessToken/refreshToken there is unsafe. Use flutter_secure_storage.",
    ),
    (
        "java-equals-without-hashcode",
        "Duplicate keys showed up in our HashMap",
        "OrderKey overrode equals but not hashCode, so equal keys landed in different buckets. Always override hashCode together with equals (or use a record/data class).",
    ),
    (
        "java-jwt-not-verified",
        "Anyone could forge a token with role=admin",
        "We decoded the JWT payload (JWT.decode / base64 of the middle part, parseClaimsJwt) without verifying the signature. Always verify with the key before trusting claims.",
    ),
    (
        "java-weak-cipher-ecb",
        "Identical records produced identical ciphertext",
        'Cipher.getInstance("AES") defaults to ECB mode, which leaks patterns; DES/3DES are broken too. Use AES/GCM/NoPadding with a random IV.',
    ),
    (
        "java-modify-list-in-foreach",
        "java.util.ConcurrentModificationException in SessionReaper",
        "We called list.remove() inside a for-each over the same list. Use removeIf or an explicit Iterator with it.remove().",
    ),
    (
        "java-http-client-no-timeout",
        "All request threads stuck on a slow partner API",
        "new RestTemplate() / OkHttpClient() / HttpClient.newHttpClient() with defaults has no read timeout. Configure connect and read timeouts on every HTTP client.",
    ),
    (
        "cs-disposable-not-disposed",
        "Connection pool timeout: max pool size was reached",
        "We created NpgsqlConnection/Command and a StreamWriter without using/await using, so they were never disposed. Wrap every IDisposable in using.",
    ),
    (
        "cs-process-shell-injection",
        "Command injection in the video converter",
        'Process.Start("cmd.exe", "/c ffmpeg -i " + input ...) ran user input through the shell. Call the executable directly and use ArgumentList.',
    ),
    (
        "android-cleartext-traffic",
        "Play Console warning: app allows cleartext HTTP",
        'android:usesCleartextTraffic="true" / base-config cleartextTrafficPermitted="true" allowed plain http everywhere. Only allow it for the local dev host in network_security_config.',
    ),
    (
        "android-debuggable",
        "Release APK was debuggable",
        "The release build type had isDebuggable = true (and android:debuggable in the manifest). Never ship a debuggable release build.",
    ),
    (
        "rails-open-redirect",
        "Phishing links redirected through our login page",
        "redirect_to params[:redirect_uri] sends users to any host. Use url_from or check the host against an allowlist.",
    ),
    (
        "rails-send-file-user-path",
        "Path traversal let users download config/database.yml",
        "send_file with a path built from params[:filename] allowed ../. Look the record up and use its stored path, or File.basename.",
    ),
    (
        "php-curl-ssl-verify-off",
        "TLS verification disabled in the partner API client",
        "CURLOPT_SSL_VERIFYPEER false / Guzzle 'verify' => false makes MITM trivial. Keep verification on and point CAINFO at the right bundle.",
    ),
    (
        "php-weak-random-token",
        "API tokens could be brute-forced",
        "Tokens were built from mt_rand()/microtime()/uniqid, which are predictable. Use random_bytes or random_int.",
    ),
    (
        "php-ssrf-user-url",
        "SSRF: feed import fetched http://169.254.169.254/",
        "We passed a user-supplied URL straight to simplexml_load_file/Guzzle. Validate the host against an allowlist and block internal addresses.",
    ),
    (
        "c-realloc-same-pointer",
        "Memory leak when realloc failed",
        "`v->data = realloc(v->data, ...)` overwrites the only pointer with NULL on failure and leaks the block. Assign to a temporary first and check it.",
    ),
    (
        "c-strncpy-unterminated",
        "printf ran past the end of label",
        "strncpy with the full buffer size doesn't NUL-terminate when the source is that long. Use size-1 and terminate, or snprintf/strlcpy.",
    ),
    (
        "scala-await-inf",
        "Shutdown hung forever",
        "Await.result with Duration.Inf blocks indefinitely if the future never completes. Always pass a finite timeout, or compose futures instead of awaiting.",
    ),
    (
        "scala-option-get",
        "java.util.NoSuchElementException: None.get",
        "We called .get on an Option from a Map lookup. Use getOrElse, fold, or pattern matching.",
    ),
]
