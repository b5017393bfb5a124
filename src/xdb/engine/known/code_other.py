"""Known mistakes in Ruby and Rails code (PHP: ``code_other_php``; Swift, C, C++, Elixir
and Dart: ``code_other_native``): what Brakeman, RuboCop's Security and Rails cops and
strong_migrations flag, and what agents writing Rails backends are known to get wrong."""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

# Active Record methods that take a SQL fragment, and the connection's raw SQL methods.
_AR_SQL = (
    r"\.(?:where|not|or|rewhere|order|reorder|group|having|joins|select|pluck|find_by"
    r"|exists\?|update_all|delete_all|destroy_by|delete_by|from|lock|find_by_sql"
    r"|count_by_sql|execute|exec_query|exec_update|exec_delete|exec_insert|select_all"
    r"|select_one|select_value|select_values|select_rows)\b"
)

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
        " | strong parameters | to_unsafe_h | unpermitted params | permit every attribute",
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
        "constantize params | send params method | public_send params | public_send user input"
        " | constantize user input"
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
        "change_column migration | change column type | column type change locked | table rewrite"
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
        " interpolation | kernel open | shell command interpolated | shell command built string",
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
]
