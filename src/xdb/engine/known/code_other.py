"""Known mistakes in Ruby, Rails and PHP code (Swift, C, C++, Elixir and Dart:
``code_other_native``): what Brakeman, RuboCop's Security and Rails cops,
strong_migrations, PHPStan/Psalm taint checks and semgrep's PHP rules flag, and what
agents writing web backends in these languages are known to get wrong."""

from __future__ import annotations

from xdb.engine.known.model import Pattern, pattern

# Active Record methods that take a SQL fragment, and the connection's raw SQL methods.
_AR_SQL = (
    r"\.(?:where|not|or|rewhere|order|reorder|group|having|joins|select|pluck|find_by"
    r"|exists\?|update_all|delete_all|destroy_by|delete_by|from|lock|find_by_sql"
    r"|count_by_sql|execute|exec_query|exec_update|exec_delete|exec_insert|select_all"
    r"|select_one|select_value|select_values|select_rows)\b"
)
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
    + r"[^'\"\]\n]*['\"]\s*\])(?:\[[^\]\n]*\])*"
)
_PHP_HASH_CALL = r"\b(?:md5|sha1|hash|hash_hmac|crypt)\s*\((?:[^()\n]|\([^()\n]*\))*\)"
_LOOSE_EQ = r"(?<![=!<>])[!=]=(?!=)"

PATTERNS: list[Pattern] = [
    pattern(
        "rails-sql-interpolation",
        "sql injection | string interpolation sql | interpolated where | where"
        " interpolation | find_by_sql interpolation | sql fragment interpolated"
        " | placeholder conditions | sanitize_sql",
        "ruby",
        _AR_SQL + r"\s*\(?\s*(?:\"[^\"\n]*#\{|%Q?[{(\[][^\n]*#\{|\"[^\"\n]*\"\s*\+\s*\w)"
        r"|\b(?:find_by_sql|execute|exec_query|select_all|select_value|select_rows|where)"
        r"\s*\(?\s*<<[~-]?(\w+)[\s\S]*?#\{[\s\S]*?^\1$"
        r"|\bArel\.sql\s*\(\s*\"[^\"\n]*#\{",
        "",
        hits=(
            "User.where(\"email = '#{params[:email]}'\")",
            'Order.where("status = #{status} AND total > #{min}").to_a',
            'Post.order("#{params[:sort]} #{params[:dir]}")',
            'ActiveRecord::Base.connection.execute("DELETE FROM sessions WHERE user_id ='
            ' #{user.id}")',
            "rows = Report.find_by_sql(<<~SQL)\nSELECT * FROM reports\n"
            "WHERE owner_id = #{current_user.id}\nSQL",
        ),
        safe=(
            'User.where("email = ?", params[:email])',
            "User.where(email: params[:email]).first",
            'Order.where("created_at > :since", since: 1.day.ago)',
            'Report.find_by_sql(["SELECT * FROM reports WHERE owner_id = ?", user.id])',
            'Rails.logger.info("found #{rows.size} rows where needed")',
        ),
    ),
    pattern(
        "rails-permit-all",
        "permit bang | params permit all | mass assignment | permitted all parameters"
        " | strong parameters | to_unsafe_h | unpermitted params",
        "ruby",
        r"\.permit!|\bto_unsafe_h(?:ash)?\b|\bpermit_all_parameters\s*=\s*true",
        "",
        hits=(
            "User.create(params.require(:user).permit!)",
            "@order.update(params[:order].permit!)",
            "Account.new(params.to_unsafe_h)",
            "ActionController::Parameters.permit_all_parameters = true",
        ),
        safe=(
            "params.require(:user).permit(:name, :email)",
            "@order.update(order_params)",
            "params.expect(post: [:title, :body])",
        ),
    ),
    pattern(
        "rb-rescue-exception",
        "rescue exception | rescuing exception | rescue standarderror | rescue exception"
        " interrupt | rescue signalexception",
        "ruby",
        r"\brescue\s+(?:[\w:]+\s*,\s*)*(?:::)?Exception\b(?!::)",
        "",
        hits=(
            "rescue Exception => e\nlogger.error(e.message)",
            "rescue ::Exception\nretry",
            "rescue Timeout::Error, Exception => err",
        ),
        safe=(
            "rescue StandardError => e\nlogger.error(e.message)",
            "rescue ActiveRecord::RecordNotFound\nhead :not_found",
            "rescue => e\nraise",
        ),
    ),
    pattern(
        "rb-rescue-swallow",
        "rescue nil | swallowed exception | swallow exceptions | empty rescue | exception"
        " silently ignored | rescue modifier | exceptions silently swallowed",
        "ruby",
        r"\S[ \t]+rescue\s+nil\b"
        r"|^(?!#)[^\n]*[^\s;][ \t]+rescue[ \t]+(?:false|true|-?\d[\d.]*|\"[^\"\n]*\"|'[^'\n]*'"
        r"|\[\]|\{\}|:\w+)[ \t]*$"
        r"|^rescue\b[^\n]*\n(?:#[^\n]*\n)*(?:nil\n)?(?:end|ensure)\b"
        r"|\brescue\s*(?:=>\s*\w+\s*)?;\s*(?:nil\s*;\s*)?end\b",
        "",
        hits=(
            "data = JSON.parse(body) rescue nil",
            "begin\nnotifier.deliver(order)\nrescue => e\nend",
            "begin\ncache.write(key, value)\nrescue StandardError\n# ignore\nnil\nend",
            "begin; File.delete(tmp); rescue; end",
        ),
        safe=(
            "begin\nnotifier.deliver(order)\nrescue Net::OpenTimeout => e\n"
            "Rails.logger.warn(e)\nraise\nend",
            "data = JSON.parse(body)\nrescue JSON::ParserError\nhead :bad_request",
            "value = cache.fetch(key) || default",
        ),
    ),
    pattern(
        "rails-skip-callbacks",
        "update_all callbacks | skipped callbacks | skips callbacks | bypass validations"
        " | skip validations | update_column callbacks | delete_all callbacks | validate"
        " false",
        "ruby",
        r"\.(?:update_all|delete_all|update_column|update_columns|insert_all!?|upsert_all"
        r"|touch_all|update_attribute)\b|\.save!?\s*\(\s*validate:\s*false",
        "",
        hits=(
            'Order.where(state: "pending").update_all(state: "cancelled")',
            "user.update_column(:email, new_email)",
            "account.save(validate: false)",
            "Session.where(user_id: user.id).delete_all",
        ),
        safe=(
            'order.update!(state: "cancelled")',
            "Session.where(user_id: user.id).destroy_all",
            "has_many :sessions, dependent: :delete_all",
        ),
    ),
    pattern(
        "rails-default-scope",
        "default_scope | default scope | default scope surprising | default scope unscoped",
        "ruby",
        r"^default_scope\b|^def\s+self\.default_scope\b",
        "",
        hits=(
            "default_scope { where(deleted_at: nil) }",
            "default_scope -> { order(position: :asc) }",
            "default_scope { where(tenant_id: Current.tenant_id) }",
        ),
        safe=(
            "scope :active, -> { where(deleted_at: nil) }",
            "Post.unscoped.find(id)",
            "scope :ordered, -> { order(:position) }",
        ),
    ),
    pattern(
        "rb-dynamic-dispatch-input",
        "constantize params | send params | public_send user input | constantize user input"
        " | eval user input | dynamic method call input | remote code execution ruby",
        "ruby",
        r"\b(?:eval|instance_eval|class_eval|module_eval|send|public_send|__send__|constantize"
        r"|safe_constantize|const_get|instance_variable_get|instance_variable_set)\b[^\n]*"
        r"\b(?:params|cookies|request\.(?:params|query_parameters|request_parameters|headers"
        r"|body))\b"
        r"|\b(?:params|cookies)\[[^\]\n]+\](?:\.\w+)*\.(?:safe_)?constantize\b"
        r"|#\{[^}\n]{0,120}\bparams\b[^}\n]{0,120}\}[^\"\n]{0,120}\"\.(?:safe_)?constantize\b",
        r"\binclude\?\s*\(\s*params|\b(?:ALLOWED|PERMITTED|WHITELIST|ALLOWLIST)\w*\b",
        hits=(
            "model = params[:type].constantize\nmodel.find(params[:id])",
            "@report.send(params[:format])",
            "Object.const_get(params[:klass]).new",
            'klass = "#{params[:kind].camelize}Exporter".constantize',
        ),
        safe=(
            'EXPORTERS = { "csv" => CsvExporter, "pdf" => PdfExporter }.freeze\n'
            "exporter = EXPORTERS.fetch(params[:kind])",
            "record.public_send(:name)",
            "ALLOWED_SORTS = %w[name created_at].freeze\n"
            "scope.public_send(params[:sort]) if ALLOWED_SORTS.include?(params[:sort])",
        ),
    ),
    pattern(
        "rb-unsafe-yaml-load",
        "yaml.load unsafe | yaml safe_load | marshal.load | unsafe deserialization ruby"
        " | psych load | unsafe_load | yaml load arbitrary objects",
        "ruby",
        r"\b(?:YAML|Psych)\.(?:unsafe_)?load\b(?!_)|\bMarshal\.load\s*\(",
        "",
        hits=(
            "settings = YAML.load(params[:config])",
            "obj = Marshal.load(Base64.decode64(cookies[:cart]))",
            "data = Psych.unsafe_load(File.read(path))",
        ),
        safe=(
            "settings = YAML.safe_load(params[:config], permitted_classes: [Date])",
            'config = YAML.load_file(Rails.root.join("config/app.yml"))',
            "payload = JSON.parse(body)",
        ),
    ),
    pattern(
        "rails-html-safe",
        "html_safe | raw helper | xss html_safe | unescaped output rails | html_safe user"
        " input | sanitize instead html_safe"
        " | raw view html | rails escape output | raw params view",
        "ruby",
        r"(?:\"[^\"\n]*#\{[^\"\n]*\"|(?<![\"'\w])[a-z_@][\w.@\[\]:]*)\.html_safe\b"
        r"|\braw\s*\(\s*(?![\"'])[@\w]|\braw\s+(?:params|@)\w*",
        "",
        hits=(
            "@comment.body.html_safe",
            "\"<span class='name'>#{user.name}</span>\".html_safe",
            "raw(params[:message])",
            "content = params[:bio].html_safe",
        ),
        safe=(
            "sanitize(@comment.body)",
            'safe_join([tag.b(user.name), " joined"])',
            '"<br>".html_safe',
            'content_tag(:span, user.name, class: "name")',
        ),
    ),
    pattern(
        "rails-csrf-skipped",
        "verify_authenticity_token | csrf disabled | disabled csrf | csrf protection off"
        " | skip_forgery_protection | authenticity token skipped | csrf protection disabled",
        "ruby",
        r"\bskip_before_action\s+:verify_authenticity_token\b|\bskip_forgery_protection\b"
        r"|\ballow_forgery_protection\s*=\s*false\b|\bprotect_from_forgery\b[^\n]*\bexcept:",
        "",
        hits=(
            "skip_before_action :verify_authenticity_token",
            "skip_before_action :verify_authenticity_token, only: [:create]",
            "skip_forgery_protection",
            "config.action_controller.allow_forgery_protection = false",
        ),
        safe=(
            "protect_from_forgery with: :exception",
            "skip_before_action :authenticate_user!, only: [:show]",
            "class Api::BaseController < ActionController::API",
        ),
    ),
    pattern(
        "rails-remove-column",
        "remove_column | removed column | drop column migration | ignored_columns"
        " | column still referenced | dropped column running code",
        "ruby",
        r"\bremove_columns?\s*\(?\s*:|\bt\.remove\s+:",
        r"\bsafety_assured\b|\bignored_columns\b",
        hits=(
            "def change\nremove_column :users, :legacy_token, :string\nend",
            "remove_columns :orders, :coupon_code, :coupon_amount",
            "change_table :accounts do |t|\nt.remove :nickname\nend",
        ),
        safe=(
            "safety_assured { remove_column :users, :legacy_token }",
            'self.ignored_columns += ["legacy_token"]',
            "add_column :users, :nickname, :string",
        ),
    ),
    pattern(
        "rails-rename-column",
        "rename_column | rename column migration | renamed column | rename_table | renamed"
        " table migration",
        "ruby",
        r"\brename_(?:column|table)\s*\(?\s*[:\"']|\bt\.rename\s+:",
        r"\bsafety_assured\b",
        hits=(
            "rename_column :users, :name, :full_name",
            "def change\nrename_table :line_items, :order_items\nend",
            "rename_column(:orders, :total, :total_cents)",
        ),
        safe=(
            "add_column :users, :full_name, :string",
            "safety_assured { rename_column :users, :name, :full_name }",
            "alias_attribute :full_name, :name",
        ),
    ),
    pattern(
        "rails-add-index-not-concurrently",
        "add_index concurrently | index concurrently | algorithm concurrently | index locked"
        " table | create index concurrently | disable_ddl_transaction | index without"
        " concurrently",
        "ruby",
        r"\badd_index\s*\(?\s*:|\badd_reference\s*\(?\s*:(?![^\n]*\bindex:\s*false)",
        r"\balgorithm:\s*:concurrently\b|\bcreate_table\b",
        hits=(
            "def change\nadd_index :orders, :customer_id\nend",
            "add_index :events, [:account_id, :created_at], unique: true",
            "add_reference :payments, :invoice, foreign_key: true",
        ),
        safe=(
            "disable_ddl_transaction!\n\ndef change\nadd_index :orders, :customer_id,"
            " algorithm: :concurrently\nend",
            "create_table :tags do |t|\nt.string :name\nt.index :name, unique: true\nend",
            "add_reference :payments, :invoice, index: false",
        ),
    ),
    pattern(
        "rails-change-column",
        "change_column | change column type | column type change locked | table rewrite"
        " migration | altered column type",
        "ruby",
        r"\bchange_column\s*\(?\s*:|\bt\.change\s+:",
        r"\bsafety_assured\b",
        hits=(
            "change_column :orders, :total, :decimal, precision: 12, scale: 2",
            "def up\nchange_column :users, :bio, :text\nend",
            "change_column(:events, :payload, :jsonb)",
        ),
        safe=(
            'change_column_default :orders, :status, from: nil, to: "new"',
            "change_column_null :users, :email, false",
            "add_column :orders, :total_cents, :bigint",
        ),
    ),
    pattern(
        "rb-command-injection",
        "command injection | shell injection | system interpolation | backticks"
        " interpolation | kernel open | shell command interpolated",
        "ruby",
        r"\b(?:system|exec|spawn|IO\.popen|Open3\.\w+|Kernel\.open)\s*\(?\s*\"[^\"\n]*#\{"
        r"|`[^`\n]*#\{|%x[{(\[][^\n]*#\{|\bopen\s*\(\s*(?:params\b|\"\|)",
        "",
        hits=(
            'system("convert #{upload.path} -resize 200x200 #{thumb}")',
            "output = `git log --author=#{params[:author]}`",
            'IO.popen("grep #{term} /var/log/app.log").read',
            "data = open(params[:url]).read",
        ),
        safe=(
            'system("convert", upload.path, "-resize", "200x200", thumb)',
            'stdout, status = Open3.capture2("git", "log", "--author", author)',
            'system("bundle exec rake assets:precompile")',
        ),
    ),
    pattern(
        "php-sql-injection",
        "sql injection | concatenated query | variables concatenated query | prepared"
        " statements | pdo prepare | mysqli prepare | bind_param | query built with string",
        "php",
        _PHP_RUNS_SQL
        + r"(?:\$\w+\s*,\s*)?(?:\"[^\"\n]*"
        + _PHP_VAR
        + r"|[\"'][^\"'\n]*[\"']\s*\.\s*\$)"
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
        r"|\{!!\s*(?:\$\w+|request\(|old\()",
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
        " | require variable path | lfi include",
        "php",
        r"\b(?:include|require)(?:_once)?\b\s*\(?\s*(?:[\"'][^\"'\n]*[\"']\s*\.\s*)?"
        r"\$(?:page|template|tpl|view|module|lang|language|theme|section|action|controller"
        r"|inc)\w*\b"
        r"|\b(?:include|require)(?:_once)?\b[^;\n]*(?:\$_(?:GET|POST|REQUEST|COOKIE)\b"
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
        "mass assignment | guarded empty | request all create | fillable guarded | unguarded model",
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
