"""Known mistakes in Python code: correctness traps (mutable defaults, swallowed
exceptions, naive datetimes, lost tracebacks, async and threading pitfalls, leaked files)
as ruff (flake8-bugbear, flake8-async), pylint and reviewers flag them. Security mistakes
(injection, deserialisation, secrets, TLS) are in ``py_security``; tests, frameworks,
pandas and database connections in ``py_frameworks``. The helpers here (``call_without``,
``none_of``) build the regular expressions of all three."""

from __future__ import annotations

from xdb.engine.known.model import Pattern, pattern


def args(without: str = "") -> str:
    """The arguments of a call, parentheses nested three deep, ``without`` nowhere in them."""
    t = f"(?!{without})" if without else ""
    d1 = rf"(?:{t}[^()])*"
    d2 = rf"(?:{t}[^()]|\({d1}\))*"
    return rf"(?:{t}[^()]|\({d2}\))*"


def call_without(head: str, kw: str) -> str:
    """A call to ``head`` (a regex ending before its parenthesis) whose arguments lack
    ``kw`` (a call the added lines leave open counts too)."""
    return rf"(?:{head})\({args(kw)}(?:\)|\Z)"


def none_of(bad: str) -> str:
    """An ``unless`` that holds when ``bad`` is nowhere in the text: the operation the
    ``mistake`` found is done the safe way every time it is done."""
    return rf"\A(?![\s\S]*?(?:{bad}))"


# Lines of an ``async def`` body, as far as stripped lines tell: until the next def (80 at
# most, which also bounds the search).
_IN_ASYNC = r"\basync def [^\n]*\n(?:(?!(?:async )?def\b)[^\n]*\n){0,80}?[^\n]*"
# The same, on a line that is no ``async for`` (an async comprehension awaits the ORM).
_IN_ASYNC_LINE = (
    r"\basync def [^\n]*\n(?:(?!(?:async )?def\b)[^\n]*\n){0,80}?(?![^\n]*\basync for\b)[^\n]*"
)
_REQUESTS = r"\brequests\.(?:get|post|put|patch|delete|head|options|request)"
_LOG = r"\b(?:logger|logging|log|_logger|_log|LOGGER|LOG|self\.logger|self\.log|app\.logger)"
# An HTTP call on another client: httpx's functions, or a session or client object's.
_HTTP_CLIENT = (
    r"\b(?:httpx|(?:self\.)?_?(?:http_)?(?:session|client|http))\.(?:get|post|put|patch|delete"
    r"|request)(?=\(\s*(?:f?[\"']|url\b|\w*_?url\b|endpoint\b))"
)

PATTERNS: list[Pattern] = [
    pattern(
        "py-mutable-default",
        "mutable default | default argument list | default argument dict | default parameter"
        " list | list as default | dict as default | shared default list | default arg mutable"
        " | default shared between calls",
        "python",
        rf"\bdef \w+\((?:[^()]|\({args()}\))*?=\s*(?:\[|\{{|(?:list|dict|set|defaultdict"
        r"|OrderedDict|deque|Counter)\()",
        hits=(
            "def add(item, items=[]):\nitems.append(item)",
            "def remember(k, v, seen={}):",
            "async def collect(\nself,\nevents: list[Event] = [],\nlimit: int = 10,\n):",
            "def tally(words, counts=defaultdict(int)):",
        ),
        safe=(
            "def add(item, items=None):\nitems = items or []",
            "def f(x, n=0, name='a'):",
            "def read(q: str = Query(default=[]), tags: list[str] | None = None):",
            "def f(x: dict[str, int] | None = None) -> list[int]:",
        ),
    ),
    pattern(
        "py-bare-except",
        "bare except | except clause catches keyboardinterrupt | except: catches systemexit"
        " | catching keyboardinterrupt | bare except clause"
        " | caught systemexit | catch systemexit | except clause exception class",
        "python",
        r"^except\s*:",
        r"^raise\s*$",
        hits=(
            "try:\nimport ujson as json\nexcept:\nimport json",
            "try:\nrun()\nexcept :\nlog.warning('run failed')",
            "try:\nconn.close()\nexcept: pass",
        ),
        safe=(
            "try:\nrun()\nexcept Exception:\nlogger.exception('run failed')",
            "try:\nimport ujson as json\nexcept ImportError:\nimport json",
            "try:\nwork()\nexcept BaseException:\ncleanup()\nraise",
        ),
    ),
    pattern(
        "py-swallowed-exception",
        "swallowed exception | swallow exception | silently ignored error | except exception"
        " pass | silenced the exception | error swallowed | exceptions silently ignored",
        "python",
        r"^except(?:\s+\(?\s*(?:Exception|BaseException)\b[^:\n]*)?\s*:\s*(?:#[^\n]*)?(?:\n\s*)?"
        r"(?:pass|\.\.\.|continue|return None|return)\s*(?:#[^\n]*)?$"
        r"|\bsuppress\(\s*(?:Exception|BaseException)\s*\)",
        hits=(
            "try:\nsend_email(user)\nexcept Exception:\npass",
            "try:\nrow = parse(line)\nexcept:\ncontinue",
            "with contextlib.suppress(Exception):\ncache.delete(key)",
            "except (Exception, OSError) as e: pass",
        ),
        safe=(
            "try:\nsend_email(user)\nexcept Exception:\nlogger.exception('email failed')",
            "try:\nos.remove(p)\nexcept FileNotFoundError:\npass",
            "with contextlib.suppress(KeyError):\ndel cache[key]",
        ),
    ),
    pattern(
        "py-requests-no-timeout",
        "requests.get timeout | request without timeout | no timeout http | http call without"
        " timeout | hung forever http | http call hung | urlopen timeout | missing timeout request",
        "python",
        rf"{_REQUESTS}\(|\b(?:urlopen|httpx\.\w+)\(",
        none_of(
            call_without(_REQUESTS, "timeout")
            + "|"
            + call_without(r"\burlopen", "timeout")
            + r"|\btimeout\s*=\s*None\b"
        ),
        hits=(
            "resp = requests.get(url)\nresp.raise_for_status()",
            "r = requests.post(\nf'{BASE}/orders',\njson=payload,\nheaders={'A': token},\n)",
            "with urllib.request.urlopen(req) as resp:",
            "client = httpx.Client(timeout=None)",
            "a = requests.get(u, timeout=5)\nb = requests.delete(u2)",
        ),
        safe=(
            "resp = requests.get(url, timeout=10)",
            "r = requests.post(\nendpoint,\njson=body,\ntimeout=(3.05, 27),\n)",
            "with urlopen(req, timeout=5) as resp:",
            "session = requests.Session()",
        ),
    ),
    pattern(
        "py-http-status-unchecked",
        "raise_for_status | http status code not checked | http error ignored | error"
        " response parsed | 500 response parsed",
        "python",
        rf"(?:{_REQUESTS}|{_HTTP_CLIENT})\((?:[^\n]*\n){{0,10}}?[^\n]*?\.(?:json\(\)|text\b"
        r"|content\b)",
        r"raise_for_status\(\)|status_code|\.ok\b|\bstatus\s*(?:==|!=|in|>=|<)",
        hits=(
            "data = requests.get(url, timeout=5).json()",
            "resp = requests.post(api, json=p, timeout=5)\nreturn resp.json()['id']",
            "r = requests.request('GET', u, timeout=3)\nitems = r.json()",
        ),
        safe=(
            "resp = requests.get(url, timeout=5)\nresp.raise_for_status()\nreturn resp.json()",
            "r = requests.post(u, json=b, timeout=5)\nif r.status_code != 201:\nraise ApiError(r)",
            "r = requests.get(u, timeout=5)\nif not r.ok:\nreturn None",
        ),
    ),
    pattern(
        "py-naive-datetime",
        "naive datetime | timezone aware | utcnow deprecated | datetime now timezone"
        " | offset-naive | offset naive aware | tz aware datetime | utcnow",
        "python",
        r"\bdatetime\.(?:now|utcnow|utcfromtimestamp|fromtimestamp|today)\(",
        none_of(
            r"\bdatetime\.(?:utcnow|utcfromtimestamp|today)\(|\bdatetime\.now\(\s*\)"
            r"|\bdatetime\.fromtimestamp\(\s*(?:[^(),]|\([^()]*\))+\)"
        ),
        hits=(
            "created = datetime.utcnow()",
            "expires_at = datetime.datetime.now() + timedelta(hours=1)",
            "ts = datetime.fromtimestamp(int(row['ts']))",
            "if token.expiry < datetime.utcnow():",
        ),
        safe=(
            "created = datetime.now(timezone.utc)",
            "ts = datetime.fromtimestamp(epoch, tz=timezone.utc)",
            "expires_at = dt.datetime.now(tz=ZoneInfo('Europe/Paris'))",
            "now = timezone.now()",
        ),
    ),
    pattern(
        "py-pytz-replace-tzinfo",
        "pytz localize | pytz tzinfo | lmt offset | pytz replace tzinfo | pytz wrong offset",
        "python",
        r"\btzinfo\s*=\s*(?:pytz\.)?timezone\(\s*(?![\"']UTC[\"'])|^(\w+)\s*=\s*pytz\.timezone\("
        r"\s*(?![\"']UTC[\"'])[^\n]*\n(?:[^\n]*\n){0,20}?[^\n]*\btzinfo\s*=\s*\1\b",
        hits=(
            "dt = naive.replace(tzinfo=pytz.timezone('America/New_York'))",
            "start = datetime(2024, 3, 1, 9, tzinfo=pytz.timezone(cfg.tz))",
            "x = d.replace(tzinfo=timezone('Europe/Paris'))",
        ),
        safe=(
            "dt = pytz.timezone('America/New_York').localize(naive)",
            "dt = naive.replace(tzinfo=ZoneInfo('America/New_York'))",
            "dt = naive.replace(tzinfo=timezone.utc)",
        ),
    ),
    pattern(
        "py-raise-without-from",
        "raise from e | lost the traceback | original traceback lost | exception chaining"
        " | raise without from | chained exception | exception cause lost | raise e",
        "python",
        r"^except\b(?:[^\n]*\bas\s+\w+\s*:\n(?:(?!(?:except|def|class|try|finally|else|raise"
        r"|return)\b)[^\n]*\n){0,2}?|[^\n]*:\n)raise[ \t]+[A-Za-z_][\w.]*"
        rf"(?:\({args()}\))?[ \t]*(?:#[^\n]*)?$",
        hits=(
            "try:\ncfg = load(p)\nexcept KeyError as e:\nraise ConfigError(f'missing {e}')",
            "except requests.RequestException as exc:\nlog.warning('x')\nraise exc",
            "except ValueError:\nraise HTTPException(status_code=400, detail='bad id')",
        ),
        safe=(
            "except KeyError as e:\nraise ConfigError(f'missing {e}') from e",
            "except Exception:\nlogger.exception('failed')\nraise",
            "if not rows:\nraise ValueError('no rows')",
            "except ValueError:\nraise HTTPException(status_code=400) from None",
            "except (ValueError, TypeError):\nraise InvalidRequest(\n'bad cursor',\nfield='c',\n)"
            " from None",
            "except ValueError:\ntimeout = -1.0\nif not 0 < timeout < 600:\nraise Invalid('x')",
        ),
    ),
    pattern(
        "py-log-error-no-traceback",
        "logger exception traceback | logged without traceback | exc_info | logger.exception"
        " | logger.error lost traceback | no stack trace logged | stack trace missing log",
        "python",
        rf"(?:{_LOG}|\blogging\.getLogger\([^()\n]*\))\.error\(\s*(?:str\(\s*(?:e|ex|exc|err|error|exception)\s*\)|(?:e|ex|exc|err"
        r"|error|exception)|f[\"'][^\"'\n]*\{(?:e|ex|exc|err|error|exception)(?:!r)?\}[^\"'\n]*"
        r"[\"']|[\"'][^\"'\n]*%[sr][^\"'\n]*[\"']\s*,\s*(?:e|ex|exc|err|error))\s*\)",
        hits=(
            "except Exception as e:\nlogger.error(e)",
            "except OSError as err:\nlog.error(f'upload failed: {err}')",
            "except Exception as exc:\nlogging.error('sync failed: %s', exc)",
            "self.logger.error(str(e))",
        ),
        safe=(
            "except Exception:\nlogger.exception('upload failed')",
            "logger.error('upload failed: %s', err, exc_info=True)",
            "logger.error('order %s rejected', order_id)",
        ),
    ),
    pattern(
        "py-sleep-in-async",
        "time.sleep async | blocking sleep event loop | asyncio.sleep | blocked the event loop"
        " | sleep inside async | time sleep coroutine",
        "python",
        _IN_ASYNC + r"(?:\btime\.sleep\(|(?<![\w.])(?<!await )(?<!def )sleep\()",
        hits=(
            "async def poll(job):\nwhile not job.done:\ntime.sleep(1)",
            "async def retry(fn):\nfor i in range(3):\ntry:\nreturn await fn()\nexcept E:\n"
            "sleep(2)",
            "@router.post('/x')\nasync def create(req):\nawait save(req)\ntime.sleep(0.5)",
        ),
        safe=(
            "async def poll(job):\nwhile not job.done:\nawait asyncio.sleep(1)",
            "def worker():\nwhile True:\ntime.sleep(1)",
            "async def main():\nawait loop.run_in_executor(None, time.sleep, 1)",
            "async def f():\nawait sleep(1)",
        ),
    ),
    pattern(
        "py-blocking-io-in-async",
        "blocking call async | requests inside async | blocked the event loop | blocking io"
        " coroutine | sync http async def | httpx asyncclient"
        " | synchronous http async | sync http call async | async client coroutine",
        "python",
        _IN_ASYNC + rf"(?:{_REQUESTS}|\brequests\.Session|\burlopen|\bsubprocess\.(?:run|call"
        r"|check_output|check_call))\(",
        hits=(
            "async def fetch_user(uid):\nr = requests.get(f'{API}/users/{uid}', timeout=5)",
            "@app.get('/weather')\nasync def weather(city: str):\nreturn requests.get(u).json()",
            "async def build():\nsubprocess.run(['make'], check=True)",
        ),
        safe=(
            "async def fetch_user(uid):\nr = await client.get(f'{API}/users/{uid}')",
            "def fetch_user(uid):\nreturn requests.get(u, timeout=5).json()",
            "async def f():\nr = await asyncio.to_thread(requests.get, u, timeout=5)",
        ),
    ),
    pattern(
        "py-sync-db-in-async",
        "sync database async endpoint | synchronous orm async | synchronousonlyoperation raised"
        " | blocking database call async | sync session async def | async view orm",
        "python",
        _IN_ASYNC_LINE + r"(?:(?<!await )(?<![\w.])(?:self\.)?(?:db|session|cursor|cur|conn"
        r"|connection)\.(?:query|execute|commit|scalars|fetchall|fetchone)\(|(?<!await )(?<![\w.])"
        r"(?:self\.)?(?:db|session)\.get\(\s*[A-Z]\w*\s*,|\b(?:psycopg2|sqlite3|pymysql)\.connect\("
        r"|(?<!await )(?<![\w.])\w+\.objects\.(?:get|filter|all|create|count|first|update|delete"
        r"|exclude)\()",
        hits=(
            "@app.get('/users/{uid}')\nasync def get_user(uid: int, db: Session = Depends(get_db)):"
            "\nreturn db.query(User).get(uid)",
            "async def order_view(request, pk):\norder = Order.objects.get(pk=pk)",
            "async def report():\nconn = psycopg2.connect(DSN)",
        ),
        safe=(
            "async def get_user(uid: int, db: AsyncSession = Depends(get_db)):\n"
            "res = await db.execute(select(User).where(User.id == uid))",
            "def get_user(uid: int, db: Session = Depends(get_db)):\n"
            "return db.query(User).get(uid)",
            "async def order_view(request, pk):\norder = await Order.objects.aget(pk=pk)",
        ),
    ),
    pattern(
        "py-create-task-no-reference",
        "create_task reference | task garbage collected | fire and forget task | keep a"
        " reference task | ensure_future reference | background task disappeared",
        "python",
        r"^(?:asyncio|loop|self\.loop|self\._loop|asyncio\.get_running_loop\(\)|asyncio"
        r"\.get_event_loop\(\))\.(?:create_task|ensure_future)\(",
        hits=(
            "asyncio.create_task(send_welcome(user))",
            "loop.create_task(self.heartbeat())",
            "asyncio.ensure_future(flush(buffer))",
        ),
        safe=(
            "task = asyncio.create_task(send_welcome(user))\nself._tasks.add(task)",
            "tg.create_task(fetch(u))",
            "await asyncio.create_task(work())",
        ),
    ),
    pattern(
        "py-missing-await",
        "missing await | forgot await | coroutine never awaited | coroutine was never"
        " awaited | without await",
        "python",
        r"^(?:asyncio\.(?:sleep|wait_for|gather|to_thread|open_connection)\(|\w+\s*=\s*asyncio"
        r"\.(?:sleep|to_thread|wait_for|gather|open_connection)\()|\basync def (?P<co>\w+)\("
        r"(?!\s*(?:self|cls)\b)[^\n]*\n(?:[^\n]*\n){0,80}?(?:\w+\s*=\s*)?(?P=co)\(",
        hits=(
            "async def notify(user):\nawait mailer.send(user.email)\n\ndef on_signup(user):\n"
            "notify(user)",
            "asyncio.sleep(5)",
            "result = asyncio.to_thread(render, page)",
            "async def load(url):\nreturn await client.get(url)\n\ndef main():\npage = load(u)",
        ),
        safe=(
            "async def notify(user):\nawait mailer.send(user.email)\n\nasync def on_signup(u):\n"
            "await notify(u)",
            "await asyncio.sleep(5)",
            "asyncio.run(main())",
            "task = asyncio.create_task(notify(u))",
        ),
    ),
    pattern(
        "py-get-event-loop",
        "get_event_loop deprecated | get_running_loop | no current event loop | there is no"
        " current event loop",
        "python",
        r"\basyncio\.get_event_loop\(\)|^from\s+asyncio\s+import\s+[^\n]*\bget_event_loop\b",
        hits=(
            "loop = asyncio.get_event_loop()",
            "asyncio.get_event_loop().run_until_complete(main())",
            "fut = asyncio.get_event_loop().create_future()",
        ),
        safe=(
            "loop = asyncio.get_running_loop()",
            "asyncio.run(main())",
            "loop = asyncio.new_event_loop()",
        ),
    ),
    pattern(
        "py-thread-shared-state",
        "race condition thread | threading lock | shared state threads | counter without"
        " lock | thread safety | data race threads | lost update threads",
        "python",
        r"\A(?=[\s\S]*?\b(?:Thread|ThreadPoolExecutor|threading\.Timer)\()[\s\S]*?^global\s+"
        r"(\w+)[\s\S]*?^\1(?:\[[^\]\n]+\])?\s*(?:\+=|-=|\*=|=)",
        r"\b(?:R?Lock|Semaphore|Condition)\(|\bQueue\(|with\s+[\w.]*lock\b",
        hits=(
            "count = 0\ndef work():\nglobal count\ncount += 1\nts = [Thread(target=work)"
            " for _ in range(8)]",
            "with ThreadPoolExecutor(4) as ex:\nex.map(fetch, urls)\ndef fetch(u):\nglobal done"
            "\ndone += 1",
            "def handle(k):\nglobal cache\ncache[k] = load(k)\nthreading.Thread(target=handle,"
            " args=(1,)).start()",
        ),
        safe=(
            "lock = threading.Lock()\ndef work():\nglobal count\nwith lock:\ncount += 1\n"
            "Thread(target=work).start()",
            "def work():\nglobal count\ncount += 1",
            "q = Queue()\nThread(target=worker, args=(q,)).start()",
        ),
    ),
    pattern(
        "py-global-statement",
        "global statement | global variable mutated | module level mutable state | global"
        " mutable state | global keyword",
        "python",
        r"^global\s+\w",
        hits=(
            "def connect():\nglobal _engine\n_engine = create_engine(url)",
            "def inc():\nglobal counter, total\ncounter += 1",
            "global CONFIG\nCONFIG = load()",
        ),
        safe=(
            "def connect(url):\nreturn create_engine(url)",
            "globals_ = {}",
            "# global settings are read once\nSETTINGS = Settings()",
        ),
    ),
    pattern(
        "py-mutable-class-attribute",
        "mutable class attribute | class attribute shared between instances | shared list"
        " between instances | class level list | class variable shared",
        "python",
        r"^class (?!Meta\b|Config\b)\w+(?:\((?![^)\n]*\b(?:BaseModel|BaseSettings|\w*Schema"
        r"|TypedDict|NamedTuple|\w*Enum|SQLModel|Protocol)\b)[^)\n]*\))?:\n(?:(?!(?:async\s+)?def"
        r"\b|@|class\b)[^\n]*\n){0,12}?(?P<attr>[a-z_][a-z0-9_]*)\s*(?::[^=\n]+)?=\s*(?:\[\]"
        r"|\{\}|(?:list|dict|set|deque|OrderedDict)\(\)|defaultdict\([^)\n]*\))\s*\n(?:[^\n]*\n){0,80}?"
        r"[^\n]*?"
        r"\bself\.(?P=attr)(?:\[[^\]\n]+\])?(?:\.(?:append|extend|add|update|insert|setdefault"
        r"|remove|discard|clear|pop)\(|\[[^\]\n]+\]\s*=(?!=))",
        hits=(
            "class Cart:\nitems = []\ndef add(self, item):\nself.items.append(item)",
            "class Registry(object):\nhandlers: dict[str, Handler] = {}\n"
            "def register(self, name, h):\nself.handlers[name] = h",
            "class Plugin(Base):\n'''A plugin.'''\nname = 'x'\nhooks = defaultdict(list)\n"
            "def on(self, event, fn):\nself.hooks[event].append(fn)",
        ),
        safe=(
            "class Lexer(RegexLexer):\nname = 'x'\naliases = []\nfilenames = []",
            "class Cart:\ndef __init__(self):\nself.items = []",
            "class Cart(BaseModel):\nitems: list[str] = []",
            "class Meta:\nordering = ['-created_at']",
            "@dataclass\nclass Cart:\nitems: list[str] = field(default_factory=list)",
        ),
    ),
    pattern(
        "py-lru-cache-method",
        "lru_cache method | cache on method | lru_cache self | memory leak lru_cache"
        " | functools cache method | cached_property instead",
        "python",
        r"^@(?:functools\.)?(?:lru_cache|cache)\b[^\n]*\n(?:@[^\n]*\n)*(?:async\s+)?def \w+\("
        r"\s*self\b",
        hits=(
            "@lru_cache(maxsize=None)\ndef price(self, sku):",
            "@functools.cache\ndef load(self):",
            "@functools.lru_cache(maxsize=256)\ndef rate(self, currency: str) -> Decimal:",
        ),
        safe=(
            "@lru_cache(maxsize=128)\ndef price(sku):",
            "@cached_property\ndef total(self):",
            "@staticmethod\n@lru_cache\ndef parse(text):",
        ),
    ),
    pattern(
        "py-late-binding-closure",
        "late binding closure | lambda in a loop | loop variable captured | closure captures"
        " loop variable | lambda captured last value | default argument lambda",
        "python",
        # (a lambda kept or registered to run later, not one called at once: sort keys, apply)
        r"^for\s+\(?(?:\w+\s*,\s*)*?(\w+)(?:\s*,\s*\w+)*\)?\s+in\b[^\n]*:\n(?:[^\n]*\n){0,5}?[^\n]*"
        r"(?:\.(?:append|connect|on|bind|register|subscribe|add_listener|add_handler|call_soon"
        r"|call_later|after|submit|add_command|insert|setdefault|add_done_callback)\(\s*(?:[^,()\n]+"
        r",\s*)*|\b(?:command|callback|target|handler)\s*=\s*|^\w+(?:\[[^\]\n]+\])?\s*=\s*)"
        r"lambda(?![^:\n]*\b\1\b)[^:\n]*:[^\n]*\b\1\b",
        hits=(
            "for i in range(3):\ncallbacks.append(lambda: print(i))",
            "for name in fields:\nhandlers[name] = lambda v: validate(name, v)",
            "for b in buttons:\nw = Button(root, text=b, command=lambda: click(b))",
        ),
        safe=(
            "for i in range(3):\ncallbacks.append(lambda i=i: print(i))",
            "for name in fields:\nrows.sort(key=lambda r: r[name])",
            "for name in fields:\nhandlers[name] = partial(validate, name)",
        ),
    ),
    pattern(
        "py-del-finalizer",
        "__del__ method | relied on __del__ | finalizer not called | destructor close"
        " | __del__ not called"
        " | close __del__ | rely on __del__ | cleanup __del__ | __del__ finalizer",
        "python",
        r"^def __del__\(\s*self",
        hits=(
            "def __del__(self):\nself.conn.close()",
            "def __del__(self) -> None:\nself._file.close()",
            "def __del__( self ):\nshutil.rmtree(self.tmp)",
        ),
        safe=(
            "def __exit__(self, *exc):\nself.conn.close()",
            "def close(self):\nself.conn.close()",
            "weakref.finalize(self, self.conn.close)",
        ),
    ),
    pattern(
        "py-open-no-encoding",
        # ("open encoding" and "encoding utf-8" named a lesson about a BOM kept with utf-8
        # instead of utf-8-sig: the encoding given, not left out)
        "open default encoding | encoding utf-8 cp1252 | without encoding | locale encoding"
        " | default encoding windows | read_text encoding | open encoding windows",
        "python",
        r"(?<![.\w])(?<!def )open\(|\.(?:read|write)_text\(",
        none_of(
            call_without(r"(?<![.\w])(?<!def )open", r"encoding|[\"'][rwxat+]*b[rwxat+]*[\"']")
            + "|"
            + call_without(r"\.(?:read|write)_text", "encoding")
        ),
        hits=(
            "with open(path) as f:\nreturn f.read()",
            "with open(out_file, 'w') as fh:\nfh.write(report)",
            "text = Path(p).read_text()",
            "f = open(os.path.join(d, name), mode='r')",
        ),
        safe=(
            "with open(path, encoding='utf-8') as f:",
            "with open(img, 'rb') as f:\ndata = f.read()",
            "Path(p).write_text(s, encoding='utf-8')",
            "with open(p, 'w', encoding='utf-8', newline='') as f:",
        ),
    ),
    pattern(
        "py-open-without-with",
        "open without with block | open without with statement | file handle leak"
        " | file not closed | unclosed file"
        " | resourcewarning unclosed | context manager open",
        "python",
        # (a function that returns the file leaves closing it to its caller)
        r"^(?!with\b|return\b)(?![^\n]*\)\s+as\s+\w+\s*[,:)]?\s*$)[^\n]*(?<![.\w])(?<!def )open\("
        r"(?!\s*\))",
        r"\bfinally:[\s\S]{0,300}?\.close\(\)|^(?:async\s+)?def (?:close|__exit__|__aexit__)\b"
        r"|\benter_context\(|\bclosing\(|\b(?:atexit\.register|addCleanup|callback)\([^)\n]*"
        r"\.close\b",
        hits=(
            "f = open(path, encoding='utf-8')\ndata = f.read()",
            "config = json.load(open('config.json'))",
            "lines = open(p).read().splitlines()",
        ),
        safe=(
            "with open(path, encoding='utf-8') as f:\ndata = f.read()",
            "with (\nopen(a) as src,\nopen(b, 'w') as dst,\n):",
            "fh = open(log_path, 'a')\ntry:\nfh.write(x)\nfinally:\nfh.close()",
            "fh = stack.enter_context(open(p))",
        ),
    ),
    pattern(
        "py-print-debugging",
        "print debugging | debug print | print statement left | leftover print | stray print"
        " | print instead of logging",
        "python",
        r"^print\((?:\s*f?[\"'](?:debug|DEBUG|Debug|XXX|HERE|here|>>>|!!!)"
        r"|\s*f[\"'][^\"'\n]*\{[^{}\n]+=\}|\s*(?:type|repr|vars|locals|dir)\("
        r"|\s*[\"'][\w.\[\]]+\s*=\s*[\"']\s*,)",
        hits=(
            "print('DEBUG payload', payload)",
            "print(f'{resp.status_code=} {resp.text=}')",
            "print(type(result))",
            'print(">>> got here", x)',
        ),
        safe=(
            "print(f'Wrote {n} rows to {path}')",
            "logger.debug('payload=%s', payload)",
            "print('Usage: tool <file>')",
        ),
    ),
    pattern(
        "py-debugger-left",
        "breakpoint left | leftover breakpoint | pdb set_trace | left a breakpoint | debugger"
        " left in | ipdb | breakpoint() committed",
        "python",
        r"^[^#\n]*(?<![\w.])breakpoint\(\s*\)|^[^#\n]*\b(?:i?pdb|pudb)\.set_trace\("
        r"|^import\s+(?:i?pdb|pudb)\b"
        r"|^from\s+(?:i?pdb|IPython)\s+import\s+(?:set_trace|embed)",
        hits=(
            "breakpoint()\nreturn total",
            "import pdb; pdb.set_trace()",
            "import ipdb\nipdb.set_trace()",
            "from IPython import embed",
        ),
        safe=(
            "logger.debug('total=%s', total)",
            "# set a breakpoint here when debugging",
            "debugger.attach(proc)",
        ),
    ),
    pattern(
        "py-is-literal",
        "is comparison literal | is with a literal | is instead of equality | is not with literal"
        " | syntaxwarning is literal | identity comparison string"
        " | compare strings with not is | strings compared with is",
        "python",
        r"^(?:(?:el)?if|while|assert|return|yield|[\w.]+\s*=)\s[^\n#]*?[\w\])]\s+is\s+(?:not\s+)?"
        r"(?:-?\d+(?:\.\d+)?|[rbuf]?\"[^\"\n]*\"|[rbuf]?'[^'\n]*'"
        r"|\(\)|\[\]|\{\})\s*(?::|\)|$|\s+(?:and|or|else)\b)",
        hits=(
            "if status is 'done':",
            "while retries is not 0:",
            "ok = code is 200 and body",
            'return (x is "")',
        ),
        safe=(
            "if status == 'done':",
            "if value is None:",
            "raise ValueError(\"name is 'foo'\")",
            "if flag is True:",
        ),
    ),
    pattern(
        "py-eq-none",
        "comparison to none | compared to none | equality with none | compare with none"
        " | is none instead"
        " | none with is not",
        "python",
        r"^(?![^\n]*(?:\.(?:filter|where|filter_by|having|exclude|query)\(|\bselect\())"
        r"[^\n]*(?:[!=]=\s*None\b|\bNone\s*[!=]=)",
        hits=(
            "if user == None:",
            "return [x for x in xs if x != None]",
            "assert None == result",
        ),
        safe=(
            "if user is None:",
            "q = session.query(User).filter(User.deleted_at == None)",
            "stmt = select(User).where(User.parent_id != None)",
        ),
    ),
    pattern(
        "py-shadowed-builtin",
        "shadowed builtin | shadowing builtin | shadows builtin | overwrote builtin"
        " | builtin name as variable | named a variable list",
        "python",
        r"^(?:list|dict|str|int|float|set|tuple|bytes|id|type|input|filter|map|sum|max|min"
        r"|len|object|hash|iter|next|open|range|vars|dir|all|any|format|zip|sorted|compile"
        r"|print)\s+=\s+(?!\s*(?:[\w.]*(?:Column|mapped_column|Field|relationship|Attribute"
        r"|property)|models\.\w+)\b)(?![^\n]*,$)|^for\s+(?:list|dict|str|id|type|input|max|min"
        r"|sum|len|object|hash|iter|filter|map|set|bytes|all|any|next|format|zip)\s+in\b"
        # (a parameter: ``id`` and ``type`` are left to the assignments, as APIs name them)
        r"|^(?:async\s+)?def \w+\((?:[^()\n]*,\s*)?(?:list|dict|str|int|float|set|tuple|bytes"
        r"|input|sum|len|sorted|zip)\s*(?:[:=,)])",
        hits=(
            "list = get_items()\nfor x in list:",
            "id = request.args['id']",
            "for str in names:\nprint(str)",
            "max = 10",
        ),
        safe=(
            "items = get_items()",
            "id = Column(Integer, primary_key=True)",
            "id = models.BigAutoField(primary_key=True)",
            "type: str = 'order'",
        ),
    ),
    pattern(
        "py-star-import",
        "star import | wildcard import | import star | import-star | namespace polluted import",
        "python",
        r"^from\s+[\w.]+\s+import\s+\*",
        hits=(
            "from os.path import *",
            "from .models import *",
            "from utils.helpers import *  # noqa",
        ),
        safe=(
            "from os.path import join, exists",
            "import numpy as np",
            "from .models import Order, Customer",
        ),
    ),
    pattern(
        "py-float-money",
        "float for money | floating point money | float currency | decimal for money"
        " | rounding error prices | float price | money as float | currency decimal",
        "python",
        r"(?i)\b(?:\w+_)?(?:price|prices|amount|cost|balance|salary|fee|fees|payment|subtotal"
        r"|tax|discount|refund|money|usd|eur|cents)(?:_\w+)?\s*(?::\s*(?:float|Optional\[float\]"
        r"|float\s*\|\s*None)\b|=\s*(?:float\(|(?:\w+\.)?(?:Column|mapped_column)\(\s*(?:\w+\.)?"
        r"Float\b|models\.FloatField\(|fields\.Float\())|\bfloat\(\s*[\w.\[\]\"']*?\b(?:\w+_)?"
        r"(?:price|amount|cost|balance|salary|fee|payment|subtotal|tax|discount|refund)\b",
        hits=(
            "price: float",
            "total_amount = float(row['total_amount'])",
            "balance = models.FloatField(default=0)",
            "unit_price = Column(Float, nullable=False)",
            "charge(float(order.amount) * 100)",
        ),
        safe=(
            "price: Decimal",
            "unit_price = Decimal(row['unit_price'])",
            "ratio: float = 0.5",
            "latency_ms = float(elapsed) * 1000",
            "balance = models.DecimalField(max_digits=12, decimal_places=2)",
            "syntax_score: float = 1.0",
        ),
    ),
    pattern(
        "py-zip-no-strict",
        "zip strict | zip truncated | zip silently truncates | zip different lengths"
        " | zip dropped items | strict=true zip",
        "python",
        r"(?<![\w.])zip\(",
        none_of(call_without(r"(?<![\w.])zip", "strict")),
        hits=(
            "for name, value in zip(names, values):",
            "pairs = dict(zip(keys, row))",
            "rows = list(zip(a, b, c))",
        ),
        safe=(
            "for name, value in zip(names, values, strict=True):",
            "pairs = dict(zip(keys, row, strict=True))",
            "z = zipfile.ZipFile(p)",
        ),
    ),
    pattern(
        "py-subprocess-unchecked",
        "subprocess check | exit code ignored | returncode not checked"
        " | subprocess failure ignored | command failed silently",
        "python",
        r"\b(?:subprocess|sp)\.(?:run|call)\(",
        none_of(call_without(r"\b(?:subprocess|sp)\.run", "check") + r"|^(?:subprocess|sp)\.call\(")
        + r"|returncode",
        hits=(
            "subprocess.run(['alembic', 'upgrade', 'head'])",
            "subprocess.call('make build', shell=True)\nnotify()",
            "out = subprocess.run(cmd, capture_output=True, text=True).stdout",
        ),
        safe=(
            "subprocess.run(['alembic', 'upgrade', 'head'], check=True)",
            "r = subprocess.run(cmd, capture_output=True)\nif r.returncode != 0:\nraise E()",
            "out = subprocess.check_output(['git', 'rev-parse', 'HEAD'], text=True)",
        ),
    ),
]
