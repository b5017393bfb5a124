"""More known mistakes in Java, Kotlin, C#, Android manifests and Gradle builds, Ruby on
Rails, PHP, C/C++ and Scala: what SpotBugs, Roslyn's CA rules, Android lint, Brakeman,
PHPStan/psalm, CERT C and Scalastyle/WartRemover flag."""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

_SHELLS = r"(?:cmd(?:\.exe)?|(?:/usr)?(?:/bin/)?(?:ba|z)?sh|powershell(?:\.exe)?|pwsh)"
# A C# string built from input: interpolated with a hole, or concatenated.
_BUILT = r'(?:\$@?"(?:[^"\n\\]|\\.)*\{|@\$"[^"\n]*\{|"(?:[^"\n\\]|\\.)*"\s*\+)'
_PHP_INPUT = (
    r"(?:\$_(?:GET|POST|REQUEST|COOKIE)\b|\$request->(?:input|get|query)\(|request\(\s*['\"])"
)

PATTERNS: list[Pattern] = [
    pattern(
        "java-equals-without-hashcode",
        "equals without hashcode | equals hashcode | hashcode not overridden | override hashcode"
        " | equals hashcode contract | hashset duplicates equals",
        "java kotlin",
        r"\bpublic\s+(?:final\s+)?boolean\s+equals\s*\(\s*(?:final\s+)?Object\b"
        r"|\boverride\s+fun\s+equals\s*\(\s*\w+\s*:\s*Any\?\s*\)",
        r"\bhashCode\s*\(",
        hits=(
            "@Override\npublic boolean equals(Object o) {\nif (this == o) return true;\n"
            "return o instanceof Money m && amount.equals(m.amount);\n}",
            "public final boolean equals(final Object other) {",
            "override fun equals(other: Any?): Boolean =\nother is Sku && other.code == code",
        ),
        safe=(
            "@Override\npublic boolean equals(Object o) {\nreturn o instanceof Money m && "
            "amount.equals(m.amount);\n}\n@Override\npublic int hashCode() {\n"
            "return Objects.hash(amount);\n}",
            "override fun equals(other: Any?): Boolean = other is Sku && other.code == code\n"
            "override fun hashCode(): Int = code.hashCode()",
            "if (a.equals(b)) {",
            "public boolean equalsIgnoringCase(String other) {",
            "public record Money(BigDecimal amount, String currency) {}",
        ),
    ),
    pattern(
        "java-jwt-not-verified",
        "jwt signature not verified | jwt not verified | unsigned jwt | jwt alg none"
        " | use parseclaimsjws | use parsesignedclaims | jwt.decode without verify"
        " | jwt decoded without verifying",
        "java kotlin",
        r"\bJwts\.parser(?:Builder)?\(\)[^;]{0,300}?\.parse(?:ClaimsJwt|UnsecuredClaims)?\("
        r"|\bJWT\.decode\(|\b(?:SignedJWT|JWTParser|PlainJWT)\.parse\("
        # (the payload segment base64-decoded by hand)
        r"|\bBase64\.get(?:Url)?Decoder\(\)\.decode\([^()\n]*(?:\([^()\n]*\))?[^()\n]*\[1\]\s*\)",
        r"\bJWT\.require\(|\.verify\(",
        hits=(
            "Claims claims = (Claims) Jwts.parser().setSigningKey(key).parse(token).getBody();",
            "val jwt = Jwts.parserBuilder()\n.setSigningKey(secret)\n.build()\n"
            ".parseClaimsJwt(token)",
            "DecodedJWT jwt = JWT.decode(bearer);\nString userId = jwt.getSubject();",
            "var claims = Jwts.parser().unsecured().build().parseUnsecuredClaims(token);",
        ),
        safe=(
            "Jws<Claims> jws = Jwts.parserBuilder().setSigningKey(key).build()"
            ".parseClaimsJws(token);",
            "Claims c = Jwts.parser().verifyWith(key).build().parseSignedClaims(token)"
            ".getPayload();",
            "DecodedJWT jwt = JWT.require(Algorithm.HMAC256(secret)).build().verify(token);",
            "LocalDate d = LocalDate.parse(text);",
        ),
    ),
    pattern(
        "java-weak-cipher-ecb",
        "ecb mode | aes ecb | cipher ecb | cipher.getinstance aes | des cipher | weak cipher"
        " | aes/gcm/nopadding | aes gcm instead",
        "java kotlin",
        r'\bCipher\.getInstance\(\s*"(?:(?:AES|DES|DESede|TripleDES|Blowfish|RC2|RC4|ARCFOUR)"'
        r"|(?!RSA)[A-Za-z0-9]+/ECB/|(?:DES|DESede|TripleDES|Blowfish|RC2|RC4)/)"
        # (a transformation kept in a constant: "AES/ECB/PKCS5Padding", "DES/CBC/...")
        r'|"(?:(?!RSA/)[A-Za-z0-9]+/ECB|DES|DESede|TripleDES|Blowfish|RC2|RC4)/[A-Za-z0-9]+"',
        "",
        hits=(
            'Cipher c = Cipher.getInstance("AES");',
            'val cipher = Cipher.getInstance("AES/ECB/PKCS5Padding")',
            'Cipher des = Cipher.getInstance("DES/CBC/PKCS5Padding");',
            'Cipher rc4 = Cipher.getInstance( "RC4" );',
        ),
        safe=(
            'Cipher c = Cipher.getInstance("AES/GCM/NoPadding");',
            'Cipher rsa = Cipher.getInstance("RSA/ECB/OAEPWithSHA-256AndMGF1Padding");',
            "Cipher c = Cipher.getInstance(TRANSFORMATION);",
            'Mac mac = Mac.getInstance("HmacSHA256");',
        ),
    ),
    pattern(
        "java-modify-list-in-foreach",
        "concurrentmodificationexception list | concurrentmodificationexception loop"
        " | concurrent modification | removed inside for-each"
        " | remove while iterating | modified list while iterating | removeif instead"
        " | iterator.remove",
        "java kotlin",
        r"\bfor\s*\([^:;()]*:\s*(?:this\.)?(\w+)(?:\.(?:keySet|values|entrySet)\(\))?\s*\)"
        r"\s*\{[^}]*?\b\1\.(?:remove|add|clear|put)\("
        r"|\bfor\s*\(\s*\w+\s+in\s+(\w+)\s*\)\s*\{[^}]*?\b\2\.(?:remove|add|clear|put)\("
        r"|\b(\w+)\.forEach\s*[({][^}]*?\b\3\.(?:remove|add|clear)\(",
        "",
        hits=(
            "for (Order o : orders) {\nif (o.isCancelled()) {\norders.remove(o);\n}\n}",
            "for (String key : cache.keySet()) {\nif (expired(key)) cache.remove(key);\n}",
            "for (item in items) {\nif (item.qty == 0) items.remove(item)\n}",
            "users.forEach(u -> {\nif (u.isBanned()) users.remove(u);\n});",
        ),
        safe=(
            "orders.removeIf(Order::isCancelled);",
            "Iterator<Order> it = orders.iterator();\nwhile (it.hasNext()) {\n"
            "if (it.next().isCancelled()) it.remove();\n}",
            "for (Order o : orders) {\nresult.add(o.getId());\n}",
            "for (Order o : new ArrayList<>(orders)) {\norders.remove(o);\n}",
            "items.removeAll { it.qty == 0 }",
        ),
    ),
    pattern(
        "java-http-client-no-timeout",
        "resttemplate timeout | resttemplate without timeout | http client timeout"
        " | read timeout | connect timeout | httpclient without timeout | hung http call",
        "java kotlin",
        r"\bnew\s+RestTemplate\(\s*(?:new\s+\w+RequestFactory\(\s*\)\s*)?\)|(?<![\w.])RestTemplate\(\s*\)"
        r"|\bHttpClient\.newHttpClient\(\)|\bHttpClients\.createDefault\(\)"
        r"|\b(?:HttpClientBuilder\.create|HttpClients\.custom)\(\)\s*\.build\(\)",
        r"(?i)timeout",
        hits=(
            "RestTemplate rest = new RestTemplate();\nreturn rest.getForObject(url, Quote.class);",
            "private val client = RestTemplate()",
            "HttpClient client = HttpClient.newHttpClient();",
            "CloseableHttpClient http = HttpClients.createDefault();",
        ),
        safe=(
            "return builder.setConnectTimeout(Duration.ofSeconds(2))"
            ".setReadTimeout(Duration.ofSeconds(5)).build();",
            "HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3))"
            ".build();",
            "var factory = new SimpleClientHttpRequestFactory();\nfactory.setReadTimeout(5000);\n"
            "RestTemplate rt = new RestTemplate(factory);",
            "public RestTemplate restTemplate(RestTemplateBuilder b) {\nreturn b.build();\n}",
        ),
    ),
    pattern(
        "cs-disposable-not-disposed",
        "not disposed | never disposed | idisposable using | using declaration | using statement"
        " | dispose connection | connection never closed | connection leak | pool exhausted"
        " sqlconnection",
        "csharp",
        r"^(?!.*\busing\b)(?:var|[A-Z]\w*)\s+\w+\s*=\s*(?:new\s+(?:SqlConnection|NpgsqlConnection"
        r"|MySqlConnection|SqliteConnection|OracleConnection|SqlCommand|NpgsqlCommand|FileStream"
        r"|StreamReader|StreamWriter|BinaryReader|BinaryWriter)\("
        r"|(?:await\s+)?(?:File\.(?:OpenRead|OpenWrite|Open|Create|OpenText)\("
        r"|\w+\.ExecuteReader(?:Async)?\())",
        r"\.Dispose(?:Async)?\(\)",
        hits=(
            "var conn = new SqlConnection(_connectionString);\nconn.Open();",
            "SqlCommand cmd = new SqlCommand(sql, conn);",
            "var reader = await cmd.ExecuteReaderAsync();",
            "var fs = File.OpenRead(path);\nvar hash = await SHA256.HashDataAsync(fs);",
        ),
        safe=(
            "using var conn = new SqlConnection(_connectionString);",
            "await using var conn = new NpgsqlConnection(cs);",
            "using (var reader = new StreamReader(path))\n{",
            "await using var reader = await cmd.ExecuteReaderAsync(ct);",
            "var bytes = await File.ReadAllBytesAsync(path);",
            "private readonly SqlConnection _conn = new SqlConnection(cs);",
        ),
    ),
    pattern(
        "cs-process-shell-injection",
        "command injection | shell injection | process.start cmd | process.start injection"
        " | use argumentlist | cmd.exe /c | processstartinfo arguments",
        "csharp",
        rf'\bProcess\.Start\(\s*"{_SHELLS}"\s*,\s*{_BUILT}'
        rf'|\bnew\s+ProcessStartInfo\(\s*"{_SHELLS}"\s*,\s*{_BUILT}'
        rf'|\bFileName\s*=\s*"{_SHELLS}"[\s\S]{{0,300}}?\bArguments\s*=\s*{_BUILT}'
        rf'|\bArguments\s*=\s*{_BUILT}[\s\S]{{0,300}}?\bFileName\s*=\s*"{_SHELLS}"',
        "",
        hits=(
            'Process.Start("cmd.exe", "/c convert " + upload + " out.png");',
            'Process.Start("/bin/bash", $"-c \\"ping -c 1 {host}\\"");',
            'var psi = new ProcessStartInfo\n{\nFileName = "powershell",\n'
            "Arguments = $\"-Command Get-Item '{path}'\",\n};",
            'var psi = new ProcessStartInfo { Arguments = "-c " + cmd, FileName = "sh" };',
        ),
        safe=(
            'var psi = new ProcessStartInfo("git") { ArgumentList = { "log", "-1", branch } };',
            'Process.Start("notepad.exe", path);',
            'Process.Start("cmd.exe", "/c dir");',
            'var psi = new ProcessStartInfo { FileName = "dotnet", Arguments = $"build {proj}" };',
        ),
    ),
    pattern(
        "android-cleartext-traffic",
        "usescleartexttraffic | cleartext traffic | cleartexttrafficpermitted | plain http android"
        " | network security config | cleartext http",
        "xml",
        r"(?i)\busesCleartextTraffic\s*=\s*[\"']true[\"']"
        r"|<base-config\b[^>]*\bcleartextTrafficPermitted\s*=\s*[\"']true[\"']",
        "",
        hits=(
            '<application android:usesCleartextTraffic="true"',
            '<application\nandroid:name=".App"\nandroid:usesCleartextTraffic = "true">',
            '<base-config cleartextTrafficPermitted="true">',
        ),
        safe=(
            '<application android:usesCleartextTraffic="false"',
            '<domain-config cleartextTrafficPermitted="true">\n'
            '<domain includeSubdomains="false">10.0.2.2</domain>',
            '<application android:networkSecurityConfig="@xml/network_security_config">',
        ),
    ),
    pattern(
        "android-debuggable",
        "android:debuggable | debuggable true | debuggable release | isdebuggable"
        " | release build debuggable | debugger attach release",
        "xml gradle kotlin",
        r"android:debuggable\s*=\s*[\"']true[\"']"
        r"|\brelease\b[^{}\n]*\{[^}]*?\b(?:isDebuggable\s*=|debuggable\s*(?:=\s*)?)\s*true\b",
        "",
        hits=(
            '<application android:debuggable="true" android:label="@string/app">',
            "release {\nminifyEnabled true\ndebuggable true\n}",
            'getByName("release") {\nisDebuggable = true\n}',
        ),
        safe=(
            "debug {\ndebuggable true\n}",
            '<application android:debuggable="false"',
            "release {\nminifyEnabled true\nproguardFiles getDefaultProguardFile("
            "'proguard-android-optimize.txt')\n}",
            'getByName("debug") {\nisDebuggable = true\n}',
        ),
    ),
    pattern(
        "rails-open-redirect",
        "open redirect | redirect_to params | unvalidated redirect | redirect attacker site"
        " | allow_other_host | redirect user-supplied url | redirect phishing",
        "ruby",
        r"\bredirect_to\s*\(?\s*(?:params\b|cookies\b|request\.(?:referer|referrer)\b"
        r'|"[^"\n]*#\{params\b)',
        r"\ballow_other_host:\s*false|\burl_from\(|\bonly_path:\s*true",
        hits=(
            "redirect_to params[:return_to]",
            "redirect_to(params.fetch(:next, root_path))",
            'redirect_to "#{params[:host]}/dashboard"',
            "redirect_to request.referer || root_path",
        ),
        safe=(
            "redirect_to root_path",
            'redirect_to @order, notice: "Saved"',
            "redirect_to url_from(params[:return_to]) || root_path",
            "redirect_back(fallback_location: root_path)",
            "redirect_to params[:return_to], allow_other_host: false",
            "redirect_to order_path(params[:id])",
        ),
    ),
    pattern(
        "rails-send-file-user-path",
        "path traversal | directory traversal | send_file params | send_file user input"
        " | file path from params | arbitrary file download | file.basename",
        "ruby",
        r"\bsend_file\s*\(?\s*(?:params\b|\"[^\"\n]*#\{params\b|(?:Rails\.root\.join|File\.join)"
        r"\([^)\n]*\bparams\b)"
        r"|\bFile\.(?:read|open|binread|readlines)\(\s*(?:params\b(?![^\s,)]*\.(?:tempfile|path)\b)|\"[^\"\n]*#\{params\b"
        r"|(?:Rails\.root\.join|File\.join)\([^)\n]*\bparams\b)"
        # (the path built from params first, sent a few lines on)
        r"|\b(?P<p>\w+)\s*=\s*(?:Rails\.root\.join|File\.join)\([^)\n]*\bparams\b[^\n]*\n"
        r"(?:[^\n]*\n){0,5}?[^\n]*\bsend_file\s*\(?\s*(?P=p)\b",
        r"\bFile\.basename\(|\.basename\b",
        hits=(
            "send_file params[:path]",
            'send_file Rails.root.join("exports", params[:file])',
            'send_file "#{UPLOAD_DIR}/#{params[:name]}", disposition: "attachment"',
            'data = File.read("reports/#{params[:report]}.csv")',
        ),
        safe=(
            'send_file @export.file_path, type: "text/csv"',
            'send_file Rails.root.join("exports", File.basename(params[:file]))',
            'send_data csv, filename: "orders.csv"',
            'File.read(Rails.root.join("config", "plans.yml"))',
            "rows = CSV.parse(File.read(params[:upload].tempfile))",
        ),
    ),
    pattern(
        "php-curl-ssl-verify-off",
        "curlopt_ssl_verifypeer | ssl_verifypeer false | verifypeer | ssl verification disabled"
        " | tls verification off | certificate verification disabled | withoutverifying"
        " | verify false guzzle",
        "php",
        r"(?i)\bCURLOPT_SSL_VERIFY(?:PEER|HOST)\s*(?:,|=>)\s*(?:false|0)\b"
        r"|['\"]verify(?:_peer(?:_name)?)?['\"]\s*=>\s*false\b|(?:->|::)withoutVerifying\(\)",
        "",
        hits=(
            "curl_setopt($ch, CURLOPT_SSL_VERIFYPEER, false);",
            "curl_setopt($ch, CURLOPT_SSL_VERIFYHOST, 0);",
            "$client = new Client(['base_uri' => $url, 'verify' => false]);",
            "$res = Http::withoutVerifying()->get($url);",
            "CURLOPT_SSL_VERIFYPEER => 0,",
        ),
        safe=(
            "curl_setopt($ch, CURLOPT_SSL_VERIFYPEER, true);",
            "curl_setopt($ch, CURLOPT_CAINFO, '/etc/ssl/certs/ca-bundle.crt');",
            "$client = new Client(['verify' => '/etc/ssl/ca.pem']);",
            "CURLOPT_SSL_VERIFYHOST => 2,",
        ),
    ),
    pattern(
        "php-weak-random-token",
        "mt_rand token | rand token | uniqid token | md5 uniqid | predictable token"
        " | guessable token | insecure random | random_bytes | random_int instead"
        " | predictable reset token",
        "php",
        r"(?:\$|->)\w*(?:[tT]oken|TOKEN|[sS]ecret|[nN]once|[oO]tp|OTP|[rR]eset|[aA]pi_?[kK]ey"
        r"|[pP]assw(?:or)?d|[sS]alt|[vV]erification|(?<![a-z])code|Code)\w*\s*=[^=;\n][^;\n]*?(?:\b(?:mt_rand|rand|uniqid|str_shuffle"
        r"|lcg_value|array_rand)\s*\(|\b(?:md5|sha1)\(\s*(?:time|microtime)\()"
        # (returned by a function named for the secret it makes)
        r"|\bfunction\s+\w*(?i:token|secret|nonce|otp|password|api_?key)\w*\s*\([^)\n]*\)[^{\n]*\{"
        r"\n(?:[^\n]*\n){0,3}?return\b[^;\n]*\b(?:mt_rand|rand|uniqid|str_shuffle|lcg_value)\s*\(",
        "",
        hits=(
            "$token = md5(uniqid(rand(), true));",
            "$user->reset_token = sha1(mt_rand());",
            "$otp = rand(100000, 999999);",
            "$apiKey = substr(str_shuffle($chars), 0, 32);",
            "$resetCode = md5(time());",
        ),
        safe=(
            "$token = bin2hex(random_bytes(32));",
            "$otp = random_int(100000, 999999);",
            "$delay = rand(100, 500);",
            "$user->remember_token = Str::random(60);",
            "$id = uniqid('order_');",
            "$encoded = base64_encode(rand());",
        ),
    ),
    pattern(
        "php-ssrf-user-url",
        "ssrf attack | ssrf url | server-side request forgery | file_get_contents url"
        " | file_get_contents user"
        " | fetch user-supplied url | metadata endpoint | url allowlist fetch",
        "php",
        rf"\b(?:file_get_contents|fopen|curl_init|readfile|get_headers|simplexml_load_file"
        rf"|getimagesize|copy)\s*\(\s*{_PHP_INPUT}"
        r"|\bCURLOPT_URL\s*(?:,|=>)\s*\$_(?:GET|POST|REQUEST)\b"
        rf"|\bHttp::(?:get|post|head)\(\s*{_PHP_INPUT}"
        # (an HTTP client's request to an input's URL: Guzzle, Symfony HttpClient)
        r"|(?:[cC]lient|[hH]ttp|[gG]uzzle)\w*(?:\(\s*\))?\)?->(?:get|post|put|head|request"
        rf"|send)\w*\(\s*(?:['\"]\w+['\"]\s*,\s*)?{_PHP_INPUT}",
        "",
        hits=(
            "$html = file_get_contents($_GET['url']);",
            "curl_setopt($ch, CURLOPT_URL, $_POST['webhook']);",
            "$img = getimagesize($request->input('avatar_url'));",
            "$resp = Http::get($request->input('callback'));",
        ),
        safe=(
            "$json = file_get_contents('php://input');",
            "$cfg = file_get_contents(__DIR__ . '/config.json');",
            "$resp = Http::get(config('services.rates.url'));",
            "$url = $request->input('url');\nif (!in_array(parse_url($url, PHP_URL_HOST), "
            "$allowedHosts, true)) abort(400);",
        ),
    ),
    pattern(
        "c-realloc-same-pointer",
        "realloc | realloc same pointer | realloc leak | realloc returned null"
        " | realloc temporary pointer",
        "c cpp",
        r"(?<![\w>.])((?:\w+(?:->|\.))*\w+)\s*=\s*(?:\([^()\n]*\)\s*|static_cast<[^<>\n]*>\s*\(\s*)?"
        r"(?:std)?(?:::)?realloc"
        r"\s*\(\s*\1\s*,",
        "",
        hits=(
            "buf = realloc(buf, cap * 2);",
            "s->items = realloc(s->items, n * sizeof *s->items);",
            "data = (char *)realloc(data, len + 1);",
        ),
        safe=(
            "char *tmp = realloc(buf, cap * 2);\nif (!tmp) { free(buf); return -1; }\nbuf = tmp;",
            "p = malloc(n);",
            "new_items = realloc(s->items, n);",
        ),
    ),
    pattern(
        "c-strncpy-unterminated",
        "strncpy | strncpy null terminate | strncpy not terminated | null terminator"
        " | unterminated string | missing nul terminator",
        "c cpp",
        r"\bstrncpy\s*\(",
        r"\[[^\]\n]+\]\s*=\s*(?:'\\0'|0|NULL)\s*;",
        hits=(
            "strncpy(dst, src, sizeof dst);",
            "strncpy(user->name, name, NAME_MAX);",
            "std::strncpy(buf, s.c_str(), len);",
        ),
        safe=(
            "strncpy(dst, src, sizeof dst - 1);\ndst[sizeof dst - 1] = '\\0';",
            'snprintf(dst, sizeof dst, "%s", src);',
            "strlcpy(dst, src, sizeof dst);",
            "if (strncmp(a, b, n) == 0) {",
        ),
    ),
    pattern(
        "scala-await-inf",
        "await.result duration.inf | duration.inf | await infinite | await forever"
        " | await result infinite timeout | await finite timeout | blocked forever future",
        "scala",
        r"\bAwait\.(?:result|ready)\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*?\b(?:Duration\.)?Inf\b",
        "",
        hits=(
            "val user = Await.result(userF, Duration.Inf)",
            "Await.ready(shutdown, Duration.Inf)",
            "Await.result(client.fetch(id), scala.concurrent.duration.Duration.Inf)",
        ),
        safe=(
            "val user = Await.result(userF, 5.seconds)",
            "userF.map(render)",
            "val timeout = Duration.Inf",
        ),
    ),
    pattern(
        "scala-option-get",
        "option.get | option get | get on option | get on none | nosuchelementexception none"
        " | getorelse instead | none.get",
        "scala",
        r"(?:\b(?:headOption|lastOption|toOption|maxOption|minOption|reduceOption)"
        r"|\b\w*(?:[oO]pt|[oO]ption|[mM]aybe)\w*"
        r"|\.(?:find|collectFirst|lift|get|toIntOption|toLongOption|toDoubleOption)"
        r"\((?:[^()\n]|\([^()\n]*\))*\))\.get\b(?!\s*[(\[])",
        "",
        hits=(
            "val user = users.find(_.id == id).get",
            'val port = sys.env.get("PORT").get.toInt',
            "val first = rows.headOption.get",
            "val email = maybeEmail.get",
        ),
        safe=(
            "val user = users.find(_.id == id).getOrElse(throw NotFound(id))",
            'val port = sys.env.getOrElse("PORT", "8080").toInt',
            "rows.headOption match {\ncase Some(r) => r\ncase None => default\n}",
            "val n = counter.get",
            "val v = cache.get(key)",
        ),
    ),
]
