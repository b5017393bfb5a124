"""Known mistakes in C# and .NET code and configuration: security (certificate
validation turned off, ``BinaryFormatter``, Json.NET ``TypeNameHandling``, XXE, fast hashes
for passwords, insecure random tokens, the developer exception page and CORS open to any
origin) and the rest (``Thread.Sleep`` in async code, ``lock (this)``, materialising a
query before filtering it, ``throw ex``, ``double`` for money): what the Roslyn analysers,
SonarC#, Security Code Scan and the ASP.NET Core docs warn about, and what agents writing
.NET services are known to get wrong. Async, lifetimes, SQL and exceptions:
``code_jvm_dotnet_cs``."""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, near, pattern

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
        "throw ex stack | rethrow exception stack trace | stack trace lost | throw instead throw ex"
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
