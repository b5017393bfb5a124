"""Known mistakes in Spring (Boot, Data JPA, Security) code and configuration
(application.yml, application.properties, persistence.xml): what semgrep's Spring rules,
Sonar and the Spring Boot and Spring Security docs warn about, and what agents writing
Spring services are known to get wrong."""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

PATTERNS: list[Pattern] = [
    pattern(
        "spring-transactional-private",
        "transactional private method | transactional on private | transactional ignored"
        " private | transactional proxy private | transactional not applied"
        " | transaction annotation private | transaction private method | proxies private | "
        "proxy private | aop private",
        "java kotlin",
        r"@(?:org\.springframework\.transaction\.annotation\.)?Transactional\b"
        r"(?:\([^)]*\))?\s*(?:@[\w.]+(?:\([^)]*\))?\s*)*private\s",
        "",
        hits=(
            "@Transactional\nprivate void debit(Account a, BigDecimal amount) {",
            "@Transactional(rollbackFor = Exception.class) private Order persist(Order o) {",
            "@Transactional\n@Timed\nprivate fun reserveStock(item: Item) {",
        ),
        safe=(
            "@Transactional\npublic void transfer(Account from, Account to, BigDecimal amt) {",
            "@Transactional(readOnly = true)\npublic List<Order> findRecent() {",
            "private void validate(Order o) {",
            "@Transactional\nfun save(order: Order): Order {",
        ),
    ),
    pattern(
        "spring-ddl-auto-update",
        "ddl-auto | hbm2ddl | hibernate ddl auto | hibernate schema update | hibernate"
        " auto schema | ddl auto validate",
        "yaml ini xml dotenv java kotlin",
        r"(?i)(?<![a-z])(?:ddl[-_]auto|hbm2ddl\.auto)[\"']?\s*(?:[:=,]|\"?\s*value\s*=)\s*"
        r"[\"']?(?:update|create|create-drop)\b",
        "",
        hits=(
            "spring.jpa.hibernate.ddl-auto=update",
            "jpa:\nhibernate:\nddl-auto: create-drop",
            '<property name="hibernate.hbm2ddl.auto" value="update"/>',
            "SPRING_JPA_HIBERNATE_DDL_AUTO: create",
        ),
        safe=(
            "spring.jpa.hibernate.ddl-auto=validate",
            "jpa:\nhibernate:\nddl-auto: none",
            "spring.flyway.enabled=true\nspring.flyway.locations=classpath:db/migration",
        ),
    ),
    pattern(
        "spring-show-sql",
        "show-sql true | hibernate sql logging | logged every sql | hibernate log"
        " parameters | sql statements logged"
        " | show-sql logs | show_sql",
        "yaml ini xml dotenv",
        r"(?i)(?<![a-z])show[-_]?sql[\"']?\s*(?:[:=,]|\"?\s*value\s*=)\s*[\"']?true\b"
        r"|\borg\.hibernate\.(?:SQL|type|orm\.jdbc\.bind)[\w.]*[\"']?\s*[:=]\s*[\"']?"
        r"(?i:debug|trace)\b",
        "",
        hits=(
            "spring.jpa.show-sql=true",
            "jpa:\nshow-sql: true",
            "logging.level.org.hibernate.type.descriptor.sql.BasicBinder=TRACE",
            '<property name="hibernate.show_sql" value="true"/>',
        ),
        safe=(
            "spring.jpa.show-sql=false",
            "logging.level.org.hibernate.SQL=WARN",
            "jpa:\nopen-in-view: false",
        ),
    ),
    pattern(
        "spring-field-injection",
        "field injection | autowired field | autowired fields | constructor injection"
        " | inject via constructor",
        "java kotlin",
        r"@(?:Autowired|Inject)\b(?:\([^)]*\))?\s+(?:@\w+(?:\([^)]*\))?\s+)*"
        r"(?:(?:private|protected|public|internal|transient|final|static)\s+)*(?:lateinit\s+var\s+\w+\s*:"
        r"|(?!class\b|void\b)(?!MockMvc\b|WebTestClient\b|TestRestTemplate\b)[\w.]+"
        r"(?:<[^;()\n]*>)?\s+\w+\s*;)",
        r"@(?:SpringBootTest|WebMvcTest|DataJpaTest|WebFluxTest|JsonTest)\b|@Test\b",
        hits=(
            "@Autowired\nprivate OrderRepository orderRepository;",
            "@Autowired private Map<String, PaymentGateway> gateways;",
            "@Autowired\nprivate lateinit var mailer: MailService",
            "@Inject\nprotected Clock clock;",
        ),
        safe=(
            "private final OrderRepository orders;\n\n"
            "public OrderService(OrderRepository orders) {\nthis.orders = orders;\n}",
            "@Autowired\npublic InvoiceService(InvoiceRepository repo) {",
            "@Autowired\npublic void setClock(Clock clock) {",
            "class OrderService(private val orders: OrderRepository)",
        ),
    ),
    pattern(
        "spring-datasource-password",
        "datasource password | spring datasource password | database password application"
        " | password committed application.yml | password in application.properties",
        "yaml ini",
        r"(?<![\w.-])spring\.(?:datasource(?:\.hikari)?|r2dbc|flyway|liquibase)\.password"
        r"\s*[=:]\s*(?![\"']?(?:\$\{|\{cipher\}))[^\s$]"
        r"|\bdatasource:\s*\n(?:[^\n]*\n){0,6}?password:\s*(?![\"']?(?:\$\{|\{cipher\}))"
        r"[\"']?[^\s\"'$]"
        r"|\bSPRING_DATASOURCE_PASSWORD\s*[=:]\s*(?![\"']?\$\{)[\"']?\w",
        "",
        hits=(
            "spring.datasource.password=S3cr3t!",
            "spring:\ndatasource:\nurl: jdbc:postgresql://db:5432/shop\nusername: shop\n"
            "password: hunter2",
            "SPRING_DATASOURCE_PASSWORD: changeme",
        ),
        safe=(
            "spring.datasource.password=${DB_PASSWORD}",
            "datasource:\nurl: jdbc:postgresql://db:5432/shop\nusername: shop\n"
            "password: ${DB_PASSWORD}",
            "spring.datasource.username=shop",
        ),
    ),
    pattern(
        "spring-actuator-exposed",
        "actuator endpoints exposed | actuator exposure | heapdump exposed | actuator env"
        " exposed | exposure include all"
        " | actuator public | actuator endpoints open | actuator heapdump",
        "yaml ini dotenv",
        r"\bmanagement\.endpoints\.web\.exposure\.include\s*[=:]\s*[\"']?(?:[\w-]+\s*,\s*)*\*"
        r"|\bexposure:\s*\ninclude:\s*\[?\s*[\"']?(?:[\w-]+\s*,\s*)*\*"
        r"|\bMANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE\s*[=:]\s*[\"']?(?:[\w-]+\s*,\s*)*\*",
        "",
        hits=(
            "management.endpoints.web.exposure.include=*",
            'management:\nendpoints:\nweb:\nexposure:\ninclude: "*"',
            "MANAGEMENT_ENDPOINTS_WEB_EXPOSURE_INCLUDE='*'",
        ),
        safe=(
            "management.endpoints.web.exposure.include=health,info,prometheus",
            "exposure:\ninclude: health,info",
            'exposure:\nexclude: "*"',
        ),
    ),
    pattern(
        "spring-csrf-disabled",
        "csrf disabled | disabled csrf | csrf protection off | csrf disable | csrf"
        " protection disabled",
        "java kotlin",
        r"\.csrf\(\s*\)\s*\.disable\(\)|\.csrf\(\s*(?:AbstractHttpConfigurer::disable"
        r"|\w+\s*->\s*\w+\.disable\(\)|\{\s*(?:it\.)?disable\(\)\s*\})"
        r"|\bcsrf\s*\{\s*(?:it\.)?disable\(\)\s*\}",
        r"SessionCreationPolicy\.STATELESS",
        hits=(
            "http.csrf().disable()\n.authorizeRequests().anyRequest().authenticated();",
            "http.csrf(AbstractHttpConfigurer::disable)\n.formLogin(withDefaults());",
            "http.csrf(c -> c.disable());",
            "http {\ncsrf { disable() }\nformLogin { }\n}",
        ),
        safe=(
            "http.csrf(csrf -> csrf.csrfTokenRepository(CookieCsrfTokenRepository"
            ".withHttpOnlyFalse()));",
            "http.csrf(AbstractHttpConfigurer::disable)\n.sessionManagement(s ->"
            " s.sessionCreationPolicy(SessionCreationPolicy.STATELESS));",
            'http.csrf(csrf -> csrf.ignoringRequestMatchers("/webhooks/**"));',
        ),
    ),
    pattern(
        "spring-permit-all",
        "permitall | permit all requests | anyrequest permitall | endpoints left"
        " unauthenticated | security permits everything",
        "java kotlin",
        r"\bany(?:Request|Exchange)\(\)\s*\.permitAll\(\)"
        r"|\bauthorize\(\s*(?:anyRequest|anyExchange|\"/\*\*\")\s*,\s*permitAll\s*\)"
        r"|\b(?:requestMatchers|antMatchers|mvcMatchers|pathMatchers)\(\s*\"/\*\*\"\s*\)\s*"
        r"\.permitAll\(\)",
        "",
        hits=(
            "http.authorizeHttpRequests(a -> a.anyRequest().permitAll());",
            'auth.requestMatchers("/**").permitAll();',
            "authorizeRequests {\nauthorize(anyRequest, permitAll)\n}",
        ),
        safe=(
            'auth.requestMatchers("/actuator/health").permitAll()\n.anyRequest().authenticated();',
            "authorize(anyRequest, authenticated)",
            'auth.requestMatchers("/admin/**").hasRole("ADMIN")',
        ),
    ),
    pattern(
        "spring-cors-wildcard",
        "cors wildcard | cors allow all origins | allowed origins wildcard | crossorigin"
        " any origin | cors any origin"
        " | crossorigin | allow all origins | allowedorigins",
        "java kotlin yaml ini",
        r"\b(?:allowedOrigins|allowedOriginPatterns|addAllowedOrigin|addAllowedOriginPattern)"
        r'\(\s*"\*"|@CrossOrigin\s*$|@CrossOrigin\s*\(\s*(?:(?:origins|value)\s*=\s*)?'
        r'(?:[{\[]|arrayOf\()?\s*"\*"'
        r"|\bsetAllowedOrigin(?:Pattern)?s\(\s*(?:List\.of|Arrays\.asList|listOf"
        r'|Collections\.singletonList)\(\s*"\*"'
        r"|\b(?i:allowed-?origins(?:-?patterns)?)\s*[:=]\s*\[?\s*[\"']?\*",
        "",
        hits=(
            'registry.addMapping("/**").allowedOrigins("*").allowCredentials(true);',
            "@CrossOrigin\n@RestController\npublic class CartController {",
            '@CrossOrigin(origins = "*")',
            'config.setAllowedOrigins(List.of("*"));',
            'allowed-origins: "*"',
        ),
        safe=(
            'registry.addMapping("/api/**").allowedOrigins("https://app.acme.com");',
            '@CrossOrigin(origins = "https://admin.acme.com")',
            'config.setAllowedOrigins(List.of("https://app.acme.com"));',
        ),
    ),
]
