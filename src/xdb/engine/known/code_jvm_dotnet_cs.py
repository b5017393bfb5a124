"""Known mistakes in C# and .NET code and configuration (appsettings.json, web.config):
what the Roslyn analysers (CA/VSTHRD/xUnit rules), SonarC#, Security Code Scan and the
ASP.NET Core and EF Core docs warn about, and what agents writing .NET services are known
to get wrong."""

from __future__ import annotations

from xdb.engine.known.model import Pattern, near, pattern

_EMPTY_BLOCK = r"\{\s*(?:(?://[^\n]*|/\*[\s\S]*?\*/)\s*)*\}"
# An interpolated string's opening ($"...", $@"...", @$"...").
_INTERPOLATED = r'(?:\$@?|@\$)"'
_FAST_HASH = (
    r"(?:\b(?:MD5|SHA1|SHA256|SHA384|SHA512)\.(?:Create|HashData)\s*\("
    r"|\bnew\s+(?:MD5|SHA1|SHA256|SHA384|SHA512)(?:CryptoServiceProvider|Managed|Cng)\s*\("
    r'|\bHashAlgorithm\.Create\(\s*"(?:MD5|SHA1|SHA256|SHA512)")'
)
_WEAK_RANDOM = (
    r"(?:\bnew\s+(?:System\.)?Random\s*\(|\bRandom\.Shared\b|\bnew\s+Random\b"
    r"|\b_?(?:random|rand|rnd|rng)\.Next\w*\s*\()"
)
_SECRET_WORD = (
    r"(?i:token|secret|password|passwd|otp\b|otp_?code|nonce|salt\b|session|api_?key"
    r"|reset_?code|verification|invite_?code|coupon|voucher|csrf|two_?factor|mfa_?code|2fa)"
)

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
        " | .Result deadlock | .Wait() deadlock | blocked on task | await instead result"
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
        r"|\bstatic\s+(?:readonly\s+)?\w*DbContext\s+\w+",
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
        r"|(?<!Interpolated\()(?<!FromSql\()(?<!ExecuteSql\()(?<!ExecuteSqlAsync\()(?<!>\()"
        r"(?<!SqlQuery\()" + _INTERPOLATED + r'[^"\n]*\b(?:SELECT\b[^"\n]*\bFROM|INSERT\s+INTO'
        r'|UPDATE\s+\w+\s+SET|DELETE\s+FROM|WHERE)\b[^"\n]*\{(?!\{)'
        r'|@?"[^"\n]*\b(?i:where|and|or|set)\s+[\w.\[\]]+\s*(?i:=|<>|!=|<=?|>=?|like|in\s*\()'
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
        r"(?://[^\n]*\s*)*return(?:\s+(?:null|false|default|-1))?\s*;\s*\}",
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
    pattern(
        "cs-certificate-validation-disabled",
        "certificate validation disabled | servercertificatecustomvalidationcallback"
        " | accept any certificate | dangerousacceptanyservercertificatevalidator"
        " | ssl validation disabled | trust all certificates | certificate errors ignored",
        "csharp",
        r"\b(?:ServerCertificateCustomValidationCallback|ServerCertificateValidationCallback"
        r"|RemoteCertificateValidationCallback|RemoteCertificateValidationCallback)\s*\+?="
        r"\s*(?:\([^)]*\)\s*=>\s*true\b|\w+\s*=>\s*true\b|delegate\s*(?:\([^)]*\))?\s*\{\s*"
        r"return\s+true)|\bDangerousAcceptAnyServerCertificateValidator\b",
        "",
        hits=(
            "handler.ServerCertificateCustomValidationCallback = (msg, cert, chain, errors) =>"
            " true;",
            "var handler = new HttpClientHandler { ServerCertificateCustomValidationCallback ="
            " HttpClientHandler.DangerousAcceptAnyServerCertificateValidator };",
            "ServicePointManager.ServerCertificateValidationCallback += delegate { return true; };",
        ),
        safe=(
            "handler.ServerCertificateCustomValidationCallback = (msg, cert, chain, errors) =>"
            " errors == SslPolicyErrors.None || cert?.Thumbprint == PinnedThumbprint;",
            "handler.ClientCertificates.Add(clientCert);",
            "var handler = new HttpClientHandler();",
        ),
    ),
    pattern(
        "cs-binaryformatter",
        "binaryformatter | binary formatter deserialization | soapformatter"
        " | netdatacontractserializer | insecure deserialization dotnet",
        "csharp",
        r"\b(?:BinaryFormatter|SoapFormatter|NetDataContractSerializer|LosFormatter"
        r"|ObjectStateFormatter)\b",
        "",
        hits=(
            "var formatter = new BinaryFormatter();\nvar cart = (Cart)formatter"
            ".Deserialize(stream);",
            "IFormatter f = new SoapFormatter();",
            "var s = new NetDataContractSerializer();",
        ),
        safe=(
            "var cart = JsonSerializer.Deserialize<Cart>(json);",
            "var cart = MessagePackSerializer.Deserialize<Cart>(bytes);",
            "var s = new DataContractSerializer(typeof(Cart));",
        ),
    ),
    pattern(
        "cs-typenamehandling",
        "typenamehandling | type name handling | json.net type handling | newtonsoft"
        " typenamehandling | serializationbinder known types",
        "csharp",
        r"\bTypeNameHandling\.(?:All|Auto|Objects|Arrays)\b",
        r"\bSerializationBinder\s*=|\bISerializationBinder\b",
        hits=(
            "var settings = new JsonSerializerSettings { TypeNameHandling ="
            " TypeNameHandling.All };",
            "TypeNameHandling = TypeNameHandling.Auto,",
            "options.SerializerSettings.TypeNameHandling = TypeNameHandling.Objects;",
        ),
        safe=(
            "var settings = new JsonSerializerSettings { TypeNameHandling ="
            " TypeNameHandling.None };",
            "TypeNameHandling = TypeNameHandling.Auto,\n"
            "SerializationBinder = new KnownTypesBinder(typeof(OrderPlaced))",
            "var json = JsonConvert.SerializeObject(order);",
        ),
    ),
    pattern(
        "cs-thread-sleep-in-async",
        "thread.sleep async | thread sleep async | task.delay instead | blocking sleep async"
        " | sleep blocks thread pool",
        "csharp",
        r"\A(?=[\s\S]*?\b(?:async|await)\b)[\s\S]*?\bThread\.Sleep\s*\(",
        "",
        hits=(
            "public async Task PollAsync()\n{\nwhile (!done)\n{\nThread.Sleep(1000);\n"
            "done = await CheckAsync();\n}\n}",
            "Thread.Sleep(TimeSpan.FromSeconds(2));\nawait RetryAsync();",
            "async Task WaitForIndexAsync() {\nThread.Sleep(500);\n}",
        ),
        safe=(
            "public async Task PollAsync(CancellationToken ct)\n{\nawait"
            " Task.Delay(TimeSpan.FromSeconds(1), ct);\n}",
            "public void Run()\n{\nThread.Sleep(100);\n}",
            "await Task.Delay(500);",
        ),
    ),
    pattern(
        "cs-lock-on-this",
        "lock typeof | lock on this instance | lock string literal | private lock object"
        " | lock publicly accessible"
        " | lock this deadlock",
        "csharp",
        r"\block\s*\(\s*(?:this|typeof\s*\([^)]*\)|\"[^\"]*\"|nameof\s*\([^)]*\))\s*\)",
        "",
        hits=(
            "lock (this)\n{\n_count++;\n}",
            "lock (typeof(Cache)) { _items.Clear(); }",
            'lock ("orders") {',
        ),
        safe=(
            "private readonly object _sync = new();\nlock (_sync)\n{\n_count++;\n}",
            "lock (_gate) { _items.Clear(); }",
            "using (await _mutex.LockAsync(ct)) {",
        ),
    ),
    pattern(
        "cs-xxe",
        "xxe attack | xxe parser | xml external entity | dtdprocessing parse | xmlresolver"
        " | dtd processing xml",
        "csharp",
        r"\bXmlResolver\s*=\s*new\s+XmlUrlResolver\b|\bDtdProcessing\s*=\s*DtdProcessing\.Parse"
        r"\b|\bProhibitDtd\s*=\s*false\b",
        "",
        hits=(
            "var settings = new XmlReaderSettings { DtdProcessing = DtdProcessing.Parse };",
            "doc.XmlResolver = new XmlUrlResolver();",
            "reader.ProhibitDtd = false;",
        ),
        safe=(
            "var settings = new XmlReaderSettings { DtdProcessing = DtdProcessing.Prohibit };",
            "doc.XmlResolver = null;",
            "var doc = XDocument.Parse(xml);",
        ),
    ),
    pattern(
        "cs-fast-hash-password",
        "md5 password | sha1 password | sha256 password | password hashed md5 | passwords"
        " bcrypt | weak password hash | unsalted password hash | password hashing argon2",
        "csharp",
        r"(?i:passw)[\s\S]{0,400}?" + _FAST_HASH + "|" + _FAST_HASH + r"[\s\S]{0,400}?(?i:passw)",
        r"(?i:bcrypt|argon2|pbkdf2|scrypt)|\bRfc2898DeriveBytes\b|\bPasswordHasher\b",
        hits=(
            "using var md5 = MD5.Create();\nvar hash = md5.ComputeHash(Encoding.UTF8"
            ".GetBytes(password));",
            "user.PasswordHash = Convert.ToHexString(SHA256.HashData(Encoding.UTF8"
            ".GetBytes(dto.Password)));",
            "var sha = new SHA1CryptoServiceProvider();\nvar stored = sha.ComputeHash(pwd"
            "Bytes); // password",
        ),
        safe=(
            "user.PasswordHash = _passwordHasher.HashPassword(user, dto.Password);",
            "var checksum = SHA256.HashData(fileBytes);",
            "var hash = Rfc2898DeriveBytes.Pbkdf2(password, salt, 600000,"
            " HashAlgorithmName.SHA256, 32);",
        ),
    ),
    pattern(
        "cs-insecure-random-token",
        "randomnumbergenerator token | random token predictable | insecure random | predictable"
        " token | system.random token | predictable reset token | secure random token"
        " | system.random keys | randomnumbergenerator getbytes | cryptographically secure "
        "random | new random token | random reset code",
        "csharp",
        near(_SECRET_WORD, _WEAK_RANDOM, 200),
        r"\bRandomNumberGenerator\b|\bRNGCryptoServiceProvider\b",
        hits=(
            "var rng = new Random();\nvar token = rng.Next(100000, 999999).ToString();",
            "var apiKey = string.Concat(Enumerable.Range(0, 32).Select(_ =>"
            " chars[Random.Shared.Next(chars.Length)]));",
            'user.ResetCode = new Random().Next(1000000).ToString("D6");',
        ),
        safe=(
            "var token = Convert.ToBase64String(RandomNumberGenerator.GetBytes(32));",
            "var jitter = Random.Shared.Next(0, 250);\nawait Task.Delay(baseDelay + jitter);",
            "var deck = cards.OrderBy(_ => rng.Next()).ToList();",
        ),
    ),
    pattern(
        "cs-materialize-before-filter",
        "tolist before where | tolist where | asenumerable where | client side evaluation"
        " | whole table memory | loaded entire table"
        " | asenumerable | iqueryable tolist | client evaluation",
        "csharp",
        r"\.(?:ToList|ToArray|AsEnumerable)\(\)\s*\.(?:Where|Count|LongCount|Any|First"
        r"|FirstOrDefault|Single|SingleOrDefault|OrderBy|OrderByDescending|Take|Skip|Sum"
        r"|Max|Min|Last|LastOrDefault)\s*\("
        r"|\(await\s+[^;]*?\.ToListAsync\([^)]*\)\)\s*\.(?:Where|Count|Any|First"
        r"|FirstOrDefault|Single|SingleOrDefault|Take|Skip)\s*\(",
        "",
        hits=(
            "var active = _db.Users.ToList().Where(u => u.IsActive).ToList();",
            "var n = _db.Orders.AsEnumerable().Count(o => o.Total > 100);",
            "var first = (await _db.Products.ToListAsync()).FirstOrDefault(p => p.Sku == sku);",
        ),
        safe=(
            "var active = await _db.Users.Where(u => u.IsActive).ToListAsync(ct);",
            "var n = await _db.Orders.CountAsync(o => o.Total > 100);",
            "var names = users.Select(u => u.Name).ToList();",
        ),
    ),
    pattern(
        "cs-throw-ex-resets-stack",
        "throw ex | rethrow exception stack trace | stack trace lost | throw instead throw ex"
        " | preserve stack trace | lost stack trace",
        "csharp",
        r"\bcatch\s*\(\s*[\w.]+\s+(\w+)\s*\)[\s\S]{0,2000}?\bthrow\s+\1\s*;",
        "",
        hits=(
            'catch (Exception ex)\n{\n_logger.LogError(ex, "save failed");\nthrow ex;\n}',
            "catch (SqlException e) { Rollback(); throw e; }",
            "catch (HttpRequestException err)\n{\nthrow err;\n}",
        ),
        safe=(
            'catch (Exception ex)\n{\n_logger.LogError(ex, "save failed");\nthrow;\n}',
            'catch (SqlException e)\n{\nthrow new RepositoryException("save failed", e);\n}',
            "catch (Exception ex)\n{\nExceptionDispatchInfo.Capture(ex).Throw();\n}",
        ),
    ),
    pattern(
        "dotnet-developer-exception-page",
        "developer exception page | usedeveloperexceptionpage | stack traces production"
        " | detailed errors production | customerrors off",
        "csharp xml",
        r"\bUseDeveloperExceptionPage\s*\(\s*\)|<customErrors\s+mode\s*=\s*\"Off\"",
        r"\bIsDevelopment\s*\(\s*\)|\bIsEnvironment\s*\(",
        hits=(
            "app.UseDeveloperExceptionPage();\napp.UseRouting();",
            "app.UseDeveloperExceptionPage();\napp.MapControllers();",
            '<customErrors mode="Off" />',
        ),
        safe=(
            "if (app.Environment.IsDevelopment())\n{\napp.UseDeveloperExceptionPage();\n}",
            'app.UseExceptionHandler("/error");',
            '<customErrors mode="RemoteOnly" defaultRedirect="~/Error" />',
        ),
    ),
    pattern(
        "dotnet-cors-any-origin",
        "allowanyorigin | cors any origin | cors allow all origins | setisoriginallowed"
        " | cors wildcard | cors allowcredentials any origin",
        "csharp",
        r"\bAllowAnyOrigin\s*\(\s*\)|\bSetIsOriginAllowed\s*\(\s*\(?\s*\w+\s*\)?\s*=>\s*true"
        r"\s*\)|\bWithOrigins\s*\(\s*\"\*\"|\bEnableCors\s*\(\s*(?:origins\s*:\s*)?\"\*\"",
        "",
        hits=(
            "policy.AllowAnyOrigin().AllowAnyHeader().AllowAnyMethod();",
            "p.SetIsOriginAllowed(_ => true).AllowCredentials();",
            'builder.WithOrigins("*").AllowAnyMethod();',
        ),
        safe=(
            'policy.WithOrigins("https://app.acme.com").AllowAnyHeader().AllowAnyMethod();',
            'p.SetIsOriginAllowed(origin => new Uri(origin).Host == "acme.com");',
            'app.UseCors("frontend");',
        ),
    ),
    pattern(
        "cs-double-for-money",
        "double for money | money as double | float for money | floating point money"
        " | floating point currency | double for currency | float for prices"
        " | double for prices | decimal for money"
        " | currency float | currency double | float cents | double cents | float balance | "
        "double balance | prices double | price double",
        "csharp",
        r"\b(?:double|float|Double|Single)\??\s+(?i:\w*(?:price|amount|balance|cost|salary"
        r"|fee|money|payment|subtotal|refund|revenue|wage)\w*)\s*(?:[;=,){]|$)",
        "",
        hits=(
            "public double Price { get; set; }",
            "private float _balance;",
            "public Invoice(string id, double totalAmount) {",
        ),
        safe=(
            "public decimal Price { get; set; }",
            "double latitude = 52.52;",
            "public int AmountOfItems { get; set; }",
        ),
    ),
]
