"""Known mistakes in PHP code (SQL and command injection, unescaped output, ``extract``
and mass assignment of request input, fast password hashes, loose comparison of secrets,
``unserialize``, file inclusion, ``display_errors``): what PHPStan/Psalm taint checks and
semgrep's PHP rules flag, and what agents writing PHP web backends (Laravel, WordPress)
are known to get wrong. Ruby and Rails: ``code_other``."""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

# PHP calls that run SQL (mysqli, PDO, pg, Laravel's query builder and DB facade,
# WordPress's $wpdb).
_PHP_RUNS_SQL = (
    r"(?:\bmysqli?_query|\bpg_query|\bsqlite_query|->(?:query|exec|prepare|raw|select"
    r"|statement|unprepared|whereRaw|selectRaw|orderByRaw|havingRaw|get_results|get_row"
    r"|get_var|get_col)|\bDB::(?:select|statement|raw|unprepared|insert|update|delete))\s*\("
)
# A PHP variable interpolated into a double-quoted string (not WordPress's table names).
_PHP_VAR = r"\{?\$(?!wpdb->|this->table\b)[a-zA-Z_]"
_PHP_SECRET = r"(?i:token|hash|signature|password|passwd|secret|hmac|digest|nonce|csrf|api_?key)"
_PHP_SECRET_NAME = (
    r"(?:\$\w*"
    + _PHP_SECRET
    + r"\w*|\$\w+(?:\[[^\]\n]*\])*\[\s*['\"][^'\"\]\n]*"
    + _PHP_SECRET
    + r"[^'\"\]\n]*['\"]\s*\])(?:\[[^\]\n]*\])*|->(?:header|input|get|query|cookie|post)\(\s*['\"]"
    + r"[^'\"\n]*(?i:signature|token|hmac|secret|api[-_]?key)[^'\"\n]*['\"]\s*\)"
)
_PHP_HASH_CALL = r"\b(?:md5|sha1|hash|hash_hmac|crypt)\s*\((?:[^()\n]|\([^()\n]*\))*\)"
_LOOSE_EQ = r"(?<![=!<>])[!=]=(?!=)"

PATTERNS: list[Pattern] = [
    pattern(
        "php-sql-injection",
        "sql injection | concatenated query | variables concatenated query | prepared"
        " statements | pdo prepare | mysqli prepare | bind_param | query built with string",
        "php",
        _PHP_RUNS_SQL
        + r"(?:\$\w+\s*,\s*)?(?:\"[^\"\n]*"
        + _PHP_VAR
        + r"|(?:\"[^\"\n]*\"|'[^'\n]*')\s*\.\s*\$)"
        r"|\"[^\"\n]*\b(?:SELECT\b[^\"\n]*\bFROM|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM"
        r"|WHERE)\b[^\"\n]*"
        + _PHP_VAR
        + r"|[\"'][^\"'\n]*\b(?i:where|and|or|set)\s+`?[\w.]+`?\s*(?i:=|<>|!=|<=?|>=?|like"
        r"|in\s*\()\s*'?%?\s*[\"']\s*\.\s*\$",
        "",
        hits=(
            "$result = mysqli_query($conn, \"SELECT * FROM users WHERE email = '$email'\");",
            "$rows = $pdo->query('SELECT * FROM orders WHERE id = ' . $_GET['id']);",
            '$sql = "DELETE FROM carts WHERE user_id = {$userId}";',
            "$users = DB::select(\"select * from users where name = '$name'\");",
            '$q->whereRaw("price > $min");',
        ),
        safe=(
            '$stmt = $pdo->prepare("SELECT * FROM users WHERE email = ?");\n'
            "$stmt->execute([$email]);",
            "$users = DB::select('select * from users where id = ?', [$id]);",
            '$sql = "SELECT * FROM $wpdb->posts WHERE ID = %d";',
            "$rows = $pdo->query('SELECT * FROM orders WHERE id = ' . (int) $id);",
            "$user = User::where('email', $email)->first();",
        ),
    ),
    pattern(
        "php-echo-unescaped",
        "without htmlspecialchars | xss echo | echo user input | unescaped output | reflected xss"
        " | blade unescaped output"
        " | blade unescaped | blade escape | echo $_get",
        "php",
        r"^(?![^\n]*(?:htmlspecialchars|htmlentities|strip_tags|intval|\(int\)|filter_var"
        r"|filter_input|json_encode|urlencode|esc_html|esc_attr|esc_url|\be\())[^\n]*"
        r"(?:\becho\b|\bprint\b|<\?=)[^\n]*(?:\$_(?:GET|POST|REQUEST|COOKIE)\b"
        r"|\$_SERVER\[\s*['\"](?:PHP_SELF|REQUEST_URI|QUERY_STRING|HTTP_REFERER"
        r"|HTTP_USER_AGENT))"
        r"|\{!!\s*(?:\$\w+|request\(|old\()"
        # (a variable read from the request, echoed raw further on)
        r"|\$(?P<v>\w+)\s*=\s*\$_(?:GET|POST|REQUEST|COOKIE)\b[^\n]*\n(?:[^\n]*\n){0,20}?[^\n]*"
        r"(?:\becho|\bprint|<\?=)\s+\$(?P=v)\b(?!\s*\))",
        "",
        hits=(
            "echo \"Results for: \" . $_GET['q'];",
            "<?= $_POST['name'] ?>",
            "<form action=\"<?php echo $_SERVER['PHP_SELF']; ?>\">",
            "<div>{!! $comment->body !!}</div>",
        ),
        safe=(
            "echo htmlspecialchars($_GET['q'], ENT_QUOTES, 'UTF-8');",
            "<?= e($name) ?>",
            "<div>{{ $comment->body }}</div>",
            'echo "Saved";',
        ),
    ),
    pattern(
        "php-extract-input",
        "extract($_POST) | extract post | extract request variables | register globals"
        " | parse_str without result | variable overwrite extract",
        "php",
        r"\bextract\s*\(\s*\$(?:_GET|_POST|_REQUEST|_COOKIE|_FILES|_SERVER|request|input)\b"
        r"|\bparse_str\s*\(\s*[^,()]+\)\s*;"
        r"|\bforeach\s*\(\s*\$_(?:GET|POST|REQUEST|COOKIE)\s+as\s+\$(?P<k>\w+)\s*=>\s*\$\w+\s*\)"
        r"[\s\S]{0,300}?\$(?:\$|\{\$)(?P=k)\b",
        "",
        hits=(
            "extract($_POST);",
            "extract($_REQUEST, EXTR_OVERWRITE);",
            "parse_str($_SERVER['QUERY_STRING']);",
        ),
        safe=(
            "$name = $_POST['name'] ?? '';",
            "parse_str($query, $params);",
            "extract($viewData);",
        ),
    ),
    pattern(
        "php-fast-hash-password",
        "md5 password | sha1 password | password hashed md5 | password_hash | passwords"
        " bcrypt | weak password hash | unsalted password hash | password_verify",
        "php",
        r"(?i)\b(?:md5|sha1|crc32)\s*\([^;\n]*pass|\bhash\s*\(\s*['\"](?:md5|sha1|sha256"
        r"|sha512|whirlpool)['\"]\s*,[^;\n]*pass|\$\w*pass\w*\s*=\s*(?:md5|sha1|hash)\s*\(",
        r"\bpassword_(?:hash|verify)\s*\(",
        hits=(
            "$hash = md5($password);",
            "$stored = sha1($salt . $_POST['password']);",
            "$user->password = hash('sha256', $request->password);",
            "$passHash = md5($input);",
        ),
        safe=(
            "$hash = password_hash($password, PASSWORD_DEFAULT);",
            "$etag = md5($content);",
            "$sig = hash_hmac('sha256', $payload, $secret);",
        ),
    ),
    pattern(
        "php-loose-compare-secret",
        "loose comparison hash | magic hash | type juggling | hash_equals | strict"
        " comparison token | timing safe comparison | loose comparison token",
        "php",
        r"(?:"
        + _PHP_SECRET_NAME
        + "|"
        + _PHP_HASH_CALL
        + r")\s*"
        + _LOOSE_EQ
        + r"(?!\s*(?:null|NULL|false|true|FALSE|TRUE)\b|\s*''|\s*\"\")|"
        + _LOOSE_EQ
        + r"\s*(?:"
        + _PHP_SECRET_NAME
        + "|"
        + _PHP_HASH_CALL
        + ")",
        "",
        hits=(
            "if ($token == $_GET['token']) {",
            "if (md5($input) == $storedHash) {",
            "return $signature != hash_hmac('sha256', $body, $secret);",
        ),
        safe=(
            "if (hash_equals($expected, $_GET['token'])) {",
            "if ($token === $expected) {",
            "if ($token == null) {",
        ),
    ),
    pattern(
        "php-unserialize",
        "unserialize | unserialize user input | php object injection | allowed_classes"
        " | insecure deserialization php",
        "php",
        r"\bunserialize\s*\(",
        r"['\"]allowed_classes['\"]\s*=>\s*(?:false|\[)",
        hits=(
            "$cart = unserialize($_COOKIE['cart']);",
            "$prefs = unserialize(base64_decode($request->input('prefs')));",
            "$obj = unserialize($row['payload']);",
        ),
        safe=(
            "$cart = unserialize($data, ['allowed_classes' => false]);",
            "$cart = json_decode($_COOKIE['cart'], true);",
            "$blob = serialize($cart);",
        ),
    ),
    pattern(
        "php-file-inclusion",
        "file inclusion | local file inclusion | include variable | include user input"
        " | require variable path | lfi include | lfi require | require path request input",
        "php",
        r"\b(?:include|require)(?:_once)?\b\s*\(?\s*(?:(?:__DIR__|[\"'][^\"'\n]*[\"'])\s*\.\s*)*"
        r"\$(?:page|template|tpl|view|module|lang|language|theme|section|action|controller"
        r"|inc)\w*\b(?!\[)"
        # (a path from the request; not a lookup in a map of allowed paths)
        r"|\b(?:include|require)(?:_once)?\b(?!\s*\(?\s*\$(?!_)\w+\[)[^;\n]*"
        r"(?:\$_(?:GET|POST|REQUEST|COOKIE)\b"
        r"|\"[^\"\n]*\{?\$(?:page|template|tpl|view|module|lang|theme|section)\w*)",
        r"\bin_array\s*\(|\bbasename\s*\(",
        hits=(
            "include $_GET['page'] . '.php';",
            "include 'pages/' . $page . '.php';",
            'require_once("templates/$template.php");',
            "include($lang . '/messages.php');",
        ),
        safe=(
            "require __DIR__ . '/vendor/autoload.php';",
            "include 'header.php';",
            "$allowed = ['home', 'about'];\nif (in_array($page, $allowed, true)) {\n"
            'include "pages/$page.php";\n}',
        ),
    ),
    pattern(
        "php-display-errors",
        "display_errors | display errors production | errors displayed users | php errors"
        " shown | stack traces shown users"
        " | app_debug production | laravel debug | debug mode production",
        "php ini",
        r"(?i)\bdisplay_errors['\"]?\s*(?:=|,)\s*['\"]?(?:on|1|true|stdout)\b"
        r"|['\"]debug['\"]\s*=>\s*(?:true\b|env\(\s*['\"]APP_DEBUG['\"]\s*,\s*true\s*\))",
        "",
        hits=(
            "ini_set('display_errors', '1');",
            "display_errors = On",
            "'debug' => true,",
        ),
        safe=(
            "ini_set('display_errors', '0');",
            "display_errors = Off\nlog_errors = On",
            "'debug' => (bool) env('APP_DEBUG', false),",
        ),
    ),
    pattern(
        "php-mass-assignment",
        "mass assignment | guarded empty | request all create | fillable guarded | unguarded model"
        " | request input update | define fillable",
        "php",
        r"\bprotected\s+\$guarded\s*=\s*\[\s*\]|\bModel::unguard\s*\(|(?:::|->)(?:create"
        r"|update|fill|forceFill|forceCreate|updateOrCreate|firstOrCreate|insert)\s*\(\s*"
        r"(?:\$request->(?:all|input|except|post)\(|request\(\)->(?:all|except|post)\(|\$_POST\b"
        r"|Input::all\()",
        "",
        hits=(
            "$user = User::create($request->all());",
            "$order->update($request->except('_token'));",
            "protected $guarded = [];",
            "$post->fill($_POST)->save();",
        ),
        safe=(
            "$user = User::create($request->validated());",
            "$order->update($request->only(['notes', 'address']));",
            "protected $fillable = ['name', 'email'];",
        ),
    ),
    pattern(
        "php-command-injection",
        "command injection | shell injection | without escapeshellarg | exec user input"
        " | shell_exec input | system call user input"
        " | escapeshellarg arguments | shell_exec interpolated",
        "php",
        r"(?<!->)(?<!::)\b(?:system|exec|shell_exec|passthru|popen|proc_open|pcntl_exec)\s*\("
        r"[^;\n]*(?:\$_(?:GET|POST|REQUEST|COOKIE)\b|[\"']\s*\.\s*\$\w+|\"[^\"\n]*\{?\$\w+)"
        r"|\b(?:eval|assert)\s*\(\s*\$_(?:GET|POST|REQUEST|COOKIE)\b|`[^`\n]*\$\w+[^`\n]*`",
        r"\bescapeshellarg\s*\(",
        hits=(
            "exec('convert ' . $upload . ' thumb.png');",
            '$out = shell_exec("ping -c 1 $host");',
            "system($_GET['cmd']);",
            "$log = `tail -n 50 $file`;",
        ),
        safe=(
            "exec('convert ' . escapeshellarg($in) . ' ' . escapeshellarg($out));",
            "$process = new Process(['git', 'log', '--oneline']);",
            '$pdo->exec("SET NAMES utf8mb4");',
            "system('php artisan queue:restart');",
        ),
    ),
]
