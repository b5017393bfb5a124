"""Known mistakes in Python code: correctness traps (mutable defaults, bare and swallowed
exceptions, HTTP calls without a timeout or a status check, naive datetimes, lost
tracebacks) and async and threading pitfalls (blocking calls in ``async def``, tasks
without a reference, missing awaits, state shared between threads) as ruff
(flake8-bugbear, flake8-async), pylint and reviewers flag them. Module and class state,
closures, finalizers, files, debugging leftovers, comparisons and style:
``code_python_idioms``. Security mistakes (injection, deserialisation, secrets, TLS) are in
``py_security``; tests, frameworks, pandas and database connections in ``py_frameworks``.
The helpers here (``args``, ``call_without``, ``none_of``) build the regular expressions of
all four."""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern


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
# A method of a requests.Session bound by ``s = requests.Session()`` or ``with ... as s``
# (a session has no default timeout either).
_SESSION_CALL = (
    r"(?:\b(\w+)\s*=\s*requests\.Session\(\)|\brequests\.Session\(\)\s+as\s+(\w+))[\s\S]{0,800}?"
    r"\b(?:\1|\2)\.(?:get|post|put|patch|delete|head|request)"
)
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
        " pass | silenced the exception | error swallowed | exceptions silently ignored"
        " | except pass hid",
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
        rf"{_REQUESTS}\(|\b(?:urlopen|httpx\.\w+)\(|{_SESSION_CALL}\(",
        none_of(
            call_without(_REQUESTS, "timeout")
            + "|"
            + call_without(_SESSION_CALL, "timeout")
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
        r"\btzinfo\s*=\s*(?:pytz\.)?timezone\(\s*(?![\"']UTC[\"'])|^(\w+)\s*=\s*(?:pytz\.timezone\("
        r"|timezone\((?=\s*[\"']))\s*(?![\"']UTC[\"'])[^\n]*\n(?:[^\n]*\n){0,20}?[^\n]*\btzinfo\s*=\s*\1\b",
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
        r"[\"']|[\"'][^\"'\n]*%[sr][^\"'\n]*[\"']\s*,\s*(?:[^,()\n]+,\s*){0,3}(?:e|ex|exc|err|error)"
        r"|[\"'][^\"'\n]*[\"']\s*\+\s*(?:str|repr)\(\s*(?:e|ex|exc|err|error|exception)\s*\))\s*\)",
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
]
