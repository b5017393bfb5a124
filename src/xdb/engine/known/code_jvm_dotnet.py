"""Known mistakes in Java code: swallowed and over-broad exceptions, SQL built by
concatenation, ``Optional.get()``, reference equality of strings, a shared
``SimpleDateFormat``, resources left open and sleeps in tests, as SpotBugs, Error Prone,
Sonar's Java rules and semgrep flag them. Java's security, number and interrupt mistakes,
and Kotlin's: ``code_jvm_dotnet_sec_kotlin``; Spring: ``code_jvm_dotnet_spring``; C# and
.NET: ``code_jvm_dotnet_cs``."""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

# A block with nothing but comments in it.
EMPTY_BLOCK = r"\{\s*(?:(?://[^\n]*+|/\*[\s\S]*?\*/)\s*)*\}"
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
# A resource a Java or Kotlin line opens (a stream, a file, a JDBC connection).
_OPENS = (
    r"(?:(?:new\s+)?[A-Z]\w*(?:<[^>\n]*>)?\(\s*)*(?:(?:new\s+)?(?:FileInputStream"
    r"|FileOutputStream|FileReader|FileWriter|RandomAccessFile|ZipFile|JarFile|ZipInputStream"
    r"|ZipOutputStream)\s*\(|[\w.]*(?:DriverManager|[dD]ataSource)\.getConnection\s*\("
    r"|Files\.(?:lines|list|walk|find|newBufferedReader|newBufferedWriter|newInputStream"
    r"|newOutputStream|newDirectoryStream)\s*\(|[\w.()]*\.(?:getResourceAsStream|createStatement"
    r"|openStream)\s*\(|new\s+(?:Server)?Socket\s*\()"
)

PATTERNS: list[Pattern] = [
    pattern(
        "java-swallowed-exception",
        "swallowed exception | swallow exceptions | empty catch block | exception silently"
        " ignored | catch block empty | exceptions silently swallowed | ignored exception",
        "java kotlin",
        r"\bcatch\s*\([^)]*\)\s*" + EMPTY_BLOCK + r"|\bcatch\s*\(\s*(?:final\s+)?"
        r"(?:Exception|Throwable|RuntimeException)\s+\w+\s*\)\s*\{\s*(?://[^\n]*+\s*)*return"
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
        r"(?:\.(?:find\w*|max|min|reduce|ofNullable)\((?:[^()\n]|\([^()\n]*\))*\)\n?"
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
]
