"""More known mistakes in code, across languages: Python's shared references
(``dict.fromkeys(keys, [])``, ``[[0] * w] * h``), defaults computed once at definition,
the builtin ``hash()`` used for sharding, ``return`` in ``finally``, secrets compared
with ``==``; JavaScript's ``sort()`` of numbers without a comparator, global regexes
reused with ``test()``, deep merges of request input (prototype pollution) and ``trust
proxy`` set to ``true``; Go's ``YYYY-MM-DD`` time layouts and handlers that go on after
``http.Error``; Java's ``BigDecimal.equals`` and ``split(".")``; PHP's ``strpos`` read as
a boolean.

Blind lessons named their pattern 19/30 before the phrases were widened; blind
variants: hits caught 36/45, safe left alone 30/30 before the detectors were widened
(all 30, 45 and 30 after).
"""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

_JS = "javascript typescript vue svelte"
_NUMS = (
    r"\w*(?:[sS]cores|[pP]rices|[aA]mounts|[nN]ums|[nN]umbers|[aA]ges|[cC]ounts|[tT]otals"
    r"|[dD]urations|[sS]izes|[tT]imestamps|[iI]ds|[rR]atings|[lL]atenc(?:y|ies)|[wW]eights"
    r"|[sS]amples|[yY]ears|[dD]elays|[pP]orts)"
)

PATTERNS: list[Pattern] = [
    # --- Python -----------------------------------------------------------------------
    pattern(
        "py-fromkeys-mutable-value",
        "dict.fromkeys | fromkeys shared list | fromkeys with a mutable value"
        " | every key shared the same list | same list for every key"
        " | dict empty set value same set object",
        "python",
        r"(?:\b(?:dict|OrderedDict)|\{\})\.fromkeys\([^()\n]*(?:\([^()\n]*\)[^()\n]*)?,\s*(?:\[|\{|(?:list|dict|set"
        r"|defaultdict)\()",
        hits=(
            "buckets = dict.fromkeys(names, [])",
            "state = dict.fromkeys(USERS, {})",
            "seen = dict.fromkeys(range(10), set())",
            "groups = dict.fromkeys(keys, list())",
        ),
        safe=(
            "buckets = {name: [] for name in names}",
            "flags = dict.fromkeys(names, False)",
            "counts = dict.fromkeys(words, 0)",
            "buckets = defaultdict(list)",
        ),
    ),
    pattern(
        "py-list-multiply-aliasing",
        "nested list multiplication | list multiplication aliasing"
        " | rows of the grid shared the same list | multiplied a list of lists"
        " | inner lists were the same object"
        " | cell changed the whole column | rows same inner list",
        "python",
        r"\[\s*(?:\[[^\[\]\n]*\](?:\s*\*\s*[\w.()]+)?|\{\s*\}|(?:list|dict|set)\(\))\s*\]"
        r"\s*\*\s*[\w(]",
        hits=(
            "grid = [[0] * width] * height",
            "rows = [[]] * n",
            "board = [[' '] * 3] * 3",
            "cache = [{}] * len(shards)",
        ),
        safe=(
            "grid = [[0] * width for _ in range(height)]",
            "row = [0] * width",
            "rows = [[] for _ in range(n)]",
            "names = ['a', 'b'] * 2",
        ),
    ),
    pattern(
        "py-default-evaluated-once",
        "default evaluated once | default argument evaluated at definition"
        " | default timestamp frozen | same uuid every call default"
        " | default computed at import time | use default_factory"
        " | default import time stamped",
        "python",
        r"\bdef \w+\((?:[^()]|\([^()]*\))*?=\s*(?:datetime\.(?:now|utcnow|today)|date\.today"
        r"|time\.(?:time|monotonic)|uuid\.uuid[14]|uuid[14]|random\.\w+|secrets\.\w+)\("
        r"|\b(?:field|Field|Column|mapped_column)\((?:[^()\n]*,\s*)?default\s*=\s*"
        r"(?:(?:str|int|float)\(\s*)?(?:datetime\.(?:now|utcnow)|date\.today|uuid\.uuid4|uuid4|time\.time)\("
        r"|^class \w+\([^)\n]*\):\n(?:[^\n]*\n){0,30}?\w+\s*:\s*[^=\n]+=\s*"
        r"(?:datetime\.(?:now|utcnow)"
        r"|date\.today|uuid\.uuid4|uuid4|time\.time)\(",
        hits=(
            "def log_event(msg, ts=time.time()):",
            "def create_order(items, order_id=uuid.uuid4()):",
            "created_at: datetime = Field(default=datetime.now(timezone.utc))",
            "def report(day=date.today()):",
        ),
        safe=(
            "def log_event(msg, ts=None):\nts = ts if ts is not None else time.time()",
            "created_at: datetime = Field(default_factory=lambda: datetime.now(timezone.utc))",
            "id = Column(String, default=lambda: str(uuid.uuid4()))",
            "def create_order(items, order_id: UUID | None = None):",
        ),
    ),
    pattern(
        "py-builtin-hash-persisted",
        "hash() randomized between processes | python hash randomization"
        " | builtin hash for sharding | hash() not stable across runs"
        " | string hash changes between runs | hash randomised process | built-in hash stable"
        " | sharded by hash | string hashing salted per process",
        "python",
        r"(?<![\w.])hash\([^()\n]*(?:\([^()\n]*\)[^()\n]*)?\)\s*\)?\s*%"
        r"|\bstr\(\s*hash\(|\bf['\"][^'\"\n]*\{\s*hash\("
        r"|\.(?:set|setex|hset|put|save|write|insert)\([^\n]*(?<![\w.])hash\(",
        hits=(
            "shard = hash(user_id) % NUM_SHARDS",
            "bucket = abs(hash(key)) % 16",
            "partition = hash(str(order.customer_id)) % len(workers)",
            "cache_key = str(hash(query))",
        ),
        safe=(
            "shard = int(hashlib.sha256(user_id.encode()).hexdigest(), 16) % NUM_SHARDS",
            "bucket = zlib.crc32(key.encode()) % 16",
            "def __hash__(self):\nreturn hash((self.id, self.kind))",
            "digest = hashlib.sha256(data).hexdigest()",
        ),
    ),
    pattern(
        "py-return-in-finally",
        "return in finally | finally block return | return inside finally | break in finally"
        " | finally return discarded the exception",
        "python",
        r"^finally\s*:\s*(?:#[^\n]*)?(?:\n|[ \t]*)(?:return|break|continue)\b",
        hits=(
            "try:\nresult = compute()\nfinally:\nreturn result",
            "try:\nsave(order)\nfinally: return True",
            "for job in jobs:\ntry:\nrun(job)\nfinally:\ncontinue",
            "finally:\n    return response  # always respond",
        ),
        safe=(
            "try:\nresult = compute()\nfinally:\nconn.close()\nreturn result",
            "try:\nrun()\nfinally:\nlock.release()",
            "try:\nreturn compute()\nfinally:\ncleanup()",
        ),
    ),
    pattern(
        "py-timing-unsafe-compare",
        "timing attack | compare_digest | constant-time comparison"
        " | compared the signature with == | timing-safe compare | string comparison of hmac",
        "python",
        r"^(?:if|elif|assert|return|while)\b(?=[^\n]*(?i:signature|digest|hmac|api_?key|token"
        r"|secret|\bsig\b))[^\n]*?[^=!<>][!=]=\s*(?!None\b|True\b|False\b|len\()[A-Za-z_]",
        r"\bcompare_digest\(",
        hits=(
            "if signature == expected_signature:",
            "if request.headers.get('X-Api-Key') != settings.API_KEY:",
            "return hmac.new(key, body, sha256).hexdigest() == received",
            "assert token == stored_token",
        ),
        safe=(
            "if hmac.compare_digest(signature, expected_signature):",
            "if not secrets.compare_digest(api_key, settings.API_KEY):",
            "if token is None:",
            "if token_type == 'bearer':",
        ),
    ),
    # --- JavaScript / TypeScript ------------------------------------------------------
    pattern(
        "js-sort-without-comparator",
        "sort without comparator | sort() sorted numbers as strings"
        " | lexicographic sort of numbers | array sort numbers wrong order"
        " | sort compares as strings | array sorted 10 before 9"
        " | sort pass (a, b) => a - b",
        _JS,
        _NUMS + r"(?:\([^()\n]*\))?\]?(?:\.(?:slice|concat)\(\s*\))?\.(?:sort|toSorted)\(\s*\)"
        r"|\b(?P<a>\w+)\s*:\s*(?:number\[\]|Array<number>)[\s\S]{0,300}?\b(?P=a)\.sort\(\s*\)"
        r"|\[\s*-?\d+(?:\.\d+)?(?:\s*,\s*-?\d+(?:\.\d+)?)+\s*\]\.(?:sort|toSorted)\(\s*\)",
        hits=(
            "const ranked = scores.sort()",
            "prices.sort()",
            "const median = [...latencies].sort()[Math.floor(n / 2)]",
            "return [10, 9, 100, 1].sort()",
        ),
        safe=(
            "scores.sort((a, b) => a - b)",
            "names.sort()",
            "prices.sort((a, b) => b - a)",
            "const sorted = [...latencies].sort((a, b) => a - b)",
        ),
    ),
    pattern(
        "js-regex-global-test",
        "regex global flag test | regex lastindex | /g with test() | global regex alternated"
        " true false | regex test stateful | regexp lastindex",
        _JS,
        r"/(?:[^/\n\\]|\\.)+/[a-z]*g[a-z]*\.test\("
        r"|\b(?:const|let|var)\s+(\w+)\s*=\s*(?:/(?:[^/\n\\]|\\.)+/[a-z]*g[a-z]*\b"
        r"|new\s+RegExp\([^\n]{0,200}?,\s*['\"`][a-z]*g[a-z]*['\"`]\s*\))[\s\S]{0,800}?\b\1\.test\("
        # (a class field: ``private readonly re = /x/g`` read as ``this.re.test(s)``)
        r"|^(?:(?:private|public|protected|readonly|static)\s+){0,4}(#?\w+)\s*(?::\s*RegExp\s*)?"
        r"=\s*/(?:[^/\n\\]|\\.)+/[a-z]*g[a-z]*\b[\s\S]{0,800}?\bthis\.\2\.test\(",
        hits=(
            "const EMAIL = /^[^@\\s]+@[^@\\s]+$/g;\nif (!EMAIL.test(input)) return false",
            "return /^\\d+$/g.test(value)",
            "const re = /error/gi\nlines.filter((l) => re.test(l))",
            "let SLUG_RE = /^[a-z0-9-]+$/g\nexport const isSlug = (s: string) => SLUG_RE.test(s)",
        ),
        safe=(
            "const EMAIL = /^[^@\\s]+@[^@\\s]+$/;\nif (!EMAIL.test(input)) return false",
            "const re = /error/gi\nconst all = text.match(re)",
            "return /^\\d+$/.test(value)",
            "text.replace(/\\s+/g, ' ')",
        ),
    ),
    pattern(
        "node-prototype-pollution-merge",
        "prototype pollution | deep merge of user input | merged the request body into an object"
        " | lodash merge prototype | polluted object prototype"
        " | merge __proto__",
        _JS,
        r"(?:\b(?:_|lodash)\.(?:merge|mergeWith|defaultsDeep|set|setWith)|\b(?:deepmerge|deepMerge"
        r"|mergeDeep|merge)|\$\.extend)\([^;\n]*?\b(?:req|request|ctx\.request)\.(?:body|query"
        r"|params)\b",
        hits=(
            "_.merge(config, req.body)",
            "const settings = merge({}, defaults, req.body.settings)",
            "$.extend(true, prefs, req.query)",
            "_.set(user, req.body.path, req.body.value)",
        ),
        safe=(
            "const settings = { ...defaults, ...pick(req.body, ['theme', 'lang']) }",
            "_.merge(config, overrides)",
            "const input = schema.parse(req.body)",
            "Object.freeze(Object.prototype)",
        ),
    ),
    pattern(
        "node-trust-proxy-all",
        "trust proxy true | x-forwarded-for spoofed | spoofed client ip"
        " | rate limit bypassed with x-forwarded-for | trustproxy true | trust proxy setting"
        " | forwarded-for header client sent | trustproxy load balancer",
        _JS,
        r"\b\w+\.set\(\s*['\"]trust proxy['\"]\s*,\s*true\s*\)"
        r"|\b\w+\.enable\(\s*['\"]trust proxy['\"]\s*\)|\btrustProxy\s*:\s*true\b",
        hits=(
            "app.set('trust proxy', true)",
            "app.enable('trust proxy')",
            "const app = Fastify({ logger: true, trustProxy: true })",
            'server.set("trust proxy", true)',
        ),
        safe=(
            "app.set('trust proxy', 1)",
            "app.set('trust proxy', 'loopback')",
            "Fastify({ trustProxy: '10.0.0.0/8' })",
            "app.set('view engine', 'ejs')",
        ),
    ),
    # --- Go ---------------------------------------------------------------------------
    pattern(
        "go-time-format-layout",
        "go time layout | time.parse layout yyyy | go date format 2006-01-02"
        " | reference time layout | go format string yyyy-mm-dd | time.format wrong layout",
        "go",
        r"(?:\btime\.Parse(?:InLocation)?|\.Format|\.AppendFormat)\(\s*\"[^\"\n]*(?:YYYY|yyyy"
        r"|YY-|MM-DD|mm-dd|dd/|DD/|HH:mm|HH:MM|hh:mm|%[YmdHMS])[^\"\n]*\"",
        hits=(
            't, err := time.Parse("YYYY-MM-DD", s)',
            'stamp := t.Format("yyyy-MM-dd HH:mm:ss")',
            'd, err := time.Parse("%Y-%m-%d", raw)',
            'label := now.Format("DD/MM/YYYY")',
        ),
        safe=(
            't, err := time.Parse("2006-01-02", s)',
            "stamp := t.Format(time.RFC3339)",
            'stamp := t.Format("2006-01-02 15:04:05")',
            'msg := fmt.Sprintf("%d items", n)',
        ),
    ),
    pattern(
        "go-http-error-no-return",
        "http.error without return | missing return after http.error"
        " | handler kept running after http.error | superfluous response.writeheader"
        " | wrote the response twice in go | go handler continued after the error"
        " | go handler return after writing error",
        "go",
        r"\bhttp\.Error\([^\n]*\)[ \t]*\n(?:\}[ \t]*\n(?!\}|func\b|\)|case\b|default\b|//)[^\n]"
        r"|(?!return\b|\}|panic\(|os\.Exit|//|log\.|logger\.|slog\.)[^\n])",
        hits=(
            "if err != nil {\nhttp.Error(w, err.Error(), http.StatusBadRequest)\n}\n"
            "json.NewEncoder(w).Encode(out)",
            'if !ok {\nhttp.Error(w, "forbidden", http.StatusForbidden)\n}\ndb.Delete(id)',
            'if r.Method != http.MethodPost {\nhttp.Error(w, "method not allowed", 405)\n}\n'
            "decoder := json.NewDecoder(r.Body)",
            'http.Error(w, "bad input", 400)\nw.Write(resp)',
        ),
        safe=(
            "if err != nil {\nhttp.Error(w, err.Error(), http.StatusBadRequest)\nreturn\n}\n"
            "json.NewEncoder(w).Encode(out)",
            'if !ok {\nhttp.Error(w, "forbidden", http.StatusForbidden)\nreturn\n}',
            'func fail(w http.ResponseWriter) {\nhttp.Error(w, "boom", 500)\n}\nfunc ok() {}',
        ),
    ),
    # --- Java, PHP --------------------------------------------------------------------
    pattern(
        "java-bigdecimal-equals",
        "bigdecimal equals | bigdecimal.equals compares scale | use compareto for bigdecimal"
        " | 1.0 not equal to 1.00 | bigdecimal scale equality | equals on bigdecimal"
        " | equals different scale compareto",
        "java kotlin scala",
        r"\.equals\(\s*(?:BigDecimal\.(?:ZERO|ONE|TEN)\b|new\s+BigDecimal\(|BigDecimal\.valueOf\()"
        r"|\bObjects\.equals\((?:[^()\n,]*(?:\([^()\n]*\))?[^()\n,]*,)?\s*(?:BigDecimal\.(?:ZERO"
        r"|ONE|TEN)\b|new\s+BigDecimal\(|BigDecimal\.valueOf\()"
        r"|\bBigDecimal\.(?:ZERO|ONE|TEN)\.equals\(|==\s*BigDecimal\.(?:ZERO|ONE|TEN)\b",
        hits=(
            "if (amount.equals(BigDecimal.ZERO)) {",
            'return total.equals(new BigDecimal("100.00"));',
            "if (BigDecimal.ZERO.equals(invoice.getBalance())) {",
            "if (balance == BigDecimal.ZERO) {",
        ),
        safe=(
            "if (amount.compareTo(BigDecimal.ZERO) == 0) {",
            "if (amount.signum() == 0) {",
            'return total.compareTo(new BigDecimal("100.00")) == 0;',
            "if (currency.equals(Currency.EUR)) {",
        ),
    ),
    pattern(
        "java-split-regex-metachar",
        "split takes a regex | split returned an empty array | split on dot regex"
        " | unescaped dot in split | string.split regex metacharacter | split pattern.quote",
        "java groovy scala",
        r"\.(?:split|replaceAll|replaceFirst)\(\s*\"[.|$^*+?]\""
        # (Groovy's '|' is a String, a regex; Scala's is a Char, split literally)
        r"|^(?!(?:val|var|lazy\s+val)\s)[^\n]*?\.(?:split|replaceAll|replaceFirst)\(\s*'[.|$^*+?]'",
        hits=(
            'String[] parts = version.split(".");',
            'String[] cols = line.split("|");',
            'String clean = ip.replaceAll(".", "");',
            'for (String p : path.split("$")) {',
        ),
        safe=(
            'String[] parts = version.split("\\\\.");',
            'String[] cols = line.split(Pattern.quote("|"));',
            'String clean = ip.replace(".", "");',
            'String[] cols = line.split(",");',
        ),
    ),
    pattern(
        "php-strpos-truthiness",
        "strpos returns 0 | strpos false vs 0 | strpos !== false | strpos truthiness"
        " | array_search returned 0 | str_contains instead of strpos"
        " | match at position 0 treated as false",
        "php",
        r"\b(?:if|elseif|while)\s*\(\s*!?\s*(?:stri?pos|strr?i?pos|mb_stri?pos|array_search)"
        r"\((?:[^()\n]|\([^()\n]*\))*\)\s*(?:\)|&&|\|\||and\b|or\b)"
        r"|(?:[=(,]|\breturn)\s*!?\s*(?:stri?pos|strr?i?pos|mb_stri?pos|array_search)"
        r"\((?:[^()\n]|\([^()\n]*\))*\)\s*\?(?![?>])|(?:stri?pos|strr?i?pos|mb_stri?pos|array_search)"
        r"\((?:[^()\n]|\([^()\n]*\))*\)\s*[!=]=(?!=)\s*(?i:false|0)\b",
        hits=(
            "if (strpos($haystack, 'admin')) {",
            "if (!strpos($email, '@')) {",
            "if (array_search($role, $roles)) {",
            "} elseif (stripos($ua, 'bot') && !$loggedIn) {",
        ),
        safe=(
            "if (strpos($haystack, 'admin') !== false) {",
            "if (str_contains($haystack, 'admin')) {",
            "if (array_search($role, $roles, true) !== false) {",
            "$pos = strpos($haystack, 'admin');",
        ),
    ),
]
