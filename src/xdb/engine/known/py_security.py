"""Known mistakes in Python code, security: injection (SQL, shell, eval), unsafe
deserialisation, secrets in code and logs, weak randomness and hashing, TLS and token
checks turned off, unescaped HTML, unsafe archives and XML (what bandit and semgrep's
python rules flag)."""

from __future__ import annotations

from xdb.engine.known.code_python import call_without, none_of
from xdb.engine.known.pattern import Pattern, pattern

# A test module's added lines: fixtures and fake credentials are no mistake there.
_TEST_FILE = r"^(?:async\s+)?def test_|^import pytest\b|^from pytest\b|^import unittest\b"
_STR = r"(?:\"[^\"\n]*\"|'[^'\n]*')"
# SQL as it is written in upper case inside a string.
_SQL_UP = (
    r"(?:SELECT\b[^\"'\n]{0,300}?\bFROM|INSERT\s+INTO|UPDATE\s+[\w.\"]+\s+SET|DELETE\s+FROM"
    r"|WHERE\s+[\w.]+\s*(?:=|<|>|!=|IN\b|LIKE\b|IS\b))\b"
)
# The same inside a double-quoted string (single quotes are SQL's literals there).
_SQL_DQ = (
    r"(?:SELECT\b[^\"\n]{0,300}?\bFROM|INSERT\s+INTO|UPDATE\s+[\w.]+\s+SET|DELETE\s+FROM"
    r"|WHERE\s+[\w.]+\s*(?:=|<|>|!=|IN\b|LIKE\b|IS\b))\b"
)
_SECRET_WORD = (
    r"(?<!\w)(?:\w+_)?(?i:password|passwd|secret|api_?key|apikey|token|access_key|private_key"
    r"|client_secret|credentials?)(?:_KEY|_key)?\b|[\"'][Aa]uthorization[\"']"
)

PATTERNS: list[Pattern] = [
    pattern(
        "py-sql-injection",
        "sql injection | f-string sql | string formatting sql | query built with f-string"
        " | parameterized query | concatenated sql | raw sql formatting | bind parameters",
        "python",
        r"(?i:\.(?:execute|executemany|executescript|raw|exec_driver_sql|mogrify|fetch|fetchrow"
        r"|fetchval|fetch_all|fetch_one|fetch_val)\(\s*(?:f[\"']"
        rf"|{_STR}\s*(?:%\s*[\w(\[{{]|\+\s*[\w(]|\.format\()))|(?:(?<![\w.])text|\b(?:sa"
        r"|sqlalchemy)\.text|\bRawSQL|\bsql\.SQL)\(\s*f[\"']|\.extra\([^)\n]*\bf[\"']"
        rf"|\bf[\"'][^\"'\n]{{0,500}}{_SQL_UP}[^\"'\n]{{0,500}}\{{[^{{}}\n]+\}}|\bf[\"'][^\"'\n]{{0,500}}\{{[^{{}}\n]+\}}"
        rf"[^\"'\n]{{0,500}}{_SQL_UP}|\bf\"[^\"\n]{{0,500}}{_SQL_DQ}[^\"\n]{{0,500}}\{{[^{{}}\n]+\}}|\bf(?P<q>\"\"\"|''')(?=(?:(?!(?P=q))[\s\S])*?\b(?:SELECT|INSERT"
        r"|UPDATE|DELETE)\b)(?=(?:(?!(?P=q))[\s\S])*?\b(?:FROM|INTO|SET|WHERE)\b)(?:(?!(?P=q))"
        rf"[\s\S])*?\{{[^{{}}\n]+\}}|[\"'][^\"'\n]{{0,500}}{_SQL_UP}[^\"'\n]{{0,500}}[\"']\s*(?:\+\s*[\w(]"
        r"|\.format\(|%\s*[\w(])",
        hits=(
            "cur.execute(f\"SELECT * FROM users WHERE email = '{email}'\")",
            'q = "DELETE FROM sessions WHERE user_id = " + str(uid)\ncursor.execute(q)',
            "db.execute('update orders set status = %s where id = %s' % (s, oid))",
            "sql = f'''\nSELECT id, total\nFROM orders\nWHERE customer = {cid}\n'''",
            "users = User.objects.raw(f'SELECT * FROM app_user WHERE name = {name!r}')",
            "session.execute(text(f'DELETE FROM carts WHERE id = {cart_id}'))",
            "query = 'SELECT * FROM t WHERE id = {}'.format(i)",
        ),
        safe=(
            "cur.execute('SELECT * FROM users WHERE email = %s', (email,))",
            "session.execute(text('SELECT 1 FROM t WHERE id = :id'), {'id': i})",
            "User.objects.raw('SELECT * FROM app_user WHERE id = %s', [uid])",
            "log.info(f'Selected {n} rows from the cache')",
            "q = sql.SQL('SELECT * FROM {}').format(sql.Identifier(table))",
            "msg = f'Please select a file from {folder}'",
        ),
    ),
    pattern(
        "py-shell-injection",
        "shell=true subprocess | shell injection | command injection | subprocess shell | shlex"
        " quote | argument list instead of shell"
        " | shell=true | ran arbitrary commands",
        "python",
        r"\b(?:subprocess|sp)\.(?:run|call|check_call|check_output|Popen)\(\s*(?:f[\"']|"
        rf"{_STR}\s*(?:%|\+|\.format(?=\())|[A-Za-z_][\w.]*\s*[,+%)])"
        r"(?:[^()]|\([^()]*\))*?\bshell\s*=\s*True|\bcreate_subprocess_shell\(\s*(?:f[\"']|"
        rf"{_STR}\s*(?:%|\+|\.format\())|\bsubprocess\.(?:getoutput|getstatusoutput)"
        r"\(\s*(?![\"'][^\"'\n]*[\"']\s*\))",
        r"\bshlex\.(?:quote|join)\(",
        hits=(
            "subprocess.run(f'convert {src} {dst}', shell=True, check=True)",
            "out = subprocess.check_output(cmd, shell=True)",
            "subprocess.call('tar xzf ' + archive, shell=True)",
            "subprocess.Popen(\n'ping -c 1 %s' % host,\nshell=True,\n)",
            "status = subprocess.getoutput(f'git log {ref}')",
        ),
        safe=(
            "subprocess.run(['convert', src, dst], check=True)",
            "subprocess.run('make build', shell=True, check=True)",
            "subprocess.run(f'convert {shlex.quote(src)} out.png', shell=True)",
            "subprocess.run(cmd, check=True)",
        ),
    ),
    pattern(
        "py-os-system",
        "os.system | os.popen | os system call | use subprocess instead of os",
        "python",
        r"\bos\.(?:system|popen)\(|^from\s+os\s+import\s+[^\n]*\b(?:system|popen)\b",
        hits=(
            "os.system('rm -rf ' + tmp_dir)",
            "os.system(f'ffmpeg -i {inp} {out}')",
            "version = os.popen('git describe').read().strip()",
        ),
        safe=(
            "subprocess.run(['rm', '-rf', tmp_dir], check=True)",
            "os.path.join(base, name)",
            "platform.system()",
        ),
    ),
    pattern(
        "py-eval-exec",
        "eval untrusted | eval user input | exec untrusted | code injection eval | literal_eval"
        " instead | eval exec",
        "python",
        r"(?<![\w.])(?<!def )(?:eval|exec)\(\s*(?![\"'][^\"'\n]*[\"']\s*[,)])[^)\s]",
        hits=(
            "result = eval(request.args['expr'])",
            "exec(code, {'__builtins__': {}})",
            "value = eval(row['value'])",
            "exec(open(plugin_path).read())",
        ),
        safe=(
            "value = ast.literal_eval(row['value'])",
            "model.eval()",
            "df.eval('c = a + b', inplace=True)",
            "evaluate(expr)",
        ),
    ),
    pattern(
        "py-unsafe-deserialization",
        "pickle | unpickle untrusted | pickle.loads | insecure deserialization | deserializing"
        " untrusted | arbitrary code execution pickle",
        "python",
        r"\b(?:c?[Pp]ickle|_pickle|pkl|dill|cloudpickle|marshal|jsonpickle)\.(?:loads?|Unpickler"
        r"|decode)\(|^from\s+(?:c?pickle|dill|cloudpickle|marshal)\s+import\s+[^\n]*\b(?:loads?"
        r"|Unpickler)\b|\b(?:pd|pandas)\.read_pickle\(|\bjoblib\.load\("
        r"|\b(?:np|numpy)\.load\([^)\n]*\ballow_pickle\s*=\s*True",
        hits=(
            "obj = pickle.loads(request.body)",
            "with open(p, 'rb') as f:\nmodel = pickle.load(f)",
            "session = jsonpickle.decode(cookie)",
            "df = pd.read_pickle(upload_path)",
        ),
        safe=(
            "data = json.loads(request.body)",
            "with open(p, 'wb') as f:\npickle.dump(model, f)",
            "blob = pickle.dumps(state)",
        ),
    ),
    pattern(
        "py-yaml-unsafe-load",
        "yaml.load unsafe | yaml safe_load | yaml unsafe load | yaml safeloader | yaml load"
        " untrusted | yaml loader arbitrary",
        "python",
        r"\byaml\.(?:safe_|unsafe_|full_)?load(?:_all)?\(|^from\s+yaml\s+import\s+[^\n]*"
        r"\b(?:unsafe_|full_)?load(?:_all)?\b",
        none_of(
            r"\byaml\.(?:unsafe|full)_load(?:_all)?\(|"
            + call_without(r"\byaml\.load(?:_all)?", r"(?:C?Safe|Base)Loader")
        )
        # (with load imported by name, each bare call too)
        + r"(?:(?![\s\S]*?^from\s+yaml\s+import\b)|(?![\s\S]*?(?:(?<![\w.])(?:unsafe|full)_load"
        + r"(?:_all)?\(|"
        + call_without(r"(?<![\w.])load(?:_all)?", r"(?:C?Safe|Base)Loader")
        + r")))",
        hits=(
            "cfg = yaml.load(f)",
            "data = yaml.load(stream, Loader=yaml.Loader)",
            "docs = yaml.unsafe_load(text)",
            "spec = yaml.full_load(open(p))",
        ),
        safe=(
            "cfg = yaml.safe_load(f)",
            "data = yaml.load(stream, Loader=yaml.SafeLoader)",
            "docs = list(yaml.load_all(text, Loader=yaml.CSafeLoader))",
        ),
    ),
    pattern(
        "py-torch-load-unsafe",
        "torch.load weights_only | torch load pickle | untrusted checkpoint pickle | torch.load"
        " untrusted",
        "python",
        r"\btorch\.load\(",
        none_of(
            call_without(r"\btorch\.load", r"weights_only\s*=\s*True")
            + r"|weights_only\s*=\s*False"
        ),
        hits=(
            "state = torch.load(path)",
            "ckpt = torch.load(f, map_location='cpu')",
            "m = torch.load(url_file, weights_only=False)",
        ),
        safe=(
            "state = torch.load(path, weights_only=True)",
            "ckpt = torch.load(f, map_location='cpu', weights_only=True)",
            "state = safetensors.torch.load_file(path)",
        ),
    ),
    pattern(
        "py-tls-verify-disabled",
        "verify=false ssl | verify=false requests | certificate verification disabled | ssl"
        " verification disabled | tls verification disabled | insecurerequestwarning | cert_none"
        " | unverified ssl context",
        "python",
        r"^(?!(?:async\s+)?def\s)[^\n]*(?:[(,]\s*|\.)verify(?:_ssl)?\s*=\s*False\b|\b(?:requests"
        r"|httpx|session|client|aiohttp)\.\w+\((?:[^()]|\([^()]*\))*?\bverify(?:_ssl)?\s*=\s*False|\b_create_unverified_context\b|\bCERT_NONE\b|\bcheck_hostname"
        r"\s*=\s*False|\bdisable_warnings\(\s*(?:[\w.]*InsecureRequestWarning)?\s*\)"
        r"|PYTHONHTTPSVERIFY[\"']?\]?\s*[=,:]\s*[\"']0|\bTCPConnector\((?:[^()]|\([^()]*\))*?"
        r"\bssl\s*=\s*False|\b(?:session|client|aiohttp)\.(?:get|post|put|patch|delete|request"
        r"|ws_connect)\([^\n]*\bssl\s*=\s*False",
        hits=(
            "resp = requests.get(url, verify=False, timeout=5)",
            "ctx = ssl._create_unverified_context()",
            "ctx.check_hostname = False\nctx.verify_mode = ssl.CERT_NONE",
            "client = httpx.Client(verify=False)",
            "session = requests.Session()\nsession.verify = False",
            "resp = requests.post(\nurl,\njson=body,\nverify=False,\n)",
            "urllib3.disable_warnings(urllib3.exceptions.InsecureRequestWarning)",
        ),
        safe=(
            "resp = requests.get(url, verify='/etc/ssl/certs/ca.pem', timeout=5)",
            "ctx = ssl.create_default_context(cafile=ca)",
            "client = httpx.Client(verify=True)",
            "def fetch(url, verify=False):\nreturn check(url, verify=verify)",
        ),
    ),
    pattern(
        "py-hardcoded-secret",
        "hardcoded secret | hardcoded password | hard-coded password | hardcoded api key"
        " | hard-coded credentials | secret committed | api key in code | secret_key committed"
        " | credentials in source",
        "python",
        r"(?:[Pp]ass(?:word|wd)|PASS(?:WORD|WD)|[Ss]ecret|SECRET|[Aa]pi_?[Kk]ey|API_?KEY|[Aa]ccess_?"
        r"[Kk]ey|ACCESS_?KEY|[Pp]rivate_?[Kk]ey|PRIVATE_?KEY|[Tt]oken|TOKEN)(?:_?(?:KEY|[Kk]ey))?[\"']?"
        r"\s*[:=]\s*[bu]?[\"'](?![A-Z][A-Z0-9_]+[\"']|\$)(?![^\"'\n]*(?:\$\{|\{\{|<|your[_-]"
        r"|xxx|\*\*\*|\.\.\.|[^\"'\n]*://))(?=[^\"'\n]*\d)(?!/)[^\"'\s\\()\[\]{}]{8,}[\"']|AKIA[0-9A-Z]"
        r"{16}\b|sk_live_[0-9A-Za-z]{16,}|sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}|gh[pousr]_"
        r"[A-Za-z0-9]{36}\b|xox[baprs]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}\b|glpat-"
        r"[A-Za-z0-9_-]{20}|-----BEGIN (?:RSA |EC |DSA |OPENSSH )?PRIVATE KEY-----|://[^\s/:@"
        r"\"'$]+:(?![\"'$%{<]|(?:pass|password|secret|pwd|changeme|x+)@)[^\s/:@\"'$%{<]{3,}@[\w.-]+",
        _TEST_FILE,
        hits=(
            "SECRET_KEY = 'django-insecure-9x!k2@l0p$w'",
            "STRIPE_API_KEY = 'sk_live_51HxT2eKz9aQwErTyUiOp'",
            "client = Client(api_key='a1b2c3d4e5f6g7h8')",
            "DATABASE_URL = 'postgresql://app:S3cretPw@db.internal:5432/app'",
            "headers = {'Authorization': 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789'}",
            "config = {'password': 'Winter2024!'}",
        ),
        safe=(
            "SECRET_KEY = os.environ['DJANGO_SECRET_KEY']",
            "api_key = settings.STRIPE_API_KEY",
            "token_type = 'bearer'",
            "PASSWORD_RESET_TIMEOUT = 3600",
            "api_key = os.getenv('OPENAI_API_KEY')",
            "DATABASE_URL = 'postgresql://app:${DB_PASSWORD}@db:5432/app'",
            "def test_login(client):\nclient.login(username='ann', password='Pass1234!')",
        ),
    ),
    pattern(
        "py-secret-logged",
        "logged the password | logging secrets | secret in logs | token in logs | password"
        " in logs | api key logged | credentials logged | printed the token",
        "python",
        r"(?:\b(?:logger|logging|log|_logger|_log|LOGGER|LOG|self\.logger|self\.log|app\.logger)"
        r"\.(?:debug|info|warning|warn|error|exception|critical|log)\(|(?<![\w.])print\()"
        r"[^\n]{0,400}?"
        rf"(?:\{{[^{{}}\n]*?{_SECRET_WORD}[^{{}}\n]*\}}|(?:,|%|\+)\s*\(?\s*(?:[\w.]+\.|\w+\["
        rf"[\"'])?{_SECRET_WORD}[\"']?\]?\s*[,)])",
        hits=(
            "logger.info('login %s %s', username, password)",
            "log.debug(f'calling API with key={api_key}')",
            "print('token:', token)",
            "logging.warning('auth header ' + self.access_token)",
        ),
        safe=(
            "logger.info('password reset email sent to %s', user.email)",
            "log.warning('invalid token for user %s', user_id)",
            "logger.info(f'used {usage.total_tokens} tokens')",
        ),
    ),
    pattern(
        "py-insecure-random",
        "random for tokens | random module token | random is not secure | secrets module"
        " | predictable token | insecure random | secrets.token_urlsafe | random password"
        " generator",
        "python",
        r"(?i)(?<![a-z0-9])(?:token|password|passwd|otp|nonce|salt|secret|api_?key|pin|session_?id"
        r"|(?:reset|verification|verify|confirm|auth|invite|login)_code)\s*=[^\n]{0,300}?\brandom\."
        r"(?!SystemRandom)\w+\(|^def \w*(?:token(?!i[sz])|password|otp|nonce|salt|secret"
        r"|api_?key|(?:reset|verification|verify|confirm|auth|invite|login|session)_?(?:code|id"
        r"|key))\w*\([^\n]*\n(?:[^\n]*\n){0,4}?[^\n]*\brandom\.(?!SystemRandom)\w+\(",
        hits=(
            "token = ''.join(random.choices(string.ascii_letters + string.digits, k=32))",
            "otp = random.randint(100000, 999999)",
            "def generate_api_key():\nalphabet = string.hexdigits\nreturn ''.join(random.choice"
            "(alphabet) for _ in range(40))",
            "reset_code = str(random.random())[2:8]",
        ),
        safe=(
            "token = secrets.token_urlsafe(32)",
            "otp = secrets.randbelow(900000) + 100000",
            "delay = random.uniform(0.1, 0.5)",
            "password = ''.join(random.SystemRandom().choice(alphabet) for _ in range(20))",
        ),
    ),
    pattern(
        "py-weak-password-hash",
        "md5 password | sha1 password | password hashing | unsalted hash | use bcrypt | use argon2"
        " | sha256 password | fast hash password",
        "python",
        r"(?i)\bhashlib\.(?:md5|sha1|sha224|sha256|sha384|sha512|sha3_\w+|blake2\w)\([^\n]*"
        r"passw|\bhashlib\.new\(\s*[\"']\w+[\"']\s*,[^\n]*passw|passw\w*\s*=\s*hashlib\.\w+\("
        r"|\b(?:Unsalted)?(?:MD5|SHA1)PasswordHasher\b|(?<![\w.])(?:md5|sha1|sha224|sha256|sha384"
        r"|sha512)\([^\n]{0,200}?passw|^(?:async\s+)?def \w*passw\w*\([^\n]*\n(?:[^\n]*\n){0,4}?"
        r"[^\n]*"
        r"\bhashlib\.(?:md5|sha1|sha224|sha256|sha384|sha512|sha3_\w+|blake2\w)\(",
        hits=(
            "hashed = hashlib.md5(password.encode()).hexdigest()",
            "user.password_hash = hashlib.sha256((salt + pw_password).encode()).hexdigest()",
            "password_digest = hashlib.sha1(raw).hexdigest()",
            "PASSWORD_HASHERS = ['django.contrib.auth.hashers.MD5PasswordHasher']",
        ),
        safe=(
            "hashed = bcrypt.hashpw(password.encode(), bcrypt.gensalt())",
            "dk = hashlib.pbkdf2_hmac('sha256', password.encode(), salt, 600_000)",
            "etag = hashlib.md5(body).hexdigest()",
            "h = argon2.PasswordHasher().hash(password)",
        ),
    ),
    pattern(
        "py-weak-hash",
        "md5 collision | sha1 collision | weak hash algorithm | md5 is insecure | sha1 is"
        " insecure | usedforsecurity false | md5 broken"
        " | md5 sign | sha1 sign | hmac sha256",
        "python",
        r"\bhashlib\.(?:md5|sha1)\(|\bhashlib\.new\(\s*[\"'](?:md5|sha1)[\"']|\b(?:MD5|SHA)\.new\("
        r"|^from\s+hashlib\s+import\s+[^\n]*\b(?:md5|sha1)\b",
        r"\busedforsecurity\s*=\s*False",
        hits=(
            "sig = hashlib.md5(secret + payload).hexdigest()",
            "digest = hashlib.sha1(data).hexdigest()",
            "h = hashlib.new('md5', blob)",
        ),
        safe=(
            "sig = hmac.new(key, payload, hashlib.sha256).hexdigest()",
            "key = hashlib.md5(url.encode(), usedforsecurity=False).hexdigest()",
            "digest = hashlib.sha256(data).hexdigest()",
        ),
    ),
    pattern(
        "py-tempfile-mktemp",
        "tempfile.mktemp | mktemp race | insecure temporary file | temp file race | mkstemp"
        " instead",
        "python",
        r"\btempfile\.mktemp\(|(?<![\w.])mktemp\(|\bos\.(?:tempnam|tmpnam)\("
        r"|^import tempfile as (\w+)[\s\S]{0,5000}?\b\1\.mktemp\(",
        hits=(
            "path = tempfile.mktemp(suffix='.csv')",
            "from tempfile import mktemp\nout = mktemp()",
            "tmp = tempfile.mktemp(dir=base)",
        ),
        safe=(
            "fd, path = tempfile.mkstemp(suffix='.csv')",
            "with tempfile.NamedTemporaryFile(delete=False) as f:",
            "d = tempfile.mkdtemp()",
        ),
    ),
    pattern(
        "py-hardcoded-tmp-path",
        "hardcoded tmp path | hard-coded /tmp | predictable temp file | fixed tmp path"
        " | tmp path collision | shared /tmp file",
        "python",
        r"(?<![\w])[rbf]?[\"']/(?:var/)?tmp/[^\"'\n]+[\"']|\b(?:Path|PurePath|os\.path\.join)\("
        r"\s*[rbf]?[\"']/(?:var/)?tmp/?[\"']",
        _TEST_FILE,
        hits=(
            "LOG_FILE = '/tmp/app.log'",
            "with open(f'/tmp/{job_id}.json', 'w', encoding='utf-8') as f:",
            'CACHE_DIR = "/var/tmp/thumbnails"',
        ),
        safe=(
            "with tempfile.TemporaryDirectory() as d:",
            "path = Path(tempfile.gettempdir()) / name",
            "def test_export(tmp_path):\nout = '/tmp/x.csv'",
        ),
    ),
    pattern(
        "py-unescaped-html",
        "mark_safe xss | mark_safe user input | autoescape | xss template | unescaped html"
        " | render_template_string | server-side template injection",
        "python",
        r"\bautoescape\s*=\s*False|\b(?:mark_safe|Markup|SafeString)\(\s*(?![\"'][^\"'\n]*[\"']"
        r"\s*\))\S|\brender_template_string\(\s*(?![\"'][^\"'\n]*[\"']\s*[,)])\S|\b(?:HTMLResponse"
        r"|HttpResponse|make_response)\(\s*f[\"'][^\"'\n]*<\w[^\"'\n]*\{|"
        + call_without(
            r"\bjinja2\.Environment|(?<![\w.])Environment(?=\([\s\S]{0,200}?\bloader\s*=)",
            "autoescape",
        ),
        hits=(
            "return mark_safe(f'<a href=\"{url}\">{title}</a>')",
            "env = jinja2.Environment(loader=FileSystemLoader('tpl'))",
            "html = Markup(comment.body)",
            "return render_template_string(f'<h1>Hello {name}</h1>')",
            "env = Environment(loader=loader, autoescape=False)",
        ),
        safe=(
            "return format_html('<a href=\"{}\">{}</a>', url, title)",
            "env = jinja2.Environment(loader=loader, autoescape=select_autoescape())",
            "html = Markup('<br>')",
            "return render_template('hello.html', name=name)",
        ),
    ),
    pattern(
        "py-xml-external-entities",
        "xxe attack | xxe vulnerability | xml external entity | use defusedxml | billion laughs"
        " | xml entity expansion | resolve_entities",
        "python",
        r"\b(?:ET|ElementTree|cElementTree|etree|minidom|pulldom|sax|expatbuilder)\.(?:parse"
        r"|fromstring|parseString|XML|iterparse|XMLParser)\(",
        r"\bdefusedxml\b|resolve_entities\s*=\s*False",
        hits=(
            "tree = ET.fromstring(request.data)",
            "doc = minidom.parseString(body)",
            "root = lxml.etree.parse(upload).getroot()",
        ),
        safe=(
            "import defusedxml.ElementTree as ET\ntree = ET.fromstring(request.data)",
            "parser = etree.XMLParser(resolve_entities=False, no_network=True)",
            "data = json.loads(request.data)",
        ),
    ),
    pattern(
        "py-jwt-unverified",
        "jwt signature not verified | jwt verify_signature | jwt algorithms | alg none"
        " | jwt decode without verification | unverified jwt",
        "python",
        r"\bjwt\.decode\(",
        none_of(
            r"[\"']verify_signature[\"']\s*:\s*False|\bverify\s*=\s*False|algorithms\s*=\s*\["
            r"[^\]\n]*[\"']none[\"']|algorithms\s*=\s*\[?\s*[\w.]+(?:\[\s*[\"']alg[\"']|\.get\(\s*[\"']alg)|"
            + call_without(r"\bjwt\.decode", "algorithms")
        ),
        hits=(
            "claims = jwt.decode(token, options={'verify_signature': False})",
            "payload = jwt.decode(token, SECRET)",
            "data = jwt.decode(tok, key, algorithms=['HS256', 'none'])",
        ),
        safe=(
            "payload = jwt.decode(token, SECRET, algorithms=['HS256'])",
            "claims = jwt.decode(\ntoken,\npublic_key,\nalgorithms=['RS256'],\naudience=AUD,\n)",
            "token = jwt.encode(payload, SECRET, algorithm='HS256')",
        ),
    ),
    pattern(
        "py-tar-extractall",
        "tar path traversal | extractall | zip slip | tarfile filter | archive path traversal"
        " | tar extraction outside directory",
        "python",
        r"\A(?=[\s\S]*?\btar(?:file)?\b)[\s\S]*?\.extract(?:all)?\(|\bshutil\.unpack_archive\(",
        none_of(call_without(r"\.extract(?:all)?|\bshutil\.unpack_archive", "filter"))
        + r"|\b(?:commonpath|is_relative_to|is_within_directory)\(|\bextraction_filter\b",
        hits=(
            "with tarfile.open(upload) as tar:\ntar.extractall(dest)",
            "tf = tarfile.open(fileobj=buf, mode='r:gz')\ntf.extractall(path=out)",
            "shutil.unpack_archive(bundle, target_dir)",
        ),
        safe=(
            "with tarfile.open(upload) as tar:\ntar.extractall(dest, filter='data')",
            "with zipfile.ZipFile(p) as z:\nz.extractall(dest)",
            "shutil.unpack_archive(bundle, target_dir, filter='data')",
        ),
    ),
    pattern(
        "py-cookie-insecure",
        "cookie httponly | cookie secure flag | insecure cookie | session cookie secure"
        " | set_cookie httponly | samesite cookie",
        "python",
        r"\.set_cookie\(|\b(?:SESSION|CSRF)_COOKIE_(?:SECURE|HTTPONLY)\s*=",
        none_of(
            call_without(r"\.set_cookie", r"secure\s*=\s*(?!False\b)")
            + "|"
            + call_without(r"\.set_cookie", r"httponly\s*=\s*(?!False\b)")
            + r"|\b(?:SESSION|CSRF)_COOKIE_(?:SECURE|HTTPONLY)\s*=\s*False"
        ),
        hits=(
            "resp.set_cookie('session', sid)",
            "response.set_cookie('auth', token, max_age=3600, secure=True)",
            "SESSION_COOKIE_SECURE = False",
        ),
        safe=(
            "resp.set_cookie('session', sid, secure=True, httponly=True, samesite='Lax')",
            "SESSION_COOKIE_SECURE = True",
            "resp.delete_cookie('session')",
        ),
    ),
]
