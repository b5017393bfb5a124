"""Known mistakes of the command lines of data services the older modules lack: an
Elasticsearch or OpenSearch index deleted with ``curl -X DELETE``, Kafka topics and
records deleted, ``mongorestore --drop``, message queues purged (RabbitMQ, SQS), etcd
and Consul keys deleted by prefix, a live SQLite file copied with ``cp`` (a torn
backup), and Vault secrets destroyed for good (``kv metadata delete``, ``secrets
disable``).

Blind lessons named their pattern 12/14 before the phrases were widened; blind
variants: hits caught 21/21, safe left alone 14/14 before the detectors were widened
(all 14, 21 and 14 after).
"""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern
from xdb.engine.known.shell_ops import B, S
from xdb.engine.known.shell_ops_cloud import AWS

PATTERNS: list[Pattern] = [
    pattern(
        "db-cli-es-delete-index",
        "deleted the elasticsearch index | elasticsearch index deleted | curl -x delete index"
        " | delete index elasticsearch | opensearch index deleted | deleted all indices"
        " | curl -xdelete index | wildcard index delete",
        "shell",
        r"\bcurl\b(?="
        + S
        + r"*?(?:-X\s*|--request[=\s]+)['\"]?DELETE\b)(?="
        + S
        + r"*?(?::9200\b|:9243\b|elastic|opensearch|/_all\b|/_data_stream/))",
        r"/_(?:doc|update|create|snapshot|ilm|security|ingest|scroll|tasks|aliases|alias"
        r"|(?:index_|component_)?template|query|pit)\b",
        hits=(
            "curl -X DELETE http://localhost:9200/orders",
            "curl -XDELETE 'https://es.acme.internal:9243/logs-*'",
            'curl -s -u elastic:$ES_PW -X DELETE "$ES_URL/_all"',
            "curl http://opensearch:9200/products-v1 -X DELETE",
        ),
        safe=(
            "curl -X GET http://localhost:9200/_cat/indices",
            "curl -X POST http://localhost:9200/_aliases -H 'Content-Type: application/json'"
            " -d @alias.json",
            "curl -X DELETE https://api.acme.dev/v1/sessions/42",
            "curl -fsS http://localhost:9200/_cluster/health",
        ),
    ),
    pattern(
        "db-cli-kafka-topic-delete",
        "deleted the kafka topic | kafka topic deleted | kafka-topics --delete"
        " | rpk topic delete | lost the messages in the topic | delete kafka topic",
        "shell",
        B
        + r"(?:[\w.~/-]*/)?(?:kafka-topics(?:\.sh)?\b"
        + S
        + r"*?\s--delete\b|rpk\s+topic\s+delete\b|kafka-delete-records(?:\.sh)?\b)",
        hits=(
            "/opt/kafka/bin/kafka-topics.sh --bootstrap-server k1:9092 --delete --topic tmp",
            "kafka-topics.sh --bootstrap-server kafka:9092 --delete --topic orders",
            "kafka-topics --bootstrap-server localhost:9092 --topic 'payments.*' --delete",
            "rpk topic delete audit-events",
            "kafka-delete-records.sh --bootstrap-server kafka:9092 --offset-json-file offsets.json",
        ),
        safe=(
            "kafka-topics.sh --bootstrap-server kafka:9092 --describe --topic orders",
            "kafka-topics --list --bootstrap-server localhost:9092",
            "rpk topic describe audit-events",
            "kafka-configs.sh --describe --entity-type topics --entity-name orders"
            " --bootstrap-server kafka:9092",
        ),
    ),
    pattern(
        "db-cli-mongorestore-drop",
        "mongorestore --drop | mongorestore drop | restore dropped the collections"
        " | mongoimport --drop | restore dropped existing data"
        " | dropped collections before restore",
        "shell",
        B + r"mongo(?:restore|import)\b" + S + r"*?\s--drop\b",
        r"--dryRun\b",
        hits=(
            "mongorestore --drop dump/",
            'mongorestore --uri "$PROD_MONGO_URI" --drop --gzip --archive=shop.gz',
            "mongoimport --db shop --collection products --drop --file products.json",
            "mongorestore -d shop --drop backup/shop",
        ),
        safe=(
            "mongorestore --dir=dump/ --nsInclude='shop.*'",
            "mongodump --db shop --out dump/",
            "mongorestore --drop --dryRun dump/",
            "mongoimport --db shop --collection products --file products.json",
        ),
    ),
    pattern(
        "db-cli-queue-purge",
        "purged the queue | rabbitmq queue purged | purge_queue | deleted the rabbitmq queue"
        " | rabbitmqctl reset | lost queued messages | sqs purge-queue",
        "shell",
        B + r"(?:rabbitmqctl\b" + S + r"*?\s(?:purge_queue|delete_queue|force_reset|reset"
        r"|delete_vhost)\b|rabbitmqadmin\b" + S + r"*?\s(?:purge|delete)\s+queue\b)"
        r"|" + AWS + r"sqs\s+purge-queue\b",
        hits=(
            "rabbitmqctl purge_queue orders",
            "sudo rabbitmqctl -p /prod delete_queue payments.retry",
            "rabbitmqadmin -V shop purge queue name=emails",
            "aws --profile prod sqs purge-queue --queue-url"
            " https://sqs.eu-west-1.amazonaws.com/123456789012/orders",
        ),
        safe=(
            "rabbitmqctl list_queues name messages",
            "rabbitmqctl status",
            "rabbitmqadmin list queues",
            "aws --profile prod sqs get-queue-attributes --queue-url $QUEUE_URL",
        ),
    ),
    pattern(
        "db-cli-etcd-del-prefix",
        "etcdctl del --prefix | deleted keys by prefix | etcd prefix delete"
        " | consul kv delete -recurse | wiped the etcd keys | deleted the whole key prefix",
        "shell",
        B + r"(?:etcdctl\b" + S + r"*?\s(?:del|rm)\b(?=" + S + r"*?\s--(?:prefix|from-key)\b)"
        r"|consul\s+kv\s+delete\b" + S + r"*?\s-recurse\b)",
        hits=(
            "etcdctl del --prefix /registry/pods",
            "ETCDCTL_API=3 etcdctl --endpoints=$ETCD del /app/config --prefix",
            'etcdctl del "" --from-key=true',
            "consul kv delete -recurse service/api",
        ),
        safe=(
            "etcdctl get --prefix /app/config --keys-only",
            "etcdctl del /app/config/feature_x",
            "consul kv get -recurse service/api",
            "etcdctl snapshot save backup.db",
        ),
    ),
    pattern(
        "db-cli-sqlite-copy-live",
        "copied the sqlite file while running | sqlite backup with cp | corrupt sqlite backup"
        " | sqlite .backup command | copied the live sqlite database | sqlite wal not copied"
        " | sqlite vacuum into"
        " | sqlite3 wal copied mid-transaction",
        "shell",
        B + r"(?:cp|rsync|scp)\s+(?:-\S+\s+)*['\"]?[^\s;&|'\"]*\.(?:db|sqlite3?)['\"]?\s",
        hits=(
            "cp data/app.db backups/app-$(date +%F).db",
            "rsync -a /srv/app/db.sqlite3 backup@nas:/backups/",
            "scp prod:/var/lib/app/app.sqlite ./",
            "sudo cp /var/lib/grafana/grafana.db /tmp/grafana.db.bak",
        ),
        safe=(
            "sqlite3 data/app.db \".backup 'backups/app.db'\"",
            "sqlite3 /srv/app/db.sqlite3 \"VACUUM INTO '/backups/db.sqlite3'\"",
            "litestream replicate /srv/app/db.sqlite3 s3://acme-backups/db",
            "cp config.example.yml config.yml",
        ),
    ),
    pattern(
        "vault-kv-destroy",
        "vault kv metadata delete | vault kv destroy | destroyed all versions of the secret"
        " | vault secrets disable | secret versions permanently destroyed"
        " | deleted the secrets engine | vault secret versions destroyed",
        "shell",
        B + r"vault\s+(?:kv\s+(?:metadata\s+delete|destroy)\b|secrets\s+disable\b"
        r"|delete\s+(?:-\S+\s+)*\S*/metadata/)",
        hits=(
            "vault kv metadata delete secret/app/prod",
            "vault kv destroy -versions=1,2,3 secret/app",
            "vault secrets disable kv-prod/",
            "vault delete secret/metadata/app/db",
        ),
        safe=(
            "vault kv delete secret/app/prod",
            "vault kv undelete -versions=3 secret/app",
            "vault kv get secret/app/prod",
            "vault secrets list",
        ),
    ),
]
