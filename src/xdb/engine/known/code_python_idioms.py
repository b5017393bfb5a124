"""Known mistakes in Python code that ruff (flake8-bugbear, flake8-builtins),
pylint and reviewers flag as idiom traps: module and class state (``global``, mutable class
attributes, ``lru_cache`` on methods), late-binding closures and ``__del__`` finalizers,
files opened without an encoding or a ``with``, debugging left in (``print``,
``breakpoint``), comparisons (``is`` with a literal, ``== None``), shadowed builtins, star
imports, floats for money, ``zip`` without ``strict`` and unchecked subprocesses. The
correctness, async and threading traps are in ``code_python``."""

from __future__ import annotations

from xdb.engine.known.code_python import call_without, none_of
from xdb.engine.known.pattern import Pattern, pattern

PATTERNS: list[Pattern] = [
    pattern(
        "py-global-statement",
        "global statement | global variable mutated | module level mutable state | global"
        " mutable state | global keyword | global inside a function | global state function"
        " | stop using global",
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
        r"lambda(?![^:\n]*\b\1\b)[^:\n]*:[^\n]*\b\1\b"
        # a def in the loop body that reads the loop variable, then kept by name
        r"|^for\s+\(?(?:\w+\s*,\s*)*?(\w+)(?:\s*,\s*\w+)*\)?\s+in\b[^\n]*:\n(?:[^\n]*\n){0,5}?"
        r"(?:async\s+)?def\s+(\w+)\((?![^)\n]*\b\2\b)[^)\n]*\)[^\n]*:\n(?:[^\n]*\n){0,8}?[^\n]*\b\2\b"
        r"[^\n]*\n(?:[^\n]*\n){0,8}?[^\n]*(?:\.(?:append|connect|register|subscribe|add_listener"
        r"|add_handler|call_soon|call_later|submit|insert|add_done_callback)\(\s*|\]\s*=\s*)\3\b",
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
        r"(?<![.\w])(?:io\.)?(?<!def )open\(|\.(?:read|write)_text\(",
        none_of(
            call_without(
                r"(?<![.\w])(?:io\.)?(?<!def )open", r"encoding|[\"'][rwxat+]*b[rwxat+]*[\"']"
            )
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
        r"|^from\s+(?:i?pdb|pudb|IPython)\s+import\s+(?:set_trace|embed)|^[^#\n]*\bcode\.interact\(",
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
        none_of(
            call_without(r"\b(?:subprocess|sp)\.run", "check")
            + r"|^(?:subprocess|sp)\.call\("
            # a return code kept and never looked at
            + r"|^(\w+)\s*=\s*(?:subprocess|sp)\.call\((?!(?:[^\n]*\n){0,8}?[^\n]*\b(?:if|assert"
            r"|return|exit|raise)\b[^\n]*\b\1\b)"
        )
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
