"""Known mistakes in Java and Kotlin code (Spring: ``code_jvm_dotnet_spring``; C# and
.NET: ``code_jvm_dotnet_cs``): what SpotBugs, Error Prone, Sonar's Java rules, detekt, semgrep's
Java and Spring rules and the OWASP cheat sheets flag, and what agents writing JVM services
are known to get wrong."""

from __future__ import annotations

from xdb.engine.known.model import Pattern, near, pattern

# A block with nothing but comments in it.
_EMPTY_BLOCK = r"\{\s*(?:(?://[^\n]*|/\*[\s\S]*?\*/)\s*)*\}"
# Calls that run a SQL or JPQL string.
_RUNS_SQL = (
    r"\b(?:createQuery|createNativeQuery|createSQLQuery|executeQuery|executeUpdate"
    r"|executeLargeUpdate|execute|prepareStatement|prepareCall|addBatch|queryForObject"
    r"|queryForList|queryForMap|queryForRowSet|queryForStream|batchUpdate)\s*\(\s*"
)
# Not a constant (TABLE_NAME): what is concatenated is a value.
_VALUE = r"\s*\+\s*(?![A-Z][A-Z0-9_]*\b)[\w(]"
# A SQL condition left open for a value: "... WHERE name = '" or " AND id IN (".
_SQL_OPEN = (
    r'"[^"\n]*(?:\b(?i:where|and|or|set|having)\s+[\w.]+\s*'
    r"(?i:=|<>|!=|<=?|>=?|like|in\s*\()|\b(?i:values\s*\(|order\s+by)[^\"\n]*)\s*'?%?\s*"
)
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
# A resource a Java or Kotlin line opens (a stream, a file, a JDBC connection).
_OPENS = (
    r"(?:(?:new\s+)?[A-Z]\w*(?:<[^>\n]*>)?\(\s*)*(?:(?:new\s+)?(?:FileInputStream"
    r"|FileOutputStream|FileReader|FileWriter|RandomAccessFile|ZipFile|JarFile|ZipInputStream"
    r"|ZipOutputStream)\s*\(|[\w.]*(?:DriverManager|[dD]ataSource)\.getConnection\s*\("
    r"|Files\.(?:lines|list|walk|find|newBufferedReader|newBufferedWriter|newInputStream"
    r"|newOutputStream|newDirectoryStream)\s*\()"
)

PATTERNS: list[Pattern] = [
    pattern(
        "java-swallowed-exception",
        "swallowed exception | swallow exceptions | empty catch block | exception silently"
        " ignored | catch block empty | exceptions silently swallowed | ignored exception",
        "java kotlin",
        r"\bcatch\s*\([^)]*\)\s*" + _EMPTY_BLOCK + r"|\bcatch\s*\(\s*(?:final\s+)?"
        r"(?:Exception|Throwable|RuntimeException)\s+\w+\s*\)\s*\{\s*(?://[^\n]*\s*)*return"
        r"(?:\s+(?:null|false|-1|Optional\.empty\(\)|List\.of\(\)))?\s*;\s*\}"
        r"|\bcatch\s*\(\s*\w+\s*:\s*(?:Exception|Throwable)\s*\)\s*\{\s*(?:null|false)\s*\}",
        "",
        hits=(
            "try {\nsend(order);\n} catch (Exception e) {\n}",
            "} catch (IOException ignored) {\n// nothing to do\n}",
            "try {\nreturn parse(body);\n} catch (final RuntimeException ex) {\nreturn null;\n}",
            "val user = try { api.fetch(id) } catch (e: Exception) { null }",
            "} catch (e: Throwable) {}",
        ),
        safe=(
            'try {\nsend(order);\n} catch (IOException e) {\nlog.warn("send failed", e);\n'
            "throw new UncheckedIOException(e);\n}",
            '} catch (e: Exception) {\nlogger.error(e) { "sync failed" }\nthrow e\n}',
            "} catch (NumberFormatException e) {\nreturn OptionalInt.empty();\n}",
            "val port = try { raw.toInt() } catch (e: NumberFormatException) { 8080 }",
        ),
    ),
    pattern(
        "java-catch-generic-exception",
        "catch generic exception | catching exception broadly | broad exception catch | catch"
        " specific exception | catch throwable | overly broad catch | catching throwable",
        "java kotlin",
        r"\bcatch\s*\(\s*(?:final\s+)?(?:java\.lang\.)?(?:Exception|Throwable)\s+\w+\s*\)"
        r"|\bcatch\s*\(\s*\w+\s*:\s*(?:Exception|Throwable)\s*\)",
        "",
        hits=(
            'try {\nimporter.run(file);\n} catch (Exception e) {\nlog.error("import", e);\n}',
            "} catch (final Throwable t) {\nmetrics.increment();\n}",
            "} catch (err: Exception) {\nResult.failure(err)\n}",
        ),
        safe=(
            "} catch (IOException | SQLException e) {\nthrow new ImportFailed(e);\n}",
            "} catch (e: HttpException) {\nretry()\n}",
            "} catch (DataIntegrityViolationException ex) {\nreturn conflict();\n}",
        ),
    ),
    pattern(
        "java-print-stack-trace",
        "printStackTrace | print stack trace | printed stack trace | stack trace stderr"
        " | stack trace instead logger",
        "java kotlin",
        r"\.printStackTrace\s*\(\s*\)",
        "",
        hits=(
            "} catch (IOException e) {\ne.printStackTrace();\n}",
            "} catch (ex: Exception) {\nex.printStackTrace()\n}",
            "catch (SQLException sqlEx) { sqlEx.printStackTrace(); }",
        ),
        safe=(
            '} catch (IOException e) {\nlog.error("upload failed for {}", id, e);\n}',
            '} catch (ex: Exception) {\nlogger.warn(ex) { "retrying" }\n}',
            "e.printStackTrace(new PrintWriter(writer));",
        ),
    ),
    pattern(
        "java-sql-concatenation",
        "sql injection | string concatenation sql | concatenated query | jpql concatenation"
        " | prepared statement parameters | bind parameters query | parameterized query"
        " | query built with string",
        "java kotlin",
        _RUNS_SQL
        + r'"[^"\n]*"'
        + _VALUE
        + "|"
        + _RUNS_SQL
        + r'\w+\s*\+\s*"|'
        + _RUNS_SQL
        + r'"[^"\n]*\$\{?[a-zA-Z_]|'
        + _SQL_OPEN
        + r'"'
        + _VALUE
        + "|"
        + _SQL_OPEN
        + r"\$\{?[a-zA-Z_]"
        r'|String\.format\(\s*"[^"\n]*\b(?i:select|insert|update|delete)\b[^"\n]*%[sd]'
        r'|"[^"\n]*\b(?i:where|values)\b[^"\n]*%s[^"\n]*"\.formatted\(',
        "",
        hits=(
            'ResultSet rs = stmt.executeQuery("SELECT * FROM users WHERE email = \'" + email'
            ' + "\'");',
            'String jpql = "select o from Order o where o.customer.name = \'" + name + "\'";',
            'em.createQuery("from Invoice i where i.status = " + status).getResultList();',
            "val sql = \"SELECT id FROM accounts WHERE owner = '$owner'\"",
            'jdbcTemplate.queryForList(String.format("SELECT * FROM t WHERE id = %s", id));',
            'sql += " AND region IN (" + regions + ")";',
        ),
        safe=(
            'PreparedStatement ps = conn.prepareStatement("SELECT * FROM users WHERE email'
            ' = ?");\nps.setString(1, email);',
            'em.createQuery("select u from User u where u.name = :name", User.class)\n'
            '.setParameter("name", name);',
            'String sql = "SELECT id, name " +\n"FROM users WHERE id = ?";',
            'rs = stmt.executeQuery("SELECT * FROM " + TABLE_NAME + " WHERE id = ?");',
            'log.info("Selected " + rows + " rows from " + table);',
            'val sql = "SELECT * FROM accounts WHERE owner = \\$1"',
        ),
    ),
    pattern(
        "java-optional-get",
        "optional get | optional.get | nosuchelementexception optional | optional without"
        " ispresent | orElseThrow instead | optional empty get"
        " | nosuchelementexception get | get orelsethrow | optional ispresent | findbyid get | "
        "empty optional",
        "java kotlin",
        r"(?:\.(?:find\w*|max|min|reduce|ofNullable)\((?:[^()\n]|\([^()\n]*\))*\)"
        r"|\b(?:\w*Optional|optional\w*|opt[A-Z]\w*|opt|maybe[A-Z]\w*))\.get\(\)"
        # (a variable declared Optional, read with get() further on)
        r"|\bOptional<[^\n;=]*>\s+(?P<opt>\w+)\s*[=;][\s\S]{0,2000}?\b(?P=opt)\.get\(\)"
        r"|\b(?P<kopt>\w+)\s*:\s*Optional<[^\n=]*>\??\s*=[\s\S]{0,2000}?\b(?P=kopt)\.get\(\)",
        r"\.isPresent\(\)",
        hits=(
            "User user = userRepository.findById(id).get();",
            "Order latest = orders.stream().max(Comparator.comparing(Order::getCreatedAt)).get();",
            "String name = optName.get();",
            "val account = accountRepo.findByEmail(email).get()",
        ),
        safe=(
            "User user = userRepository.findById(id).orElseThrow(() -> new NotFound(id));",
            "if (maybeUser.isPresent()) {\nreturn maybeUser.get();\n}",
            "String v = cache.get(key);",
            "Result r = future.get();",
        ),
    ),
    pattern(
        "java-string-reference-equality",
        "compare string reference | strings compared reference | string reference equality"
        " | string identity comparison | strings equals method | string equals instead"
        " | comparing strings equals | objects equals string",
        "java",
        r'[\w)\]]\s*[!=]=\s*"[^"\n]*"\s*(?:\)|&&|\|\||;|\?|:)|"\s*[!=]=\s*[\w(]',
        "",
        hits=(
            'if (role == "ADMIN") {',
            'return status != "active";',
            'if ("POST" == request.getMethod()) {',
        ),
        safe=(
            'if ("ADMIN".equals(role)) {',
            "if (Objects.equals(a.getName(), b.getName())) {",
            "if (c == '\"' || count == 0 || value == null) {",
        ),
    ),
    pattern(
        "java-shared-simpledateformat",
        "SimpleDateFormat | simpledateformat thread safe | date format thread safe | shared"
        " dateformat | static dateformat | DateTimeFormatter instead"
        " | formatter threads dates | datetimeformatter threadlocal | datetimeformatter "
        "immutable | date formatter thread",
        "java kotlin",
        r"\bstatic\s+(?:final\s+)?(?:java\.text\.)?(?:Simple)?DateFormat\s+\w+"
        r"|\bstatic\b[^;\n]*=\s*new\s+SimpleDateFormat\b"
        r"|\b(?:companion\s+)?object\b[^{\n]*\{[^}]*\bva[lr]\s+\w+\s*(?::\s*\w+\s*)?="
        r"\s*SimpleDateFormat\s*\(",
        "",
        hits=(
            'private static final SimpleDateFormat FMT = new SimpleDateFormat("yyyy-MM-dd");',
            "static DateFormat isoFormat;",
            'public static final Format STAMP = new SimpleDateFormat("HH:mm:ss");',
            'companion object {\nprivate val DAY = SimpleDateFormat("yyyy-MM-dd")\n}',
        ),
        safe=(
            "private static final DateTimeFormatter FMT = DateTimeFormatter.ISO_LOCAL_DATE;",
            "private static final ThreadLocal<SimpleDateFormat> FMT =\n"
            'ThreadLocal.withInitial(() -> new SimpleDateFormat("yyyy-MM-dd"));',
            'SimpleDateFormat f = new SimpleDateFormat("yyyy");',
        ),
    ),
    pattern(
        "java-resource-not-closed",
        "try-with-resources | try with resources | stream not closed | connection not closed"
        " | resource leak closed | leaked connections | file handle leak | connection leak"
        " | unclosed stream | unclosed connection | too many open files | file descriptors",
        "java kotlin",
        r"^(?!try\b)[^\n]*=\s*" + _OPENS + r"[^\n]*;$"
        r"|^(?!try\b)[^\n]*\bFiles\.(?:lines|list|walk|find)\s*\([^\n]*;$"
        r"|^va[lr]\s+\w+[^=\n]*=\s*" + _OPENS + r"(?![^\n]*\.use\b)",
        r"\.use\s*[{(]|\bfinally\s*\{|\btry\s*\(\s*$",
        hits=(
            "FileInputStream in = new FileInputStream(file);\nbyte[] data = in.readAllBytes();",
            "Connection conn = dataSource.getConnection();\nPreparedStatement ps ="
            " conn.prepareStatement(SQL);",
            "BufferedReader reader = new BufferedReader(new FileReader(path));",
            'long count = Files.lines(logFile).filter(l -> l.contains("ERROR")).count();',
            "val input = FileInputStream(target)",
        ),
        safe=(
            "try (BufferedReader r = Files.newBufferedReader(path)) {\nreturn r.readLine();\n}",
            "try (Connection c = dataSource.getConnection();\nPreparedStatement ps ="
            " c.prepareStatement(SQL)) {",
            "List<String> lines = Files.readAllLines(path);",
            "val bytes = FileInputStream(target).use { it.readBytes() }",
        ),
    ),
    pattern(
        "java-thread-sleep-in-test",
        "thread.sleep test | thread sleep tests | sleep in tests | fixed sleep test"
        " | awaitility instead sleep | flaky test sleep"
        " | sleep test | use awaitility",
        "role:test",
        r"\bThread\.sleep\s*\(|\bTimeUnit\.\w+\.sleep\s*\(|\bSystemClock\.sleep\s*\(",
        "",
        hits=(
            "publisher.send(event);\nThread.sleep(2000);\nassertEquals(1, repo.count());",
            "TimeUnit.SECONDS.sleep(3);",
            "Thread.sleep(500L)",
        ),
        safe=(
            "await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertEquals(1,"
            " repo.count()));",
            "assertTrue(latch.await(5, TimeUnit.SECONDS));",
            "verify(mailer, timeout(1000)).send(any());",
        ),
    ),
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
        r"\b(?:new\s+)?BigDecimal\s*\(\s*-?\d*\.\d+(?:[eE][-+]?\d+)?[dDfF]?\s*[,)]",
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
        + _EMPTY_BLOCK
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
