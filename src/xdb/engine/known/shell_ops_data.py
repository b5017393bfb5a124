"""Known mistakes of data and access command lines: database CLIs (DELETE and UPDATE
without WHERE, DROP, TRUNCATE, FLUSHALL, KEYS *, MongoDB drops and empty-filter deletes,
mysqldump locking a live database, pg_restore --clean, passwords on the command line,
psql going on after an error, framework resets of a database), gh (repositories deleted
or made public, --admin merges) and openssl's weak keys and key derivation.

curl -k, ssh without host key checking and curl | sh are ``shell_vcs_files_sys``'s.
"""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern
from xdb.engine.known.shell_ops import B, S

# A table's name: plain, schema-qualified, or quoted as PostgreSQL, MySQL or SQL Server do.
# A line that runs SQL, not one that searches for it or quotes it in a commit message.
NOT_SEARCH = r"^(?![^\n]*\b(?:grep|rg|ag|ack|git\s+(?:log|grep|commit))\b)[^\n]*?"
TABLE = r"(?:\"[^\"\s]+\"|`[^`\s]+`|\[[^\]\s]+\]|[\w.]+)(?:\.(?:\"[^\"\s]+\"|\w+))?"

PATTERNS: list[Pattern] = [
    # ---------------------------------------------------------- database CLIs
    pattern(
        "db-cli-delete-no-where",
        "delete without where | missing where clause | delete from without where"
        " | deleted every row | deleted all rows",
        "shell",
        r"(?i)" + NOT_SEARCH + r"\bdelete\s+from\s+" + TABLE + r"\s*(?:;|[\"']|\Z)",
        hits=(
            'psql "$DATABASE_URL" -c "DELETE FROM sessions"',
            "mysql -u app -p shop -e 'delete from cart_items;'",
            "sqlite3 app.db 'DELETE FROM users'",
            "psql -d shop <<'SQL'\nDELETE FROM public.orders;\nSQL",
        ),
        safe=(
            'psql "$DATABASE_URL" -c "DELETE FROM sessions WHERE expires_at < now()"',
            "mysql shop -e 'DELETE FROM cart_items WHERE cart_id = 42;'",
            "psql -c 'SELECT count(*) FROM sessions'",
            "psql -d shop <<'SQL'\nDELETE FROM \"orders\"\nWHERE id = 7;\nSQL",
            "grep -rn 'DELETE FROM sessions;' src/",
        ),
    ),
    pattern(
        "db-cli-update-no-where",
        "update without where | missing where clause | updated every row | updated all rows"
        " | update set without where",
        "shell",
        r"(?i)"
        + NOT_SEARCH
        + r"\bupdate\s+"
        + TABLE
        + r"\s+set\s(?:(?!\bwhere\b)[^;])*?(?:;|\Z|[\"']"
        r"(?=\s*(?:&&|\|\||[;|)]|\Z)|\s+(?!where\b)[\w$-]))",
        hits=(
            'psql -c "UPDATE users SET is_admin = true"',
            "mysql shop -e 'update orders set status=\"cancelled\";'",
            'sqlite3 app.db "UPDATE accounts SET balance = 0" && echo done',
            "psql -d shop <<'SQL'\nUPDATE public.products SET price = price * 1.1;\nSQL",
            "mysql -e \"UPDATE t SET a='b'\" shop",
        ),
        safe=(
            'psql -c "UPDATE users SET is_admin = true WHERE id = 42"',
            "mysql shop -e \"UPDATE orders SET status='cancelled' WHERE id = 7;\"",
            "psql -d shop <<'SQL'\nUPDATE products SET price = 10\nWHERE sku = 'A-1';\nSQL",
            "sudo apt-get update && sudo apt-get install -y postgresql-client",
            'psql -c "INSERT INTO t (id) VALUES (1) ON CONFLICT (id) DO UPDATE SET n = 2"',
        ),
    ),
    pattern(
        "db-cli-drop",
        "drop table | dropped table | drop database | dropped database | dropdb | drop schema",
        "shell",
        r"(?i)"
        + NOT_SEARCH
        + r"\bdrop\s+(?:table|database|schema|keyspace)\b|"
        + B
        + r"dropdb\s|"
        + B
        + r"mysqladmin\b"
        + S
        + r"*\sdrop\s",
        hits=(
            "psql -c 'DROP TABLE orders'",
            'mysql -e "drop database shop"',
            "dropdb -h db.acme.internal shop",
            "mysqladmin -u root -p drop shop_test",
            "psql -d shop -c 'DROP SCHEMA analytics CASCADE'",
        ),
        safe=(
            "createdb shop_test",
            "psql -c 'CREATE TABLE IF NOT EXISTS t (id int)'",
            "pg_dump -Fc shop > shop.dump",
            "psql -c 'ALTER TABLE orders DROP CONSTRAINT orders_fk'",
            "mysql -e 'DROP INDEX idx_a ON t'",
            "git log --grep='drop table'",
        ),
    ),
    pattern(
        "db-cli-truncate",
        "truncate table | truncated table | truncate cascade | emptied table"
        " | truncated production table",
        "shell",
        NOT_SEARCH
        + r"(?:\bTRUNCATE\b(?!\s*\()|(?i:\btruncate\s+table\b))|(?i:(?:psql|mysql|mariadb|sqlite3"
        r"|clickhouse-client|cockroach|sqlcmd|duckdb)\b[^\n]*\btruncate\s+(?!-)[\w.\"`]+)",
        hits=(
            "psql -c 'TRUNCATE orders CASCADE'",
            "mysql shop -e 'truncate table sessions'",
            'psql "$DATABASE_URL" -c "truncate events, audit_log"',
            "clickhouse-client --query 'TRUNCATE TABLE logs.events'",
        ),
        safe=(
            "truncate -s 0 logs/app.log",
            "psql -c 'SELECT count(*) FROM sessions'",
            "mysql -e 'SELECT TRUNCATE(price, 2) FROM items'",
            "psql -c 'DELETE FROM sessions WHERE expires_at < now()'",
        ),
    ),
    pattern(
        "db-cli-redis-flush",
        "flushall | flushdb | flushed redis | redis flush | wiped redis cache",
        "shell",
        r"(?i)" + NOT_SEARCH + r"\bflush(?:all|db)\b",
        hits=(
            "redis-cli FLUSHALL",
            "redis-cli -h cache.acme.internal -n 2 flushdb",
            'redis-cli -u "$REDIS_URL" FLUSHALL ASYNC',
            "echo FLUSHDB | redis-cli",
        ),
        safe=(
            "redis-cli -h cache PING",
            "redis-cli --scan --pattern 'session:*' | head",
            "redis-cli DEL session:42",
            "mysql -e 'FLUSH PRIVILEGES'",
            "rg -n FLUSHALL scripts/",
        ),
    ),
    pattern(
        "db-cli-redis-keys",
        "redis keys | keys command blocked redis | scan instead of keys | redis scan"
        " | redis keys pattern",
        "shell",
        r"(?i)redis-cli\b" + S + r"*\skeys\s",
        hits=(
            "redis-cli KEYS '*'",
            "redis-cli -h cache keys 'session:*' | xargs redis-cli del",
            "redis-cli -n 1 --raw keys user:*",
            'redis-cli -u $REDIS_URL KEYS "cart:*"',
        ),
        safe=(
            "redis-cli --scan --pattern 'session:*'",
            "redis-cli SCAN 0 MATCH 'user:*' COUNT 100",
            "redis-cli GET user:42",
            "redis-cli -h cache PING",
        ),
    ),
    pattern(
        "db-cli-mongo-drop",
        "dropDatabase | deleteMany({}) | mongo drop collection | dropped mongo database"
        " | empty filter deletemany",
        "shell",
        NOT_SEARCH + r"(?:\.dropDatabase\(\s*\)|\.(?:deleteMany|remove)\(\s*\{\s*\}\s*\)"
        r"|\bdb\.(?:getCollection\([^)]*\)|\w+)\.drop\(\s*\))",
        hits=(
            "mongosh shop --eval 'db.dropDatabase()'",
            "mongosh \"$MONGO_URL\" --eval 'db.sessions.deleteMany({})'",
            "mongo shop --eval \"db.getCollection('events').drop()\"",
            "mongosh --eval 'db.users.remove({})'",
        ),
        safe=(
            "mongosh shop --eval 'db.sessions.deleteMany({ expiresAt: { $lt: new Date() } })'",
            "mongosh shop --eval 'db.users.countDocuments()'",
            'mongodump --uri "$MONGO_URL" --out backup/',
            "mongosh --eval 'db.users.find({}).limit(5)'",
        ),
    ),
    pattern(
        "db-cli-mysqldump-lock",
        "mysqldump lock | mysqldump single transaction | mysqldump locked tables"
        " | dump locked tables | lock tables during dump"
        " | mysql dump blocked | mysql dump locked | dump with single-transaction",
        "shell",
        B + r"(?:mysqldump|mariadb-dump)\b",
        r"--single-transaction\b(?!=false)",
        hits=(
            "mysqldump -u root -p shop > shop.sql",
            "mysqldump --all-databases -h db.acme.internal | gzip > all.sql.gz",
            "mariadb-dump shop orders > orders.sql",
            "docker exec db mysqldump -uroot shop > dump.sql",
        ),
        safe=(
            "mysqldump --single-transaction --quick -u root -p shop > shop.sql",
            "mysql -u root -p shop < shop.sql",
            "pg_dump -Fc shop > shop.dump",
        ),
    ),
    pattern(
        "db-cli-pg-restore-clean",
        "pg_restore --clean | pg restore clean | restore wrong database | pg_restore dropped"
        " | restored over production"
        " | restore with clean | restoring with -c | restore clean wiped",
        "shell",
        B + r"pg_restore\b" + S + r"*\s(?:--clean\b|-c(?=\s|$)|-[1eOvxCjsa]*c[1eOvxCjsa]*(?=\s|$))",
        hits=(
            "pg_restore --clean -d shop shop.dump",
            'pg_restore -c -d "$PROD_URL" backup.dump',
            "pg_restore -cC -d postgres shop.dump",
            "pg_restore -h db.acme.internal -U app --clean --if-exists -d shop latest.dump",
        ),
        safe=(
            "pg_restore -d shop_restore shop.dump",
            "pg_restore -l shop.dump",
            "pg_restore -Fc -d shop_copy shop.dump",
            "pg_dump -Fc -c shop > shop.dump",
        ),
    ),
    pattern(
        "db-cli-password-cli",
        "password on command line | password in shell history | mysql -p password | pgpassword"
        " | password visible in ps | database password in url",
        "shell",
        B
        + r"(?:mysql|mysqldump|mysqladmin|mysqlimport|mariadb|mariadb-dump)\b"
        + S
        + r"*\s(?:-p(?![\s)]|[\"']+(?:\s|$|[;&|)]))[^\s;&|]+|--password=[^\s;&|]+)"
        r"|\bPGPASSWORD=(?![\"']?\$)[\"']?[^\s\"'$]|"
        + B
        + r"(?:psql|pg_dump|pg_dumpall|pg_restore|mongosh|mongo|mongodump|mongorestore|redis-cli)"
        r"\b"
        + S
        + r"*://[^\s:/@\"']+:(?![\"']?\$)[^\s@/\"'$]+@|"
        + B
        + r"redis-cli\b"
        + S
        + r"*\s(?:-a|--pass)[=\s]+\S|"
        + B
        + r"(?:mongosh|mongo|mongodump|mongorestore|mongoimport|mongoexport)\b"
        + S
        + r"*\s(?:-p|--password)[=\s]+(?![\"']?\$)[^\s;&|-]",
        hits=(
            "mysql -u root -pS3cret shop",
            "mysqldump --password=hunter2 -u app shop > shop.sql",
            "PGPASSWORD=hunter2 psql -h db -U app shop",
            "psql postgresql://app:hunter2@db.acme.internal:5432/shop",
            "redis-cli -a s3cret -h cache",
        ),
        safe=(
            "mysql -u root -p shop",
            "mysql --login-path=prod shop",
            "psql \"$DATABASE_URL\" -c 'select 1'",
            'PGPASSWORD="$DB_PASSWORD" psql -h db -U app shop',
            "mysql -P 3307 -h db shop",
            "psql postgresql://app@db.acme.internal:5432/shop",
        ),
    ),
    pattern(
        "db-cli-psql-no-on-error-stop",
        "on_error_stop psql | psql continued after error | psql errors ignored"
        " | psql script kept going | psql partial migration"
        " | sql script kept going | on_error_stop single-transaction"
        " | failed statement kept going",
        "shell",
        B + r"psql\b" + S + r"*(?:\s(?:-f|--file)(?:[=\s]+|(?=\S))[^\s;&|]+"
        r"|\s<\s*[^\s;&|<]+\.sql\b)"
        # a script piped in: cat migrations/*.sql | psql, zcat dump.sql.gz | psql
        r"|\b(?:cat|zcat|xzcat|bzcat|zstdcat|gunzip|gzip|xz)\s"
        + S
        + r"*\.sql\b"
        + S
        + r"*\|"
        + S
        + r"*?"
        + B
        + r"psql\b",
        r"(?i)ON_ERROR_STOP|\s(?:-1|--single-transaction)\b",
        hits=(
            "psql -d shop -f migrations/0042_add_index.sql",
            'psql "$DATABASE_URL" < schema.sql',
            "psql -h db -U app shop --file=seed.sql",
            "docker exec -i db psql -U app shop < dump.sql",
        ),
        safe=(
            "psql -v ON_ERROR_STOP=1 -d shop -f migrations/0042_add_index.sql",
            'psql "$DATABASE_URL" --single-transaction -f schema.sql',
            "psql -c 'select 1'",
            "psql -X -v ON_ERROR_STOP=on < schema.sql",
        ),
    ),
    pattern(
        "db-cli-framework-reset",
        "prisma migrate reset | migrate reset | db:reset | db:drop | reset the database"
        " | wiped dev database | manage.py flush | accept-data-loss | migrate:fresh",
        "shell",
        B
        + r"(?:prisma\s+(?:migrate\s+reset\b|db\s+push\b"
        + S
        + r"*--(?:accept-data-loss|force-reset)\b)"
        r"|(?:(?:\./)?bin/)?(?:rails|rake)\s+db:(?:drop|reset|purge|schema:load)\b"
        r"|manage\.py\s+(?:flush|reset_db)\b|sequelize(?:-cli)?\s+db:(?:drop|migrate:undo:all)\b"
        r"|knex\s+migrate:rollback\b" + S + r"*--all\b"
        r"|artisan\s+(?:migrate:(?:fresh|reset|refresh)|db:wipe)\b"
        r"|drizzle-kit\s+(?:drop\b|push\b" + S + r"*\s--force\b)|supabase\s+db\s+reset\b)",
        r"\b(?:RAILS_ENV|RACK_ENV|NODE_ENV|APP_ENV)=[\"']?test\b|--env[=\s]+test\b",
        hits=(
            "npx prisma migrate reset --force",
            "bin/rails db:reset",
            "python manage.py flush --noinput",
            "php artisan migrate:fresh --seed",
            "npx prisma db push --accept-data-loss",
        ),
        safe=(
            "npx prisma migrate deploy",
            "RAILS_ENV=test bin/rails db:reset",
            "python manage.py migrate",
            "npx prisma migrate dev --name add_orders",
            "php artisan migrate --force",
        ),
    ),
    # -------------------------------------------------------------------- gh
    pattern(
        "gh-cli-repo-delete",
        "gh repo delete | deleted github repository | github repo deleted | repository deleted gh",
        "shell",
        B
        + r"gh\s+repo\s+delete\b|"
        + B
        + r"gh\s+api\b(?="
        + S
        + r"*(?:-X|--method)[=\s]*[\"']?DELETE\b)(?="
        + S
        + r"*\s[\"']?/?repos/[\w.-]+/[\w.-]+[\"']?(?:\s|$|[;&|)'\"]))",
        hits=(
            "gh repo delete acme/old-api --yes",
            "gh repo delete --yes",
            "gh api -X DELETE repos/acme/old-api",
        ),
        safe=(
            "gh repo view acme/api",
            "gh repo archive acme/old-api --yes",
            "gh api -X DELETE repos/acme/api/git/refs/heads/tmp",
            "gh repo clone acme/api",
        ),
    ),
    pattern(
        "gh-cli-pr-merge-admin",
        "admin merge | gh pr merge admin | bypassed branch protection | bypass required checks"
        " | merged without checks",
        "shell",
        B + r"gh\s+pr\s+merge\b" + S + r"*\s--admin\b",
        hits=(
            "gh pr merge 42 --admin --squash",
            "gh pr merge --admin --merge --delete-branch",
            "gh pr merge https://github.com/acme/api/pull/7 --squash --admin",
        ),
        safe=(
            "gh pr merge 42 --squash --auto",
            "gh pr merge 42 --squash",
            "gh pr checks 42 --watch",
            "gh pr view 42",
        ),
    ),
    pattern(
        "gh-cli-repo-public",
        "made repo public | repository made public | visibility public | gh repo create public"
        " | leaked private code",
        "shell",
        B
        + r"gh\s+repo\s+(?:create\b"
        + S
        + r"*\s--public\b|edit\b"
        + S
        + r"*\s--visibility[=\s]+[\"']?public\b)|"
        + B
        + r"gh\s+api\b(?="
        + S
        + r"*\s(?:-X|--method)[=\s]*PATCH\b)"
        + S
        + r"*\s-[fF]\s*['\"]?(?:visibility=public|private=false)\b",
        hits=(
            "gh repo create acme/internal-tools --public --source=. --push",
            "gh repo create tools --public",
            "gh repo edit acme/api --visibility public --accept-visibility-change-consequences",
        ),
        safe=(
            "gh repo create acme/internal-tools --private --source=. --push",
            "gh repo edit acme/api --visibility private --accept-visibility-change-consequences",
            "gh repo view acme/api --json visibility",
        ),
    ),
    # --------------------------------------------------------------- openssl
    pattern(
        "openssl-weak-key",
        "rsa 1024 | weak key size | 1024 bit key | md5 signature | sha1 certificate"
        " | weak rsa key | dsa key",
        "shell",
        B + r"openssl\b" + S + r"*(?:\sgenrsa\b" + S + r"*\s(?:512|768|1024)(?=\s|$|[;&|)'\"])"
        r"|-newkey\s+rsa:(?:512|768|1024)\b|rsa_keygen_bits:(?:512|768|1024)\b)|"
        + B
        + r"openssl\s+(?:req|ca)\b"
        + S
        + r"*\s-(?:md5|sha1)(?=\s|$|[;&|)'\"])|"
        + B
        + r"ssh-keygen\b"
        + S
        + r"*(?:-t\s+(?:dsa|rsa1)\b|-b\s+(?:512|768|1024)\b)",
        hits=(
            "openssl genrsa -out server.key 1024",
            "openssl req -x509 -newkey rsa:1024 -keyout key.pem -out cert.pem -days 365 -nodes",
            "openssl req -new -key server.key -out server.csr -sha1",
            "ssh-keygen -t rsa -b 1024 -f deploy_key",
            "ssh-keygen -t dsa -f legacy_key",
        ),
        safe=(
            "openssl genrsa -out server.key 4096",
            "openssl req -x509 -newkey rsa:2048 -sha256 -keyout key.pem -out cert.pem -nodes",
            "openssl x509 -in cert.pem -noout -fingerprint -sha1",
            "ssh-keygen -t ed25519 -f deploy_key",
            "openssl rand -hex 32",
        ),
    ),
    pattern(
        "openssl-enc-no-pbkdf2",
        "pbkdf2 openssl | deprecated key derivation | openssl enc | openssl encrypt password"
        " | openssl iter",
        "shell",
        B + r"openssl\s+(?:enc\b" + S + r"*\s-(?:aes|des|bf|camellia|chacha|rc4|aria|sm4|cast"
        r"|seed)[\w-]*|(?:aes|des|bf|camellia|rc4)-[\w-]+\b|(?:bf|des3?|rc4|cast5?|aes(?:128|192|256))\s)",
        r"-pbkdf2\b|\s-iter\s+\d",
        hits=(
            "openssl enc -aes-256-cbc -salt -in backup.tar -out backup.tar.enc -pass env:KEY",
            'openssl aes-256-cbc -d -in secrets.enc -out secrets.env -k "$KEY"',
            "openssl enc -des3 -in db.sql -out db.sql.enc",
        ),
        safe=(
            "openssl enc -aes-256-cbc -pbkdf2 -iter 200000 -salt -in backup.tar"
            " -out backup.tar.enc -pass env:KEY",
            "openssl enc -base64 -in cert.der -out cert.b64",
            "openssl rand -base64 32",
            "openssl aes-256-cbc -d -pbkdf2 -in secrets.enc -out secrets.env",
        ),
    ),
]
