"""Known mistakes in SQL schemas and queries that fail later: ``GRANT ALL``, plaintext
password columns, ``LIKE`` with a leading wildcard, ``NOT IN`` over a subquery, foreign
keys without an index, ``ON DELETE CASCADE``, timestamps without a time zone and 32-bit
primary keys (what squawk, sqlfluff and reviewers flag). Read where ``code_sql`` reads
SQL; statements and DDL that lock, rewrite or drop: ``code_sql``."""

from __future__ import annotations

from xdb.engine.known.code_python import none_of
from xdb.engine.known.code_sql import SQL_WHERE
from xdb.engine.known.pattern import Pattern, pattern

PATTERNS: list[Pattern] = [
    pattern(
        "sql-grant-all",
        "grant all privileges | granted all privileges | least privilege database | granted"
        " to public | superuser role | excessive privileges | with grant option",
        SQL_WHERE,
        r"(?i)\bGRANT\s+ALL\b|\bGRANT\b[^;]{0,1000}\bTO\s+PUBLIC\b|\bGRANT\b[^;]{0,1000}\bON\s+\*\.\*"
        r"|\bWITH\s+GRANT\s+OPTION\b|\b(?:ALTER|CREATE)\s+(?:ROLE|USER)\b[^;]{0,1000}\bSUPERUSER\b",
        hits=(
            "GRANT ALL PRIVILEGES ON DATABASE shop TO app;",
            "grant select on all tables in schema public to public;",
            "GRANT SELECT, INSERT ON *.* TO 'app'@'%';",
            "CREATE ROLE etl LOGIN SUPERUSER PASSWORD 'x';",
        ),
        safe=(
            "GRANT SELECT ON orders TO reporting;",
            "REVOKE ALL ON SCHEMA public FROM PUBLIC;",
            "GRANT USAGE ON SCHEMA app TO app_rw;",
            "ALTER ROLE app NOSUPERUSER;",
        ),
    ),
    pattern(
        "sql-plaintext-password-column",
        "plaintext password column | passwords stored in plain text | stored plaintext"
        " passwords | passwords stored in clear | unhashed password stored | cleartext"
        " password stored",
        SQL_WHERE,
        r"(?i)(?:^|[(,]\s*|\bADD\s+(?:COLUMN\s+)?)[\"`]?(?:password|passwd|pwd|user_password"
        r"|plain_password|password_plain|pass)[\"`]?\s+(?:N?VARCHAR|TEXT|N?CHAR|CHARACTER\s+"
        r"VARYING|STRING|CLOB|CITEXT)\b",
        hits=(
            "CREATE TABLE users (\nid bigint PRIMARY KEY,\nemail text NOT NULL,\npassword"
            " varchar(64) NOT NULL\n);",
            "ALTER TABLE accounts ADD COLUMN passwd text;",
            "create table admins (id int, pass varchar(32));",
        ),
        safe=(
            "CREATE TABLE users (id bigint PRIMARY KEY, password_hash text NOT NULL);",
            "ALTER TABLE users ADD COLUMN password_changed_at timestamptz;",
            "SELECT password_hash FROM users WHERE id = 1;",
        ),
    ),
    pattern(
        "sql-leading-wildcard-like",
        "leading wildcard | like with leading wildcard | leading % like | wildcard like"
        " index | trigram index | like '%term%' full scan | icontains full scan",
        f"{SQL_WHERE} python",
        r"(?i)\bI?LIKE\s+(?:N|E)?'%|\bI?LIKE\s+'%'\s*\|\||\bI?LIKE\s+CONCAT\(\s*'%'|__i?(?:contains"
        r"|endswith)\s*=|\.i?like\(\s*f?[\"']%|\.i?like\(\s*[\"']%[\"']\s*\+|(?i:\bI?LIKE\b)[\s\S]"
        r"{0,300}?(?:\bf[\"']%\{|[\"']%[\"']\s*\+\s*\w)",
        hits=(
            "SELECT id FROM products WHERE name ILIKE '%' || $1 || '%';",
            "where email like '%@acme.com'",
            "Product.objects.filter(name__icontains=q)",
            "stmt = select(User).where(User.name.ilike(f'%{term}%'))",
        ),
        safe=(
            "SELECT id FROM users WHERE email LIKE 'admin@%';",
            "Product.objects.filter(name__istartswith=q)",
            "WHERE to_tsvector('english', body) @@ plainto_tsquery($1)",
        ),
    ),
    pattern(
        "sql-not-in-subquery",
        "not in subquery null | not in with null | not in null | not exists instead of not"
        " in | not in returned no rows",
        f"{SQL_WHERE} python",
        r"(?i)\bNOT\s+IN\s*\(\s*SELECT\b",
        hits=(
            "SELECT id FROM users WHERE id NOT IN (SELECT user_id FROM orders);",
            "delete from tags where id not in (\nselect tag_id from post_tags);",
            "cur.execute('SELECT * FROM a WHERE x NOT IN (SELECT y FROM b)')",
        ),
        safe=(
            "SELECT id FROM users u WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.user_id ="
            " u.id);",
            "SELECT id FROM users WHERE status NOT IN ('banned', 'deleted');",
            "SELECT id FROM users WHERE id IN (SELECT user_id FROM orders);",
        ),
    ),
    pattern(
        "sql-foreign-key-without-index",
        "foreign key index | index the foreign key | unindexed foreign key | missing index"
        " on foreign key | fk without index | foreign key column not indexed",
        SQL_WHERE,
        r"(?i)\bREFERENCES\b|\bForeignKey\(",
        none_of(
            r"(?i:(?:^|[(,])\s*[\"`]?(?!CONSTRAINT\b|FOREIGN\b)(?P<col>\w+)[\"`]?\s+(?:(?!UNIQUE\b|PRIMARY\b)"
            r"\w+(?:\s*\([^)]*\))?\s+)+?REFERENCES\b(?![\s\S]*?\b(?:INDEX|UNIQUE|PRIMARY\s+KEY)\b[^;]{0,1000}?"
            r"\(\s*[\"`]?(?P=col)[\"`]?\s*[,)])|\bFOREIGN\s+KEY\s*\(\s*[\"`]?(?P<fk>\w+)[\"`]?\s*"
            r"\)\s*REFERENCES\b(?![\s\S]*?\b(?:INDEX|UNIQUE|PRIMARY\s+KEY)\b[^;]{0,1000}?\(\s*[\"`]?"
            r"(?P=fk)[\"`]?\s*[,)]))|\bsa\.Column\(\s*[\"'](?P<sa>\w+)[\"'][^\n]{0,300}\bForeignKey\("
            r"(?![^\n]{0,300}\bindex\s*=\s*True)(?![\s\S]*?create_index\([^)]*[\"'](?P=sa)[\"'])"
        ),
        hits=(
            "CREATE TABLE orders (\nid bigint PRIMARY KEY,\ncustomer_id bigint NOT NULL"
            " REFERENCES customers (id)\n);",
            "ALTER TABLE orders ADD CONSTRAINT fk_c FOREIGN KEY (customer_id) REFERENCES"
            " customers (id);",
            "sa.Column('customer_id', sa.BigInteger(), sa.ForeignKey('customers.id')),",
        ),
        safe=(
            "CREATE TABLE orders (\nid bigint PRIMARY KEY,\ncustomer_id bigint NOT NULL"
            " REFERENCES customers (id)\n);\nCREATE INDEX orders_customer_id_idx ON orders"
            " (customer_id);",
            "sa.Column('customer_id', sa.BigInteger(), sa.ForeignKey('customers.id'), index=True),",
            "CREATE TABLE tags (id bigint PRIMARY KEY, name text);",
        ),
    ),
    pattern(
        "sql-on-delete-cascade",
        "on delete cascade | cascade delete | cascading delete | deleted child rows"
        " | cascade wiped | on_delete cascade",
        f"{SQL_WHERE} python",
        r"(?i:\bON\s+DELETE\s+CASCADE\b)|\bon_delete\s*=\s*(?:models\.)?CASCADE\b|\bondelete\s*="
        r"\s*[\"'](?i:CASCADE)[\"']|\bon_delete:\s*:cascade\b",
        hits=(
            "customer_id bigint REFERENCES customers (id) ON DELETE CASCADE",
            "customer = models.ForeignKey(Customer, on_delete=models.CASCADE)",
            "sa.ForeignKey('customers.id', ondelete='CASCADE')",
            "add_foreign_key :orders, :customers, on_delete: :cascade",
        ),
        safe=(
            "customer_id bigint REFERENCES customers (id) ON DELETE RESTRICT",
            "customer = models.ForeignKey(Customer, on_delete=models.PROTECT)",
            "sa.ForeignKey('customers.id', ondelete='SET NULL')",
        ),
    ),
    pattern(
        "sql-timestamp-without-time-zone",
        "timestamp without time zone | use timestamptz | timestamp with time zone | naive"
        " timestamp column | timezone lost timestamp | datetime timezone true",
        SQL_WHERE,
        r"(?i)[\"`\w](?<![Aa][Ss])\s+TIMESTAMP(?:\s*\(\s*\d\s*\))?(?!\s*WITH\s+TIME\s+ZONE)"
        r"(?:\s+WITHOUT\s+TIME\s+ZONE)?(?=\s*(?:[,)]|NOT\b|NULL\b|DEFAULT\b|PRIMARY\b|;|$))"
        r"|\bsa\.(?:DateTime|TIMESTAMP)\((?![^)\n]*timezone\s*=\s*True)[^)\n]*\)"
        r"|\bsa\.(?:DateTime|TIMESTAMP)\b(?!\s*\()",
        hits=(
            "CREATE TABLE events (id bigint, created_at timestamp NOT NULL DEFAULT now());",
            "ALTER TABLE orders ADD COLUMN shipped_at TIMESTAMP WITHOUT TIME ZONE;",
            "sa.Column('created_at', sa.DateTime(), nullable=False)",
            "paid_at timestamp(3),",
        ),
        safe=(
            "CREATE TABLE events (id bigint, created_at timestamptz NOT NULL DEFAULT now());",
            "ALTER TABLE orders ADD COLUMN shipped_at TIMESTAMP WITH TIME ZONE;",
            "sa.Column('created_at', sa.DateTime(timezone=True), nullable=False)",
            "SELECT '2024-01-01'::timestamp, CURRENT_TIMESTAMP;",
        ),
    ),
    pattern(
        "sql-int-primary-key",
        "integer primary key overflow | int primary key ran out | serial overflow | use bigint"
        " primary key | ids exhausted | 32-bit id overflow | integer overflow id"
        " | primary keys bigint | integer id ran out",
        SQL_WHERE,
        r"(?i)\b(?:id|\w+_id)\s+(?:SERIAL|INT|INTEGER|INT4)\b(?:\s+NOT\s+NULL)?(?:\s+GENERATED"
        r"\s+\w+(?:\s+\w+)?\s+AS\s+IDENTITY)?\s+PRIMARY\s+KEY\b|\bSERIAL\s+PRIMARY\s+KEY\b"
        r"|\bINT(?:EGER)?(?:\s+UNSIGNED)?\s+(?:NOT\s+NULL\s+)?AUTO_INCREMENT\b"
        r"|\b(?P<pk>id|\w+_id)\s+(?:SERIAL|SERIAL4|INT|INTEGER|INT4)\b[^;]{0,1000}?\bPRIMARY\s+KEY"
        r"\s*\(\s*(?P=pk)\s*\)|\bsa\.Column\("
        r"\s*[\"']id[\"']\s*,\s*sa\.Integer\b",
        hits=(
            "CREATE TABLE events (id serial PRIMARY KEY, body text);",
            "create table orders (\nid integer generated always as identity primary key\n);",
            "CREATE TABLE logs (id INT NOT NULL AUTO_INCREMENT, PRIMARY KEY (id));",
            "sa.Column('id', sa.Integer(), primary_key=True),",
        ),
        safe=(
            "CREATE TABLE events (id bigserial PRIMARY KEY, body text);",
            "create table orders (id bigint generated always as identity primary key);",
            "sa.Column('id', sa.BigInteger(), primary_key=True),",
        ),
    ),
]
