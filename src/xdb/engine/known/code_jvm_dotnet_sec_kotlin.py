"""Known mistakes in Java and Kotlin code. Java: unsafe deserialisation (Jackson default
typing, ``ObjectInputStream``), XXE, fast hashes for passwords, insecure random tokens, a
TLS trust manager that trusts all, command injection, a swallowed
``InterruptedException`` and floating point for money (``new BigDecimal(double)``,
``double``). Kotlin: ``!!``, ``runBlocking``, ``GlobalScope``, swallowed cancellation and
secrets in ``SharedPreferences``. What SpotBugs (and find-sec-bugs), Error Prone, Sonar,
detekt, semgrep's Java rules and the OWASP cheat sheets flag, and what agents writing JVM
services are known to get wrong. The rest of Java's: ``code_jvm_dotnet``."""

from __future__ import annotations

from xdb.engine.known.code_jvm_dotnet import EMPTY_BLOCK
from xdb.engine.known.pattern import Pattern, near, pattern

# Fast hashes (fine for checksums, not for passwords).
_FAST_HASH = (
    r'(?:MessageDigest\.getInstance\(\s*"(?:MD[25]|SHA-?(?:1|224|256|384|512)?)"'
    r"|DigestUtils\.(?:md5|md2|sha1|sha|sha256|sha512)(?:Hex)?\s*\("
    r"|Hashing\.(?:md5|sha1|sha256|sha512)\(\))"
)
# Random number generators that are not cryptographically secure.
_WEAK_RANDOM = (
    r"(?:\bnew\s+Random\s*\(|\bMath\.random\s*\(|\bThreadLocalRandom\.current\s*\("
    r"|\bRandomStringUtils\.random\w*\s*\(|\bRandom\.(?:nextInt|nextLong|nextBytes|Default)\b"
    r"|(?<![\w.])Random\s*\(\s*\)|\.random\s*\(\s*\))"
)
_SECRET_WORD = (
    r"(?i:token|secret|password|passwd|otp\b|otp_?code|nonce|salt\b|session|api_?key|reset_?code"
    r"|verification|invite_?code|coupon|voucher|csrf)"
)
_PREF_SECRET = r"(?i:token|password|passwd|secret|api_?key|credential|session_?id)"

PATTERNS: list[Pattern] = [
    pattern(
        "java-jackson-default-typing",
        "default typing | enableDefaultTyping | activateDefaultTyping | jackson polymorphic"
        " deserialization | jackson gadget | polymorphic type validator"
        " | polymorphic deserialization | polymorphictypevalidator allowlist | jsontypeinfo "
        "class",
        "java kotlin",
        r"\benableDefaultTyping\w*\s*\(|\bLaissezFaireSubTypeValidator\b"
        r"|\bId\.(?:MINIMAL_)?CLASS\b|\bsetAutoTypeSupport\s*\(\s*true",
        "",
        hits=(
            "mapper.enableDefaultTyping();",
            "om.activateDefaultTyping(LaissezFaireSubTypeValidator.instance,"
            " ObjectMapper.DefaultTyping.NON_FINAL);",
            '@JsonTypeInfo(use = JsonTypeInfo.Id.CLASS, property = "@class")',
            "ParserConfig.getGlobalInstance().setAutoTypeSupport(true);",
        ),
        safe=(
            "mapper.activateDefaultTyping(BasicPolymorphicTypeValidator.builder()\n"
            '.allowIfSubType("com.acme.events.").build(), DefaultTyping.NON_FINAL);',
            '@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")',
            "ObjectMapper mapper = new ObjectMapper().registerModule(new JavaTimeModule());",
        ),
    ),
    pattern(
        "java-object-input-stream",
        "ObjectInputStream | java deserialization | deserialize untrusted | readObject"
        " untrusted | serialization filter | deserialization gadget"
        " | native serialization | java serialization",
        "java kotlin",
        r"\bObjectInputStream\s*\(|\bSerializationUtils\.deserialize\s*\(|\bnew\s+XStream\s*\(",
        r"\bsetObjectInputFilter\b|\bObjectInputFilter\b|\bresolveClass\b|\ballowTypes\w*\s*\("
        r"|\baddPermission\s*\(",
        hits=(
            "ObjectInputStream in = new ObjectInputStream(request.getInputStream());\n"
            "Object o = in.readObject();",
            "val session = ObjectInputStream(bytes.inputStream()).readObject() as Session",
            "Cart cart = (Cart) SerializationUtils.deserialize(cookieBytes);",
            "XStream xs = new XStream();\nOrder o = (Order) xs.fromXML(body);",
        ),
        safe=(
            "ObjectInputStream in = new ObjectInputStream(bytes);\n"
            'in.setObjectInputFilter(ObjectInputFilter.Config.createFilter("com.acme.*;!*"));',
            "ValidatingObjectInputStream vois = new ValidatingObjectInputStream(in);",
            "ObjectOutputStream out = new ObjectOutputStream(file);",
            "Order o = mapper.readValue(body, Order.class);",
        ),
    ),
    pattern(
        "java-xxe",
        "xxe attack | xxe parser | xml external entity | external entities"
        " | disallow-doctype-decl | doctype declaration xml parser | xml parser entities"
        " | dtd xml parser | entity expansion | billion laughs",
        "java kotlin",
        r"\b(?:DocumentBuilderFactory|SAXParserFactory|XMLInputFactory|TransformerFactory"
        r"|SchemaFactory|SAXTransformerFactory)\.(?:newInstance|newFactory|newDefaultInstance"
        r"|newDefaultFactory)\s*\(|\bXMLReaderFactory\.createXMLReader\s*\("
        r"|\bnew\s+(?:SAXReader|SAXBuilder)\s*\(",
        r"disallow-doctype-decl|external-general-entities|external-parameter-entities"
        r"|FEATURE_SECURE_PROCESSING|ACCESS_EXTERNAL_DTD|ACCESS_EXTERNAL_SCHEMA|SUPPORT_DTD"
        r"|IS_SUPPORTING_EXTERNAL_ENTITIES|load-external-dtd|setExpandEntityReferences\(\s*false",
        hits=(
            "DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();\n"
            "Document doc = dbf.newDocumentBuilder().parse(upload);",
            "XMLInputFactory xif = XMLInputFactory.newFactory();",
            "SAXParser parser = SAXParserFactory.newInstance().newSAXParser();",
            "val reader = SAXReader()\nval doc = SAXBuilder().build(stream)\n"
            "val tf = TransformerFactory.newInstance()",
        ),
        safe=(
            "DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();\n"
            'dbf.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);',
            "XMLInputFactory xif = XMLInputFactory.newFactory();\n"
            "xif.setProperty(XMLInputFactory.SUPPORT_DTD, false);",
            "JsonNode node = mapper.readTree(body);",
        ),
    ),
    pattern(
        "java-fast-hash-password",
        "md5 password | sha1 password | sha256 password | password hashed md5 | passwords"
        " bcrypt | weak password hash | unsalted password hash | password hashing argon2"
        " | sha 256 password | messagedigest password | use bcryptpasswordencoder | password "
        "hashing fast | md5 passwords",
        "java kotlin",
        r"(?i:passw)[\s\S]{0,400}?" + _FAST_HASH + "|" + _FAST_HASH + r"[\s\S]{0,400}?(?i:passw)",
        r"(?i:bcrypt|argon2|pbkdf2|scrypt)|PasswordEncoder",
        hits=(
            'MessageDigest md = MessageDigest.getInstance("MD5");\n'
            "byte[] hash = md.digest(password.getBytes(UTF_8));",
            "user.setPasswordHash(DigestUtils.sha256Hex(rawPassword));",
            'val digest = MessageDigest.getInstance("SHA-1")\n'
            "val stored = digest.digest(form.password.toByteArray())",
        ),
        safe=(
            "user.setPasswordHash(passwordEncoder.encode(rawPassword));",
            'MessageDigest sha = MessageDigest.getInstance("SHA-256");\n'
            "byte[] checksum = sha.digest(fileBytes);",
            "String etag = DigestUtils.md5Hex(body);",
            "PasswordEncoder enc = new BCryptPasswordEncoder(12);",
        ),
    ),
    pattern(
        "java-insecure-random-token",
        "securerandom token | secure random token | random token predictable | math.random token"
        " | insecure random | predictable token | predictable reset token"
        " | cryptographically secure random | securerandom secrets | securerandom session | "
        "math.random session | util random token",
        "java kotlin",
        near(_SECRET_WORD, _WEAK_RANDOM, 200),
        r"\bSecureRandom\b",
        hits=(
            "Random rnd = new Random();\nString token = Long.toHexString(rnd.nextLong());",
            "String resetCode = String.valueOf((int) (Math.random() * 1_000_000));",
            'val sessionId = (1..32).map { alphabet.random() }.joinToString("")',
            "String apiKey = RandomStringUtils.randomAlphanumeric(40);",
        ),
        safe=(
            "SecureRandom rng = new SecureRandom();\nbyte[] token = new byte[32];\n"
            "rng.nextBytes(token);",
            "int jitter = ThreadLocalRandom.current().nextInt(250);\nThread.sleep(base + jitter);",
            "Collections.shuffle(deck, new Random(seed));",
        ),
    ),
    pattern(
        "java-interrupted-exception-swallowed",
        "interruptedexception | interrupted exception swallowed | interrupt flag"
        " | restore interrupt | currentthread interrupt",
        "java kotlin",
        r"\bcatch\s*\(\s*(?:final\s+)?(?:[\w.]+\s*\|\s*)*(?:java\.lang\.)?"
        r"InterruptedException\b[^)]*\)|\bcatch\s*\(\s*\w+\s*:\s*InterruptedException\s*\)",
        r"\.interrupt\s*\(\s*\)",
        hits=(
            "try {\nThread.sleep(backoff);\n} catch (InterruptedException e) {\n"
            'log.warn("interrupted");\n}',
            "} catch (final InterruptedException ignored) {\n}",
            "} catch (e: InterruptedException) {\nbreak\n}",
        ),
        safe=(
            "} catch (InterruptedException e) {\nThread.currentThread().interrupt();\n"
            "throw new IllegalStateException(e);\n}",
            "public void await() throws InterruptedException {\nlatch.await();\n}",
            "} catch (e: InterruptedException) {\nThread.currentThread().interrupt()\n}",
        ),
    ),
    pattern(
        "java-bigdecimal-from-double",
        "bigdecimal double | bigdecimal from double | new bigdecimal double | bigdecimal"
        " constructor double | BigDecimal.valueOf | bigdecimal string constructor",
        "java kotlin",
        r"\b(?:new\s+)?BigDecimal\s*\(\s*-?\d*\.\d+(?:[eE][-+]?\d+)?[dDfF]?\s*[,)]"
        r"|\b(?:new\s+)?BigDecimal\s*\(\s*(?:\(double\)\s*|[\w.]*(?i:double|dbl)\w*\s*[,)]"
        r"|[\w.]+\.(?:toDouble|doubleValue)\(\)\s*[,)])",
        "",
        hits=(
            "BigDecimal fee = new BigDecimal(0.1);",
            "total = total.add(new BigDecimal(19.99d));",
            "val rate = BigDecimal(0.075)",
        ),
        safe=(
            'BigDecimal fee = new BigDecimal("0.10");',
            "BigDecimal fee = BigDecimal.valueOf(0.1);",
            "BigDecimal qty = new BigDecimal(3);",
        ),
    ),
    pattern(
        "java-double-for-money",
        "double for money | money as double | float for money | floating point money"
        " | floating point currency | double for currency | float for prices"
        " | double for prices | bigdecimal for money"
        " | currency float | currency double | float cents | double cents | float balance | "
        "double balance | prices double | price double",
        "java kotlin",
        r"\b(?:double|float|Double|Float)\s+(?:(?i:\w*(?:price|amount|balance|cost|salary|fee"
        r"|money|payment|subtotal|refund|revenue|wage)\w*)|[a-z]\w*Total)\s*(?:[;=,)(]|$)"
        r"|\b(?:val|var)\s+(?i:\w*(?:price|amount|balance|cost|salary|fee|money|payment"
        r"|subtotal|refund|revenue|wage)\w*)\s*:\s*(?:Double|Float)\b",
        "",
        hits=(
            "private double totalAmount;",
            "public Invoice(String id, double price, int qty) {",
            "val balance: Double = 0.0",
            "float shippingFee = 4.99f;",
        ),
        safe=(
            "private BigDecimal totalAmount;",
            "double latitude = 52.52;",
            "val balance: BigDecimal = BigDecimal.ZERO",
            "int amountOfItems = 3;",
        ),
    ),
    pattern(
        "java-trust-all-certificates",
        "trust all certificates | trustmanager accepts | certificate validation disabled"
        " | hostname verification disabled | hostnameverifier true | disabled ssl"
        " verification | trust all certs"
        " | empty trustmanager | trust manager empty | checkservertrusted | noophostnameverifier",
        "java kotlin",
        r"\bcheckServerTrusted\s*\([^)]*\)\s*(?::\s*Unit\s*)?(?:throws\s+[\w.,\s]+)?"
        + EMPTY_BLOCK
        + r"|\bNoopHostnameVerifier\b|\bALLOW_ALL_HOSTNAME_VERIFIER\b|\bTrustAllStrategy\b"
        r"|\bTrustSelfSignedStrategy\b|\bInsecureTrustManagerFactory\b"
        r"|[hH]ostnameVerifier\s*(?:\(|=|\{)\s*\(?\s*\w+\s*,\s*\w+\s*\)?\s*->\s*true\b"
        r"|\bloadTrustMaterial\s*\(\s*[\w.]*\s*,\s*\(?\s*\w+\s*,\s*\w+\s*\)?\s*->\s*true\b"
        r"|\bverify\s*\(\s*(?:final\s+)?String\s+\w+\s*,\s*(?:final\s+)?SSLSession\s+\w+\s*\)"
        r"\s*\{\s*return\s+true",
        "",
        hits=(
            "public void checkServerTrusted(X509Certificate[] chain, String authType) {}",
            "HttpClients.custom().setSSLHostnameVerifier(NoopHostnameVerifier.INSTANCE)",
            "conn.setHostnameVerifier((host, session) -> true);",
            "builder.hostnameVerifier { _, _ -> true }",
            "override fun checkServerTrusted(chain: Array<X509Certificate>?, authType:"
            " String?) {\n}",
        ),
        safe=(
            "SSLContext ctx = SSLContexts.custom().loadTrustMaterial(trustStore, null).build();",
            "HttpClients.custom().setSSLHostnameVerifier(new DefaultHostnameVerifier())",
            "builder.certificatePinner(pinner)",
        ),
    ),
    pattern(
        "java-command-injection",
        "command injection | runtime exec | runtime.exec concatenated | shell injection"
        " processbuilder | sh -c processbuilder"
        " | runtime.getruntime exec",
        "java kotlin",
        r"\bRuntime\.getRuntime\(\)\.exec\s*\(\s*(?:\"[^\"\n]*\"\s*\+|\w+\s*\+"
        r"|\"[^\"\n]*\$\{?[a-zA-Z_]|String\.format)"
        r"|\"(?:/bin/|/usr/bin/)?(?:ba|z)?sh\"\s*,\s*\"-c\"\s*,"
        r"(?!\s*\"(?:[^\"$\n]|\$(?!\{?[a-z]))*\"\s*[,)])",
        "",
        hits=(
            'Runtime.getRuntime().exec("convert " + upload + " out.png");',
            'new ProcessBuilder("bash", "-c", cmd).start();',
            'Runtime.getRuntime().exec("ping -c 1 $host")',
            'new ProcessBuilder("/bin/sh", "-c", "tar xzf " + archive).start();',
        ),
        safe=(
            'new ProcessBuilder("git", "log", "--oneline", ref).start();',
            'Runtime.getRuntime().exec(new String[] {"convert", input, output});',
            'new ProcessBuilder("sh", "-c", "ls -la").start();',
        ),
    ),
    pattern(
        "kt-not-null-assertion",
        "not-null assertion | not null assertion | double bang kotlin | force unwrap kotlin"
        " | requireNotNull instead | kotlin nullpointerexception"
        " | use requirenotnull | operator nullpointerexception | double bang | bang bang "
        "operator",
        "kotlin",
        r"[\w)\]]!!(?=[.)\],;:?]|\s*$|\s+(?:as\b|\?:|[-+*/<>=!]|&&|\|\||[)},]))",
        "",
        hits=(
            "val email = user.email!!.lowercase()",
            "return repo.findByIdOrNull(id)!!",
            "send(order.customer!!, items[0]!!)",
        ),
        safe=(
            'val email = user.email?.lowercase() ?: ""',
            'val customer = requireNotNull(order.customer) { "order $id has no customer" }',
            "if (a != b && !isEmpty) {",
        ),
    ),
    pattern(
        "kt-run-blocking",
        "runblocking | run blocking coroutine | runBlocking inside coroutine | blocked"
        " coroutine thread | blocking call coroutine",
        "kotlin",
        r"\brunBlocking\b",
        r"\bfun\s+main\s*\(|@Test\b|\brunTest\b",
        hits=(
            "fun loadProfile(id: String): Profile = runBlocking {\napi.profile(id)\n}",
            "val user = runBlocking { repo.find(id) }",
            "suspend fun refresh() {\nrunBlocking(Dispatchers.IO) { cache.reload() }\n}",
        ),
        safe=(
            "fun main() = runBlocking {\nserver.start()\n}",
            "suspend fun loadProfile(id: String): Profile = withContext(Dispatchers.IO) {\n"
            "api.profile(id)\n}",
            "@Test\nfun loads() = runBlocking {\nassertEquals(1, repo.count())\n}",
        ),
    ),
    pattern(
        "kt-global-scope",
        "globalscope | global scope launch | globalscope.launch | structured concurrency"
        " | leaked coroutine",
        "kotlin",
        r"\bGlobalScope\s*\.\s*\w+",
        "",
        hits=(
            "GlobalScope.launch {\nanalytics.track(event)\n}",
            "val job = GlobalScope.async(Dispatchers.IO) { fetch() }",
            "GlobalScope.launch(Dispatchers.Main) { render() }",
        ),
        safe=(
            "viewModelScope.launch {\nanalytics.track(event)\n}",
            "scope.launch(Dispatchers.IO) { fetch() }",
            "coroutineScope {\nval a = async { fetch() }\n}",
        ),
    ),
    pattern(
        "kt-swallowed-cancellation",
        "cancellation exception swallowed | coroutine cancellation | cancellationexception rethrow"
        " | runcatching coroutine | runcatching suspend | catch exception suspend"
        " | cancellationexception swallowed | cancellationexception caught | cancellation "
        "swallowed",
        "kotlin",
        r"(?:\bsuspend\s+fun\b|\b(?:launch|async|withContext|coroutineScope|supervisorScope"
        r"|flow)\s*(?:\([^()\n]*\)\s*)?\{)[\s\S]{0,3000}?"
        r"(?:\bcatch\s*\(\s*\w+\s*:\s*(?:Exception|Throwable)\s*\)|\brunCatching\s*\{)",
        r"\bCancellationException\b|\bensureActive\s*\(",
        hits=(
            "suspend fun sync() {\ntry {\napi.push(changes)\n} catch (e: Exception) {\n"
            'log.warn("sync failed", e)\n}\n}',
            "suspend fun load(): Result<User> = runCatching {\napi.user()\n}",
            "override suspend fun doWork(): Result {\nreturn try { upload(); Result.success() }"
            " catch (t: Throwable) { Result.retry() }\n}",
        ),
        safe=(
            "suspend fun sync() {\ntry {\napi.push(changes)\n} catch (e: CancellationException)"
            ' {\nthrow e\n} catch (e: Exception) {\nlog.warn("sync failed", e)\n}\n}',
            "suspend fun sync() {\ntry {\napi.push(changes)\n} catch (e: IOException) {\n"
            "retry()\n}\n}",
            "fun parse(s: String) = runCatching { s.toInt() }",
        ),
    ),
    pattern(
        "kt-shared-preferences-secret",
        "sharedpreferences token | token stored sharedpreferences | password in shared"
        " preferences | encryptedsharedpreferences instead | secrets in sharedpreferences"
        " | datastore token plaintext"
        " | preferences token | datastore token | preferences unencrypted | sharedpreferences "
        "password",
        "kotlin java",
        r"\bputString\s*\(\s*(?:\"[^\"\n]*|[\w.]*?)"
        + _PREF_SECRET
        + r"|\bstringPreferencesKey\s*\(\s*\"[^\"\n]*"
        + _PREF_SECRET,
        r"\bEncryptedSharedPreferences\b|\bAndroidKeyStore\b",
        hits=(
            'prefs.edit().putString("auth_token", token).apply()',
            'editor.putString("password", password);',
            'val TOKEN = stringPreferencesKey("refreshToken")',
        ),
        safe=(
            'prefs.edit().putString("theme", "dark").apply()',
            'val prefs = EncryptedSharedPreferences.create(context, "secure", masterKey,\n'
            "PrefKeyEncryptionScheme.AES256_SIV, PrefValueEncryptionScheme.AES256_GCM)\n"
            'prefs.edit().putString("auth_token", token).apply()',
            'val LOCALE = stringPreferencesKey("locale")',
        ),
    ),
]
