"""Known mistakes in SQL and schema migrations: statements that touch every row or drop
data, DDL that locks a busy table or rewrites it (what squawk, sqlfluff and
strong_migrations flag), ``SELECT *`` and migrations run outside a transaction. SQL is read
in ``.sql`` files and in migrations of any framework (the SQL strings they run and their
operations: Alembic ``op.*``, Django ``migrations.*``, Rails ``add_index``...); the few SQL
mistakes an application makes in its queries are read in Python files too. Schema and
query choices that fail later: ``code_sql_schema``."""

from __future__ import annotations

from xdb.engine.known.code_python import call_without, none_of
from xdb.engine.known.pattern import Pattern, pattern

# Where SQL is read: ``.sql`` files and migrations (``code_sql_schema`` reads there too).
SQL_WHERE = "sql role:migration"
# The rest of a statement, up to its end (a semicolon, the end of the string that holds
# it, or of the text), that never says ``stop``: quoted SQL literals are stepped over.
_REST = r"(?:(?!{stop})(?:'[^'\n]*'|[^;\"'`]))*(?:;|\"|'\s*[),]|`|\Z)"
_NO_WHERE = _REST.format(stop=r"\bWHERE\b|\bCURRENT\s+OF\b")
# A column clause that says neither DEFAULT nor GENERATED (a type's parentheses kept whole).
_CLAUSE = r"(?:(?!\bDEFAULT\b|\bGENERATED\b)(?:\([^()\n]*\)|[^,;()\"'])){0,200}"

PATTERNS: list[Pattern] = [
    pattern(
        "sql-delete-without-where",
        "delete without where | delete missing where | delete without a where clause"
        " | deleted every row | deleted all rows | unfiltered delete",
        f"{SQL_WHERE} python",
        rf"(?i)\bDELETE\s+FROM\s+(?:ONLY\s+)?[\w.\"`\[\]]+{_NO_WHERE}|\.objects\.all\(\)\.delete"
        r"\(\)|\bsession\.query\(\s*\w+\s*\)\.delete\(|\b[A-Z]\w*\.query\.delete\(",
        hits=(
            "DELETE FROM audit_log;",
            'cur.execute("DELETE FROM sessions")',
            "delete from public.cart_items\nreturning id;",
            "Order.objects.all().delete()",
            "session.query(Token).delete()",
        ),
        safe=(
            "DELETE FROM sessions WHERE expires_at < now();",
            'cur.execute("DELETE FROM carts WHERE id = %s", (cart_id,))',
            "DELETE FROM orders o\nUSING customers c\nWHERE o.customer_id = c.id AND c.banned;",
            "Order.objects.filter(status='draft').delete()",
        ),
    ),
    pattern(
        "sql-update-without-where",
        "update without where | update missing where | update without a where clause"
        " | updated every row | updated all rows | unfiltered update",
        f"{SQL_WHERE} python",
        rf"(?i)(?<!DO )\bUPDATE\s+(?:ONLY\s+)?[\w.\"`\[\]]+(?:\s+(?:AS\s+)?\w+)?\s+SET\b{_NO_WHERE}"
        r"|\.objects\.(?:all\(\)\.)?update\(|\bsession\.query\(\s*\w+\s*\)\.update\(",
        hits=(
            "UPDATE users SET plan = 'free';",
            "db.execute(\"update orders set status = 'archived'\")",
            "UPDATE accounts a\nSET balance = 0\nRETURNING a.id;",
            "Customer.objects.update(newsletter=False)",
        ),
        safe=(
            "UPDATE users SET plan = 'free' WHERE plan IS NULL;",
            "INSERT INTO stock (sku, qty) VALUES ('a', 1)\nON CONFLICT (sku) DO UPDATE SET qty ="
            " EXCLUDED.qty;",
            'db.execute("UPDATE orders SET status = %s WHERE id = %s", (s, oid))',
            "Customer.objects.filter(pk=pk).update(newsletter=False)",
        ),
    ),
    pattern(
        "sql-truncate",
        "truncate table | truncated the table | truncate wiped | truncate production"
        " | truncate cascade",
        SQL_WHERE,
        r"(?i)(?:^|[;\"'(]\s*)TRUNCATE\s+(?:TABLE\s+)?(?:ONLY\s+)?[\w.\"]+\s*(?:,|;|\bCASCADE\b"
        r"|\bRESTART\b|\bCONTINUE\b|\)|[\"']|$)",
        hits=(
            "TRUNCATE TABLE events;",
            "truncate orders, order_lines cascade;",
            'op.execute("TRUNCATE sessions")',
        ),
        safe=(
            "DELETE FROM events WHERE created_at < now() - interval '90 days';",
            "-- truncate the description to 200 characters\nUPDATE t SET d = left(d, 200)"
            " WHERE length(d) > 200;",
            "SELECT left(body, 100) FROM posts WHERE id = 1;",
        ),
    ),
    pattern(
        "sql-drop-without-if-exists",
        "drop without if exists | drop if exists | idempotent migration | migration rerun"
        " failed | does not exist drop",
        SQL_WHERE,
        r"(?i)\bDROP\s+(?:TABLE|VIEW|MATERIALIZED\s+VIEW|INDEX(?:\s+CONCURRENTLY)?|SEQUENCE|TYPE"
        r"|FUNCTION|SCHEMA|TRIGGER|CONSTRAINT|COLUMN)\s+(?!IF\s+EXISTS\b|CONCURRENTLY\b)",
        hits=(
            "DROP TABLE legacy_orders;",
            "ALTER TABLE users DROP COLUMN middle_name;",
            "drop index concurrently idx_orders_status;",
            "op.execute('DROP VIEW active_users')",
        ),
        safe=(
            "DROP TABLE IF EXISTS legacy_orders;",
            "ALTER TABLE users DROP COLUMN IF EXISTS middle_name;",
            "DROP INDEX CONCURRENTLY IF EXISTS idx_orders_status;",
        ),
    ),
    pattern(
        "sql-destructive-drop",
        "destructive migration | expand contract | dropped column still used | column still"
        " read by | data loss migration | irreversible drop | dropped the column"
        " | dropped column | drop column lost",
        SQL_WHERE,
        r"(?i)\bDROP\s+(?:TABLE|COLUMN|SCHEMA|DATABASE)\b|\bALTER\s+TABLE\s+[\w.\"`]+\s+DROP\s+"
        r"(?!CONSTRAINT\b|INDEX\b|KEY\b|DEFAULT\b|NOT\b|PRIMARY\b|FOREIGN\b|CHECK\b|TRIGGER\b"
        r"|COLUMN\b)[\w\"`]+|\b(?:op|batch|batch_op)\.drop_(?:table|column)\(|\bmigrations\.(?:RemoveField"
        r"|DeleteModel)\(|\b(?:remove_column|drop_table)\s+:",
        hits=(
            "ALTER TABLE orders DROP COLUMN coupon_code;",
            "op.drop_column('users', 'legacy_id')",
            "migrations.RemoveField(model_name='order', name='coupon')",
            "remove_column :users, :nickname",
            "ALTER TABLE orders DROP coupon_code;",
        ),
        safe=(
            "ALTER TABLE orders ADD COLUMN coupon_code text;",
            "ALTER TABLE orders DROP CONSTRAINT orders_coupon_fk;",
            "ALTER TABLE orders ALTER COLUMN note DROP NOT NULL;",
            "op.add_column('users', sa.Column('nick', sa.Text()))",
        ),
    ),
    pattern(
        "sql-index-not-concurrently",
        "create index concurrently | index concurrently | index creation locked | index locked"
        " the table | index blocked writes | add index concurrently | algorithm concurrently",
        SQL_WHERE,
        r"(?i)\b(?:CREATE\s+(?:UNIQUE\s+)?INDEX|DROP\s+INDEX)\b|\b(?:add|remove)_index\b|\bop\."
        r"(?:create|drop)_index\(|\bmigrations\.(?:AddIndex|RemoveIndex)\(",
        none_of(
            r"(?i:\bCREATE\s+(?:UNIQUE\s+)?INDEX\s+(?!CONCURRENTLY\b)(?![^;]{0,1000}\bLOCK\s*=\s*NONE)"
            r"|\bDROP\s+INDEX\s+(?!CONCURRENTLY\b))|\b(?:add|remove)_index\b(?![^\n]{0,300}algorithm:"
            r"\s*:concurrently)|\bmigrations\.(?:AddIndex|RemoveIndex)\(|"
            + call_without(r"\bop\.(?:create|drop)_index", "postgresql_concurrently")
        )
        + r"|(?i:\bCREATE\s+TABLE\b)|\bcreate_table\b|\bop\.create_table\(|\bCreateModel\(",
        hits=(
            "CREATE INDEX idx_orders_customer ON orders (customer_id);",
            "create unique index users_email_key on users (lower(email));",
            "op.create_index('ix_events_ts', 'events', ['ts'])",
            "add_index :orders, :customer_id",
            "migrations.AddIndex(model_name='order', index=models.Index(fields=['status']))",
        ),
        safe=(
            "CREATE INDEX CONCURRENTLY idx_orders_customer ON orders (customer_id);",
            "op.create_index('ix_events_ts', 'events', ['ts'], postgresql_concurrently=True)",
            "add_index :orders, :customer_id, algorithm: :concurrently",
            "CREATE TABLE tags (id bigint PRIMARY KEY, name text);\nCREATE INDEX tags_name ON"
            " tags (name);",
        ),
    ),
    pattern(
        "sql-add-not-null-without-default",
        "not null without default | add column not null | not null column default | nullable"
        " false server_default | non-nullable column existing rows | column contains null"
        " values",
        SQL_WHERE,
        r"(?i)\bADD\s+(?:COLUMN\s+)?(?:IF\s+NOT\s+EXISTS\s+)?(?!CONSTRAINT\b|PRIMARY\b|FOREIGN\b"
        rf"|UNIQUE\b|CHECK\b|INDEX\b|KEY\b)[\"`]?\w+[\"`]?\s+{_CLAUSE}\bNOT\s+NULL\b{_CLAUSE}"
        r"(?:[,;)\"']|$(?!\n\s*DEFAULT\b))|\bop\.add_column\((?:(?!server_default|\bop\.)[\s\S])*?nullable\s*=\s*"
        r"False(?:(?!server_default|\bop\.)[\s\S])*?(?=\bop\.|\Z)|\badd_column\b(?![^\n]{0,300}"
        r"default:)[^\n]{0,300}\bnull:\s*false",
        hits=(
            "ALTER TABLE users ADD COLUMN plan text NOT NULL;",
            "alter table orders add column currency char(3) not null,\nadd column note text;",
            "op.add_column('users', sa.Column('plan', sa.String(20), nullable=False))",
            "add_column :users, :plan, :string, null: false",
        ),
        safe=(
            "ALTER TABLE users ADD COLUMN plan text NOT NULL DEFAULT 'free';",
            "ALTER TABLE users ADD COLUMN nickname text;",
            "op.add_column('users', sa.Column('plan', sa.String(20), nullable=False,"
            " server_default='free'))",
            "ALTER TABLE t ADD CONSTRAINT t_x_nn CHECK (x IS NOT NULL) NOT VALID;",
            "add_column :users, :plan, :string, null: false, default: 'free'",
        ),
    ),
    pattern(
        "sql-volatile-default",
        "volatile default | default gen_random_uuid rewrite | column default rewrote"
        " | table rewrite default | default random() | default clock_timestamp",
        SQL_WHERE,
        r"(?i)\bADD\s+(?:COLUMN\s+)?[^;]{0,1000}?\bDEFAULT\s+[^;,\n]{0,80}?\b(?:gen_random_uuid|uuid_generate_v"
        r"[1-4]\w*|random|clock_timestamp|timeofday|nextval)\s*\(|\bop\.add_column\([^\n]{0,300}"
        r"server_default\s*=\s*(?:sa\.)?text\(\s*[\"'](?:gen_random_uuid|uuid_generate_v4"
        r"|random|clock_timestamp)\(",
        hits=(
            "ALTER TABLE orders ADD COLUMN public_id uuid DEFAULT gen_random_uuid();",
            "alter table events add column jitter float8 not null default random();",
            "op.add_column('t', sa.Column('uid', UUID, server_default=sa.text('gen_random_uuid()"
            "')))",
        ),
        safe=(
            "ALTER TABLE orders ADD COLUMN created_at timestamptz NOT NULL DEFAULT now();",
            "CREATE TABLE t (id uuid PRIMARY KEY DEFAULT gen_random_uuid());",
            "ALTER TABLE orders ADD COLUMN public_id uuid;",
        ),
    ),
    pattern(
        "sql-rename-in-place",
        "renamed column migration | rename column migration | renamed table migration"
        " | rename table migration | renaming a column broke | column rename deploy",
        SQL_WHERE,
        r"(?i)\bALTER\s+TABLE\b[^;]{0,1000}?\bRENAME\s+(?:COLUMN\s+)?(?!CONSTRAINT\b|INDEX\b|TO\b)"
        r"[\"`]?\w+[\"`]?\s+TO\b|\bALTER\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:ONLY\s+)?[\w.\"`]+\s+"
        r"RENAME\s+TO\b|\bRENAME\s+TABLE\b|\bsp_rename\b|\b(?:rename_column|rename_table)\b"
        r"|\bop\.rename_table\(|\bop\.alter_column\((?:[^()]|\([^()]*\))*\bnew_column_name\s*="
        r"|\bmigrations\.(?:RenameField|RenameModel)\(",
        hits=(
            "ALTER TABLE users RENAME COLUMN fullname TO display_name;",
            "alter table orders rename to purchases;",
            "op.alter_column('users', 'fullname', new_column_name='display_name')",
            "rename_column :users, :fullname, :display_name",
            "migrations.RenameField(model_name='user', old_name='fullname', new_name='name')",
        ),
        safe=(
            "ALTER TABLE users ADD COLUMN display_name text;",
            "ALTER TABLE users RENAME CONSTRAINT users_pk TO users_pkey;",
            "ALTER INDEX idx_a RENAME TO idx_b;",
        ),
    ),
    pattern(
        "sql-change-column-type",
        "column type change | changed the column type | alter column type | change column"
        " type | int to bigint | type change rewrote | change_column rewrote",
        SQL_WHERE,
        r"(?i)\bALTER\s+TABLE\b[^;]{0,1000}?\bALTER\s+(?:COLUMN\s+)?[\"`]?\w+[\"`]?\s+(?:SET\s+DATA\s+)?"
        r"TYPE\b|\bALTER\s+TABLE\b[^;]{0,1000}?\bMODIFY\s+(?:COLUMN\s+)?[\"`]?\w+[\"`]?\s+\w+"
        r"|\bchange_column\s+:|\bop\.alter_column\((?:[^()]|\([^()]*\))*\btype_\s*="
        # (Django's AlterField to a field of another storage type; not a choices or label edit)
        r"|\bmigrations\.AlterField\((?:[^()]|\([^()]*\))*?\bfield\s*=\s*models\.(?:Big\w*|Small\w*"
        r"|Positive\w*|Integer|Decimal|Float|Text|UUID|JSON|Binary|Date|DateTime|Duration)Field\(",
        hits=(
            "ALTER TABLE events ALTER COLUMN id TYPE bigint;",
            "alter table orders alter column total set data type numeric(12,2);",
            "ALTER TABLE users MODIFY COLUMN bio TEXT;",
            "op.alter_column('events', 'id', type_=sa.BigInteger())",
            "change_column :orders, :total, :decimal",
        ),
        safe=(
            "ALTER TABLE events ADD COLUMN id_new bigint;",
            "ALTER TABLE orders ALTER COLUMN note SET DEFAULT '';",
            "change_column_default :orders, :note, ''",
        ),
    ),
    pattern(
        "sql-set-not-null",
        "set not null scan | set not null lock | alter column set not null | change_column"
        "_null | not null constraint full table scan"
        " | non-nullable blocked writes | making column non-nullable",
        SQL_WHERE,
        r"(?i)\bALTER\s+(?:COLUMN\s+)?(?!TABLE\b)[\"`]?\w+[\"`]?\s+SET\s+NOT\s+NULL\b"
        r"|\bchange_column_null\s+:\w+\s*,\s*:\w+\s*,\s*false|\bop\.alter_column\((?:[^()]"
        r"|\([^()]*\))*\bnullable\s*=\s*False",
        r"(?i)\bVALIDATE\s+CONSTRAINT\b",
        hits=(
            "ALTER TABLE orders ALTER COLUMN customer_id SET NOT NULL;",
            "op.alter_column('orders', 'customer_id', nullable=False)",
            "change_column_null :orders, :customer_id, false",
        ),
        safe=(
            "ALTER TABLE orders ADD CONSTRAINT c_nn CHECK (customer_id IS NOT NULL) NOT VALID;\n"
            "ALTER TABLE orders VALIDATE CONSTRAINT c_nn;\nALTER TABLE orders ALTER COLUMN"
            " customer_id SET NOT NULL;",
            "ALTER TABLE orders ALTER COLUMN customer_id DROP NOT NULL;",
            "op.alter_column('orders', 'customer_id', nullable=True)",
        ),
    ),
    pattern(
        "sql-constraint-not-valid",
        "not valid constraint | validate constraint separately | constraint not valid"
        " | adding a foreign key locked | add foreign key lock | check constraint locked",
        SQL_WHERE,
        r"(?i)\bADD\s+(?:CONSTRAINT\s+[\"`]?\w+[\"`]?\s+)?(?:FOREIGN\s+KEY|CHECK)\b"
        r"|\bop\.create_(?:foreign_key|check_constraint)\(|^add_(?:foreign_key|check_constraint)\s+:",
        none_of(
            r"^add_(?:foreign_key|check_constraint)\s+:(?![^\n]*\bvalidate:\s*false)|"
            r"(?i:\bADD\s+(?:CONSTRAINT\s+[\"`]?\w+[\"`]?\s+)?(?:FOREIGN\s+KEY|CHECK)\b(?![^;]{0,1000}"
            r"\bNOT\s+VALID\b))|"
            + call_without(r"\bop\.create_(?:foreign_key|check_constraint)", "not_valid")
        ),
        hits=(
            "ALTER TABLE orders ADD CONSTRAINT orders_customer_fk FOREIGN KEY (customer_id)"
            " REFERENCES customers (id);",
            "alter table items add check (qty > 0);",
            "op.create_foreign_key('fk_o_c', 'orders', 'customers', ['customer_id'], ['id'])",
        ),
        safe=(
            "ALTER TABLE orders ADD CONSTRAINT orders_customer_fk FOREIGN KEY (customer_id)"
            " REFERENCES customers (id) NOT VALID;\nALTER TABLE orders VALIDATE CONSTRAINT"
            " orders_customer_fk;",
            "ALTER TABLE items ADD CONSTRAINT qty_pos CHECK (qty > 0) NOT VALID;",
            "ALTER TABLE orders VALIDATE CONSTRAINT orders_customer_fk;",
        ),
    ),
    pattern(
        "sql-lock-timeout",
        "lock_timeout migration | lock_timeout alter table | lock_timeout ddl | access"
        " exclusive lock | migration blocked queries | ddl waited for lock | lock queue alter",
        SQL_WHERE,
        r"(?i)\bALTER\s+TABLE\b|\bop\.(?:add_column|drop_column|alter_column|create_foreign_key"
        r"|create_check_constraint|create_unique_constraint|drop_constraint)\(|\bmigrations\.(?:Add"
        r"Field|AlterField|RemoveField|RenameField|AddConstraint)\(|\b(?:add_column|remove_column"
        r"|change_column|rename_column|add_foreign_key)\s+:",
        r"(?i)\block_(?:wait_)?timeout\b",
        hits=(
            "ALTER TABLE orders ADD COLUMN note text;",
            "alter table users alter column email set not null;",
            "op.execute('ALTER TABLE events ADD COLUMN source text')",
        ),
        safe=(
            "SET lock_timeout = '5s';\nALTER TABLE orders ADD COLUMN note text;",
            "SET SESSION lock_wait_timeout = 5;\nALTER TABLE users ADD COLUMN bio TEXT;",
            "op.execute(\"SET lock_timeout TO '3s'\")\nop.execute('ALTER TABLE t ADD COLUMN c"
            " int')",
        ),
    ),
    pattern(
        "sql-select-star",
        "select star | wildcard select | explicit column list | select all columns | view"
        " select star | columns added broke select",
        SQL_WHERE,
        r"(?i)(?<!EXISTS\s\()(?<!EXISTS\()(?<!EXISTS\s\(\n)(?<!EXISTS\(\n)\bSELECT\s+(?:DISTINCT"
        r"\s+)?(?:\w+\.)?\*\s*(?:\n\s*)?FROM\b",
        hits=(
            "CREATE VIEW active_users AS SELECT * FROM users WHERE active;",
            "INSERT INTO orders_archive SELECT * FROM orders WHERE created_at < '2020-01-01';",
            "select o.*\nfrom orders o join customers c on c.id = o.customer_id;",
        ),
        safe=(
            "CREATE VIEW active_users AS SELECT id, email FROM users WHERE active;",
            "SELECT count(*) FROM orders;",
            "DELETE FROM a WHERE NOT EXISTS (SELECT * FROM b WHERE b.a_id = a.id);",
        ),
    ),
    pattern(
        "sql-migration-without-transaction",
        "migration without transaction | wrap migration in transaction | half-applied"
        " migration | partially applied migration | migration not atomic | begin commit"
        " migration",
        "role:migration",
        r"(?i)\A(?:\s*--[^\n]{0,300}\n)*\s*(?:CREATE|ALTER|DROP|INSERT|UPDATE|DELETE|COMMENT|GRANT)\b"
        r"(?=[^;]{0,1000};[\s\S]*?\b(?:CREATE|ALTER|DROP|INSERT|UPDATE|DELETE)\b[^;]{0,1000};)",
        r"(?i)\b(?:BEGIN|START\s+TRANSACTION|COMMIT)\b|\bCONCURRENTLY\b|--\s*\+goose"
        r"|--\s*migrate:up|--\s*\+migrate",
        hits=(
            "ALTER TABLE orders ADD COLUMN total_cents bigint;\nUPDATE orders SET total_cents ="
            " total * 100;\nALTER TABLE orders DROP COLUMN total;",
            "-- 0042 split names\nCREATE TABLE names (id int);\nINSERT INTO names SELECT id FROM"
            " users;",
            "create table a (id int);\ncreate table b (a_id int references a(id));",
        ),
        safe=(
            "BEGIN;\nALTER TABLE orders ADD COLUMN total_cents bigint;\nUPDATE orders SET"
            " total_cents = total * 100;\nCOMMIT;",
            "ALTER TABLE orders ADD COLUMN note text;",
            "CREATE INDEX CONCURRENTLY a_x ON a (x);\nCREATE INDEX CONCURRENTLY a_y ON a (y);",
            "from alembic import op\ndef upgrade():\nop.execute('ALTER TABLE a ADD b int;')\n"
            "op.execute('ALTER TABLE a ADD c int;')",
        ),
    ),
]
