# ruff: noqa: E501
"""Other ways of writing the code mistakes of modules code_jvm_dotnet,
code_jvm_dotnet_sec_kotlin, code_jvm_dotnet_cs, code_jvm_dotnet_cs_sec,
code_jvm_dotnet_spring, code_other, code_other_php, code_other_native and code_more_jvm,
and their safe twins (or near misses sharing their words).

Written blind, from each pattern's name, ``where`` and examples only, before its detector
was read: for every pattern three snippets that make the mistake as another engineer or
agent would write it (other identifiers, qualified names, generics, multi-line calls and
builder chains, equivalent APIs, Kotlin besides Java) and two that do the same thing the
safe way. Each is written whole to the path given (its extension gives its kind) and the
pattern's verdict on that call is checked: HIT for "hit", anything else for "safe".

Blind measurement (detectors as they stood): hits caught 297/339, safe right 226/226;
34 of the 113 patterns missed at least one hit. After widening the detectors: 339/339
and 226/226.
"""

VARIANTS: list[tuple[str, str, str, str]] = [  # (pattern name, "hit" | "safe", text, file path)
    # java-swallowed-exception
    (
        "java-swallowed-exception",
        "hit",
        r"""try {
    mailer.send(receipt);
} catch (MessagingException e) {
    // ignore, receipts are not critical
}""",
        "src/main/java/com/acme/billing/ReceiptSender.java",
    ),
    (
        "java-swallowed-exception",
        "hit",
        r"""val cfg = try {
    loadConfig(path)
} catch (ex: Exception) {
    null
}""",
        "src/main/kotlin/com/acme/config/ConfigLoader.kt",
    ),
    (
        "java-swallowed-exception",
        "hit",
        r"""try {
    channel.close();
} catch (Exception ignore) {}""",
        "src/main/java/com/acme/net/ChannelPool.java",
    ),
    (
        "java-swallowed-exception",
        "safe",
        r"""try {
    return Files.readString(path);
} catch (IOException e) {
    throw new UncheckedIOException("cannot read " + path, e);
}""",
        "src/main/java/com/acme/files/TemplateStore.java",
    ),
    (
        "java-swallowed-exception",
        "safe",
        r"""try {
    socket.close()
} catch (e: IOException) {
    logger.warn("close failed", e)
}""",
        "src/main/kotlin/com/acme/net/Connection.kt",
    ),
    # java-catch-generic-exception
    (
        "java-catch-generic-exception",
        "hit",
        r"""try {
    client.post(payload);
} catch (Exception ex) {
    LOG.warn("post failed: {}", ex.getMessage());
}""",
        "src/main/java/com/acme/webhooks/WebhookClient.java",
    ),
    (
        "java-catch-generic-exception",
        "hit",
        r"""} catch (t: Throwable) {
    logger.error(t) { "job failed" }
}""",
        "src/main/kotlin/com/acme/jobs/NightlyJob.kt",
    ),
    (
        "java-catch-generic-exception",
        "hit",
        r"""try {
    return repository.save(entity);
} catch (java.lang.Exception e) {
    throw new ServiceException(e);
}""",
        "src/main/java/com/acme/orders/OrderService.java",
    ),
    (
        "java-catch-generic-exception",
        "safe",
        r"""} catch (UserNotFoundException e) {
    return ResponseEntity.notFound().build();
}""",
        "src/main/java/com/acme/users/UserController.java",
    ),
    (
        "java-catch-generic-exception",
        "safe",
        r"""} catch (e: SQLException) {
    connection.rollback()
}""",
        "src/main/kotlin/com/acme/db/TxRunner.kt",
    ),
    # java-print-stack-trace
    (
        "java-print-stack-trace",
        "hit",
        r"""} catch (ParseException pe) {
    pe.printStackTrace();
    return null;
}""",
        "src/main/java/com/acme/dates/DateParser.java",
    ),
    (
        "java-print-stack-trace",
        "hit",
        r"""} catch (t: Throwable) {
    t.printStackTrace()
}""",
        "src/main/kotlin/com/acme/sync/SyncWorker.kt",
    ),
    (
        "java-print-stack-trace",
        "hit",
        r"""future.exceptionally(ex -> {
    ex.printStackTrace();
    return null;
});""",
        "src/main/java/com/acme/async/Dispatcher.java",
    ),
    (
        "java-print-stack-trace",
        "safe",
        r"""} catch (ParseException pe) {
    log.warn("bad date {}", raw, pe);
}""",
        "src/main/java/com/acme/dates/DateParser.java",
    ),
    (
        "java-print-stack-trace",
        "safe",
        r"""StringWriter sw = new StringWriter();
ex.printStackTrace(new PrintWriter(sw));
report.setTrace(sw.toString());""",
        "src/main/java/com/acme/errors/CrashReporter.java",
    ),
    # java-sql-concatenation
    (
        "java-sql-concatenation",
        "hit",
        r"""String q = "DELETE FROM sessions WHERE user_id = " + userId;
statement.executeUpdate(q);""",
        "src/main/java/com/acme/auth/SessionDao.java",
    ),
    (
        "java-sql-concatenation",
        "hit",
        r"""val balance = jdbc.queryForObject("SELECT balance FROM accounts WHERE id = ${accountId}", Long::class.java)""",
        "src/main/kotlin/com/acme/accounts/AccountDao.kt",
    ),
    (
        "java-sql-concatenation",
        "hit",
        r"""Query q = entityManager.createNativeQuery(
    "SELECT * FROM orders WHERE status = '" + status + "' ORDER BY id");""",
        "src/main/java/com/acme/orders/OrderQueries.java",
    ),
    (
        "java-sql-concatenation",
        "safe",
        r"""List<Order> orders = jdbcTemplate.query("SELECT * FROM orders WHERE customer_id = ?", rowMapper, customerId);""",
        "src/main/java/com/acme/orders/OrderDao.java",
    ),
    (
        "java-sql-concatenation",
        "safe",
        r"""val rows = named.queryForList("SELECT id FROM accounts WHERE owner = :owner", MapSqlParameterSource("owner", owner))""",
        "src/main/kotlin/com/acme/accounts/AccountDao.kt",
    ),
    # java-optional-get
    (
        "java-optional-get",
        "hit",
        r"""Customer c = customerRepository.findByEmail(email).get();""",
        "src/main/java/com/acme/customers/CustomerService.java",
    ),
    (
        "java-optional-get",
        "hit",
        r"""val price = prices.stream().filter { it.sku == sku }.findFirst().get()""",
        "src/main/kotlin/com/acme/pricing/PriceBook.kt",
    ),
    (
        "java-optional-get",
        "hit",
        r"""Optional<Invoice> invoice = invoiceRepo.findById(invoiceId);
return invoice.get().getTotal();""",
        "src/main/java/com/acme/billing/InvoiceService.java",
    ),
    (
        "java-optional-get",
        "safe",
        r"""Customer c = customerRepository.findByEmail(email).orElseThrow(CustomerNotFoundException::new);""",
        "src/main/java/com/acme/customers/CustomerService.java",
    ),
    (
        "java-optional-get",
        "safe",
        r"""String auth = headers.get("Authorization");
return invoiceRepo.findById(id).map(Invoice::getTotal).orElse(BigDecimal.ZERO);""",
        "src/main/java/com/acme/billing/InvoiceService.java",
    ),
    # java-string-reference-equality
    (
        "java-string-reference-equality",
        "hit",
        r"""if (user.getRole() == "admin") {
    grantAll();
}""",
        "src/main/java/com/acme/security/RoleChecker.java",
    ),
    (
        "java-string-reference-equality",
        "hit",
        r"""boolean isGet = method == "GET";""",
        "src/main/java/com/acme/http/RequestRouter.java",
    ),
    (
        "java-string-reference-equality",
        "hit",
        r"""return type == "invoice" ? DocType.INVOICE : DocType.OTHER;""",
        "src/main/java/com/acme/docs/DocTypes.java",
    ),
    (
        "java-string-reference-equality",
        "safe",
        r"""if ("admin".equalsIgnoreCase(user.getRole())) {""",
        "src/main/java/com/acme/security/RoleChecker.java",
    ),
    (
        "java-string-reference-equality",
        "safe",
        r"""if (status == Status.ACTIVE && name != null) {""",
        "src/main/java/com/acme/users/UserFilter.java",
    ),
    # java-shared-simpledateformat
    (
        "java-shared-simpledateformat",
        "hit",
        r"""private static SimpleDateFormat dateFormat = new SimpleDateFormat("dd/MM/yyyy HH:mm");""",
        "src/main/java/com/acme/reports/ReportFormatter.java",
    ),
    (
        "java-shared-simpledateformat",
        "hit",
        r"""public static final java.text.DateFormat ISO = new java.text.SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss");""",
        "src/main/java/com/acme/util/Dates.java",
    ),
    (
        "java-shared-simpledateformat",
        "hit",
        r"""object Dates {
    val FORMAT = SimpleDateFormat("yyyyMMdd", Locale.US)
}""",
        "src/main/kotlin/com/acme/util/Dates.kt",
    ),
    (
        "java-shared-simpledateformat",
        "safe",
        r"""private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("dd/MM/yyyy HH:mm");""",
        "src/main/java/com/acme/reports/ReportFormatter.java",
    ),
    (
        "java-shared-simpledateformat",
        "safe",
        r"""public String format(Date d) {
    DateFormat f = new SimpleDateFormat("yyyy-MM-dd");
    return f.format(d);
}""",
        "src/main/java/com/acme/util/Dates.java",
    ),
    # java-resource-not-closed
    (
        "java-resource-not-closed",
        "hit",
        r"""InputStream is = new FileInputStream(new File(dir, name));
Properties p = new Properties();
p.load(is);""",
        "src/main/java/com/acme/config/PropertiesLoader.java",
    ),
    (
        "java-resource-not-closed",
        "hit",
        r"""Stream<Path> files = Files.walk(root);
return files.filter(Files::isRegularFile).collect(Collectors.toList());""",
        "src/main/java/com/acme/files/Scanner.java",
    ),
    (
        "java-resource-not-closed",
        "hit",
        r"""val reader = BufferedReader(FileReader(file))
val header = reader.readLine()""",
        "src/main/kotlin/com/acme/csv/CsvImporter.kt",
    ),
    (
        "java-resource-not-closed",
        "safe",
        r"""try (InputStream is = new FileInputStream(file)) {
    props.load(is);
}""",
        "src/main/java/com/acme/config/PropertiesLoader.java",
    ),
    (
        "java-resource-not-closed",
        "safe",
        r"""File(path).bufferedReader().use { r ->
    header = r.readLine()
}""",
        "src/main/kotlin/com/acme/csv/CsvImporter.kt",
    ),
    # java-thread-sleep-in-test
    (
        "java-thread-sleep-in-test",
        "hit",
        r"""kafkaTemplate.send("orders", order);
Thread.sleep(3_000);
assertThat(repo.findAll()).hasSize(1);""",
        "src/test/java/com/acme/orders/OrderListenerTest.java",
    ),
    (
        "java-thread-sleep-in-test",
        "hit",
        r"""service.start()
Thread.sleep(1000)
assertTrue(service.isRunning)""",
        "src/test/kotlin/com/acme/sync/SyncServiceTest.kt",
    ),
    (
        "java-thread-sleep-in-test",
        "hit",
        r"""cache.put("k", "v");
TimeUnit.MILLISECONDS.sleep(750);
assertNull(cache.get("k"));""",
        "src/test/java/com/acme/cache/ExpiringCacheTest.java",
    ),
    (
        "java-thread-sleep-in-test",
        "safe",
        r"""await().atMost(10, SECONDS).until(() -> repo.count() == 1);""",
        "src/test/java/com/acme/orders/OrderListenerTest.java",
    ),
    (
        "java-thread-sleep-in-test",
        "safe",
        r"""verify(publisher, timeout(2000).times(1)).publish(any());""",
        "src/test/java/com/acme/events/PublisherTest.java",
    ),
    # java-jackson-default-typing
    (
        "java-jackson-default-typing",
        "hit",
        r"""ObjectMapper mapper = new ObjectMapper();
mapper.enableDefaultTyping(ObjectMapper.DefaultTyping.NON_FINAL);""",
        "src/main/java/com/acme/json/JsonConfig.java",
    ),
    (
        "java-jackson-default-typing",
        "hit",
        r"""val mapper = JsonMapper.builder()
    .activateDefaultTyping(LaissezFaireSubTypeValidator.instance, ObjectMapper.DefaultTyping.EVERYTHING)
    .build()""",
        "src/main/kotlin/com/acme/json/Mappers.kt",
    ),
    (
        "java-jackson-default-typing",
        "hit",
        r"""@JsonTypeInfo(use = Id.CLASS, include = As.PROPERTY, property = "type")
public abstract class Event {""",
        "src/main/java/com/acme/events/Event.java",
    ),
    (
        "java-jackson-default-typing",
        "safe",
        r"""PolymorphicTypeValidator ptv = BasicPolymorphicTypeValidator.builder()
    .allowIfBaseType(Event.class)
    .build();
mapper.activateDefaultTyping(ptv, ObjectMapper.DefaultTyping.NON_FINAL);""",
        "src/main/java/com/acme/json/JsonConfig.java",
    ),
    (
        "java-jackson-default-typing",
        "safe",
        r"""@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.EXISTING_PROPERTY, property = "kind")""",
        "src/main/java/com/acme/events/Event.java",
    ),
    # java-object-input-stream
    (
        "java-object-input-stream",
        "hit",
        r"""try (ObjectInputStream ois = new ObjectInputStream(socket.getInputStream())) {
    Command cmd = (Command) ois.readObject();""",
        "src/main/java/com/acme/rpc/CommandServer.java",
    ),
    (
        "java-object-input-stream",
        "hit",
        r"""val obj = ObjectInputStream(ByteArrayInputStream(payload)).use { it.readObject() }""",
        "src/main/kotlin/com/acme/cache/BlobCodec.kt",
    ),
    (
        "java-object-input-stream",
        "hit",
        r"""Object state = org.apache.commons.lang3.SerializationUtils.deserialize(Base64.getDecoder().decode(cookie));""",
        "src/main/java/com/acme/web/StateCookie.java",
    ),
    (
        "java-object-input-stream",
        "safe",
        r"""ObjectInputStream ois = new ObjectInputStream(in);
ois.setObjectInputFilter(ObjectInputFilter.Config.createFilter("com.acme.model.*;java.base/*;!*"));""",
        "src/main/java/com/acme/rpc/CommandServer.java",
    ),
    (
        "java-object-input-stream",
        "safe",
        r"""Command cmd = objectMapper.readValue(socket.getInputStream(), Command.class);""",
        "src/main/java/com/acme/rpc/CommandServer.java",
    ),
    # java-xxe
    (
        "java-xxe",
        "hit",
        r"""DocumentBuilder builder = DocumentBuilderFactory.newInstance().newDocumentBuilder();
Document doc = builder.parse(new InputSource(new StringReader(xml)));""",
        "src/main/java/com/acme/xml/InvoiceParser.java",
    ),
    (
        "java-xxe",
        "hit",
        r"""val factory = SAXParserFactory.newInstance()
factory.newSAXParser().parse(input, handler)""",
        "src/main/kotlin/com/acme/xml/FeedReader.kt",
    ),
    (
        "java-xxe",
        "hit",
        r"""XMLStreamReader r = XMLInputFactory.newInstance().createXMLStreamReader(in);""",
        "src/main/java/com/acme/xml/StaxImporter.java",
    ),
    (
        "java-xxe",
        "safe",
        r"""DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
f.setExpandEntityReferences(false);""",
        "src/main/java/com/acme/xml/InvoiceParser.java",
    ),
    (
        "java-xxe",
        "safe",
        r"""val spf = SAXParserFactory.newInstance()
spf.setFeature("http://xml.org/sax/features/external-general-entities", false)
spf.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true)""",
        "src/main/kotlin/com/acme/xml/FeedReader.kt",
    ),
    # java-fast-hash-password
    (
        "java-fast-hash-password",
        "hit",
        r"""String hashed = DigestUtils.md5Hex(password);""",
        "src/main/java/com/acme/auth/UserRegistration.java",
    ),
    (
        "java-fast-hash-password",
        "hit",
        r"""MessageDigest digest = MessageDigest.getInstance("SHA-256");
byte[] hashed = digest.digest(user.getPassword().getBytes(StandardCharsets.UTF_8));""",
        "src/main/java/com/acme/auth/PasswordService.java",
    ),
    (
        "java-fast-hash-password",
        "hit",
        r"""val pwHash = Hashing.sha256().hashString(request.password, Charsets.UTF_8).toString()""",
        "src/main/kotlin/com/acme/auth/SignupHandler.kt",
    ),
    (
        "java-fast-hash-password",
        "safe",
        r"""String hashed = new BCryptPasswordEncoder().encode(password);""",
        "src/main/java/com/acme/auth/UserRegistration.java",
    ),
    (
        "java-fast-hash-password",
        "safe",
        r"""byte[] checksum = MessageDigest.getInstance("MD5").digest(fileContent);""",
        "src/main/java/com/acme/files/Checksums.java",
    ),
    # java-insecure-random-token
    (
        "java-insecure-random-token",
        "hit",
        r"""String otp = String.format("%06d", new Random().nextInt(1_000_000));""",
        "src/main/java/com/acme/auth/OtpService.java",
    ),
    (
        "java-insecure-random-token",
        "hit",
        r"""val apiToken = List(32) { chars[Random.nextInt(chars.size)] }.joinToString("")""",
        "src/main/kotlin/com/acme/keys/ApiKeyFactory.kt",
    ),
    (
        "java-insecure-random-token",
        "hit",
        r"""String sessionToken = Long.toHexString(ThreadLocalRandom.current().nextLong());""",
        "src/main/java/com/acme/auth/SessionFactory.java",
    ),
    (
        "java-insecure-random-token",
        "safe",
        r"""byte[] bytes = new byte[32];
new SecureRandom().nextBytes(bytes);
String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);""",
        "src/main/java/com/acme/auth/SessionFactory.java",
    ),
    (
        "java-insecure-random-token",
        "safe",
        r"""long backoff = base + new Random().nextInt(500);""",
        "src/main/java/com/acme/retry/Backoff.java",
    ),
    # java-interrupted-exception-swallowed
    (
        "java-interrupted-exception-swallowed",
        "hit",
        r"""try {
    queue.put(msg);
} catch (InterruptedException ex) {
    LOG.error("put interrupted", ex);
}""",
        "src/main/java/com/acme/queue/Producer.java",
    ),
    (
        "java-interrupted-exception-swallowed",
        "hit",
        r"""try {
    Thread.sleep(delayMs)
} catch (ie: InterruptedException) {
    // ignore
}""",
        "src/main/kotlin/com/acme/retry/Retrier.kt",
    ),
    (
        "java-interrupted-exception-swallowed",
        "hit",
        r"""try {
    return future.get();
} catch (InterruptedException | ExecutionException e) {
    throw new RuntimeException(e);
}""",
        "src/main/java/com/acme/async/Results.java",
    ),
    (
        "java-interrupted-exception-swallowed",
        "safe",
        r"""} catch (InterruptedException ex) {
    Thread.currentThread().interrupt();
    return;
}""",
        "src/main/java/com/acme/queue/Producer.java",
    ),
    (
        "java-interrupted-exception-swallowed",
        "safe",
        r"""void drain() throws InterruptedException {
    while (running) process(queue.take());
}""",
        "src/main/java/com/acme/queue/Consumer.java",
    ),
    # java-bigdecimal-from-double
    (
        "java-bigdecimal-from-double",
        "hit",
        r"""BigDecimal discount = new BigDecimal(0.15).multiply(price);""",
        "src/main/java/com/acme/pricing/Discounts.java",
    ),
    (
        "java-bigdecimal-from-double",
        "hit",
        r"""java.math.BigDecimal half = new java.math.BigDecimal(1.5);""",
        "src/main/java/com/acme/pricing/Rounding.java",
    ),
    (
        "java-bigdecimal-from-double",
        "hit",
        r"""val tax = BigDecimal(0.2).setScale(2, RoundingMode.HALF_UP)""",
        "src/main/kotlin/com/acme/tax/TaxRates.kt",
    ),
    (
        "java-bigdecimal-from-double",
        "safe",
        r"""BigDecimal discount = new BigDecimal("0.15").multiply(price);""",
        "src/main/java/com/acme/pricing/Discounts.java",
    ),
    (
        "java-bigdecimal-from-double",
        "safe",
        r"""val tax = BigDecimal.valueOf(0.2)""",
        "src/main/kotlin/com/acme/tax/TaxRates.kt",
    ),
    # java-double-for-money
    (
        "java-double-for-money",
        "hit",
        r"""private Double unitPrice;""",
        "src/main/java/com/acme/catalog/Product.java",
    ),
    (
        "java-double-for-money",
        "hit",
        r"""public double calculateTotal(List<LineItem> items) {""",
        "src/main/java/com/acme/cart/CartCalculator.java",
    ),
    (
        "java-double-for-money",
        "hit",
        r"""data class Payment(val id: String, val amount: Double)""",
        "src/main/kotlin/com/acme/payments/Payment.kt",
    ),
    (
        "java-double-for-money",
        "safe",
        r"""private long amountCents;""",
        "src/main/java/com/acme/payments/Payment.java",
    ),
    (
        "java-double-for-money",
        "safe",
        r"""data class Point(val lat: Double, val lng: Double)""",
        "src/main/kotlin/com/acme/geo/Point.kt",
    ),
    # java-trust-all-certificates
    (
        "java-trust-all-certificates",
        "hit",
        r"""TrustManager[] trustAll = new TrustManager[] { new X509TrustManager() {
    public void checkClientTrusted(X509Certificate[] c, String a) {}
    public void checkServerTrusted(X509Certificate[] c, String a) {}
    public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }
}};""",
        "src/main/java/com/acme/http/InsecureSsl.java",
    ),
    (
        "java-trust-all-certificates",
        "hit",
        r"""HttpsURLConnection.setDefaultHostnameVerifier((hostname, sslSession) -> true);""",
        "src/main/java/com/acme/http/LegacyClient.java",
    ),
    (
        "java-trust-all-certificates",
        "hit",
        r"""SSLContext ctx = SSLContexts.custom()
    .loadTrustMaterial(null, (chain, authType) -> true)
    .build();""",
        "src/main/java/com/acme/http/ApacheClientFactory.java",
    ),
    (
        "java-trust-all-certificates",
        "safe",
        r"""SSLContext ctx = SSLContext.getInstance("TLS");
ctx.init(null, tmf.getTrustManagers(), new SecureRandom());""",
        "src/main/java/com/acme/http/TlsConfig.java",
    ),
    (
        "java-trust-all-certificates",
        "safe",
        r"""val client = OkHttpClient.Builder()
    .certificatePinner(CertificatePinner.Builder().add("api.acme.com", pin).build())
    .build()""",
        "src/main/kotlin/com/acme/http/ClientFactory.kt",
    ),
    # java-command-injection
    (
        "java-command-injection",
        "hit",
        r"""Process p = Runtime.getRuntime().exec("ffmpeg -i " + inputPath + " " + outputPath);""",
        "src/main/java/com/acme/media/Transcoder.java",
    ),
    (
        "java-command-injection",
        "hit",
        r"""ProcessBuilder("sh", "-c", "grep $pattern /var/log/app.log").start()""",
        "src/main/kotlin/com/acme/logs/LogSearch.kt",
    ),
    (
        "java-command-injection",
        "hit",
        r"""Runtime.getRuntime().exec(new String[] {"/bin/bash", "-c", "unzip " + zipFile});""",
        "src/main/java/com/acme/imports/ZipImporter.java",
    ),
    (
        "java-command-injection",
        "safe",
        r"""ProcessBuilder pb = new ProcessBuilder("ffmpeg", "-i", inputPath, outputPath);
pb.redirectErrorStream(true).start();""",
        "src/main/java/com/acme/media/Transcoder.java",
    ),
    (
        "java-command-injection",
        "safe",
        r"""ProcessBuilder(listOf("grep", "--", pattern, "/var/log/app.log")).start()""",
        "src/main/kotlin/com/acme/logs/LogSearch.kt",
    ),
    # kt-not-null-assertion
    (
        "kt-not-null-assertion",
        "hit",
        r"""val token = prefs.getString("token", null)!!""",
        "app/src/main/java/com/acme/shop/auth/TokenStore.kt",
    ),
    (
        "kt-not-null-assertion",
        "hit",
        r"""binding!!.title.text = item.name""",
        "app/src/main/java/com/acme/shop/ui/ItemFragment.kt",
    ),
    (
        "kt-not-null-assertion",
        "hit",
        r"""val id = intent.extras!!.getLong("id")""",
        "app/src/main/java/com/acme/shop/ui/DetailActivity.kt",
    ),
    (
        "kt-not-null-assertion",
        "safe",
        r"""val token = prefs.getString("token", null) ?: return""",
        "app/src/main/java/com/acme/shop/auth/TokenStore.kt",
    ),
    (
        "kt-not-null-assertion",
        "safe",
        r"""val label = if (count != 0 && !hidden) "x" else "y"
check(user != null) { "no user" }""",
        "app/src/main/java/com/acme/shop/ui/Badge.kt",
    ),
    # kt-run-blocking
    (
        "kt-run-blocking",
        "hit",
        r"""override fun onBindViewHolder(holder: VH, position: Int) {
    val img = runBlocking { loader.load(urls[position]) }
    holder.bind(img)
}""",
        "app/src/main/java/com/acme/shop/ui/GalleryAdapter.kt",
    ),
    (
        "kt-run-blocking",
        "hit",
        r"""@GetMapping("/orders/{id}")
fun get(@PathVariable id: Long): Order = runBlocking {
    service.find(id)
}""",
        "src/main/kotlin/com/acme/orders/OrderController.kt",
    ),
    (
        "kt-run-blocking",
        "hit",
        r"""fun token(): String = kotlinx.coroutines.runBlocking(Dispatchers.IO) {
    authClient.fetchToken()
}""",
        "src/main/kotlin/com/acme/auth/TokenProvider.kt",
    ),
    (
        "kt-run-blocking",
        "safe",
        r"""suspend fun token(): String = withContext(Dispatchers.IO) {
    authClient.fetchToken()
}""",
        "src/main/kotlin/com/acme/auth/TokenProvider.kt",
    ),
    (
        "kt-run-blocking",
        "safe",
        r"""fun main(args: Array<String>) = runBlocking<Unit> {
    app.run(args)
}""",
        "src/main/kotlin/com/acme/Main.kt",
    ),
    # kt-global-scope
    (
        "kt-global-scope",
        "hit",
        r"""GlobalScope.launch(Dispatchers.IO) {
    repository.syncAll()
}""",
        "app/src/main/java/com/acme/shop/sync/SyncStarter.kt",
    ),
    (
        "kt-global-scope",
        "hit",
        r"""kotlinx.coroutines.GlobalScope.launch { cache.warmUp() }""",
        "src/main/kotlin/com/acme/cache/CacheWarmer.kt",
    ),
    (
        "kt-global-scope",
        "hit",
        r"""fun prefetch(ids: List<Long>) = ids.map { GlobalScope.async { api.fetch(it) } }""",
        "src/main/kotlin/com/acme/catalog/Prefetcher.kt",
    ),
    (
        "kt-global-scope",
        "safe",
        r"""lifecycleScope.launch {
    repository.syncAll()
}""",
        "app/src/main/java/com/acme/shop/sync/SyncStarter.kt",
    ),
    (
        "kt-global-scope",
        "safe",
        r"""private val scope = CoroutineScope(SupervisorJob() + Dispatchers.IO)
fun warm() = scope.launch { cache.warmUp() }""",
        "src/main/kotlin/com/acme/cache/CacheWarmer.kt",
    ),
    # kt-swallowed-cancellation
    (
        "kt-swallowed-cancellation",
        "hit",
        r"""suspend fun refresh(): List<Item> {
    return try {
        api.items()
    } catch (e: Throwable) {
        emptyList()
    }
}""",
        "app/src/main/java/com/acme/shop/data/ItemRepository.kt",
    ),
    (
        "kt-swallowed-cancellation",
        "hit",
        r"""viewModelScope.launch {
    try {
        _state.value = repo.load()
    } catch (e: Exception) {
        _error.value = e.message
    }
}""",
        "app/src/main/java/com/acme/shop/ui/OrdersViewModel.kt",
    ),
    (
        "kt-swallowed-cancellation",
        "hit",
        r"""override suspend fun doWork(): Result = runCatching {
    uploader.upload(file)
}.fold({ Result.success() }, { Result.retry() })""",
        "app/src/main/java/com/acme/shop/work/UploadWorker.kt",
    ),
    (
        "kt-swallowed-cancellation",
        "safe",
        r"""suspend fun refresh(): List<Item> {
    return try {
        api.items()
    } catch (e: IOException) {
        emptyList()
    }
}""",
        "app/src/main/java/com/acme/shop/data/ItemRepository.kt",
    ),
    (
        "kt-swallowed-cancellation",
        "safe",
        r"""suspend fun refresh() {
    try {
        repo.reload()
    } catch (e: Exception) {
        if (e is CancellationException) throw e
        log.warn("refresh failed", e)
    }
}""",
        "app/src/main/java/com/acme/shop/data/Refresher.kt",
    ),
    # kt-shared-preferences-secret
    (
        "kt-shared-preferences-secret",
        "hit",
        r"""getSharedPreferences("session", MODE_PRIVATE).edit()
    .putString("access_token", response.accessToken)
    .apply()""",
        "app/src/main/java/com/acme/shop/auth/LoginActivity.kt",
    ),
    (
        "kt-shared-preferences-secret",
        "hit",
        r"""prefs.edit().putString(KEY_PASSWORD, password).commit();""",
        "app/src/main/java/com/acme/shop/auth/CredentialStore.java",
    ),
    (
        "kt-shared-preferences-secret",
        "hit",
        r"""sharedPreferences.edit { putString("api_key", apiKey) }""",
        "app/src/main/java/com/acme/shop/settings/ApiSettings.kt",
    ),
    (
        "kt-shared-preferences-secret",
        "safe",
        r"""prefs.edit { putString("last_screen", route) }""",
        "app/src/main/java/com/acme/shop/nav/NavState.kt",
    ),
    (
        "kt-shared-preferences-secret",
        "safe",
        r"""val prefs = EncryptedSharedPreferences.create(
    "secure_prefs", masterKeyAlias, context,
    EncryptedSharedPreferences.PrefKeyEncryptionScheme.AES256_SIV,
    EncryptedSharedPreferences.PrefValueEncryptionScheme.AES256_GCM)
prefs.edit().putString("access_token", token).apply()""",
        "app/src/main/java/com/acme/shop/auth/SecureStore.kt",
    ),
    # cs-async-void
    (
        "cs-async-void",
        "hit",
        r"""public async void ProcessOrderAsync(Guid orderId)
{
    await _orders.ProcessAsync(orderId);
}""",
        "Services/OrderProcessor.cs",
    ),
    (
        "cs-async-void",
        "hit",
        r"""internal static async void FireAndForget(Task task) {
    await task;
}""",
        "Infrastructure/TaskExtensions.cs",
    ),
    (
        "cs-async-void",
        "hit",
        r"""Action<Order> handler = async o => await _bus.PublishAsync(o);""",
        "Messaging/OrderPublisher.cs",
    ),
    (
        "cs-async-void",
        "safe",
        r"""public async Task ProcessOrderAsync(Guid orderId, CancellationToken ct)
{
    await _orders.ProcessAsync(orderId, ct);
}""",
        "Services/OrderProcessor.cs",
    ),
    (
        "cs-async-void",
        "safe",
        r"""private async void btnSave_Click(object sender, EventArgs e)
{
    await SaveAsync();
}""",
        "Forms/MainForm.cs",
    ),
    # cs-sync-over-async
    (
        "cs-sync-over-async",
        "hit",
        r"""var response = _http.GetAsync(url).Result;""",
        "Clients/RatesClient.cs",
    ),
    (
        "cs-sync-over-async",
        "hit",
        r"""var orders = _repo.GetOrdersAsync(customerId).ConfigureAwait(false).GetAwaiter().GetResult();""",
        "Services/OrderService.cs",
    ),
    (
        "cs-sync-over-async",
        "hit",
        r"""SendEmailAsync(msg).Wait(TimeSpan.FromSeconds(5));""",
        "Services/Notifier.cs",
    ),
    (
        "cs-sync-over-async",
        "safe",
        r"""var response = await _http.GetAsync(url, ct);""",
        "Clients/RatesClient.cs",
    ),
    (
        "cs-sync-over-async",
        "safe",
        r"""if (!await _lock.WaitAsync(TimeSpan.FromSeconds(1))) return;""",
        "Services/Notifier.cs",
    ),
    # cs-new-httpclient
    (
        "cs-new-httpclient",
        "hit",
        r"""public async Task<string> FetchAsync(string url)
{
    using var client = new HttpClient();
    return await client.GetStringAsync(url);
}""",
        "Services/FeedFetcher.cs",
    ),
    (
        "cs-new-httpclient",
        "hit",
        r"""var http = new System.Net.Http.HttpClient();
http.DefaultRequestHeaders.Add("X-Api-Key", _key);""",
        "Clients/WeatherClient.cs",
    ),
    (
        "cs-new-httpclient",
        "hit",
        r"""using (HttpClient c = new HttpClient(handler))
{
    var res = await c.PostAsJsonAsync(uri, body);
}""",
        "Services/WebhookSender.cs",
    ),
    (
        "cs-new-httpclient",
        "safe",
        r"""private static readonly HttpClient SharedClient = new() { Timeout = TimeSpan.FromSeconds(10) };""",
        "Clients/WeatherClient.cs",
    ),
    (
        "cs-new-httpclient",
        "safe",
        r"""builder.Services.AddHttpClient("payments", c => c.BaseAddress = new Uri(cfg["Payments:Url"]!));""",
        "Program.cs",
    ),
    # cs-dbcontext-lifetime
    (
        "cs-dbcontext-lifetime",
        "hit",
        r"""builder.Services.AddSingleton<OrdersDbContext>(sp => new OrdersDbContext(options));""",
        "Program.cs",
    ),
    (
        "cs-dbcontext-lifetime",
        "hit",
        r"""services.AddDbContext<BillingContext>(opt => opt.UseSqlServer(conn), contextLifetime: ServiceLifetime.Singleton);""",
        "Startup.cs",
    ),
    (
        "cs-dbcontext-lifetime",
        "hit",
        r"""public class ReportCache
{
    private static AppDbContext _db = new();""",
        "Reports/ReportCache.cs",
    ),
    (
        "cs-dbcontext-lifetime",
        "safe",
        r"""builder.Services.AddDbContextPool<OrdersDbContext>(o => o.UseNpgsql(connString));""",
        "Program.cs",
    ),
    (
        "cs-dbcontext-lifetime",
        "safe",
        r"""services.AddSingleton<IClock, SystemClock>();""",
        "Startup.cs",
    ),
    # cs-sql-interpolation
    (
        "cs-sql-interpolation",
        "hit",
        r"""var orders = await _context.Orders.FromSqlRaw("SELECT * FROM Orders WHERE CustomerId = '" + customerId + "'").ToListAsync();""",
        "Repositories/OrderRepository.cs",
    ),
    (
        "cs-sql-interpolation",
        "hit",
        r"""command.CommandText = "DELETE FROM Sessions WHERE Token = '" + token + "'";""",
        "Data/SessionStore.cs",
    ),
    (
        "cs-sql-interpolation",
        "hit",
        r"""var user = await connection.QuerySingleOrDefaultAsync<User>(
    $"SELECT * FROM Users WHERE UserName = '{userName}'");""",
        "Data/UserQueries.cs",
    ),
    (
        "cs-sql-interpolation",
        "safe",
        r"""var orders = await _context.Orders.FromSql($"SELECT * FROM Orders WHERE CustomerId = {customerId}").ToListAsync();""",
        "Repositories/OrderRepository.cs",
    ),
    (
        "cs-sql-interpolation",
        "safe",
        r"""command.CommandText = "DELETE FROM Sessions WHERE Token = @token";
command.Parameters.Add(new SqlParameter("@token", token));""",
        "Data/SessionStore.cs",
    ),
    # cs-swallowed-exception
    (
        "cs-swallowed-exception",
        "hit",
        r"""try
{
    File.Delete(tempPath);
}
catch (IOException)
{
    // ignore
}""",
        "Services/TempFiles.cs",
    ),
    (
        "cs-swallowed-exception",
        "hit",
        r"""try { _cache.Remove(key); } catch (Exception e) { }""",
        "Caching/CacheService.cs",
    ),
    (
        "cs-swallowed-exception",
        "hit",
        r"""catch (Exception)
{
    return false;
}""",
        "Services/LicenseChecker.cs",
    ),
    (
        "cs-swallowed-exception",
        "safe",
        r"""catch (IOException ex)
{
    _logger.LogWarning(ex, "Could not delete {Path}", tempPath);
}""",
        "Services/TempFiles.cs",
    ),
    (
        "cs-swallowed-exception",
        "safe",
        r"""catch (TaskCanceledException) when (ct.IsCancellationRequested)
{
}""",
        "Workers/PollingWorker.cs",
    ),
    # cs-catch-generic-exception
    (
        "cs-catch-generic-exception",
        "hit",
        r"""catch (Exception e)
{
    return Problem(e.Message);
}""",
        "Controllers/OrdersController.cs",
    ),
    (
        "cs-catch-generic-exception",
        "hit",
        r"""} catch (Exception exception) {
    _telemetry.TrackException(exception);
    return Result.Fail(exception.Message);
}""",
        "Services/ImportService.cs",
    ),
    (
        "cs-catch-generic-exception",
        "hit",
        r"""catch (Exception)
{
    ModelState.AddModelError("", "Unexpected error");
    return View(model);
}""",
        "Controllers/AccountController.cs",
    ),
    (
        "cs-catch-generic-exception",
        "safe",
        r"""catch (SqlException ex) when (ex.Number == 2627)
{
    return Conflict();
}""",
        "Controllers/OrdersController.cs",
    ),
    (
        "cs-catch-generic-exception",
        "safe",
        r"""catch (JsonException ex)
{
    return BadRequest(ex.Message);
}""",
        "Controllers/ImportController.cs",
    ),
    # cs-datetime-now
    ("cs-datetime-now", "hit", r"""entity.UpdatedOn = DateTime.Now;""", "Data/AuditInterceptor.cs"),
    (
        "cs-datetime-now",
        "hit",
        r"""var age = (DateTime.Now - user.LastLogin).TotalDays;""",
        "Services/InactivityService.cs",
    ),
    (
        "cs-datetime-now",
        "hit",
        r"""var cutoff = System.DateTime.Today.AddDays(-30);""",
        "Jobs/CleanupJob.cs",
    ),
    (
        "cs-datetime-now",
        "safe",
        r"""entity.UpdatedOn = DateTime.UtcNow;""",
        "Data/AuditInterceptor.cs",
    ),
    (
        "cs-datetime-now",
        "safe",
        r"""var cutoff = _clock.GetUtcNow().AddDays(-30);""",
        "Jobs/CleanupJob.cs",
    ),
    # dotnet-connection-string-password
    (
        "dotnet-connection-string-password",
        "hit",
        r"""{
  "ConnectionStrings": {
    "Billing": "Server=tcp:billing.database.windows.net,1433;Initial Catalog=billing;User ID=billing_app;Password=Sup3rS3cret;Encrypt=True;"
  }
}""",
        "src/Billing.Api/appsettings.json",
    ),
    (
        "dotnet-connection-string-password",
        "hit",
        r"""optionsBuilder.UseSqlServer("Server=localhost;Database=Crm;User Id=sa;Password=Passw0rd123;TrustServerCertificate=True");""",
        "src/Crm/Data/CrmContext.cs",
    ),
    (
        "dotnet-connection-string-password",
        "hit",
        r"""var cs = "Host=localhost;Port=5432;Database=app;Username=postgres;password=postgres";""",
        "src/App/Data/Db.cs",
    ),
    (
        "dotnet-connection-string-password",
        "safe",
        r"""{
  "ConnectionStrings": {
    "Billing": "Server=tcp:billing.database.windows.net,1433;Initial Catalog=billing;Authentication=Active Directory Default;"
  }
}""",
        "src/Billing.Api/appsettings.json",
    ),
    (
        "dotnet-connection-string-password",
        "safe",
        r"""var cs = $"Host={host};Database=app;Username={user};Password={Environment.GetEnvironmentVariable("DB_PASSWORD")}";""",
        "src/App/Data/Db.cs",
    ),
    # cs-certificate-validation-disabled
    (
        "cs-certificate-validation-disabled",
        "hit",
        r"""var handler = new HttpClientHandler
{
    ServerCertificateCustomValidationCallback = (_, _, _, _) => true
};""",
        "Clients/LegacyApiClient.cs",
    ),
    (
        "cs-certificate-validation-disabled",
        "hit",
        r"""ServicePointManager.ServerCertificateValidationCallback = (sender, certificate, chain, sslPolicyErrors) => true;""",
        "Global.asax.cs",
    ),
    (
        "cs-certificate-validation-disabled",
        "hit",
        r"""var handler = new SocketsHttpHandler
{
    SslOptions = new SslClientAuthenticationOptions { RemoteCertificateValidationCallback = delegate { return true; } }
};""",
        "Clients/InternalClient.cs",
    ),
    (
        "cs-certificate-validation-disabled",
        "safe",
        r"""handler.ServerCertificateCustomValidationCallback = (_, cert, _, errors) => errors == SslPolicyErrors.None;""",
        "Clients/LegacyApiClient.cs",
    ),
    (
        "cs-certificate-validation-disabled",
        "safe",
        r"""var handler = new SocketsHttpHandler { PooledConnectionLifetime = TimeSpan.FromMinutes(5) };""",
        "Clients/InternalClient.cs",
    ),
    # cs-binaryformatter
    (
        "cs-binaryformatter",
        "hit",
        r"""BinaryFormatter bf = new BinaryFormatter();
bf.Serialize(stream, session);""",
        "State/SessionStore.cs",
    ),
    (
        "cs-binaryformatter",
        "hit",
        r"""var obj = new System.Runtime.Serialization.Formatters.Binary.BinaryFormatter().Deserialize(ms);""",
        "Caching/BlobCache.cs",
    ),
    (
        "cs-binaryformatter",
        "hit",
        r"""var formatter = new LosFormatter();
var state = formatter.Deserialize(viewState);""",
        "Web/ViewStateReader.cs",
    ),
    (
        "cs-binaryformatter",
        "safe",
        r"""var session = JsonSerializer.Deserialize<Session>(stream, _jsonOptions);""",
        "State/SessionStore.cs",
    ),
    (
        "cs-binaryformatter",
        "safe",
        r"""var serializer = new XmlSerializer(typeof(Session));
var session = (Session)serializer.Deserialize(reader);""",
        "State/SessionStore.cs",
    ),
    # cs-typenamehandling
    (
        "cs-typenamehandling",
        "hit",
        r"""var msg = JsonConvert.DeserializeObject<Message>(json, new JsonSerializerSettings
{
    TypeNameHandling = TypeNameHandling.Auto
});""",
        "Messaging/MessageReader.cs",
    ),
    (
        "cs-typenamehandling",
        "hit",
        r"""services.AddControllers().AddNewtonsoftJson(o => o.SerializerSettings.TypeNameHandling = TypeNameHandling.All);""",
        "Startup.cs",
    ),
    (
        "cs-typenamehandling",
        "hit",
        r"""var serializer = new JsonSerializer { TypeNameHandling = Newtonsoft.Json.TypeNameHandling.Arrays };""",
        "Messaging/Codec.cs",
    ),
    (
        "cs-typenamehandling",
        "safe",
        r"""var settings = new JsonSerializerSettings
{
    TypeNameHandling = TypeNameHandling.Auto,
    SerializationBinder = new AllowListBinder(KnownTypes)
};""",
        "Messaging/MessageReader.cs",
    ),
    (
        "cs-typenamehandling",
        "safe",
        r"""var settings = new JsonSerializerSettings { NullValueHandling = NullValueHandling.Ignore };""",
        "Messaging/Codec.cs",
    ),
    # cs-thread-sleep-in-async
    (
        "cs-thread-sleep-in-async",
        "hit",
        r"""public async Task<bool> WaitForJobAsync(string id)
{
    for (var i = 0; i < 10; i++)
    {
        if (await IsDoneAsync(id)) return true;
        Thread.Sleep(2000);
    }
    return false;
}""",
        "Services/JobWaiter.cs",
    ),
    (
        "cs-thread-sleep-in-async",
        "hit",
        r"""private async Task RetryAsync(Func<Task> action)
{
    System.Threading.Thread.Sleep(backoffMs);
    await action();
}""",
        "Infrastructure/Retry.cs",
    ),
    (
        "cs-thread-sleep-in-async",
        "hit",
        r"""async Task PollAsync() {
    while (true) {
        Thread.Sleep(TimeSpan.FromMilliseconds(250));
        await FlushAsync();
    }
}""",
        "Workers/Flusher.cs",
    ),
    (
        "cs-thread-sleep-in-async",
        "safe",
        r"""public async Task<bool> WaitForJobAsync(string id, CancellationToken ct)
{
    await Task.Delay(2000, ct);
    return await IsDoneAsync(id);
}""",
        "Services/JobWaiter.cs",
    ),
    (
        "cs-thread-sleep-in-async",
        "safe",
        r"""static void Main()
{
    Thread.Sleep(500);
    Console.WriteLine("done");
}""",
        "Tools/Program.cs",
    ),
    # cs-lock-on-this
    (
        "cs-lock-on-this",
        "hit",
        r"""public void Increment()
{
    lock (this) { _hits++; }
}""",
        "Metrics/Counter.cs",
    ),
    (
        "cs-lock-on-this",
        "hit",
        r"""lock (typeof(OrderCache))
{
    _instance ??= new OrderCache();
}""",
        "Caching/OrderCache.cs",
    ),
    (
        "cs-lock-on-this",
        "hit",
        r"""lock ("inventory-lock")
{
    Reserve(item);
}""",
        "Inventory/Reservations.cs",
    ),
    (
        "cs-lock-on-this",
        "safe",
        r"""private static readonly object Gate = new object();
lock (Gate)
{
    _instance ??= new OrderCache();
}""",
        "Caching/OrderCache.cs",
    ),
    (
        "cs-lock-on-this",
        "safe",
        r"""private readonly Lock _lock = new();
lock (_lock) { _hits++; }""",
        "Metrics/Counter.cs",
    ),
    # cs-xxe
    (
        "cs-xxe",
        "hit",
        r"""XmlReaderSettings settings = new XmlReaderSettings();
settings.DtdProcessing = DtdProcessing.Parse;
settings.XmlResolver = new XmlUrlResolver();""",
        "Import/XmlImporter.cs",
    ),
    (
        "cs-xxe",
        "hit",
        r"""var doc = new XmlDocument { XmlResolver = new XmlUrlResolver() };
doc.LoadXml(body);""",
        "Import/FeedParser.cs",
    ),
    (
        "cs-xxe",
        "hit",
        r"""var reader = new XmlTextReader(stream) { DtdProcessing = DtdProcessing.Parse };""",
        "Import/LegacyReader.cs",
    ),
    (
        "cs-xxe",
        "safe",
        r"""var settings = new XmlReaderSettings { DtdProcessing = DtdProcessing.Prohibit, XmlResolver = null };""",
        "Import/XmlImporter.cs",
    ),
    (
        "cs-xxe",
        "safe",
        r"""var doc = new XmlDocument { XmlResolver = null };
doc.LoadXml(body);""",
        "Import/FeedParser.cs",
    ),
    # cs-fast-hash-password
    (
        "cs-fast-hash-password",
        "hit",
        r"""using var sha = SHA256.Create();
var hashed = Convert.ToBase64String(sha.ComputeHash(Encoding.UTF8.GetBytes(model.Password + salt)));""",
        "Services/AccountService.cs",
    ),
    (
        "cs-fast-hash-password",
        "hit",
        r"""var passwordHash = BitConverter.ToString(MD5.HashData(Encoding.UTF8.GetBytes(password)));""",
        "Services/LegacyAuth.cs",
    ),
    (
        "cs-fast-hash-password",
        "hit",
        r"""user.PasswordHash = Convert.ToHexString(SHA512.HashData(Encoding.UTF8.GetBytes(request.NewPassword)));""",
        "Handlers/ChangePasswordHandler.cs",
    ),
    (
        "cs-fast-hash-password",
        "safe",
        r"""user.PasswordHash = BCrypt.Net.BCrypt.HashPassword(request.NewPassword);""",
        "Handlers/ChangePasswordHandler.cs",
    ),
    (
        "cs-fast-hash-password",
        "safe",
        r"""var etag = Convert.ToHexString(MD5.HashData(content));""",
        "Web/ETagMiddleware.cs",
    ),
    # cs-insecure-random-token
    (
        "cs-insecure-random-token",
        "hit",
        r"""var code = new Random().Next(100000, 1000000).ToString();
user.TwoFactorCode = code;""",
        "Services/TwoFactorService.cs",
    ),
    (
        "cs-insecure-random-token",
        "hit",
        r"""var token = new string(Enumerable.Repeat(Alphabet, 40).Select(s => s[_random.Next(s.Length)]).ToArray());""",
        "Services/TokenGenerator.cs",
    ),
    (
        "cs-insecure-random-token",
        "hit",
        r"""var resetToken = Random.Shared.NextInt64().ToString("x16");""",
        "Services/PasswordResetService.cs",
    ),
    (
        "cs-insecure-random-token",
        "safe",
        r"""var code = RandomNumberGenerator.GetInt32(100000, 1000000).ToString();""",
        "Services/TwoFactorService.cs",
    ),
    (
        "cs-insecure-random-token",
        "safe",
        r"""var delay = TimeSpan.FromMilliseconds(Random.Shared.Next(100, 500));""",
        "Infrastructure/Retry.cs",
    ),
    # cs-materialize-before-filter
    (
        "cs-materialize-before-filter",
        "hit",
        r"""var recent = _context.Orders.ToList().Where(o => o.CreatedAt > since);""",
        "Repositories/OrderRepository.cs",
    ),
    (
        "cs-materialize-before-filter",
        "hit",
        r"""var user = (await _db.Users.ToListAsync(ct)).SingleOrDefault(u => u.Email == email);""",
        "Repositories/UserRepository.cs",
    ),
    (
        "cs-materialize-before-filter",
        "hit",
        r"""var total = _db.Invoices.AsEnumerable().Where(i => i.CustomerId == id).Sum(i => i.Amount);""",
        "Services/BillingService.cs",
    ),
    (
        "cs-materialize-before-filter",
        "safe",
        r"""var recent = await _context.Orders.Where(o => o.CreatedAt > since).ToListAsync();""",
        "Repositories/OrderRepository.cs",
    ),
    (
        "cs-materialize-before-filter",
        "safe",
        r"""var names = (await _db.Users.Where(u => u.IsActive).ToListAsync()).Select(u => u.Name);""",
        "Repositories/UserRepository.cs",
    ),
    # cs-throw-ex-resets-stack
    (
        "cs-throw-ex-resets-stack",
        "hit",
        r"""catch (DbUpdateException dbEx)
{
    _logger.LogError(dbEx, "db");
    throw dbEx;
}""",
        "Repositories/OrderRepository.cs",
    ),
    (
        "cs-throw-ex-resets-stack",
        "hit",
        r"""} catch (Exception exception) {
    await transaction.RollbackAsync();
    throw exception;
}""",
        "Services/TransferService.cs",
    ),
    (
        "cs-throw-ex-resets-stack",
        "hit",
        r"""catch (InvalidOperationException ioe) { Log(ioe); throw ioe; }""",
        "Services/StateMachine.cs",
    ),
    (
        "cs-throw-ex-resets-stack",
        "safe",
        r"""catch (DbUpdateException dbEx)
{
    _logger.LogError(dbEx, "db");
    throw;
}""",
        "Repositories/OrderRepository.cs",
    ),
    (
        "cs-throw-ex-resets-stack",
        "safe",
        r"""catch (Exception exception)
{
    throw new OrderProcessingException(orderId, exception);
}""",
        "Services/TransferService.cs",
    ),
    # dotnet-developer-exception-page
    (
        "dotnet-developer-exception-page",
        "hit",
        r"""var app = builder.Build();
app.UseDeveloperExceptionPage();
app.UseAuthentication();""",
        "src/Shop.Api/Program.cs",
    ),
    (
        "dotnet-developer-exception-page",
        "hit",
        r"""public void Configure(IApplicationBuilder app)
{
    app.UseDeveloperExceptionPage();
    app.UseMvc();
}""",
        "src/Shop.Web/Startup.cs",
    ),
    (
        "dotnet-developer-exception-page",
        "hit",
        r"""app
    .UseDeveloperExceptionPage()
    .UseStaticFiles()
    .UseRouting();""",
        "src/Shop.Admin/Startup.cs",
    ),
    (
        "dotnet-developer-exception-page",
        "safe",
        r"""if (env.IsDevelopment())
{
    app.UseDeveloperExceptionPage();
}
else
{
    app.UseExceptionHandler("/Home/Error");
    app.UseHsts();
}""",
        "src/Shop.Web/Startup.cs",
    ),
    (
        "dotnet-developer-exception-page",
        "safe",
        r"""app.UseExceptionHandler(errorApp => errorApp.Run(WriteProblemAsync));""",
        "src/Shop.Api/Program.cs",
    ),
    # dotnet-cors-any-origin
    (
        "dotnet-cors-any-origin",
        "hit",
        r"""builder.Services.AddCors(o => o.AddDefaultPolicy(p => p.AllowAnyOrigin().AllowAnyMethod()));""",
        "Program.cs",
    ),
    (
        "dotnet-cors-any-origin",
        "hit",
        r"""policy.SetIsOriginAllowed(origin => true)
    .AllowAnyHeader()
    .AllowCredentials();""",
        "Startup.cs",
    ),
    (
        "dotnet-cors-any-origin",
        "hit",
        r"""[EnableCors(origins: "*", headers: "*", methods: "*")]
public class ProductsController : ApiController""",
        "Controllers/ProductsController.cs",
    ),
    (
        "dotnet-cors-any-origin",
        "safe",
        r"""builder.Services.AddCors(o => o.AddPolicy("spa", p => p.WithOrigins(config["Cors:Origin"]!).AllowAnyMethod()));""",
        "Program.cs",
    ),
    (
        "dotnet-cors-any-origin",
        "safe",
        r"""policy.SetIsOriginAllowed(origin => AllowedOrigins.Contains(origin)).AllowCredentials();""",
        "Startup.cs",
    ),
    # cs-double-for-money
    (
        "cs-double-for-money",
        "hit",
        r"""public double TotalPrice { get; private set; }""",
        "Domain/Order.cs",
    ),
    (
        "cs-double-for-money",
        "hit",
        r"""public float TaxAmount { get; init; }""",
        "Domain/Invoice.cs",
    ),
    (
        "cs-double-for-money",
        "hit",
        r"""public record Payment(Guid Id, double Amount, string Currency);""",
        "Domain/Payment.cs",
    ),
    (
        "cs-double-for-money",
        "safe",
        r"""public decimal TotalPrice { get; private set; }""",
        "Domain/Order.cs",
    ),
    (
        "cs-double-for-money",
        "safe",
        r"""public double Temperature { get; set; }""",
        "Domain/SensorReading.cs",
    ),
    # spring-transactional-private
    (
        "spring-transactional-private",
        "hit",
        r"""@Transactional(propagation = Propagation.REQUIRES_NEW)
private void writeAudit(AuditEvent e) {""",
        "src/main/java/com/acme/audit/AuditService.java",
    ),
    (
        "spring-transactional-private",
        "hit",
        r"""@org.springframework.transaction.annotation.Transactional
private List<Order> loadOrders(long customerId) {""",
        "src/main/java/com/acme/orders/OrderService.java",
    ),
    (
        "spring-transactional-private",
        "hit",
        r"""@Transactional private fun applyRefund(refund: Refund): Refund {""",
        "src/main/kotlin/com/acme/refunds/RefundService.kt",
    ),
    (
        "spring-transactional-private",
        "safe",
        r"""@Transactional(propagation = Propagation.REQUIRES_NEW)
public void writeAudit(AuditEvent e) {""",
        "src/main/java/com/acme/audit/AuditService.java",
    ),
    (
        "spring-transactional-private",
        "safe",
        r"""@Transactional
fun applyRefund(refund: Refund): Refund {
    validate(refund)
    return refunds.save(refund)
}
private fun validate(refund: Refund) {""",
        "src/main/kotlin/com/acme/refunds/RefundService.kt",
    ),
    # spring-ddl-auto-update
    (
        "spring-ddl-auto-update",
        "hit",
        r"""spring:
  jpa:
    hibernate:
      ddl-auto: update
    show-sql: false""",
        "src/main/resources/application.yml",
    ),
    (
        "spring-ddl-auto-update",
        "hit",
        r"""spring.jpa.properties.hibernate.hbm2ddl.auto=create""",
        "src/main/resources/application-prod.properties",
    ),
    (
        "spring-ddl-auto-update",
        "hit",
        r"""properties.setProperty("hibernate.hbm2ddl.auto", "update");""",
        "src/main/java/com/acme/config/JpaConfig.java",
    ),
    (
        "spring-ddl-auto-update",
        "safe",
        r"""spring.jpa.hibernate.ddl-auto=none
spring.liquibase.change-log=classpath:db/changelog/master.yaml""",
        "src/main/resources/application.properties",
    ),
    (
        "spring-ddl-auto-update",
        "safe",
        r"""jpa:
  hibernate:
    ddl-auto: validate""",
        "src/main/resources/application.yml",
    ),
    # spring-show-sql
    (
        "spring-show-sql",
        "hit",
        r"""spring:
  jpa:
    show-sql: true
    properties:
      hibernate:
        format_sql: true""",
        "src/main/resources/application.yml",
    ),
    (
        "spring-show-sql",
        "hit",
        r"""spring.jpa.properties.hibernate.show_sql=true""",
        "src/main/resources/application.properties",
    ),
    (
        "spring-show-sql",
        "hit",
        r"""logging.level.org.hibernate.orm.jdbc.bind=trace""",
        "src/main/resources/application.properties",
    ),
    (
        "spring-show-sql",
        "safe",
        r"""spring:
  jpa:
    show-sql: false
    open-in-view: false""",
        "src/main/resources/application.yml",
    ),
    (
        "spring-show-sql",
        "safe",
        r"""logging.level.org.hibernate.orm.jdbc.bind=INFO""",
        "src/main/resources/application.properties",
    ),
    # spring-field-injection
    (
        "spring-field-injection",
        "hit",
        r"""@Autowired
OrderMapper mapper;""",
        "src/main/java/com/acme/orders/OrderService.java",
    ),
    (
        "spring-field-injection",
        "hit",
        r"""@Autowired(required = false)
private MeterRegistry meterRegistry;""",
        "src/main/java/com/acme/metrics/Timings.java",
    ),
    (
        "spring-field-injection",
        "hit",
        r"""@Inject
lateinit var repository: UserRepository""",
        "src/main/kotlin/com/acme/users/UserService.kt",
    ),
    (
        "spring-field-injection",
        "safe",
        r"""@RequiredArgsConstructor
public class OrderService {
    private final OrderMapper mapper;""",
        "src/main/java/com/acme/orders/OrderService.java",
    ),
    (
        "spring-field-injection",
        "safe",
        r"""@Service
class UserService @Autowired constructor(
    private val repository: UserRepository
)""",
        "src/main/kotlin/com/acme/users/UserService.kt",
    ),
    # spring-datasource-password
    (
        "spring-datasource-password",
        "hit",
        r"""spring.datasource.url=jdbc:mysql://db:3306/shop
spring.datasource.username=root
spring.datasource.password=root""",
        "src/main/resources/application.properties",
    ),
    (
        "spring-datasource-password",
        "hit",
        r"""spring:
  datasource:
    username: app
    password: 'app123'""",
        "src/main/resources/application-prod.yml",
    ),
    (
        "spring-datasource-password",
        "hit",
        r"""spring.datasource.password = Welcome1""",
        "config/application.properties",
    ),
    (
        "spring-datasource-password",
        "safe",
        r"""spring.datasource.password=${vault.db.password}""",
        "src/main/resources/application.properties",
    ),
    (
        "spring-datasource-password",
        "safe",
        r"""spring:
  datasource:
    username: ${DB_USER}
    password: ${DB_PASSWORD:}""",
        "src/main/resources/application.yml",
    ),
    # spring-actuator-exposed
    (
        "spring-actuator-exposed",
        "hit",
        r"""management:
  endpoints:
    web:
      exposure:
        include: '*'""",
        "src/main/resources/application.yml",
    ),
    (
        "spring-actuator-exposed",
        "hit",
        r"""management.endpoints.web.exposure.include = *""",
        "src/main/resources/application.properties",
    ),
    ("spring-actuator-exposed", "hit", r"""MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE=*""", ".env"),
    (
        "spring-actuator-exposed",
        "safe",
        r"""management.endpoints.web.exposure.include=health,prometheus
management.endpoint.health.show-details=when-authorized""",
        "src/main/resources/application.properties",
    ),
    (
        "spring-actuator-exposed",
        "safe",
        r"""management:
  endpoints:
    web:
      exposure:
        include:
          - health
          - metrics""",
        "src/main/resources/application.yml",
    ),
    # spring-csrf-disabled
    (
        "spring-csrf-disabled",
        "hit",
        r"""http.authorizeRequests().antMatchers("/login").permitAll()
    .and().formLogin()
    .and().csrf().disable();""",
        "src/main/java/com/acme/security/WebSecurityConfig.java",
    ),
    (
        "spring-csrf-disabled",
        "hit",
        r"""http.csrf(csrf -> csrf.disable())
    .formLogin(form -> form.loginPage("/login"));""",
        "src/main/java/com/acme/security/SecurityConfig.java",
    ),
    (
        "spring-csrf-disabled",
        "hit",
        r"""http {
    formLogin { loginPage = "/login" }
    csrf {
        disable()
    }
}""",
        "src/main/kotlin/com/acme/security/SecurityConfig.kt",
    ),
    (
        "spring-csrf-disabled",
        "safe",
        r"""http.csrf(csrf -> csrf.disable())
    .sessionManagement(sm -> sm.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
    .oauth2ResourceServer(o -> o.jwt(withDefaults()));""",
        "src/main/java/com/acme/security/ApiSecurityConfig.java",
    ),
    (
        "spring-csrf-disabled",
        "safe",
        r"""http.csrf(csrf -> csrf.csrfTokenRepository(new HttpSessionCsrfTokenRepository()));""",
        "src/main/java/com/acme/security/SecurityConfig.java",
    ),
    # spring-permit-all
    (
        "spring-permit-all",
        "hit",
        r"""http.authorizeRequests()
    .antMatchers("/**").permitAll();""",
        "src/main/java/com/acme/security/WebSecurityConfig.java",
    ),
    (
        "spring-permit-all",
        "hit",
        r"""http.authorizeExchange(ex -> ex.anyExchange().permitAll());""",
        "src/main/java/com/acme/security/ReactiveSecurityConfig.java",
    ),
    (
        "spring-permit-all",
        "hit",
        r"""authorizeHttpRequests {
    authorize("/**", permitAll)
}""",
        "src/main/kotlin/com/acme/security/SecurityConfig.kt",
    ),
    (
        "spring-permit-all",
        "safe",
        r"""auth.requestMatchers("/login", "/css/**").permitAll()
    .anyRequest().authenticated();""",
        "src/main/java/com/acme/security/WebSecurityConfig.java",
    ),
    (
        "spring-permit-all",
        "safe",
        r"""http.authorizeExchange(ex -> ex.pathMatchers("/public/**").permitAll().anyExchange().authenticated());""",
        "src/main/java/com/acme/security/ReactiveSecurityConfig.java",
    ),
    # spring-cors-wildcard
    (
        "spring-cors-wildcard",
        "hit",
        r"""registry.addMapping("/api/**")
    .allowedOriginPatterns("*")
    .allowCredentials(true);""",
        "src/main/java/com/acme/web/CorsConfig.java",
    ),
    (
        "spring-cors-wildcard",
        "hit",
        r"""@CrossOrigin(origins = ["*"])
@RestController
class ProductController(private val products: ProductService) {""",
        "src/main/kotlin/com/acme/catalog/ProductController.kt",
    ),
    (
        "spring-cors-wildcard",
        "hit",
        r"""CorsConfiguration configuration = new CorsConfiguration();
configuration.addAllowedOrigin("*");""",
        "src/main/java/com/acme/web/CorsConfig.java",
    ),
    (
        "spring-cors-wildcard",
        "safe",
        r"""registry.addMapping("/api/**")
    .allowedOrigins(frontendUrl)
    .allowCredentials(true);""",
        "src/main/java/com/acme/web/CorsConfig.java",
    ),
    (
        "spring-cors-wildcard",
        "safe",
        r"""@CrossOrigin(origins = ["https://shop.acme.com"])""",
        "src/main/kotlin/com/acme/catalog/ProductController.kt",
    ),
    # rails-sql-interpolation
    (
        "rails-sql-interpolation",
        "hit",
        r"""Product.where("name LIKE '%#{params[:q]}%'")""",
        "app/controllers/products_controller.rb",
    ),
    (
        "rails-sql-interpolation",
        "hit",
        r"""User.joins(:orders).where("orders.created_at > '#{since}'").distinct""",
        "app/models/user.rb",
    ),
    (
        "rails-sql-interpolation",
        "hit",
        r"""ActiveRecord::Base.connection.select_all("SELECT * FROM invoices WHERE account_id = #{account_id}")""",
        "app/services/invoice_report.rb",
    ),
    (
        "rails-sql-interpolation",
        "safe",
        r"""Product.where("name LIKE ?", "%#{Product.sanitize_sql_like(params[:q])}%")""",
        "app/controllers/products_controller.rb",
    ),
    (
        "rails-sql-interpolation",
        "safe",
        r"""User.joins(:orders).where("orders.created_at > ?", since).distinct""",
        "app/models/user.rb",
    ),
    # rails-permit-all
    (
        "rails-permit-all",
        "hit",
        r"""def product_params
  params.require(:product).permit!
end""",
        "app/controllers/products_controller.rb",
    ),
    (
        "rails-permit-all",
        "hit",
        r"""Post.create!(params.to_unsafe_hash)""",
        "app/controllers/posts_controller.rb",
    ),
    (
        "rails-permit-all",
        "hit",
        r"""@account.assign_attributes(params.permit!.to_h)""",
        "app/controllers/accounts_controller.rb",
    ),
    (
        "rails-permit-all",
        "safe",
        r"""def product_params
  params.require(:product).permit(:name, :price, tag_ids: [])
end""",
        "app/controllers/products_controller.rb",
    ),
    (
        "rails-permit-all",
        "safe",
        r"""Post.create!(post_params)""",
        "app/controllers/posts_controller.rb",
    ),
    # rb-rescue-exception
    (
        "rb-rescue-exception",
        "hit",
        r"""begin
  importer.run
rescue Exception => ex
  Rails.logger.error(ex.full_message)
end""",
        "app/jobs/import_job.rb",
    ),
    (
        "rb-rescue-exception",
        "hit",
        r"""def perform(id)
  sync(id)
rescue Exception
  retry_later(id)
end""",
        "app/jobs/sync_job.rb",
    ),
    (
        "rb-rescue-exception",
        "hit",
        r"""rescue ::Exception => e
  notify(e)""",
        "lib/tasks/worker.rb",
    ),
    (
        "rb-rescue-exception",
        "safe",
        r"""rescue StandardError => ex
  Rails.logger.error(ex.full_message)""",
        "app/jobs/import_job.rb",
    ),
    (
        "rb-rescue-exception",
        "safe",
        r"""rescue Faraday::Error, JSON::ParserError => e
  notify(e)""",
        "app/services/rates_client.rb",
    ),
    # rb-rescue-swallow
    (
        "rb-rescue-swallow",
        "hit",
        r"""page = Integer(params[:page]) rescue 1""",
        "app/controllers/products_controller.rb",
    ),
    (
        "rb-rescue-swallow",
        "hit",
        r"""begin
  S3.delete_object(bucket: b, key: k)
rescue StandardError
end""",
        "app/services/asset_cleaner.rb",
    ),
    (
        "rb-rescue-swallow",
        "hit",
        r"""def cleanup
  FileUtils.rm_rf(tmp_dir)
rescue => _e
  nil
end""",
        "lib/export/builder.rb",
    ),
    (
        "rb-rescue-swallow",
        "safe",
        r"""begin
  S3.delete_object(bucket: b, key: k)
rescue Aws::S3::Errors::NoSuchKey => e
  Rails.logger.info("already gone: #{e.message}")
end""",
        "app/services/asset_cleaner.rb",
    ),
    (
        "rb-rescue-swallow",
        "safe",
        r"""def cleanup
  FileUtils.rm_rf(tmp_dir)
rescue Errno::EACCES => e
  ErrorTracker.notify(e)
  raise
end""",
        "lib/export/builder.rb",
    ),
    # rails-skip-callbacks
    (
        "rails-skip-callbacks",
        "hit",
        r"""User.where(id: ids).update_all(confirmed_at: Time.current)""",
        "app/services/bulk_confirm.rb",
    ),
    (
        "rails-skip-callbacks",
        "hit",
        r"""order.update_columns(status: "shipped", shipped_at: Time.current)""",
        "app/services/shipping.rb",
    ),
    (
        "rails-skip-callbacks",
        "hit",
        r"""user.update_attribute(:role, "admin")""",
        "app/controllers/admin/users_controller.rb",
    ),
    (
        "rails-skip-callbacks",
        "safe",
        r"""order.update!(status: "shipped", shipped_at: Time.current)""",
        "app/services/shipping.rb",
    ),
    (
        "rails-skip-callbacks",
        "safe",
        r"""Comment.where(spam: true).find_each(&:destroy)""",
        "app/jobs/spam_cleanup_job.rb",
    ),
    # rails-default-scope
    (
        "rails-default-scope",
        "hit",
        r"""default_scope { order(created_at: :desc) }""",
        "app/models/post.rb",
    ),
    (
        "rails-default-scope",
        "hit",
        r"""default_scope -> { where(archived: false) }, all_queries: true""",
        "app/models/project.rb",
    ),
    (
        "rails-default-scope",
        "hit",
        r"""def self.default_scope
  where(active: true)
end""",
        "app/models/account.rb",
    ),
    (
        "rails-default-scope",
        "safe",
        r"""scope :recent, -> { order(created_at: :desc) }""",
        "app/models/post.rb",
    ),
    (
        "rails-default-scope",
        "safe",
        r"""Order.unscope(:order).where(status: :paid)""",
        "app/queries/paid_orders.rb",
    ),
    # rb-dynamic-dispatch-input
    (
        "rb-dynamic-dispatch-input",
        "hit",
        r"""handler = params[:handler].safe_constantize
handler.call(payload)""",
        "app/controllers/webhooks_controller.rb",
    ),
    (
        "rb-dynamic-dispatch-input",
        "hit",
        r"""result = service.public_send(params[:action_name], *args)""",
        "app/controllers/actions_controller.rb",
    ),
    (
        "rb-dynamic-dispatch-input",
        "hit",
        r"""klass = params[:model].classify.constantize""",
        "app/controllers/admin/records_controller.rb",
    ),
    (
        "rb-dynamic-dispatch-input",
        "safe",
        r"""HANDLERS = { "refund" => RefundHandler, "charge" => ChargeHandler }.freeze
handler = HANDLERS.fetch(params[:handler]) { raise ActionController::BadRequest }""",
        "app/controllers/webhooks_controller.rb",
    ),
    (
        "rb-dynamic-dispatch-input",
        "safe",
        r"""value = record.send(:calculate_total)""",
        "app/models/order.rb",
    ),
    # rb-unsafe-yaml-load
    (
        "rb-unsafe-yaml-load",
        "hit",
        r"""payload = YAML.load(request.body.read)""",
        "app/controllers/imports_controller.rb",
    ),
    (
        "rb-unsafe-yaml-load",
        "hit",
        r"""state = Marshal.load(Base64.strict_decode64(params[:state]))""",
        "app/controllers/wizard_controller.rb",
    ),
    (
        "rb-unsafe-yaml-load",
        "hit",
        r"""config = YAML.unsafe_load(upload.read)""",
        "app/services/config_import.rb",
    ),
    (
        "rb-unsafe-yaml-load",
        "safe",
        r"""payload = YAML.safe_load(request.body.read, permitted_classes: [Symbol], aliases: false)""",
        "app/controllers/imports_controller.rb",
    ),
    (
        "rb-unsafe-yaml-load",
        "safe",
        r"""data = Psych.safe_load(File.read(path))""",
        "lib/settings.rb",
    ),
    # rails-html-safe
    (
        "rails-html-safe",
        "hit",
        r"""def render_bio(user)
  user.bio.html_safe
end""",
        "app/helpers/users_helper.rb",
    ),
    (
        "rails-html-safe",
        "hit",
        r"""content_tag(:div, "#{@product.description}".html_safe, class: "desc")""",
        "app/helpers/products_helper.rb",
    ),
    (
        "rails-html-safe",
        "hit",
        r"""def formatted_comment(comment)
  raw(comment.body.gsub("\n", "<br>"))
end""",
        "app/helpers/comments_helper.rb",
    ),
    (
        "rails-html-safe",
        "safe",
        r"""def render_bio(user)
  simple_format(h(user.bio))
end""",
        "app/helpers/users_helper.rb",
    ),
    (
        "rails-html-safe",
        "safe",
        r"""def formatted_comment(comment)
  sanitize(comment.body, tags: %w[b i a], attributes: %w[href])
end""",
        "app/helpers/comments_helper.rb",
    ),
    # rails-csrf-skipped
    (
        "rails-csrf-skipped",
        "hit",
        r"""class PaymentsController < ApplicationController
  skip_before_action :verify_authenticity_token, except: [:index]""",
        "app/controllers/payments_controller.rb",
    ),
    (
        "rails-csrf-skipped",
        "hit",
        r"""skip_forgery_protection only: :create""",
        "app/controllers/sessions_controller.rb",
    ),
    (
        "rails-csrf-skipped",
        "hit",
        r"""protect_from_forgery except: :update""",
        "app/controllers/profiles_controller.rb",
    ),
    (
        "rails-csrf-skipped",
        "safe",
        r"""protect_from_forgery with: :exception, prepend: true""",
        "app/controllers/application_controller.rb",
    ),
    (
        "rails-csrf-skipped",
        "safe",
        r"""skip_before_action :require_login, only: [:new, :create]""",
        "app/controllers/sessions_controller.rb",
    ),
    # rails-remove-column
    (
        "rails-remove-column",
        "hit",
        r"""class RemoveLegacyIdFromUsers < ActiveRecord::Migration[7.1]
  def change
    remove_column :users, :legacy_id
  end
end""",
        "db/migrate/20240512101500_remove_legacy_id_from_users.rb",
    ),
    (
        "rails-remove-column",
        "hit",
        r"""def up
  remove_column(:orders, :discount_code)
end""",
        "db/migrate/20240601090000_remove_discount_code.rb",
    ),
    (
        "rails-remove-column",
        "hit",
        r"""change_table :products do |t|
  t.remove :sku_old, :barcode_old
end""",
        "db/migrate/20240602090000_drop_old_product_codes.rb",
    ),
    (
        "rails-remove-column",
        "safe",
        r"""class User < ApplicationRecord
  self.ignored_columns = [:legacy_id]
end""",
        "app/models/user.rb",
    ),
    (
        "rails-remove-column",
        "safe",
        r"""def change
  safety_assured do
    remove_column :users, :legacy_id, :integer
  end
end""",
        "db/migrate/20240612101500_remove_legacy_id_from_users.rb",
    ),
    # rails-rename-column
    (
        "rails-rename-column",
        "hit",
        r"""def change
  rename_column :products, :desc, :description
end""",
        "db/migrate/20240301120000_rename_desc_on_products.rb",
    ),
    (
        "rails-rename-column",
        "hit",
        r"""change_table :orders do |t|
  t.rename :amount, :amount_cents
end""",
        "db/migrate/20240302120000_rename_order_amount.rb",
    ),
    (
        "rails-rename-column",
        "hit",
        r"""rename_table "customers", "clients"
""",
        "db/migrate/20240303120000_rename_customers.rb",
    ),
    (
        "rails-rename-column",
        "safe",
        r"""def change
  add_column :products, :description, :text
end""",
        "db/migrate/20240301120000_add_description_to_products.rb",
    ),
    (
        "rails-rename-column",
        "safe",
        r"""safety_assured do
  rename_table :customers, :clients
end""",
        "db/migrate/20240303120000_rename_customers.rb",
    ),
    # rails-add-index-not-concurrently
    (
        "rails-add-index-not-concurrently",
        "hit",
        r"""class AddIndexOnOrdersStatus < ActiveRecord::Migration[7.0]
  def change
    add_index :orders, :status
  end
end""",
        "db/migrate/20240110100000_add_index_on_orders_status.rb",
    ),
    (
        "rails-add-index-not-concurrently",
        "hit",
        r"""add_index(:users, :email, unique: true, name: "index_users_on_lower_email")""",
        "db/migrate/20240111100000_index_users_email.rb",
    ),
    (
        "rails-add-index-not-concurrently",
        "hit",
        r"""add_reference :comments, :post, index: true""",
        "db/migrate/20240112100000_add_post_to_comments.rb",
    ),
    (
        "rails-add-index-not-concurrently",
        "safe",
        r"""disable_ddl_transaction!

def change
  add_index :users, :email, unique: true, algorithm: :concurrently
end""",
        "db/migrate/20240111100000_index_users_email.rb",
    ),
    (
        "rails-add-index-not-concurrently",
        "safe",
        r"""create_table :invoices do |t|
  t.references :account, null: false
  t.timestamps
end""",
        "db/migrate/20240113100000_create_invoices.rb",
    ),
    # rails-change-column
    (
        "rails-change-column",
        "hit",
        r"""def change
  change_column :products, :price, :decimal, precision: 10, scale: 2
end""",
        "db/migrate/20240201100000_change_product_price.rb",
    ),
    (
        "rails-change-column",
        "hit",
        r"""change_table :users do |t|
  t.change :age, :integer
end""",
        "db/migrate/20240202100000_change_users_age.rb",
    ),
    (
        "rails-change-column",
        "hit",
        r"""change_column(:orders, :notes, :text, null: true)""",
        "db/migrate/20240203100000_change_order_notes.rb",
    ),
    (
        "rails-change-column",
        "safe",
        r"""def change
  change_column_default :products, :status, from: "draft", to: "active"
end""",
        "db/migrate/20240204100000_default_product_status.rb",
    ),
    (
        "rails-change-column",
        "safe",
        r"""def change
  change_column_comment :users, :age, from: nil, to: "years"
end""",
        "db/migrate/20240205100000_comment_users_age.rb",
    ),
    # rb-command-injection
    (
        "rb-command-injection",
        "hit",
        r"""Kernel.system("zip -r #{archive} #{folder}")""",
        "app/services/archiver.rb",
    ),
    (
        "rb-command-injection",
        "hit",
        r"""stdout, status = Open3.capture2("ffmpeg -i #{params[:file]} out.mp4")""",
        "app/controllers/videos_controller.rb",
    ),
    (
        "rb-command-injection",
        "hit",
        r"""result = %x(whois #{domain})""",
        "app/services/domain_lookup.rb",
    ),
    (
        "rb-command-injection",
        "safe",
        r"""Kernel.system("zip", "-r", archive, folder)""",
        "app/services/archiver.rb",
    ),
    (
        "rb-command-injection",
        "safe",
        r"""stdout, status = Open3.capture2("ffmpeg", "-i", file.path, "out.mp4")""",
        "app/controllers/videos_controller.rb",
    ),
    # php-sql-injection
    (
        "php-sql-injection",
        "hit",
        r"""$stmt = $conn->query("SELECT * FROM products WHERE category = '" . $_GET['cat'] . "'");""",
        "public/products.php",
    ),
    (
        "php-sql-injection",
        "hit",
        r"""$rows = $wpdb->get_results("SELECT * FROM {$wpdb->prefix}orders WHERE user_id = $user_id");""",
        "wp-content/plugins/acme-orders/includes/class-orders.php",
    ),
    (
        "php-sql-injection",
        "hit",
        r"""$orders = DB::table('orders')->whereRaw("status = '{$request->status}'")->get();""",
        "app/Http/Controllers/OrderController.php",
    ),
    (
        "php-sql-injection",
        "safe",
        r"""$stmt = $conn->prepare("SELECT * FROM products WHERE category = :cat");
$stmt->execute(['cat' => $_GET['cat']]);""",
        "public/products.php",
    ),
    (
        "php-sql-injection",
        "safe",
        r"""$rows = $wpdb->get_results($wpdb->prepare("SELECT * FROM {$wpdb->prefix}orders WHERE user_id = %d", $user_id));""",
        "wp-content/plugins/acme-orders/includes/class-orders.php",
    ),
    # php-echo-unescaped
    (
        "php-echo-unescaped",
        "hit",
        r"""<p>Hello <?php echo $_GET['name']; ?></p>""",
        "public/greet.php",
    ),
    (
        "php-echo-unescaped",
        "hit",
        r"""print "<h1>" . $_REQUEST['title'] . "</h1>";""",
        "public/page.php",
    ),
    (
        "php-echo-unescaped",
        "hit",
        r"""<article>{!! $post->content !!}</article>""",
        "resources/views/posts/show.blade.php",
    ),
    (
        "php-echo-unescaped",
        "safe",
        r"""<p>Hello <?php echo htmlspecialchars($_GET['name'] ?? '', ENT_QUOTES); ?></p>""",
        "public/greet.php",
    ),
    (
        "php-echo-unescaped",
        "safe",
        r"""<h1>{{ $post->title }}</h1>""",
        "resources/views/posts/show.blade.php",
    ),
    # php-extract-input
    ("php-extract-input", "hit", r"""extract($_GET);""", "public/search.php"),
    (
        "php-extract-input",
        "hit",
        r"""extract($request->all());""",
        "app/Http/Controllers/ReportController.php",
    ),
    (
        "php-extract-input",
        "hit",
        r"""foreach ($_POST as $key => $value) {
    $$key = $value;
}""",
        "public/contact.php",
    ),
    (
        "php-extract-input",
        "safe",
        r"""extract(['title' => $title, 'items' => $items]);""",
        "src/View/Renderer.php",
    ),
    (
        "php-extract-input",
        "safe",
        r"""parse_str(parse_url($url, PHP_URL_QUERY), $query);""",
        "src/Http/UrlTools.php",
    ),
    # php-fast-hash-password
    (
        "php-fast-hash-password",
        "hit",
        r"""$user->password = md5($request->input('password'));""",
        "app/Http/Controllers/RegisterController.php",
    ),
    (
        "php-fast-hash-password",
        "hit",
        r"""$hashed = hash('sha512', $salt . $plainPassword);""",
        "src/Auth/PasswordHasher.php",
    ),
    (
        "php-fast-hash-password",
        "hit",
        r"""if (sha1($_POST['pass']) === $row['pass_hash']) {""",
        "public/login.php",
    ),
    (
        "php-fast-hash-password",
        "safe",
        r"""$user->password = Hash::make($request->input('password'));""",
        "app/Http/Controllers/RegisterController.php",
    ),
    (
        "php-fast-hash-password",
        "safe",
        r"""if (password_verify($_POST['pass'], $row['pass_hash'])) {""",
        "public/login.php",
    ),
    # php-loose-compare-secret
    (
        "php-loose-compare-secret",
        "hit",
        r"""if ($request->header('X-Api-Key') == $apiKey) {""",
        "app/Http/Middleware/ApiKeyAuth.php",
    ),
    (
        "php-loose-compare-secret",
        "hit",
        r"""if ($_POST['csrf_token'] != $_SESSION['csrf_token']) {
    die('invalid');
}""",
        "public/transfer.php",
    ),
    (
        "php-loose-compare-secret",
        "hit",
        r"""return hash_hmac('sha256', $payload, $secret) == $signature;""",
        "src/Webhooks/SignatureVerifier.php",
    ),
    (
        "php-loose-compare-secret",
        "safe",
        r"""if (!hash_equals($_SESSION['csrf_token'], $_POST['csrf_token'] ?? '')) {""",
        "public/transfer.php",
    ),
    (
        "php-loose-compare-secret",
        "safe",
        r"""if ($status == 'active') {""",
        "src/Accounts/AccountFilter.php",
    ),
    # php-unserialize
    ("php-unserialize", "hit", r"""$data = unserialize($_POST['data']);""", "public/import.php"),
    (
        "php-unserialize",
        "hit",
        r"""$session = unserialize(gzuncompress(base64_decode($cookieValue)));""",
        "src/Session/CookieSession.php",
    ),
    (
        "php-unserialize",
        "hit",
        r"""$filters = unserialize(urldecode($request->query('filters')));""",
        "app/Http/Controllers/SearchController.php",
    ),
    (
        "php-unserialize",
        "safe",
        r"""$data = unserialize($cached, ['allowed_classes' => [CartItem::class]]);""",
        "src/Cart/CartCache.php",
    ),
    (
        "php-unserialize",
        "safe",
        r"""$data = json_decode($request->getContent(), true, 512, JSON_THROW_ON_ERROR);""",
        "app/Http/Controllers/ImportController.php",
    ),
    # php-file-inclusion
    (
        "php-file-inclusion",
        "hit",
        r"""require $_GET['module'] . '/index.php';""",
        "public/index.php",
    ),
    (
        "php-file-inclusion",
        "hit",
        r"""$view = $_REQUEST['view'];
include "views/{$view}.php";""",
        "public/render.php",
    ),
    (
        "php-file-inclusion",
        "hit",
        r"""include_once(__DIR__ . '/lang/' . $_COOKIE['lang'] . '.php');""",
        "src/i18n.php",
    ),
    (
        "php-file-inclusion",
        "safe",
        r"""require_once __DIR__ . '/../bootstrap/app.php';""",
        "public/index.php",
    ),
    (
        "php-file-inclusion",
        "safe",
        r"""include __DIR__ . '/partials/footer.php';""",
        "public/render.php",
    ),
    # php-display-errors
    (
        "php-display-errors",
        "hit",
        r"""error_reporting(E_ALL);
ini_set('display_errors', 1);""",
        "public/index.php",
    ),
    (
        "php-display-errors",
        "hit",
        r"""display_errors = 1
display_startup_errors = On""",
        "docker/php/php.ini",
    ),
    ("php-display-errors", "hit", r"""'debug' => env('APP_DEBUG', true),""", "config/app.php"),
    (
        "php-display-errors",
        "safe",
        r"""ini_set('display_errors', 'Off');
ini_set('log_errors', 'On');""",
        "public/index.php",
    ),
    ("php-display-errors", "safe", r"""'debug' => env('APP_DEBUG', false),""", "config/app.php"),
    # php-mass-assignment
    (
        "php-mass-assignment",
        "hit",
        r"""$product = Product::create($request->input());""",
        "app/Http/Controllers/ProductController.php",
    ),
    (
        "php-mass-assignment",
        "hit",
        r"""$user->forceFill($request->all())->save();""",
        "app/Http/Controllers/ProfileController.php",
    ),
    (
        "php-mass-assignment",
        "hit",
        r"""Post::where('id', $id)->update($request->post());""",
        "app/Http/Controllers/PostController.php",
    ),
    (
        "php-mass-assignment",
        "safe",
        r"""$product = Product::create($request->validate([
    'name' => 'required|string',
    'price' => 'required|numeric',
]));""",
        "app/Http/Controllers/ProductController.php",
    ),
    (
        "php-mass-assignment",
        "safe",
        r"""protected $guarded = ['id', 'is_admin'];""",
        "app/Models/User.php",
    ),
    # php-command-injection
    (
        "php-command-injection",
        "hit",
        r"""$output = shell_exec('whois ' . $_GET['domain']);""",
        "public/whois.php",
    ),
    (
        "php-command-injection",
        "hit",
        r"""passthru("convert {$file} -resize 50% {$thumb}");""",
        "src/Media/Thumbnailer.php",
    ),
    (
        "php-command-injection",
        "hit",
        r"""exec("zip -r $archive $dir", $out, $code);""",
        "src/Backup/Archiver.php",
    ),
    (
        "php-command-injection",
        "safe",
        r"""$output = shell_exec('whois ' . escapeshellarg($domain));""",
        "public/whois.php",
    ),
    (
        "php-command-injection",
        "safe",
        r"""$process = new Process(['convert', $file, '-resize', '50%', $thumb]);
$process->mustRun();""",
        "src/Media/Thumbnailer.php",
    ),
    # swift-force-unwrap
    (
        "swift-force-unwrap",
        "hit",
        r"""let image = UIImage(named: "logo")!""",
        "Shop/Views/HeaderView.swift",
    ),
    (
        "swift-force-unwrap",
        "hit",
        r"""let vc = storyboard?.instantiateViewController(withIdentifier: "Detail") as! DetailViewController""",
        "Shop/Controllers/ListViewController.swift",
    ),
    (
        "swift-force-unwrap",
        "hit",
        r"""let firstID = orders.first!.id""",
        "Shop/Models/OrderStore.swift",
    ),
    (
        "swift-force-unwrap",
        "safe",
        r"""guard let vc = storyboard?.instantiateViewController(withIdentifier: "Detail") as? DetailViewController else { return }""",
        "Shop/Controllers/ListViewController.swift",
    ),
    (
        "swift-force-unwrap",
        "safe",
        r"""if let first = orders.first, first.id != selectedID {""",
        "Shop/Models/OrderStore.swift",
    ),
    # swift-force-try
    (
        "swift-force-try",
        "hit",
        r"""let json = try! JSONSerialization.jsonObject(with: data) as? [String: Any]""",
        "Shop/Networking/APIClient.swift",
    ),
    (
        "swift-force-try",
        "hit",
        r"""let db = try! Connection(dbPath)""",
        "Shop/Storage/Database.swift",
    ),
    (
        "swift-force-try",
        "hit",
        r"""let contents = try! String(contentsOfFile: path, encoding: .utf8)""",
        "Shop/Storage/FileStore.swift",
    ),
    (
        "swift-force-try",
        "safe",
        r"""let contents = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
""",
        "Shop/Storage/FileStore.swift",
    ),
    (
        "swift-force-try",
        "safe",
        r"""do {
    self.db = try Connection(dbPath)
} catch {
    logger.error("db open failed: \(error)")
}""",
        "Shop/Storage/Database.swift",
    ),
    # swift-main-sync-deadlock
    (
        "swift-main-sync-deadlock",
        "hit",
        r"""DispatchQueue.main.sync {
    self.progressView.progress = Float(done) / Float(total)
}""",
        "Shop/Download/DownloadManager.swift",
    ),
    (
        "swift-main-sync-deadlock",
        "hit",
        r"""let token = DispatchQueue.main.sync { () -> String in
    return session.token
}""",
        "Shop/Networking/AuthInterceptor.swift",
    ),
    (
        "swift-main-sync-deadlock",
        "hit",
        r"""DispatchQueue.main.sync(execute: { self.spinner.stopAnimating() })""",
        "Shop/Views/LoadingView.swift",
    ),
    (
        "swift-main-sync-deadlock",
        "safe",
        r"""DispatchQueue.main.async { [weak self] in
    self?.progressView.progress = Float(done) / Float(total)
}""",
        "Shop/Download/DownloadManager.swift",
    ),
    (
        "swift-main-sync-deadlock",
        "safe",
        r"""syncQueue.sync {
    storage[key] = value
}""",
        "Shop/Storage/ThreadSafeCache.swift",
    ),
    # swift-ats-arbitrary-loads
    (
        "swift-ats-arbitrary-loads",
        "hit",
        r"""<key>NSAppTransportSecurity</key>
<dict>
    <key>NSAllowsArbitraryLoads</key>
    <true/>
    <key>NSAllowsLocalNetworking</key>
    <true/>
</dict>""",
        "Shop/Info.plist",
    ),
    (
        "swift-ats-arbitrary-loads",
        "hit",
        r"""<dict>
    <key>NSAllowsArbitraryLoadsForMedia</key>
    <true/>
</dict>""",
        "Player/Info.plist",
    ),
    (
        "swift-ats-arbitrary-loads",
        "hit",
        r"""<key>NSAppTransportSecurity</key><dict><key>NSAllowsArbitraryLoads</key><true/></dict>""",
        "Widget/Info.plist",
    ),
    (
        "swift-ats-arbitrary-loads",
        "safe",
        r"""<key>NSAppTransportSecurity</key>
<dict>
    <key>NSExceptionDomains</key>
    <dict>
        <key>localhost</key>
        <dict>
            <key>NSExceptionAllowsInsecureHTTPLoads</key>
            <true/>
        </dict>
    </dict>
</dict>""",
        "Shop/Info.plist",
    ),
    (
        "swift-ats-arbitrary-loads",
        "safe",
        r"""<key>NSAllowsArbitraryLoads</key>
<false/>
<key>NSAllowsLocalNetworking</key>
<true/>""",
        "Shop/Info.plist",
    ),
    # swift-userdefaults-secret
    (
        "swift-userdefaults-secret",
        "hit",
        r"""UserDefaults.standard.set(response.accessToken, forKey: "accessToken")""",
        "Shop/Auth/SessionStore.swift",
    ),
    (
        "swift-userdefaults-secret",
        "hit",
        r"""defaults.set(credentials.password, forKey: Keys.password)""",
        "Shop/Auth/CredentialStore.swift",
    ),
    (
        "swift-userdefaults-secret",
        "hit",
        r"""@AppStorage("sessionToken") private var sessionToken: String = ""
""",
        "Shop/Views/RootView.swift",
    ),
    (
        "swift-userdefaults-secret",
        "safe",
        r"""UserDefaults.standard.set(response.userID, forKey: "lastUserID")""",
        "Shop/Auth/SessionStore.swift",
    ),
    (
        "swift-userdefaults-secret",
        "safe",
        r"""KeychainWrapper.standard.set(response.accessToken, forKey: "accessToken")""",
        "Shop/Auth/SessionStore.swift",
    ),
    # c-unbounded-string-copy
    (
        "c-unbounded-string-copy",
        "hit",
        r"""char buf[64];
strcpy(buf, argv[1]);""",
        "src/main.c",
    ),
    (
        "c-unbounded-string-copy",
        "hit",
        r"""strcat(path, "/");
strcat(path, name);""",
        "src/fs/path.c",
    ),
    (
        "c-unbounded-string-copy",
        "hit",
        r"""std::sprintf(out, "%s:%d", host, port);""",
        "src/net/address.cpp",
    ),
    (
        "c-unbounded-string-copy",
        "safe",
        r"""snprintf(msg, sizeof(msg), "user %s logged in from %s", user, host);""",
        "src/auth/log.c",
    ),
    (
        "c-unbounded-string-copy",
        "safe",
        r"""strncat(path, name, sizeof(path) - strlen(path) - 1);""",
        "src/fs/path.c",
    ),
    # c-format-string
    ("c-format-string", "hit", r"""printf(argv[1]);""", "src/main.c"),
    ("c-format-string", "hit", r"""fprintf(logfile, line);""", "src/log/writer.c"),
    ("c-format-string", "hit", r"""syslog(LOG_NOTICE, client_msg);""", "src/daemon/server.c"),
    ("c-format-string", "safe", r"""printf("%s", argv[1]);""", "src/main.c"),
    ("c-format-string", "safe", r"""fputs(line, logfile);""", "src/log/writer.c"),
    # c-system-injection
    (
        "c-system-injection",
        "hit",
        r"""char cmd[256];
sprintf(cmd, "rm -rf %s", dir);
system(cmd);""",
        "src/cleanup.c",
    ),
    (
        "c-system-injection",
        "hit",
        r"""std::string cmd = "gzip " + filename;
std::system(cmd.c_str());""",
        "src/archive/compress.cpp",
    ),
    (
        "c-system-injection",
        "hit",
        r"""execlp("sh", "sh", "-c", user_cmd, NULL);""",
        "src/shell/runner.c",
    ),
    (
        "c-system-injection",
        "safe",
        r"""char *args[] = {"rm", "-rf", dir, NULL};
execvp("rm", args);""",
        "src/cleanup.c",
    ),
    ("c-system-injection", "safe", r"""int rc = system("sync");""", "src/archive/flush.c"),
    # cpp-using-namespace-in-header
    (
        "cpp-using-namespace-in-header",
        "hit",
        r"""#pragma once
#include <map>
using namespace std;
class OrderBook {""",
        "include/acme/order_book.hpp",
    ),
    (
        "cpp-using-namespace-in-header",
        "hit",
        r"""#ifndef UTIL_STRINGS_H
#define UTIL_STRINGS_H
#include <string>
namespace util {
using namespace std;
string trim(const string& s);
}""",
        "src/util/strings.h",
    ),
    (
        "cpp-using-namespace-in-header",
        "hit",
        r"""#pragma once
#include <boost/asio.hpp>
using namespace boost::asio::ip;""",
        "include/net/resolver.hh",
    ),
    (
        "cpp-using-namespace-in-header",
        "safe",
        r"""#include "order_book.hpp"
using namespace std;
void OrderBook::add(const Order& o) {""",
        "src/order_book.cpp",
    ),
    (
        "cpp-using-namespace-in-header",
        "safe",
        r"""#pragma once
#include <map>
namespace acme {
namespace detail = ::acme::internal;
using std::map;
}""",
        "include/acme/order_book.hpp",
    ),
    # cpp-catch-by-value
    (
        "cpp-catch-by-value",
        "hit",
        r"""try {
    parse(input);
} catch (std::invalid_argument ex) {
    std::cerr << ex.what();
}""",
        "src/config/parser.cpp",
    ),
    ("cpp-catch-by-value", "hit", r"""} catch (const acme::DbError err) {""", "src/db/session.cpp"),
    (
        "cpp-catch-by-value",
        "hit",
        r"""} catch (std::bad_alloc) {
    return nullptr;
}""",
        "src/mem/pool.cpp",
    ),
    (
        "cpp-catch-by-value",
        "safe",
        r"""} catch (const std::invalid_argument& ex) {""",
        "src/config/parser.cpp",
    ),
    (
        "cpp-catch-by-value",
        "safe",
        r"""} catch (const acme::DbError &err) {
    log(err.what());
} catch (...) {
    throw;
}""",
        "src/db/session.cpp",
    ),
    # elixir-string-to-atom
    (
        "elixir-string-to-atom",
        "hit",
        r"""def handle_event("sort", %{"by" => by}, socket) do
  {:noreply, assign(socket, sort: String.to_atom(by))}
end""",
        "lib/shop_web/live/product_live/index.ex",
    ),
    (
        "elixir-string-to-atom",
        "hit",
        r"""keys = Enum.map(Map.keys(params), &String.to_atom/1)""",
        "lib/shop/params.ex",
    ),
    (
        "elixir-string-to-atom",
        "hit",
        r"""kind = List.to_atom(String.to_charlist(params["kind"]))""",
        "lib/shop_web/controllers/report_controller.ex",
    ),
    (
        "elixir-string-to-atom",
        "safe",
        r"""keys = Enum.map(Map.keys(params), &String.to_existing_atom/1)""",
        "lib/shop/params.ex",
    ),
    (
        "elixir-string-to-atom",
        "safe",
        r"""def sort_field("name"), do: :name
def sort_field("date"), do: :inserted_at""",
        "lib/shop_web/live/product_live/index.ex",
    ),
    # elixir-sql-interpolation
    (
        "elixir-sql-interpolation",
        "hit",
        r"""Repo.query!("SELECT * FROM orders WHERE status = '#{status}'")""",
        "lib/shop/orders.ex",
    ),
    (
        "elixir-sql-interpolation",
        "hit",
        r"""Ecto.Adapters.SQL.query(MyApp.Repo, "UPDATE users SET role = '#{role}' WHERE id = #{id}", [])""",
        "lib/my_app/accounts.ex",
    ),
    (
        "elixir-sql-interpolation",
        "hit",
        r"""query = "DELETE FROM sessions WHERE token = '#{token}'"
Repo.query!(query)""",
        "lib/shop/sessions.ex",
    ),
    (
        "elixir-sql-interpolation",
        "safe",
        r"""Repo.query!("SELECT * FROM orders WHERE status = $1", [status])""",
        "lib/shop/orders.ex",
    ),
    (
        "elixir-sql-interpolation",
        "safe",
        r"""from(p in Post, where: ilike(p.title, ^"%#{term}%")) |> Repo.all()""",
        "lib/shop/blog.ex",
    ),
    # dart-null-assertion
    (
        "dart-null-assertion",
        "hit",
        r"""final uid = FirebaseAuth.instance.currentUser!.uid;""",
        "lib/services/auth_service.dart",
    ),
    (
        "dart-null-assertion",
        "hit",
        r"""final args = ModalRoute.of(context)!.settings.arguments as OrderArgs;""",
        "lib/screens/order_screen.dart",
    ),
    ("dart-null-assertion", "hit", r"""return _cache[key]!;""", "lib/data/cache.dart"),
    (
        "dart-null-assertion",
        "safe",
        r"""final uid = FirebaseAuth.instance.currentUser?.uid;
if (uid == null) return;""",
        "lib/services/auth_service.dart",
    ),
    (
        "dart-null-assertion",
        "safe",
        r"""if (!isLoading && items.length != 0) {""",
        "lib/screens/list_screen.dart",
    ),
    # dart-context-across-async-gap
    (
        "dart-context-across-async-gap",
        "hit",
        r"""final confirmed = await showDialog<bool>(context: context, builder: _confirm);
if (confirmed == true) {
  Navigator.pop(context);
}""",
        "lib/screens/delete_screen.dart",
    ),
    (
        "dart-context-across-async-gap",
        "hit",
        r"""await authService.signOut();
Navigator.pushReplacementNamed(context, '/login');""",
        "lib/screens/settings_screen.dart",
    ),
    (
        "dart-context-across-async-gap",
        "hit",
        r"""try {
  await api.submit(form);
  ScaffoldMessenger.of(context).showSnackBar(const SnackBar(content: Text('Sent')));
} catch (e) {
  showError(context, e);
}""",
        "lib/screens/contact_screen.dart",
    ),
    (
        "dart-context-across-async-gap",
        "safe",
        r"""await authService.signOut();
if (!mounted) return;
Navigator.pushReplacementNamed(context, '/login');""",
        "lib/screens/settings_screen.dart",
    ),
    (
        "dart-context-across-async-gap",
        "safe",
        r"""final messenger = ScaffoldMessenger.of(context);
await api.submit(form);
messenger.showSnackBar(const SnackBar(content: Text('Sent')));""",
        "lib/screens/contact_screen.dart",
    ),
    # dart-shared-preferences-secret
    (
        "dart-shared-preferences-secret",
        "hit",
        r"""final prefs = await SharedPreferences.getInstance();
await prefs.setString('access_token', session.accessToken);""",
        "lib/services/session_store.dart",
    ),
    (
        "dart-shared-preferences-secret",
        "hit",
        r"""await preferences.setString("jwt", response.jwt);""",
        "lib/data/auth_repository.dart",
    ),
    (
        "dart-shared-preferences-secret",
        "hit",
        r"""prefs.setString('userPassword', passwordController.text);""",
        "lib/screens/login_screen.dart",
    ),
    (
        "dart-shared-preferences-secret",
        "safe",
        r"""const storage = FlutterSecureStorage();
await storage.write(key: 'access_token', value: session.accessToken);""",
        "lib/services/session_store.dart",
    ),
    (
        "dart-shared-preferences-secret",
        "safe",
        r"""await prefs.setString('lastRoute', '/orders');""",
        "lib/services/nav_store.dart",
    ),
    # java-equals-without-hashcode
    (
        "java-equals-without-hashcode",
        "hit",
        r"""@Override
public boolean equals(Object obj) {
    if (!(obj instanceof OrderId)) return false;
    return value.equals(((OrderId) obj).value);
}

@Override
public String toString() {
    return value;
}""",
        "src/main/java/com/acme/orders/OrderId.java",
    ),
    (
        "java-equals-without-hashcode",
        "hit",
        r"""class Money(val amount: BigDecimal, val currency: String) {
    override fun equals(other: Any?): Boolean {
        if (other !is Money) return false
        return amount == other.amount && currency == other.currency
    }
}""",
        "src/main/kotlin/com/acme/money/Money.kt",
    ),
    (
        "java-equals-without-hashcode",
        "hit",
        r"""public boolean equals(Object o) {
    if (o == null || getClass() != o.getClass()) return false;
    Customer that = (Customer) o;
    return Objects.equals(email, that.email);
}""",
        "src/main/java/com/acme/customers/Customer.java",
    ),
    (
        "java-equals-without-hashcode",
        "safe",
        r"""@Override
public boolean equals(Object obj) {
    return obj instanceof OrderId other && value.equals(other.value);
}

@Override
public int hashCode() {
    return value.hashCode();
}""",
        "src/main/java/com/acme/orders/OrderId.java",
    ),
    (
        "java-equals-without-hashcode",
        "safe",
        r"""@EqualsAndHashCode(of = "email")
public class Customer {
    private String email;""",
        "src/main/java/com/acme/customers/Customer.java",
    ),
    # java-jwt-not-verified
    (
        "java-jwt-not-verified",
        "hit",
        r"""Claims claims = Jwts.parser().parseClaimsJwt(jwt).getBody();""",
        "src/main/java/com/acme/security/JwtFilter.java",
    ),
    (
        "java-jwt-not-verified",
        "hit",
        r"""val decoded = JWT.decode(token)
val roles = decoded.getClaim("roles").asList(String::class.java)""",
        "src/main/kotlin/com/acme/security/RoleExtractor.kt",
    ),
    (
        "java-jwt-not-verified",
        "hit",
        r"""SignedJWT signed = SignedJWT.parse(token);
String sub = signed.getJWTClaimsSet().getSubject();""",
        "src/main/java/com/acme/security/TokenReader.java",
    ),
    (
        "java-jwt-not-verified",
        "safe",
        r"""Claims claims = Jwts.parserBuilder().setSigningKey(publicKey).build().parseClaimsJws(jwt).getBody();""",
        "src/main/java/com/acme/security/JwtFilter.java",
    ),
    (
        "java-jwt-not-verified",
        "safe",
        r"""SignedJWT signed = SignedJWT.parse(token);
if (!signed.verify(new RSASSAVerifier(publicKey))) throw new BadCredentialsException("bad signature");""",
        "src/main/java/com/acme/security/TokenReader.java",
    ),
    # java-weak-cipher-ecb
    (
        "java-weak-cipher-ecb",
        "hit",
        r"""Cipher cipher = Cipher.getInstance("AES/ECB/NoPadding");""",
        "src/main/java/com/acme/crypto/Encryptor.java",
    ),
    (
        "java-weak-cipher-ecb",
        "hit",
        r"""val cipher = Cipher.getInstance("DESede/CBC/PKCS5Padding")""",
        "src/main/kotlin/com/acme/crypto/LegacyCrypto.kt",
    ),
    (
        "java-weak-cipher-ecb",
        "hit",
        r"""private static final String TRANSFORMATION = "AES/ECB/PKCS5Padding";""",
        "src/main/java/com/acme/crypto/TokenCipher.java",
    ),
    (
        "java-weak-cipher-ecb",
        "safe",
        r"""Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(128, iv));""",
        "src/main/java/com/acme/crypto/Encryptor.java",
    ),
    (
        "java-weak-cipher-ecb",
        "safe",
        r"""val cipher = Cipher.getInstance("ChaCha20-Poly1305")""",
        "src/main/kotlin/com/acme/crypto/LegacyCrypto.kt",
    ),
    # java-modify-list-in-foreach
    (
        "java-modify-list-in-foreach",
        "hit",
        r"""for (final Map.Entry<String, Session> e : sessions.entrySet()) {
    if (e.getValue().isExpired()) {
        sessions.remove(e.getKey());
    }
}""",
        "src/main/java/com/acme/auth/SessionRegistry.java",
    ),
    (
        "java-modify-list-in-foreach",
        "hit",
        r"""cart.items.forEach { item ->
    if (item.quantity == 0) cart.items.remove(item)
}""",
        "src/main/kotlin/com/acme/cart/CartCleaner.kt",
    ),
    (
        "java-modify-list-in-foreach",
        "hit",
        r"""for (var user : users) {
    if (user.isDeleted()) {
        users.remove(user);
    }
}""",
        "src/main/java/com/acme/users/UserPruner.java",
    ),
    (
        "java-modify-list-in-foreach",
        "safe",
        r"""sessions.entrySet().removeIf(e -> e.getValue().isExpired());""",
        "src/main/java/com/acme/auth/SessionRegistry.java",
    ),
    (
        "java-modify-list-in-foreach",
        "safe",
        r"""val iterator = cart.items.iterator()
while (iterator.hasNext()) {
    if (iterator.next().quantity == 0) iterator.remove()
}""",
        "src/main/kotlin/com/acme/cart/CartCleaner.kt",
    ),
    # java-http-client-no-timeout
    (
        "java-http-client-no-timeout",
        "hit",
        r"""@Bean
public RestTemplate restTemplate() {
    return new RestTemplate();
}""",
        "src/main/java/com/acme/config/HttpConfig.java",
    ),
    (
        "java-http-client-no-timeout",
        "hit",
        r"""private val http = HttpClient.newHttpClient()""",
        "src/main/kotlin/com/acme/rates/RatesClient.kt",
    ),
    (
        "java-http-client-no-timeout",
        "hit",
        r"""CloseableHttpClient client = HttpClientBuilder.create().build();""",
        "src/main/java/com/acme/http/ClientFactory.java",
    ),
    (
        "java-http-client-no-timeout",
        "safe",
        r"""@Bean
public RestTemplate restTemplate(RestTemplateBuilder builder) {
    return builder.setConnectTimeout(Duration.ofSeconds(2)).setReadTimeout(Duration.ofSeconds(10)).build();
}""",
        "src/main/java/com/acme/config/HttpConfig.java",
    ),
    (
        "java-http-client-no-timeout",
        "safe",
        r"""RequestConfig config = RequestConfig.custom().setConnectTimeout(2000).setSocketTimeout(5000).build();
CloseableHttpClient client = HttpClientBuilder.create().setDefaultRequestConfig(config).build();""",
        "src/main/java/com/acme/http/ClientFactory.java",
    ),
    # cs-disposable-not-disposed
    (
        "cs-disposable-not-disposed",
        "hit",
        r"""var stream = new FileStream(path, FileMode.Open);
var doc = await JsonDocument.ParseAsync(stream);""",
        "Import/JsonImporter.cs",
    ),
    (
        "cs-disposable-not-disposed",
        "hit",
        r"""NpgsqlConnection connection = new NpgsqlConnection(_cs);
await connection.OpenAsync();""",
        "Data/OrderStore.cs",
    ),
    (
        "cs-disposable-not-disposed",
        "hit",
        r"""var writer = new StreamWriter(logPath, append: true);
writer.WriteLine(line);""",
        "Logging/FileLog.cs",
    ),
    (
        "cs-disposable-not-disposed",
        "safe",
        r"""await using var stream = new FileStream(path, FileMode.Open);
using var doc = await JsonDocument.ParseAsync(stream);""",
        "Import/JsonImporter.cs",
    ),
    (
        "cs-disposable-not-disposed",
        "safe",
        r"""using (var writer = new StreamWriter(logPath, append: true))
{
    writer.WriteLine(line);
}""",
        "Logging/FileLog.cs",
    ),
    # cs-process-shell-injection
    (
        "cs-process-shell-injection",
        "hit",
        r"""Process.Start("bash", "-c \"tar -xzf " + archivePath + "\"");""",
        "Services/ArchiveService.cs",
    ),
    (
        "cs-process-shell-injection",
        "hit",
        r"""var startInfo = new ProcessStartInfo("cmd.exe", $"/C ping {hostName}")
{
    UseShellExecute = false
};""",
        "Diagnostics/PingService.cs",
    ),
    (
        "cs-process-shell-injection",
        "hit",
        r"""var psi = new ProcessStartInfo();
psi.FileName = "/bin/sh";
psi.Arguments = "-c \"convert " + input + " out.png\"";""",
        "Media/ImageConverter.cs",
    ),
    (
        "cs-process-shell-injection",
        "safe",
        r"""var psi = new ProcessStartInfo("tar");
psi.ArgumentList.Add("-xzf");
psi.ArgumentList.Add(archivePath);""",
        "Services/ArchiveService.cs",
    ),
    (
        "cs-process-shell-injection",
        "safe",
        r"""Process.Start("explorer.exe", folderPath);""",
        "Desktop/FolderOpener.cs",
    ),
    # android-cleartext-traffic
    (
        "android-cleartext-traffic",
        "hit",
        r"""<application
    android:allowBackup="false"
    android:usesCleartextTraffic="true"
    android:theme="@style/AppTheme">""",
        "app/src/main/AndroidManifest.xml",
    ),
    (
        "android-cleartext-traffic",
        "hit",
        r"""<network-security-config>
    <base-config cleartextTrafficPermitted="true" />
</network-security-config>""",
        "app/src/main/res/xml/network_security_config.xml",
    ),
    (
        "android-cleartext-traffic",
        "hit",
        r"""<application android:icon="@mipmap/ic_launcher" android:usesCleartextTraffic='true' android:label="@string/app_name">""",
        "app/src/main/AndroidManifest.xml",
    ),
    (
        "android-cleartext-traffic",
        "safe",
        r"""<network-security-config>
    <domain-config cleartextTrafficPermitted="true">
        <domain includeSubdomains="true">localhost</domain>
    </domain-config>
</network-security-config>""",
        "app/src/debug/res/xml/network_security_config.xml",
    ),
    (
        "android-cleartext-traffic",
        "safe",
        r"""<base-config cleartextTrafficPermitted="false" />""",
        "app/src/main/res/xml/network_security_config.xml",
    ),
    # android-debuggable
    (
        "android-debuggable",
        "hit",
        r"""<application
    android:label="@string/app_name"
    android:debuggable="true"
    android:icon="@mipmap/ic_launcher">""",
        "app/src/main/AndroidManifest.xml",
    ),
    (
        "android-debuggable",
        "hit",
        r"""buildTypes {
    release {
        isMinifyEnabled = true
        isDebuggable = true
    }
}""",
        "app/build.gradle.kts",
    ),
    (
        "android-debuggable",
        "hit",
        r"""buildTypes {
    release {
        debuggable = true
        signingConfig signingConfigs.release
    }
}""",
        "app/build.gradle",
    ),
    (
        "android-debuggable",
        "safe",
        r"""buildTypes {
    debug {
        isDebuggable = true
        applicationIdSuffix = ".debug"
    }
    release {
        isMinifyEnabled = true
    }
}""",
        "app/build.gradle.kts",
    ),
    (
        "android-debuggable",
        "safe",
        r"""release {
    debuggable false
    minifyEnabled true
}""",
        "app/build.gradle",
    ),
    # rails-open-redirect
    (
        "rails-open-redirect",
        "hit",
        r"""redirect_to params[:redirect_url], allow_other_host: true""",
        "app/controllers/sessions_controller.rb",
    ),
    (
        "rails-open-redirect",
        "hit",
        r"""redirect_to(params[:next] || dashboard_path)""",
        "app/controllers/onboarding_controller.rb",
    ),
    (
        "rails-open-redirect",
        "hit",
        r"""redirect_to "https://#{params[:subdomain]}.example.com/login"
""",
        "app/controllers/tenants_controller.rb",
    ),
    (
        "rails-open-redirect",
        "safe",
        r"""redirect_to dashboard_path, notice: "Welcome back"
""",
        "app/controllers/sessions_controller.rb",
    ),
    (
        "rails-open-redirect",
        "safe",
        r"""redirect_back_or_to root_path""",
        "app/controllers/onboarding_controller.rb",
    ),
    # rails-send-file-user-path
    (
        "rails-send-file-user-path",
        "hit",
        r"""send_file File.join(Rails.root, "storage", params[:filename])""",
        "app/controllers/downloads_controller.rb",
    ),
    (
        "rails-send-file-user-path",
        "hit",
        r"""send_file("#{Rails.root}/public/downloads/#{params[:file]}", type: "application/pdf")""",
        "app/controllers/manuals_controller.rb",
    ),
    (
        "rails-send-file-user-path",
        "hit",
        r"""contents = File.read(File.join(EXPORT_DIR, params[:file]))""",
        "app/controllers/exports_controller.rb",
    ),
    (
        "rails-send-file-user-path",
        "safe",
        r"""send_file File.join(Rails.root, "storage", File.basename(params[:filename]))""",
        "app/controllers/downloads_controller.rb",
    ),
    (
        "rails-send-file-user-path",
        "safe",
        r"""report = current_user.reports.find(params[:id])
send_file report.file_path, disposition: "attachment"
""",
        "app/controllers/reports_controller.rb",
    ),
    # php-curl-ssl-verify-off
    (
        "php-curl-ssl-verify-off",
        "hit",
        r"""curl_setopt_array($ch, [
    CURLOPT_URL => $url,
    CURLOPT_SSL_VERIFYPEER => false,
    CURLOPT_RETURNTRANSFER => true,
]);""",
        "src/Http/Fetcher.php",
    ),
    (
        "php-curl-ssl-verify-off",
        "hit",
        r"""$response = Http::withOptions(['verify' => false])->post($url, $payload);""",
        "app/Services/PartnerClient.php",
    ),
    (
        "php-curl-ssl-verify-off",
        "hit",
        r"""curl_setopt($curl, CURLOPT_SSL_VERIFYHOST, false);""",
        "lib/api.php",
    ),
    (
        "php-curl-ssl-verify-off",
        "safe",
        r"""curl_setopt_array($ch, [
    CURLOPT_URL => $url,
    CURLOPT_SSL_VERIFYPEER => true,
    CURLOPT_SSL_VERIFYHOST => 2,
]);""",
        "src/Http/Fetcher.php",
    ),
    (
        "php-curl-ssl-verify-off",
        "safe",
        r"""$response = Http::withOptions(['verify' => storage_path('certs/ca.pem')])->post($url, $payload);""",
        "app/Services/PartnerClient.php",
    ),
    # php-weak-random-token
    (
        "php-weak-random-token",
        "hit",
        r"""$token = sha1(uniqid(mt_rand(), true));""",
        "src/Auth/TokenFactory.php",
    ),
    (
        "php-weak-random-token",
        "hit",
        r"""$code = mt_rand(1000, 9999);
$user->verification_code = $code;""",
        "app/Services/VerificationService.php",
    ),
    (
        "php-weak-random-token",
        "hit",
        r"""$apiKey = md5(microtime());""",
        "src/Api/KeyGenerator.php",
    ),
    (
        "php-weak-random-token",
        "safe",
        r"""$token = bin2hex(openssl_random_pseudo_bytes(32));""",
        "src/Auth/TokenFactory.php",
    ),
    (
        "php-weak-random-token",
        "safe",
        r"""$code = random_int(1000, 9999);
$user->verification_code = $code;""",
        "app/Services/VerificationService.php",
    ),
    # php-ssrf-user-url
    ("php-ssrf-user-url", "hit", r"""$ch = curl_init($_GET['feed']);""", "public/feed_proxy.php"),
    (
        "php-ssrf-user-url",
        "hit",
        r"""$response = (new \GuzzleHttp\Client())->get($request->query('url'));""",
        "app/Http/Controllers/PreviewController.php",
    ),
    (
        "php-ssrf-user-url",
        "hit",
        r"""$data = file_get_contents($_REQUEST['src']);""",
        "public/image_proxy.php",
    ),
    (
        "php-ssrf-user-url",
        "safe",
        r"""$ch = curl_init(config('services.feed.url'));""",
        "public/feed_proxy.php",
    ),
    (
        "php-ssrf-user-url",
        "safe",
        r"""$url = $request->input('url');
$host = parse_url($url, PHP_URL_HOST);
if (!in_array($host, self::ALLOWED_HOSTS, true)) {
    abort(422);
}
$response = Http::get($url);""",
        "app/Http/Controllers/PreviewController.php",
    ),
    # c-realloc-same-pointer
    (
        "c-realloc-same-pointer",
        "hit",
        r"""arr->data = realloc(arr->data, arr->cap * sizeof(int));""",
        "src/vec.c",
    ),
    (
        "c-realloc-same-pointer",
        "hit",
        r"""line = (char*) realloc(line, size);""",
        "src/io/readline.c",
    ),
    (
        "c-realloc-same-pointer",
        "hit",
        r"""ptr = std::realloc(ptr, new_size);""",
        "src/mem/buffer.cpp",
    ),
    (
        "c-realloc-same-pointer",
        "safe",
        r"""int *tmp = realloc(arr->data, arr->cap * sizeof(int));
if (tmp == NULL) return -1;
arr->data = tmp;""",
        "src/vec.c",
    ),
    (
        "c-realloc-same-pointer",
        "safe",
        r"""void *grown = realloc(ptr, new_size);
if (!grown) abort();
ptr = grown;""",
        "src/mem/buffer.c",
    ),
    # c-strncpy-unterminated
    (
        "c-strncpy-unterminated",
        "hit",
        r"""strncpy(cfg.hostname, host, sizeof(cfg.hostname));""",
        "src/config.c",
    ),
    (
        "c-strncpy-unterminated",
        "hit",
        r"""strncpy(entry->key, key, KEY_LEN);
entry->hash = hash(key);""",
        "src/table.c",
    ),
    (
        "c-strncpy-unterminated",
        "hit",
        r"""strncpy(out, in, n);
return out;""",
        "src/util/str.c",
    ),
    (
        "c-strncpy-unterminated",
        "safe",
        r"""strncpy(cfg.hostname, host, sizeof(cfg.hostname) - 1);
cfg.hostname[sizeof(cfg.hostname) - 1] = '\0';""",
        "src/config.c",
    ),
    (
        "c-strncpy-unterminated",
        "safe",
        r"""strlcpy(entry->key, key, sizeof entry->key);""",
        "src/table.c",
    ),
    # scala-await-inf
    (
        "scala-await-inf",
        "hit",
        r"""val orders = Await.result(orderService.list(customerId), Duration.Inf)""",
        "app/controllers/OrdersController.scala",
    ),
    (
        "scala-await-inf",
        "hit",
        r"""Await.result(Future.sequence(jobs), Duration.Inf)""",
        "src/main/scala/com/acme/batch/Runner.scala",
    ),
    (
        "scala-await-inf",
        "hit",
        r"""val n = Await.result(
  counter.incrementAndGet(),
  Duration.Inf
)""",
        "src/main/scala/com/acme/metrics/Counter.scala",
    ),
    (
        "scala-await-inf",
        "safe",
        r"""val orders = Await.result(orderService.list(customerId), 10.seconds)""",
        "app/controllers/OrdersController.scala",
    ),
    (
        "scala-await-inf",
        "safe",
        r"""val timeout: FiniteDuration = 30.seconds
Await.result(f, timeout)""",
        "src/main/scala/com/acme/batch/Runner.scala",
    ),
    # scala-option-get
    (
        "scala-option-get",
        "hit",
        r"""val config = configs.get("db").get""",
        "src/main/scala/com/acme/config/Settings.scala",
    ),
    (
        "scala-option-get",
        "hit",
        r"""val userId = request.headers.get("X-User-Id").get""",
        "app/controllers/ProfileController.scala",
    ),
    (
        "scala-option-get",
        "hit",
        r"""val maxDate = events.map(_.date).maxOption.get""",
        "src/main/scala/com/acme/events/Stats.scala",
    ),
    (
        "scala-option-get",
        "safe",
        r"""val config = configs.getOrElse("db", throw new IllegalStateException("no db config"))""",
        "src/main/scala/com/acme/config/Settings.scala",
    ),
    (
        "scala-option-get",
        "safe",
        r"""val userId = request.headers.get("X-User-Id").getOrElse("anonymous")""",
        "app/controllers/ProfileController.scala",
    ),
]
