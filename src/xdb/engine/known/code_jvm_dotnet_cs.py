"""Known mistakes in C# and .NET code and configuration (appsettings.json, web.config):
async misuse (``async void``, sync over async), ``HttpClient`` and ``DbContext``
lifetimes, SQL built by interpolation, swallowed and over-broad exceptions,
``DateTime.Now`` and passwords in connection strings, as the Roslyn analysers
(CA/VSTHRD/xUnit rules), SonarC# and the ASP.NET Core and EF Core docs warn about them.
Security and the rest: ``code_jvm_dotnet_cs_sec``."""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

_EMPTY_BLOCK = r"\{\s*(?:(?://[^\n]*+|/\*[\s\S]*?\*/)\s*)*\}"
# An interpolated string's opening ($"...", $@"...", @$"...").
_INTERPOLATED = r'(?:\$@?|@\$)"'

PATTERNS: list[Pattern] = [
    pattern(
        "cs-async-void",
        "async void | async void method | async void lambda | parallel foreach async"
        " | foreach async lambda | return task instead void",
        "csharp",
        r"\basync\s+void\s+\w+\s*\((?![^)]*\b(?:\w*EventArgs|sender)\b)"
        r"|(?:\.ForEach|\bParallel\.For(?:Each)?)\s*\([^;]*?\basync\b"
        r"|\bAction(?:<[^>\n]*>)?\s+\w+\s*=\s*async\b",
        "",
        hits=(
            "public async void SaveAsync(Order order)\n{\nawait _db.SaveChangesAsync();\n}",
            "private async void Refresh() {",
            "users.ForEach(async u => await _mailer.SendAsync(u));",
            "Parallel.ForEach(files, async file =>\n{\nawait UploadAsync(file);\n});",
        ),
        safe=(
            "public async Task SaveAsync(Order order)\n{\nawait _db.SaveChangesAsync();\n}",
            "private async void OnSaveClicked(object sender, RoutedEventArgs e)\n{",
            "await Parallel.ForEachAsync(files, ct, async (file, token) => await"
            " UploadAsync(file, token));",
            "foreach (var u in users) await _mailer.SendAsync(u);",
        ),
    ),
    pattern(
        "cs-sync-over-async",
        "sync over async | blocking on async | task.result deadlock | getawaiter getresult"
        " | .Result deadlock | .Wait() deadlock | blocked on task result | await instead result"
        " | thread pool starvation | deadlock .result",
        "csharp",
        r"\b\w+Async\s*\((?:[^()]|\([^()]*\))*\)\s*\.(?:Result\b|Wait\s*\("
        r"|GetAwaiter\s*\(\s*\)\s*\.GetResult\s*\()"
        r"|\.GetAwaiter\s*\(\s*\)\s*\.GetResult\s*\(\s*\)|\bTask\.WaitAll\s*\("
        r"|\bTask\.\w+\s*\((?:[^()]|\([^()]*\))*\)\s*\.(?:Result\b|Wait\s*\()"
        r"|\b\w*[tT]ask\s*\.(?:Result\b|Wait\s*\(\s*\))",
        r"\bawait\s+Task\.WhenAll\b",
        hits=(
            "var user = _client.GetUserAsync(id).Result;",
            "_cache.RefreshAsync().Wait();",
            "var token = GetTokenAsync().GetAwaiter().GetResult();",
            "var body = readTask.Result;",
            "Task.Delay(500).Wait();",
        ),
        safe=(
            "var user = await _client.GetUserAsync(id);",
            "await Task.WhenAll(userTask, ordersTask);\nvar user = userTask.Result;",
            "var result = validator.Validate(model);\nif (!result.IsValid) return"
            " BadRequest(result.Errors);",
            "await _semaphore.WaitAsync(ct);",
        ),
    ),
    pattern(
        "cs-new-httpclient",
        "new httpclient | httpclient per request | socket exhaustion | httpclientfactory"
        " instead | use ihttpclientfactory | httpclient disposed using | reuse httpclient",
        "csharp",
        r"^(?![^\n]*\bstatic\b)[^\n]*\bnew\s+(?:System\.Net\.Http\.)?HttpClient\s*[({]"
        r"|^(?![^\n]*\bstatic\b)[^\n]*\bHttpClient\s+\w+\s*=\s*new\s*\(",
        r"\bIHttpClientFactory\b|\bAddHttpClient\b",
        hits=(
            "using (var client = new HttpClient())\n{\nvar json = await"
            " client.GetStringAsync(url);\n}",
            "using var http = new HttpClient();",
            "var client = new HttpClient { BaseAddress = new Uri(baseUrl) };",
            "HttpClient client = new();",
        ),
        safe=(
            "private static readonly HttpClient Http = new HttpClient();",
            'var client = _httpClientFactory.CreateClient("github");',
            "services.AddHttpClient<GitHubClient>(c => c.BaseAddress = new Uri(url));",
            "public GitHubClient(HttpClient http) => _http = http;",
        ),
    ),
    pattern(
        "cs-dbcontext-lifetime",
        "dbcontext singleton | dbcontext shared threads | dbcontext not thread safe"
        " | shared dbcontext | static dbcontext | dbcontext concurrently | captive dependency"
        " | dbcontext scoped",
        "csharp",
        r"\bAddSingleton\s*<\s*(?:\w+\s*,\s*)?\w*(?:DbContext|Context)\s*>"
        r"|\bAddDbContext\s*<[^>]+>\s*\([^;]*?ServiceLifetime\.Singleton"
        r"|\bstatic\s+(?:readonly\s+)?\w*DbContext\s+\w+"
        # (a field that news up its own context: it lives as long as the object holding it)
        r"|^(?:private|protected|public|internal)\s+(?:readonly\s+)?\w*DbContext\s+\w+\s*=\s*new\b",
        "",
        hits=(
            "services.AddSingleton<AppDbContext>();",
            "builder.Services.AddDbContext<ShopContext>(o => o.UseNpgsql(cs),"
            " ServiceLifetime.Singleton);",
            "private static readonly CatalogDbContext Db = new CatalogDbContext();",
            "services.AddSingleton<IShopContext, ShopContext>();",
        ),
        safe=(
            "services.AddDbContext<AppDbContext>(o => o.UseSqlServer(cs));",
            "services.AddScoped<IOrderRepository, OrderRepository>();",
            "services.AddSingleton<IHttpContextAccessor, HttpContextAccessor>();",
            "services.AddDbContextFactory<AppDbContext>(o => o.UseNpgsql(cs));",
        ),
    ),
    pattern(
        "cs-sql-interpolation",
        "sql injection | fromsqlraw interpolation | executesqlraw interpolated | sql string"
        " interpolation | interpolated sql | use fromsqlinterpolated | sqlparameter instead"
        " | parameterized query"
        " | sqlcommand concatenated | sqlcommand injection | dapper parameters | use "
        "sqlparameter | sql concatenation",
        "csharp",
        r"\b(?:FromSqlRaw|ExecuteSqlRaw(?:Async)?|SqlQueryRaw)\s*(?:<[^>]*>)?\s*\(\s*"
        r"(?:" + _INTERPOLATED + r'|@?"[^"\n]*"\s*\+|string\.Format\s*\()'
        r"|\bnew\s+(?:Sql|Npgsql|MySql|Sqlite|OleDb|Odbc|Oracle)Command\s*\(\s*(?:"
        + _INTERPOLATED
        + r'|@?"[^"\n]*"\s*\+)'
        r"|\.CommandText\s*=\s*(?:" + _INTERPOLATED + r'|@?"[^"\n]*"\s*\+)'
        r"|\.(?:Query|QueryAsync|QueryFirst\w*|QuerySingle\w*|Execute|ExecuteAsync"
        r"|ExecuteScalar\w*|QueryMultiple\w*)\s*(?:<[^>]*>)?\s*\(\s*"
        + _INTERPOLATED
        + r'[^"\n]*\b(?i:select|insert|update|delete|where)\b[^"\n]*\{(?!\{)'
        r"|(?<!Interpolated\()(?<!InterpolatedAsync\()(?<!FromSql\()(?<!ExecuteSql\()(?<!ExecuteSqlAsync\()(?<!>\()"
        r"(?<!SqlQuery\()" + _INTERPOLATED + r'[^"\n]*\b(?:SELECT\b[^"\n]*\bFROM|INSERT\s+INTO'
        r'|UPDATE\s+\w+\s+SET|DELETE\s+FROM|WHERE)\b[^"\n]*\{(?!\{)'
        r'|@?"[^"\n]*\b(?i:where|and|or|set)\s+[\w.\[\]]+\s*(?i:=|<>|!=|<=?|>=?|i?like|in\s*\()'
        r"\s*'?%?\s*\"\s*\+\s*[\w(]",
        "",
        hits=(
            "var users = _db.Users.FromSqlRaw($\"SELECT * FROM Users WHERE Email = '{email}'\")"
            ".ToList();",
            'await _db.Database.ExecuteSqlRawAsync($"DELETE FROM Carts WHERE UserId = {userId}");',
            'using var cmd = new SqlCommand("SELECT * FROM Orders WHERE Id = " + id, conn);',
            'cmd.CommandText = $@"UPDATE Accounts SET Balance = {balance} WHERE Id = {id}";',
            'var rows = await conn.QueryAsync<Order>($"SELECT * FROM Orders WHERE Region ='
            " '{region}'\");",
            "var sql = $\"SELECT Id FROM Products WHERE Name LIKE '%{term}%'\";",
        ),
        safe=(
            'var users = _db.Users.FromSqlInterpolated($"SELECT * FROM Users WHERE Email ='
            ' {email}").ToList();',
            'var users = _db.Users.FromSqlRaw("SELECT * FROM Users WHERE Email = {0}", email);',
            'using var cmd = new SqlCommand("SELECT * FROM Orders WHERE Id = @id", conn);\n'
            'cmd.Parameters.AddWithValue("@id", id);',
            'var rows = await conn.QueryAsync<Order>("SELECT * FROM Orders WHERE Region ='
            ' @Region", new { Region = region });',
            '_logger.LogInformation($"Loaded {count} users where needed");',
            'var n = _db.Database.SqlQuery<int>($"SELECT COUNT(*) AS Value FROM Orders WHERE'
            ' UserId = {userId}");',
        ),
    ),
    pattern(
        "cs-swallowed-exception",
        "swallowed exception | swallow exceptions | empty catch block | exception silently"
        " ignored | catch block empty | exceptions silently swallowed | ignored exception",
        "csharp",
        r"\bcatch\s*(?:\((?!\s*(?:System\.)?(?:OperationCanceled|TaskCanceled)Exception\b)"
        r"[^)]*\))?\s*(?:when\s*\((?:[^()]|\([^()]*\))*\)\s*)?"
        + _EMPTY_BLOCK
        + r"|\bcatch\s*(?:\(\s*(?:System\.)?Exception(?:\s+\w+)?\s*\))?\s*\{\s*"
        r"(?://[^\n]*+\s*)*return(?:\s+(?:null|false|default|-1))?\s*;\s*\}",
        "",
        hits=(
            "try\n{\nawait _bus.PublishAsync(evt);\n}\ncatch (Exception)\n{\n}",
            "catch { /* ignore */ }",
            "catch (IOException ex)\n{\n// best effort\n}",
            "catch (Exception ex)\n{\nreturn null;\n}",
        ),
        safe=(
            'catch (Exception ex)\n{\n_logger.LogError(ex, "publish failed");\nthrow;\n}',
            "catch (OperationCanceledException)\n{\n}",
            "catch (FormatException)\n{\nreturn Result.Invalid(input);\n}",
        ),
    ),
    pattern(
        "cs-catch-generic-exception",
        "catch generic exception | catching exception broadly | broad exception catch | catch"
        " specific exception | overly broad catch | catch all exceptions"
        " | catching system.exception | catch exception types | exception filters",
        "csharp",
        r"\bcatch\s*\(\s*(?:System\.)?Exception\b(?:\s+\w+)?\s*\)(?!\s*when\b)|\bcatch\s*\{",
        "",
        hits=(
            'catch (Exception ex)\n{\n_logger.LogError(ex, "import failed");\n}',
            "catch (System.Exception)\n{\nreturn StatusCode(500);\n}",
            "catch\n{\nreturn false;\n}",
        ),
        safe=(
            "catch (HttpRequestException ex) when (ex.StatusCode == HttpStatusCode.NotFound)",
            "catch (DbUpdateConcurrencyException)\n{\nreturn Conflict();\n}",
            "catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)",
        ),
    ),
    pattern(
        "cs-datetime-now",
        "datetime.now | datetime now utc | local time stored | utcnow instead | datetime"
        " utcnow | timezone offset stored | stored local time"
        " | daylight saving utc",
        "csharp",
        r"\bDateTime\.(?:Now|Today)\b",
        "",
        hits=(
            "order.CreatedAt = DateTime.Now;",
            "var expires = DateTime.Now.AddMinutes(30);",
            "if (token.ExpiresAt < DateTime.Today) return Unauthorized();",
        ),
        safe=(
            "order.CreatedAt = DateTime.UtcNow;",
            "var now = _timeProvider.GetUtcNow();",
            "var stamp = DateTimeOffset.UtcNow;",
        ),
    ),
    pattern(
        "dotnet-connection-string-password",
        "connection string password | password in appsettings | appsettings secrets"
        " | hardcoded connection string | dotnet user-secrets | plaintext password"
        " connection string | secrets in appsettings.json",
        "json xml csharp",
        r"(?i)\b(?:server|data\s+source|host|datasource)\s*=[^\"'\n]{0,200}?\b(?:password|pwd)"
        r"\s*=\s*(?![\s;\"']|\$\{|\{|%|<|\*\*\*)[^;\"'\n]+",
        "",
        hits=(
            '"DefaultConnection": "Server=db;Database=Shop;User Id=sa;Password=P@ssw0rd!;"',
            '"Orders": "Host=pg.internal;Port=5432;Database=orders;Username=app;Pwd=hunter2"',
            '<add name="Main" connectionString="Data Source=sql01;Initial Catalog=Crm;User ID='
            'crm;Password=Winter2024" />',
        ),
        safe=(
            '"DefaultConnection": "Server=db;Database=Shop;Integrated Security=true;"',
            '"Orders": "Host=pg.internal;Database=orders;Username=app;Password=${DB_PASSWORD}"',
            'var cs = builder.Configuration.GetConnectionString("Orders");',
        ),
    ),
]
