"""Known mistakes in JavaScript and TypeScript code, browser or server (eslint core rules,
typescript-eslint, semgrep's javascript rules). React/Vue/TS: ``code_web``; Node servers and
tests: ``code_web_node``."""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

_JS = "javascript typescript vue svelte"

PATTERNS: list[Pattern] = [
    pattern(
        "js-loose-equality",
        "loose equality | strict equality | triple equals | double equals comparison | "
        "eslint eqeqeq | type coercion comparison | coerced types",
        _JS,
        # == / != between spaces (as formatters write them), == null excepted (the idiom
        # eqeqeq's "smart" option allows).
        r"(?<=\s)(?:==|!=)(?=\s)(?!\s*(?:null|undefined)\b)",
        hits=("if (status == 200) {", "return a.id != b.id", "while (token == '') {"),
        safe=(
            "if (status === 200) {",
            "if (value == null) return",
            "return a.id !== b.id",
            "const pad = 'dGVzdA=='",
        ),
    ),
    pattern(
        "js-async-foreach",
        "forEach with async | async forEach | forEach does not await | await inside forEach | "
        "forEach async callback",
        _JS,
        r"\.forEach\(\s*async\b",
        hits=(
            "items.forEach(async (item) => {\nawait save(item)\n})",
            "users.forEach(async function (u) { await notify(u) })",
            "Object.keys(map).forEach(async key => await sync(key))",
        ),
        safe=(
            "for (const item of items) {\nawait save(item)\n}",
            "await Promise.all(items.map(async (item) => save(item)))",
            "items.forEach((item) => { total += item.qty })",
        ),
    ),
    pattern(
        "js-await-in-loop",
        "await in a loop | await inside for loop | sequential awaits | no-await-in-loop | "
        "Promise.all instead of loop | awaited one by one",
        _JS,
        # The loop body starts with an await (the requests run one after another).
        r"^(?:for|while)\s*\([^\n]*\)\s*\{?\s*\n?(?:(?:(?:const|let|var)\s+)?[^\n=]{1,120}=\s*)?await\s",
        r"\bPromise\.(?:all|allSettled)\b|\bp-?[lL]imit\b|\bpLimit\b|\bsleep\(|\bdelay\(|"
        r"\bsetTimeout\(",
        hits=(
            "for (const id of ids) {\nconst user = await fetchUser(id)\nusers.push(user)\n}",
            "for (let i = 0; i < files.length; i++) {\nawait upload(files[i])\n}",
            "for (const url of urls) await check(url)",
        ),
        safe=(
            "const users = await Promise.all(ids.map(id => fetchUser(id)))",
            "for await (const chunk of stream) {\nbuf.push(chunk)\n}",
            "for (const id of ids) {\nqueue.push(id)\n}",
            "for (const attempt of [1, 2, 3]) {\nawait sleep(attempt * 1000)\n}",
        ),
    ),
    pattern(
        "js-unhandled-promise",
        "unhandled promise rejection | unhandledrejection promise | promise rejection not "
        "handled | floating promise | promise without catch | no-floating-promises | missing "
        ".catch on promise | unhandled rejection",
        _JS,
        # A statement that starts with a call chained into .then(, not returned, awaited or
        # kept.
        r"^(?!(?:return|await|const|let|var|export|yield|void)\b)[\w$.]+\((?:[^()\n]|\([^()\n]"
        r"*\))*\)(?:\s*\n?\.[\w$]+\((?:[^()\n]|\([^()\n]*\))*\))*?\s*\n?\.then\(",
        r"\.catch\(",
        hits=(
            "fetch('/api/track', { method: 'POST', body }).then(r => r.json())",
            "saveDraft(doc)\n.then(() => setSaved(true))",
            "api.users.update(id, patch).then(refresh)",
        ),
        safe=(
            "fetch('/api/track').then(r => r.json()).catch(reportError)",
            "await saveDraft(doc)",
            "return api.users.update(id, patch).then(refresh)",
            "const p = load().then(parse)",
        ),
    ),
    pattern(
        "js-json-parse-no-try",
        "JSON.parse without try | JSON.parse threw | JSON.parse crashed | malformed JSON "
        "crashed | invalid JSON uncaught | wrap JSON.parse in try",
        _JS,
        r"\bJSON\.parse\(",
        r"\btry\s*\{|\bcatch\b",
        hits=(
            "const prefs = JSON.parse(localStorage.getItem('prefs'))",
            "const msg = JSON.parse(event.data)\nhandle(msg)",
            "return JSON.parse(await fs.readFile(p, 'utf8'))",
        ),
        safe=(
            "try {\nconst msg = JSON.parse(event.data)\nhandle(msg)\n} catch (err) {\n"
            "log.warn('bad message', err)\n}",
            "const text = JSON.stringify(prefs)",
            "const data = await res.json()",
        ),
    ),
    pattern(
        "js-parseint-radix",
        "parseInt without radix | parseInt radix | radix parameter | parseInt base 10",
        _JS,
        # parseInt( with one argument (nested calls' commas allowed).
        r"\bparseInt\(\s*(?:[^(),\s]|\((?:[^()]|\([^()]*\))*\))(?:[^(),]|\((?:[^()]|\([^()]*\))"
        r"*\))*\)|\.map\(\s*(?:Number\.)?parseInt\s*\)",
        hits=(
            "const n = parseInt(input.value)",
            "const page = Number.parseInt(req.query.page)",
            "parseInt(el.getAttribute('data-id'))",
            "const hh = parseInt(s.slice(0, 2))",
        ),
        safe=(
            "const n = parseInt(input.value, 10)",
            "const n = Number(input.value)",
            "const hh = Number.parseInt(s.slice(0, 2), 10)",
        ),
    ),
    pattern(
        "js-console-log",
        "console.log left in | leftover console.log | stray console.log | console.log in "
        "production | no-console | debugger statement left"
        " | remove console.log | console.log leaked",
        _JS,
        r"(?<![\w.])console\.(?:log|debug|trace|dir|table|count)\(|^debugger;?$",
        r"eslint-disable[\w-]*\s+no-console|^#!.*\bnode\b",
        hits=("console.log('user', user)", "console.debug(state)", "if (err) console.log(err)"),
        safe=(
            "logger.info('user created', { id })",
            "console.error('failed to load', err)",
            "// eslint-disable-next-line no-console\nconsole.log(banner)",
        ),
    ),
    pattern(
        "js-public-env-secret",
        "NEXT_PUBLIC secret | NEXT_PUBLIC_ prefix exposes | VITE_ prefix secret | REACT_APP "
        "secret | secret in client bundle | secret in browser bundle | exposed to the browser "
        "env",
        _JS + " dotenv",
        r"\b(?:NEXT_PUBLIC|VITE|REACT_APP|EXPO_PUBLIC|NUXT_PUBLIC|GATSBY|PUBLIC|VUE_APP)_\w*"
        r"(?:SECRET|PRIVATE|PASSWORD|PASSWD|SERVICE_ROLE|SERVICE_KEY|ADMIN|DATABASE_URL|DB_URL|"
        r"DB_PASS|SK_LIVE|OPENAI_\w*KEY|ANTHROPIC_\w*KEY|GEMINI_\w*KEY|MISTRAL_\w*KEY|GROQ_\w*KEY|"
        r"COHERE_\w*KEY|AWS_ACCESS_KEY|AWS_SECRET|SIGNING_KEY)\w*",
        hits=(
            "NEXT_PUBLIC_STRIPE_SECRET_KEY=sk_live_123",
            "const key = import.meta.env.VITE_OPENAI_API_KEY",
            "headers: { Authorization: process.env.REACT_APP_ADMIN_TOKEN }",
            "createClient(url, process.env.NEXT_PUBLIC_SUPABASE_SERVICE_ROLE_KEY)",
        ),
        safe=(
            "NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=pk_live_123",
            "const secret = process.env.STRIPE_SECRET_KEY",
            "const url = import.meta.env.VITE_API_URL",
        ),
    ),
    pattern(
        "js-localstorage-token",
        "token in localStorage | localStorage token | jwt in localStorage | sessionStorage "
        "token | httpOnly cookie instead of localStorage | stored token in localStorage",
        _JS,
        r"(?i)\b(?:local|session)Storage\.setItem\(\s*['\"`]?[\w.:-]*(?:token|jwt|credential|"
        r"password|secret|api_?key|auth(?!or))|\b(?:local|session)Storage\s*(?:\.|\[\s*['\"])"
        r"[\w-]*(?:token|jwt|password|secret|auth(?!or))\w*['\"]?\]?\s*=(?!=)",
        hits=(
            "localStorage.setItem('access_token', data.token)",
            "sessionStorage.setItem(JWT_KEY, jwt)",
            "localStorage.authToken = res.token",
            'window.localStorage.setItem("refreshToken", tokens.refresh)',
        ),
        safe=(
            "localStorage.setItem('theme', 'dark')",
            "document.cookie = `theme=${t}`",
            "localStorage.setItem('authorFilter', name)",
        ),
    ),
    pattern(
        "js-fetch-no-ok-check",
        "fetch res.ok | fetch response.ok | fetch does not reject on http error | fetch does "
        "not throw on 404 | fetch status not checked | check response.ok",
        _JS,
        r"\bfetch\([\s\S]*?\.json\(\)",
        r"\.ok\b|\.status\b|\bstatusText\b",
        hits=(
            "const res = await fetch(`/api/orders/${id}`)\nconst order = await res.json()",
            "const data = await (await fetch(url)).json()",
            "fetch('/api/me').then(r => r.json()).then(setMe)",
        ),
        safe=(
            "const res = await fetch(url)\nif (!res.ok) throw new Error(`HTTP ${res.status}`)\n"
            "return res.json()",
            "fetch(url).then(r => { if (!r.ok) throw new Error(r.statusText); return r.json() })",
            "const body = await request.json()",
        ),
    ),
    pattern(
        "js-fetch-no-timeout",
        "fetch without timeout | fetch timeout | AbortSignal.timeout | fetch hung | fetch "
        "never timed out | fetch has no default timeout",
        _JS,
        r"(?<![\w.])(?:(?:globalThis|window|self)\.)?fetch\(",
        r"\bsignal\s*[:,}]|\bAbortSignal\.timeout\(|\btimeout\b|\bAbortController\b",
        hits=(
            "const res = await fetch(`${API}/reports/${id}`)",
            "return fetch(webhookUrl, { method: 'POST', body: JSON.stringify(evt) })",
            "const r = await fetch(url, {\nheaders: { Authorization: `Bearer ${token}` },\n})",
        ),
        safe=(
            "const res = await fetch(url, { signal: AbortSignal.timeout(5000) })",
            "const res = await fetchWithRetry(url, 5000)",
            "const ctrl = new AbortController()\nsetTimeout(() => ctrl.abort(), 3000)\n"
            "await fetch(url, { signal: ctrl.signal })",
        ),
    ),
    pattern(
        "js-axios-no-timeout",
        "axios timeout | axios without timeout | axios hung | axios default timeout | axios "
        "no timeout",
        _JS,
        r"\baxios(?:\.(?:get|post|put|patch|delete|head|request|create))?\(",
        r"\btimeout\s*:|\.defaults\.timeout\b|\bsignal\s*:",
        hits=(
            "const { data } = await axios.get(`${BASE}/users/${id}`)",
            "await axios.post(hookUrl, payload)",
            "export const api = axios.create({ baseURL: API_URL })",
            "axios({ method: 'delete', url })",
        ),
        safe=(
            "const { data } = await axios.get(url, { timeout: 5000 })",
            "export const api = axios.create({ baseURL: API_URL, timeout: 10_000 })",
            "import axios from 'axios'",
        ),
    ),
    pattern(
        "js-date-month-off-by-one",
        "getMonth zero-based | month off by one | months are zero-indexed | zero-based month | "
        "getMonth returns 0 | getMonth 0-based | getMonth 0-indexed",
        _JS,
        r"""\.get(?:UTC)?Month\(\)(?:\s*\}|\s*\+\s*['"`]|\)\.padStart)|"""
        r"\bnew Date\(\s*\d{4}\s*,\s*12\s*[,)]|"
        r"\[[^\[\]\n]*\.get(?:UTC)?Month\(\)[\s)]*(?:,[^\[\]\n]*)?\]\.join\(|"
        r"\b(?:pad|zeroPad|padZero|lpad|twoDigits?)\w*\(\s*[\w.]+\.get(?:UTC)?Month\(\)\s*[,)]",
        hits=(
            "const label = `${d.getDate()}/${d.getMonth()}/${d.getFullYear()}`",
            "return date.getMonth() + '-' + date.getDate()",
            "const mm = String(dt.getUTCMonth()).padStart(2, '0')",
        ),
        safe=(
            "const label = `${d.getDate()}/${d.getMonth() + 1}/${d.getFullYear()}`",
            "const name = MONTHS[d.getMonth()]",
            "const mm = String(dt.getUTCMonth() + 1).padStart(2, '0')",
        ),
    ),
    pattern(
        "js-date-string-parse",
        "date-only string parsed as UTC | new Date string parsing | date shifted by a day | "
        "off by one day timezone | date showed the previous day",
        _JS,
        r"""\bnew Date\(\s*['"`]\d{4}-\d{2}-\d{2}['"`]\s*\)|"""
        r"""\bnew Date\(\s*['"`]\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|"""
        r"""\bnew Date\(\s*['"`][A-Z][a-z]{2,8}\.? \d{1,2},? \d{4}|"""
        r"\bnew Date\(\s*(?:e|ev|evt|event)\.target\.value\s*\)|"
        r"""\bDate\.parse\(\s*['"`]\d{4}-\d{2}-\d{2}['"`]\s*\)|"""
        r"\bnew Date\(\s*(?:form|values|formData|fields|input|req\.body|req\.query)\.\w+\s*\)",
        hits=(
            "const start = new Date('2024-03-10')",
            'const due = new Date("03/04/2024")',
            "setDue(new Date(e.target.value))",
            "const launch = new Date('March 7, 2024')",
        ),
        safe=(
            "const start = new Date('2024-03-10T00:00:00')",
            "const start = new Date(2024, 2, 10)",
            "const now = new Date()",
            "const d = parseISO('2024-03-10')",
        ),
    ),
    pattern(
        "js-moment",
        "moment.js | moment deprecated | moment library | replace moment with date-fns | "
        "moment mutable dates"
        " | moment bundle | moment dayjs | moment date-fns",
        _JS,
        r"""(?:\bfrom\s+|\brequire\(\s*|\bimport\(\s*)['"]moment(?:-timezone)?['"]""",
        hits=(
            "import moment from 'moment'",
            'const moment = require("moment")',
            "import moment from 'moment-timezone'",
        ),
        safe=(
            "import dayjs from 'dayjs'",
            "import { format } from 'date-fns'",
            "import { DateTime } from 'luxon'",
        ),
    ),
    pattern(
        "js-float-money",
        "floating point money | float for money | money as float | currency rounding error | "
        "integer cents | store money in cents | decimal for currency",
        _JS,
        r"(?i)\b(?:parseFloat|Number)\(\s*[\w.\[\]'\"]*(?:price|amount|total|cost|balance|"
        r"subtotal|fee|tax|salary|payment|refund)|"
        r"\b\w*(?:price|amount|total|cost|balance|subtotal|fee)\w*\s*\*\s*(?:0?\.\d+|1\.\d+)\b|"
        r"\b\w*(?:price|amount|total|cost|balance|subtotal)\w*\s*[-+]=\s*(?:parseFloat|\d+\.\d+)",
        r"(?i)\b(?:Big|Decimal|Dinero)\b|cents\b|minor_?units?\b",
        hits=(
            "const total = parseFloat(item.price) * qty",
            "const tax = subtotal * 0.0825",
            "order.amount += 19.99",
            "const fee = Number(form.amount) * 0.029",
        ),
        safe=(
            "const totalCents = item.priceCents * qty",
            "const tax = new Decimal(subtotal).times('0.0825')",
            "const pct = ratio * 0.5",
            "const taxCents = Math.round(subtotalCents * 0.0825)",
        ),
    ),
    pattern(
        "js-math-random-token",
        "Math.random token | Math.random not secure | Math.random password | predictable "
        "token | insecure random | crypto.randomUUID | crypto.getRandomValues | crypto "
        "randomBytes",
        _JS,
        r"(?i)\b\w*(?:token|secret|passw(?:or)?d|nonce|salt|otp|session_?id|api_?key|csrf|"
        r"verification_?code|reset_?code|invite_?code)\w*\b[^\n]{0,80}?Math\.random\(|"
        r"\bfunction\s+\w*(?:token|secret|password|nonce|salt|otp|code|key|session_?id|csrf)\w*\s*\([^)]*\)"
        r"[\s\S]{0,200}?Math\.random\(",
        r"\bcrypto\.(?:randomBytes|randomUUID|getRandomValues|randomInt)\b|\bnanoid\b",
        hits=(
            "const token = Math.random().toString(36).slice(2)",
            "const resetCode = Math.floor(100000 + Math.random() * 900000)",
            "function generateApiKey() {\nlet out = ''\nfor (let i = 0; i < 32; i++) out += "
            "CHARS[Math.floor(Math.random() * CHARS.length)]\nreturn out\n}",
        ),
        safe=(
            "const token = crypto.randomBytes(32).toString('hex')",
            "const jitter = Math.random() * 100",
            "const id = crypto.randomUUID()",
        ),
    ),
    pattern(
        "js-eval",
        "eval | eval user input | code injection eval | Function constructor eval | dynamic "
        "code execution",
        _JS,
        r"(?<![\w.$])eval\(|\bnew\s+Function\(|(?<![\w.$])Function\(\s*['\"`]|\b(?:window|globalThis)\.eval\(|"
        r"\bvm\.runIn(?:New|This)?Context\(",
        hits=(
            "const result = eval(userExpr)",
            "const fn = new Function('a', 'b', body)",
            "window.eval(script)",
            "return vm.runInNewContext(src, sandbox)",
        ),
        safe=(
            "const result = evaluate(userExpr)",
            "model.eval()",
            "const data = JSON.parse(text)",
            "await page.evaluate(() => document.title)",
        ),
    ),
    pattern(
        "js-settimeout-string",
        "setTimeout with a string | setTimeout string argument | setInterval string | implied eval"
        " | string to setTimeout | setTimeout string",
        _JS,
        r"""\b(?:setTimeout|setInterval|setImmediate)\(\s*(?:['"`]|\w+\s*\+\s*['"])""",
        hits=(
            'setTimeout("refresh()", 1000)',
            "setInterval('poll(' + id + ')', 5000)",
            "window.setTimeout(`save(${id})`, 200)",
        ),
        safe=(
            "setTimeout(refresh, 1000)",
            "setInterval(() => poll(id), 5000)",
            "setTimeout(function () { save(id) }, 200)",
        ),
    ),
    pattern(
        "js-postmessage-wildcard",
        "postMessage wildcard origin | postMessage target origin | postMessage origin check | "
        "message event origin not checked | targetOrigin wildcard",
        _JS,
        r"""\.postMessage\((?:[^()]|\([^()]*\))*,\s*['"]\*['"]|"""
        r"""\baddEventListener\(\s*['"]message['"]|\b(?:window|self|globalThis)\.onmessage\s*=""",
        r"\.origin\b",
        hits=(
            "parent.postMessage({ type: 'token', token }, '*')",
            'iframe.contentWindow.postMessage(JSON.stringify(msg), "*")',
            "window.addEventListener('message', (e) => {\nhandle(e.data)\n})",
        ),
        safe=(
            "parent.postMessage({ type: 'ready' }, 'https://app.acme.dev')",
            "window.addEventListener('message', (e) => {\nif (e.origin !== ALLOWED) return\n"
            "handle(e.data)\n})",
            "worker.postMessage(job)",
        ),
    ),
]
