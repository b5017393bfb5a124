"""Known mistakes in Node.js server code and JavaScript tests (semgrep's javascript and
express rules, eslint-plugin-security, eslint-plugin-n, jest/vitest guides). React/Vue/TS:
``code_web``; general JavaScript: ``code_web_js``."""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, near, pattern

_JS = "javascript typescript"
# CORS that allows any origin: "*", true, a callback that allows every one, or the request's
# own Origin echoed back.
_ANY_ORIGIN = (
    r"""\borigin\s*:\s*(?:['"]\*['"]|true\b|\(\s*\w+\s*,\s*\w+\s*\)\s*=>\s*\w+\(\s*null\s*,"""
    r"""\s*true\s*\))|Access-Control-Allow-Origin['"]?\s*,\s*(?:['"]\*['"]|req\.headers\."""
    r"""origin\b|req\.(?:get|header)\(\s*['"][Oo]rigin['"]\s*\))"""
)
_CREDENTIALS = r"""\bcredentials\s*:\s*true\b|Allow-Credentials['"]?\s*,\s*['"]?true"""

PATTERNS: list[Pattern] = [
    pattern(
        "node-exec-injection",
        "command injection | shell injection | child_process exec | exec with template string "
        "| execFile instead of exec | spawn with an argument array"
        " | execSync | exec string command",
        _JS,
        r"""(?:(?<![\w.$])|\b(?:child_process|childProcess|cp|proc|shell|shelljs)\.)"""
        r"""(?:exec|execSync|execAsync|execPromise|execP|execaCommand(?:Sync)?)\(\s*(?:`[^`]*\$\{|['"][^'"\n]*['"]\s*\+|\w+\s*\+\s*['"])|"""
        r"""\bspawn(?:Sync)?\([^)]*\bshell\s*:\s*true|"""
        r"(?:const|let)\s+(?P<c>\w+)\s*=\s*`[^`]*\$\{[^`]*`[\s\S]{0,300}?"
        r"(?<![\w.$])exec(?:Sync)?\(\s*(?P=c)\b|"
        r"(?:const|let)\s+(?P<e>\w+)\s*=\s*(?:util\.)?promisify\(\s*(?:[\w.]*\.)?exec\s*\)"
        r"""[\s\S]{0,300}?(?<![\w.$])(?P=e)\(\s*(?:`[^`]*\$\{|['"][^'"\n]*['"]\s*\+)""",
        hits=(
            "exec(`git checkout ${branch}`, cb)",
            "const out = execSync('convert ' + file + ' out.png')",
            'child_process.exec("ping -c 1 " + host)',
            "const cmd = `tar czf ${name}.tgz ${dir}`\nexecSync(cmd)",
        ),
        safe=(
            "execFile('git', ['checkout', branch], cb)",
            "execSync('git rev-parse HEAD')",
            "const m = /(\\d+)/.exec(`v${version}`)",
            "spawn('convert', [file, 'out.png'])",
        ),
    ),
    pattern(
        "node-sql-injection",
        "SQL injection | string concatenation SQL | template literal SQL | interpolated SQL | "
        "parameterized query | query placeholders instead of interpolation"
        " | concatenated sql | sql injectable",
        _JS,
        # A SQL template literal with ${...} that is not tagged (sql`...` binds its values).
        r"""(?i)(?<![\w.$])`\s*(?:select\s[^`]*\bfrom\b|insert\s+into\b|update\s+[\w."]+\s+"""
        r"""set\b|delete\s+from\b)[^`]*\$\{|"""
        # or a SQL string literal concatenated with a value.
        r""""\s*(?:select\s[^"\n]*\bfrom\b|insert\s+into\b|update\s+[\w.]+\s+set\b|"""
        r"""delete\s+from\b)[^"\n]*"\s*\+|'\s*(?:select\s[^'\n]*\bfrom\b|insert\s+into\b|"""
        r"""update\s+[\w.]+\s+set\b|delete\s+from\b)[^'\n]*'\s*\+""",
        hits=(
            "const rows = await db.query(`SELECT * FROM users WHERE email = '${email}'`)",
            "await pool.query('DELETE FROM sessions WHERE user_id = ' + userId)",
            "const sql = `UPDATE orders SET status = '${status}' WHERE id = ${id}`",
            "await prisma.$queryRawUnsafe(`SELECT * FROM t WHERE name = '${name}'`)",
        ),
        safe=(
            "const rows = await db.query('SELECT * FROM users WHERE email = $1', [email])",
            "const rows = await sql`SELECT * FROM users WHERE email = ${email}`",
            "await prisma.$queryRaw`SELECT * FROM t WHERE name = ${name}`",
            "const msg = `Selected ${n} items from the list`",
        ),
    ),
    pattern(
        "node-nosql-injection",
        "NoSQL injection | mongo query injection | operator injection | $ne injection | "
        "mongo-sanitize | mongoose sanitizeFilter",
        _JS,
        r"\.(?:find|findOne|findOneAndUpdate|findOneAndDelete|updateOne|updateMany|deleteOne|"
        r"deleteMany|countDocuments|exists)\(\s*(?:req\.(?:body|query|params)\s*[,)]|"
        r"req\.(?:body|query)\.\w+\s*[,)]|"
        r"\{[^{}]*?:\s*req\.(?:body|query)\.\w+\s*[,}])",
        r"(?i)mongo-?sanitize|sanitizeFilter|\bString\(\s*req\.|\$eq\s*:",
        hits=(
            "const user = await User.findOne({ email: req.body.email, password: "
            "req.body.password })",
            "const docs = await Orders.find(req.query)",
            "await db.collection('users').deleteOne({ _id: req.query.id })",
        ),
        safe=(
            "const user = await User.findOne({ email: String(req.body.email) })",
            "const user = await User.findById(id)",
            "app.use(mongoSanitize())\nconst user = await User.findOne({ email: req.body.email })",
        ),
    ),
    pattern(
        "node-path-traversal",
        "path traversal | directory traversal | path.join user input | sendFile user input | "
        "dot dot slash traversal"
        " | sendfile root | read files outside",
        _JS,
        r"\b(?:path\.(?:join|resolve)|sendFile|sendfile|download|readFile(?:Sync)?|"
        r"createReadStream|writeFile(?:Sync)?|unlink(?:Sync)?|readdir)\([^)\n]{0,300}?"
        r"\breq\.(?:params|query|body)\b",
        r"\bpath\.basename\(|\.startsWith\(|\broot\s*:",
        hits=(
            "res.sendFile(path.join(__dirname, 'uploads', req.params.name))",
            "const data = fs.readFileSync(`./files/${req.query.file}`)",
            "res.download(req.query.path)",
        ),
        safe=(
            "res.sendFile(req.params.name, { root: UPLOAD_DIR })",
            "const safe = path.basename(req.params.name)\nres.sendFile(path.join(UPLOAD_DIR, "
            "safe))",
            "res.sendFile(path.join(__dirname, 'public', 'index.html'))",
        ),
    ),
    pattern(
        "node-open-redirect",
        "open redirect | unvalidated redirect | redirect to user-supplied url | redirect query "
        "parameter | returnTo redirect | redirect query string | redirect phishing"
        " | redirect allowlist",
        _JS,
        r"\b(?:res|reply|response)\.redirect\(\s*(?:\d{3}\s*,\s*)?(?:[^,()\n]{0,80}?(?:\|\||\?\?)\s*)?"
        r"req\.(?:query|params|body)\b|"
        # the user's URL kept in a variable first, then redirected to
        r"\b(?:const|let|var)\s+(?P<rd>\w+)\s*=\s*(?:req\.(?:query|params|body)\b|[^\n]{0,80}?(?:[pP]arams|"
        r"query)\w*\.get\()[^\n]*\n[\s\S]{0,300}?(?:\.redirect\(\s*(?:\d{3}\s*,\s*)?|\blocation(?:\.href)?"
        r"\s*=\s*|\blocation\.(?:assign|replace)\(\s*)(?P=rd)\b|"
        r"\bctx\.redirect\(\s*ctx\.(?:query|params|request\.(?:query|body))\b|"
        r"\bwindow\.location(?:\.href)?\s*=\s*(?:\w+\.)?(?:params|searchParams|query)"
        r"(?:\.get\(|\.)|\b(?:window\.)?location\.(?:assign|replace)\([^\n]*(?:[pP]arams|query)"
        r"[^\n]*\.get\(",
        r"(?i)\b(?:allowed|whitelist|allowlist|isSafe|isRelative|isInternal)\w*|"
        r"\.startsWith\(\s*['\"]/['\"]",
        hits=(
            "res.redirect(req.query.next)",
            "return res.redirect(302, req.query.returnTo)",
            "window.location.href = params.get('redirect')",
        ),
        safe=(
            "res.redirect('/login')",
            "if (ALLOWED_HOSTS.has(new URL(req.query.next).host)) return "
            "res.redirect(req.query.next)",
            "res.redirect(`/orders/${order.id}`)",
        ),
    ),
    pattern(
        "node-mass-assignment",
        "mass assignment | req.body passed directly | spread req.body | whitelist fields from "
        "req.body | pick allowed fields | passing req.body to create",
        _JS,
        r"\.(?:create|update|updateOne|updateMany|findByIdAndUpdate|findOneAndUpdate|insert|"
        r"insertOne|upsert|build|set|assign)\((?:[^()]*?,\s*)?(?:\{[^{}]*?\.\.\.req\.body\b|"
        r"req\.body\s*[,)])|\bdata\s*:\s*(?:\{[^{}]*?\.\.\.req\.body\b|req\.body\s*[,}])|"
        r"\bObject\.assign\(\s*\w+\s*,\s*req\.body\s*\)|\bnew\s+[A-Z]\w*\(\s*req\.body\s*\)",
        hits=(
            "const user = await User.create(req.body)",
            "await prisma.user.update({ where: { id }, data: req.body })",
            "Object.assign(account, req.body)\nawait account.save()",
            "const order = new Order(req.body)",
        ),
        safe=(
            "const { name, email } = req.body\nconst user = await User.create({ name, email })",
            "const input = CreateUser.parse(req.body)\nawait prisma.user.create({ data: input })",
            "logger.info('body', req.body)",
        ),
    ),
    pattern(
        "node-cors-credentials-wildcard",
        "cors wildcard origin credentials | cors origin true credentials | cors allow all "
        "origins | reflected origin cors | Access-Control-Allow-Origin wildcard"
        " | origin true credentials | reflect origin credentials",
        _JS,
        near(_ANY_ORIGIN, _CREDENTIALS, 300),
        hits=(
            "app.use(cors({ origin: '*', credentials: true }))",
            "app.use(cors({\ncredentials: true,\norigin: true,\n}))",
            "res.setHeader('Access-Control-Allow-Origin', req.headers.origin)\n"
            "res.setHeader('Access-Control-Allow-Credentials', 'true')",
        ),
        safe=(
            "app.use(cors({ origin: ['https://app.acme.dev'], credentials: true }))",
            "app.use(cors({ origin: '*' }))",
            "res.setHeader('Access-Control-Allow-Origin', 'https://app.acme.dev')",
        ),
    ),
    pattern(
        "node-jwt-decode-auth",
        "jwt.decode instead of verify | jwt decode without verify | jwt decoded not verified "
        "| jwt signature not verified | verify the jwt signature",
        _JS,
        r"\bjwt\.decode\(|(?<![\w.])(?:decodeJwt|jwt_?[dD]ecode)(?:<[^>\n]*>)?\(|\bjose\.decodeJwt\(|"
        r"""\b(?:Buffer\.from|atob)\(\s*\w+\.split\(\s*['"]\.['"]\s*\)\[1\]""",
        r"\bjwt\.verify\(|\bjwtVerify\(",
        hits=(
            "const payload = jwt.decode(token)\nreq.user = payload",
            "const { sub } = jwt.decode(req.headers.authorization.split(' ')[1])",
            "const claims = decodeJwt(token)\nif (claims.role === 'admin') next()",
        ),
        safe=(
            "const payload = jwt.verify(token, process.env.JWT_SECRET, { algorithms: ['HS256'] })",
            "const { payload } = await jwtVerify(token, JWKS)",
            "const token = jwt.sign({ sub: user.id }, secret, { expiresIn: '1h' })",
        ),
    ),
    pattern(
        "node-jwt-verify-no-algorithms",
        "jwt algorithms option | jwt.verify algorithms | algorithm confusion | alg none jwt | "
        "pin the jwt algorithm"
        " | pin algorithms | jwt allowed algorithms | hs256 public key",
        _JS,
        r"\bjwt\.verify\(|\bpromisify\(\s*jwt\.verify\s*\)",
        r"\balgorithms\s*:",
        hits=(
            "const payload = jwt.verify(token, publicKey)",
            "jwt.verify(token, secret, (err, decoded) => {",
            "const user = jwt.verify(\ntoken,\nprocess.env.JWT_PUBLIC_KEY\n)",
        ),
        safe=(
            "const payload = jwt.verify(token, publicKey, { algorithms: ['RS256'] })",
            "const token = jwt.sign(payload, secret, { algorithm: 'HS256' })",
            "jwt.verify(token, secret, { algorithms: ['HS256'], audience: 'api' }, cb)",
        ),
    ),
    pattern(
        "node-jwt-hardcoded-secret",
        "hardcoded jwt secret | jwt secret in code | fallback secret | JWT_SECRET fallback | "
        "JWT_SECRET fell back | default secret fallback",
        _JS,
        r"""\bjwt\.(?:sign|verify)\(\s*(?:[^,()]|\{[^{}]*\}|\([^()]*\))+,\s*['"`][^'"`]+"""
        r"""['"`]|process\.env\.\w*(?:SECRET|KEY|TOKEN|PASSWORD)\w*\s*(?:\|\||\?\?)\s*"""
        r"""['"`][^'"`]+['"`]|\b(?:const|let|var)\s+(?P<s>\w*(?:SECRET|[sS]ecret|KEY|[kK]ey)\w*)"""
        r"""\s*=\s*['"`][^'"`\n]+['"`][\s\S]{0,600}?\bjwt\.(?:sign|verify)\([^\n]*\b(?P=s)\b|"""
        r"""\bsecretOrKey\s*:\s*['"`][^'"`\n]+['"`]""",
        hits=(
            "const token = jwt.sign({ sub: user.id, role }, 'supersecret')",
            "const SECRET = process.env.JWT_SECRET || 'dev-secret'",
            "jwt.verify(token, \"changeme\", { algorithms: ['HS256'] })",
        ),
        safe=(
            "const token = jwt.sign({ sub: user.id }, process.env.JWT_SECRET, { expiresIn: "
            "'15m' })",
            "const port = process.env.PORT || '3000'",
            "const secret = requireEnv('JWT_SECRET')",
        ),
    ),
    pattern(
        "node-bcrypt-low-rounds",
        "bcrypt rounds | bcrypt cost factor | bcrypt work factor | salt rounds too low | low "
        "bcrypt cost",
        _JS,
        r"\bbcrypt(?:js)?\.(?:hash|hashSync)\(\s*[^,]+,\s*[1-9]\s*[,)]|"
        r"\bbcrypt(?:js)?\.genSalt(?:Sync)?\(\s*[1-9]\s*[,)]|"
        r"(?i:\b(?:salt_?rounds|bcrypt_?(?:cost|rounds|work_?factor)|hash_?rounds))\s*[:=]\s*[1-9]\b(?![\d.])",
        hits=(
            "const hash = await bcrypt.hash(password, 8)",
            "const salt = bcrypt.genSaltSync(4)",
            "const SALT_ROUNDS = 6",
            "bcryptjs.hashSync(pw, 5)",
        ),
        safe=(
            "const hash = await bcrypt.hash(password, 12)",
            "const salt = await bcrypt.genSalt(10)",
            "const ok = await bcrypt.compare(password, user.hash)",
            "const saltRounds = 12",
        ),
    ),
    pattern(
        "node-fast-hash-password",
        "md5 password | sha1 password | sha256 password hash | fast hash for passwords | "
        "unsalted password hash | password hashing with sha",
        _JS,
        r"(?i)createHash\(\s*['\"](?:md5|sha1|sha256|sha512)['\"]\s*\)\s*\.update\([^)\n]*"
        r"(?:passw|pwd|pass\b)|passw\w*[^\n]{0,60}createHash\(\s*['\"](?:md5|sha1|sha256|"
        r"sha512)['\"]|\b(?:md5|sha1|sha256)\(\s*[\w.]*(?:passw|pwd)",
        hits=(
            "const hash = crypto.createHash('md5').update(password).digest('hex')",
            "user.passwordHash = createHash('sha256').update(pw + salt).digest('hex')",
            "const digest = sha1(req.body.password)",
        ),
        safe=(
            "const hash = await bcrypt.hash(password, 12)",
            "const etag = crypto.createHash('sha1').update(body).digest('base64')",
            "const key = await scrypt(password, salt, 64)",
        ),
    ),
    pattern(
        "node-sync-io-in-handler",
        "readFileSync in request handler | synchronous fs in handler | sync file io in "
        "server | blocking the event loop | event loop blocked | execSync in handler",
        _JS,
        r"(?:\(\s*(?:req|request)\s*(?::\s*\w+)?\s*,\s*(?:res|reply|response)\b|"
        r"\bexport\s+(?:async\s+)?function\s+(?:GET|POST|PUT|PATCH|DELETE)\b|"
        r"\(\s*ctx\s*(?:,\s*next\s*)?\)\s*=>)[\s\S]{0,600}?\b(?:readFileSync|writeFileSync|"
        r"appendFileSync|readdirSync|statSync|existsSync|mkdirSync|execSync|spawnSync|"
        r"pbkdf2Sync|scryptSync)\(",
        hits=(
            "app.get('/report', (req, res) => {\nconst tpl = fs.readFileSync('./tpl.html', "
            "'utf8')\nres.send(render(tpl))\n})",
            "export async function GET() {\nconst files = readdirSync(DATA_DIR)\nreturn "
            "Response.json(files)\n}",
            "router.post('/hash', async (req, res) => {\nconst key = crypto.pbkdf2Sync("
            "req.body.pw, salt, 100000, 64, 'sha512')\n})",
        ),
        safe=(
            "app.get('/report', async (req, res) => {\nconst tpl = await fs.promises.readFile("
            "'./tpl.html', 'utf8')\nres.send(render(tpl))\n})",
            "const config = JSON.parse(fs.readFileSync('./config.json', 'utf8'))\n"
            "app.listen(config.port)",
            "router.get('/health', (req, res) => res.json({ ok: true }))",
        ),
    ),
    pattern(
        "node-express-missing-return",
        "headers already sent | Cannot set headers after they are sent | ERR_HTTP_HEADERS_SENT "
        "| missing return after res.send | return after res.status",
        _JS,
        # An if that answers (res.send/json/...) without return, and code after it.
        r"^if\s*\(.*\)\s*\{?\s*\n?(?:res\.(?:status\([^)\n]*\)\.)?(?:send|json|end|redirect|"
        r"sendStatus|render|sendFile)\(|next\(\s*\w+\s*\)).*\n(?:\}\s*\n)?"
        r"(?!\}|else\b|\)|return\b|break\b)\S",
        hits=(
            "if (!user) {\nres.status(404).json({ error: 'not found' })\n}\nres.json(user)",
            "if (err) res.status(500).send(err.message)\nconst rows = parse(data)",
            "if (!req.headers.authorization) {\nres.sendStatus(401)\n}\nnext()",
        ),
        safe=(
            "if (!user) {\nreturn res.status(404).json({ error: 'not found' })\n}\nres.json(user)",
            "if (!user) {\nres.status(404).json({ error: 'not found' })\nreturn\n}\nres.json(user)",
            "if (!user) {\nres.status(404).end()\n} else {\nres.json(user)\n}",
            "if (err) return next(err)\nres.json(rows)",
        ),
    ),
    pattern(
        "node-express-no-helmet",
        "express without helmet | helmet middleware | express helmet | missing security "
        "headers | security headers express | x-powered-by header",
        _JS,
        r"(?<![\w.])express\(\s*\)",
        r"\bhelmet\b|disable\(\s*['\"]x-powered-by['\"]\s*\)",
        hits=(
            "const app = express()\napp.use(express.json())",
            "import express from 'express'\nexport const app = express();",
            "const server = express()\nserver.listen(3000)",
        ),
        safe=(
            "const app = express()\napp.use(helmet())",
            "const router = express.Router()",
            "app.use(express.static('public'))",
        ),
    ),
    pattern(
        "node-tls-verify-off",
        "rejectUnauthorized false | NODE_TLS_REJECT_UNAUTHORIZED | disabled TLS verification "
        "| certificate verification disabled | self-signed certificate accepted",
        _JS + " dotenv shell",
        r"""\brejectUnauthorized\s*:\s*false\b|\bNODE_TLS_REJECT_UNAUTHORIZED\b['"]?\]?\s*"""
        r"""[=:]\s*['"]?0|\bstrictSSL\s*:\s*false\b""",
        hits=(
            "NODE_TLS_REJECT_UNAUTHORIZED=0 node scripts/sync.js",
            "const agent = new https.Agent({ rejectUnauthorized: false })",
            "process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0'",
            "request({ url, strictSSL: false })",
        ),
        safe=(
            "const agent = new https.Agent({ ca: fs.readFileSync(CA_PATH) })",
            "NODE_EXTRA_CA_CERTS=./certs/ca.pem node scripts/sync.js",
            "const agent = new https.Agent({ keepAlive: true, rejectUnauthorized: true })",
        ),
    ),
    pattern(
        "js-test-real-timers",
        "fake timers | real timers in tests | test waits with setTimeout | sleep in test | "
        "slow test real setTimeout | jest useFakeTimers | vi useFakeTimers",
        "role:test",
        r"\bnew Promise\(\s*\(?\s*\w+\s*\)?\s*=>\s*setTimeout\(\s*\w+\s*,\s*\d|"
        r"\bawait\s+(?:sleep|delay|wait|pause|timeout)\(\s*\d{2,}|\bsetTimeout\(\s*done\s*,\s*\d|"
        r"\.waitForTimeout\(\s*\d{2,}|\bcy\.wait\(\s*\d{2,}",
        r"\buseFakeTimers\b|\badvanceTimers\w*\(|\brunAllTimers\(|\bclock\.tick\(|"
        r"\bFakeTimers\b",
        hits=(
            "await new Promise(r => setTimeout(r, 1500))\nexpect(spy).toHaveBeenCalled()",
            "await sleep(2000)\nexpect(queue.size).toBe(0)",
            "setTimeout(done, 500)",
        ),
        safe=(
            "vi.useFakeTimers()\nscheduleRetry()\nvi.advanceTimersByTime(1500)\n"
            "expect(spy).toHaveBeenCalled()",
            "await waitFor(() => expect(screen.getByText('Saved')).toBeVisible())",
            "jest.useFakeTimers()\nawait new Promise(r => setTimeout(r, 1000))",
        ),
    ),
]
