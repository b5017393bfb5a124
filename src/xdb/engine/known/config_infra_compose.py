"""Known mistakes in compose files: the settings that open a host to its containers (the
Docker socket, host networking, database ports published to every interface), passwords
written into the environment, and ``depends_on`` that waits for a start but not for
health. Dockerfiles: ``config_infra``."""

from __future__ import annotations

from xdb.engine.known.config_infra import ENV_SECRET_NAME, LITERAL
from xdb.engine.known.pattern import Pattern, pattern

_DB_PORTS = (
    r"(?:5432|5433|3306|3307|6379|6380|27017|9200|9300|5984|11211|9042|1433|1521|26257|8086"
    r"|9092|2181|5672|15672|8529|7687|28015)"
)

PATTERNS: list[Pattern] = [
    # --- docker compose ---------------------------------------------------------------
    pattern(
        "compose-docker-socket",
        "docker socket | docker.sock | mounted docker sock | socket mount | docker socket proxy",
        "yaml",
        r"(?:^-\s*[\"']?(?:\$\{\w+:?-)?|^(?:source|path|hostPath):\s*[\"']?|[\[,]\s*[\"']?"
        r"|[{,]\s*(?:source|path):\s*[\"']?)/(?:var/)?run/docker\.sock\b"
        # (another socket mounted where the container looks for Docker's)
        r"|^-\s*[\"']?[^\s:\"']+:/(?:var/)?run/docker\.sock\b",
        r"(?i)socket-proxy",
        hits=(
            "volumes:\n- /var/run/docker.sock:/var/run/docker.sock",
            '- "/var/run/docker.sock:/var/run/docker.sock:ro"',
            "hostPath:\npath: /var/run/docker.sock\ntype: Socket",
            "source: /run/docker.sock",
            'volumes: ["/var/run/docker.sock:/var/run/docker.sock"]',
        ),
        safe=(
            "environment:\nDOCKER_HOST: tcp://docker-proxy:2375",
            "image: tecnativa/docker-socket-proxy:0.2\nvolumes:\n"
            "- /var/run/docker.sock:/var/run/docker.sock:ro",
            "volumes:\n- ./data:/var/lib/postgresql/data",
        ),
    ),
    pattern(
        "compose-network-host",
        "network_mode host | network mode host | host networking | host network mode",
        "yaml",
        r"(?:^|[{,]\s*)network_mode:\s*[\"']?host\b",
        hits=(
            "services:\napi:\nimage: acme/api:1.2\nnetwork_mode: host",
            'network_mode: "host"',
            "network_mode: 'host'",
            "api: {image: acme/api:1.4, network_mode: host}",
        ),
        safe=(
            "networks:\n- backend",
            'network_mode: "service:vpn"',
            "network_mode: bridge",
        ),
    ),
    pattern(
        "compose-db-port-public",
        "database port exposed | port exposed to internet | bound to all interfaces"
        " | bind 127.0.0.1 | ports 0.0.0.0 | docker bypasses ufw | port exposed publicly"
        " | db port exposed | redis port exposed | postgres port exposed | mysql port exposed"
        " | database port published | db ports localhost | compose exposed internet"
        " | compose bind localhost | mongo exposed | mongodb exposed | elasticsearch exposed"
        " | redis exposed | postgres exposed | database exposed compose",
        "yaml",
        # (a list item, or one of a flow list's; or the long syntax's target and published)
        r"(?:^-\s*|^ports:\s*\[\s*|,\s*)[\"']?(?:0\.0\.0\.0:)?\d{2,5}:"
        + _DB_PORTS
        + r"(?:/tcp)?[\"']?\s*(?:$|[,\]])"
        r"|^(?:-\s*)?target:\s*[\"']?" + _DB_PORTS + r"[\"']?\s*\n(?:(?!-\s)[^\n]*\n){0,3}?"
        r"published:\s*[\"']?\d"
        r"|^(?:-\s*)?published:\s*[\"']?\d+[\"']?\s*\n(?:(?!-\s)[^\n]*\n){0,3}?target:\s*"
        r"[\"']?" + _DB_PORTS + r"\b",
        r"^(?:-\s*)?host_ip:\s*[\"']?(?:127\.0\.0\.1|localhost|::1)\b",
        hits=(
            'ports:\n- "5432:5432"',
            "- 6379:6379",
            "- '0.0.0.0:27017:27017'",
            '- "13306:3306/tcp"',
            'ports: ["8080:80", "6379:6379"]',
            "ports:\n- target: 5432\n  published: 5432",
        ),
        safe=(
            'ports:\n- "127.0.0.1:5432:5432"',
            'ports:\n- "8080:80"',
            'expose:\n- "5432"',
            "ports:\n- target: 5432\n  host_ip: 127.0.0.1\n  published: 5432",
        ),
    ),
    pattern(
        "compose-env-password",
        "password in compose | password in docker-compose | hardcoded password compose"
        " | compose environment password | plaintext password compose"
        " | committed password compose | secret compose | secrets docker-compose"
        " | credentials compose | token compose environment"
        " | compose password variable substitution",
        "yaml",
        r"(?:^(?:-\s*)?|(?<!\$)\{\s*|,\s*)[\"']?" + ENV_SECRET_NAME + r"[\"']?\s*[:=]\s*" + LITERAL,
        hits=(
            "environment:\nPOSTGRES_PASSWORD: postgres",
            "- MYSQL_ROOT_PASSWORD=supersecret",
            'environment:\n- "STRIPE_SECRET_KEY=sk_test_51H8xyz"',
            "GITHUB_TOKEN: ghp_abcdefabcdefabcdef",
            "environment: {MINIO_ROOT_USER: admin, MINIO_ROOT_PASSWORD: minio123}",
            "RABBITMQ_DEFAULT_PASS: guest123",
        ),
        safe=(
            "POSTGRES_PASSWORD: ${POSTGRES_PASSWORD}",
            "POSTGRES_PASSWORD_FILE: /run/secrets/db_password",
            "env:\nGITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}",
            "- MYSQL_ROOT_PASSWORD",
            "TOKEN_URL: https://auth.acme.dev/token",
            'MYSQL_ALLOW_EMPTY_PASSWORD: "yes"',
            "JWT_TOKEN_EXPIRY_SECONDS: 3600",
            "- POSTGRES_PASSWORD=${DB_PASSWORD:?set DB_PASSWORD}",
        ),
    ),
    pattern(
        "compose-depends-on-unhealthy",
        "depends on healthy | started before database ready | wait for database healthy"
        " | depends_on condition | depends_on compose | depends_on healthcheck"
        " | started before database | started before db | compose start order"
        " | condition service_healthy",
        "yaml",
        r"^depends_on:\s*(?:\[[^\]\n]+\]|\n-\s*\S)|\bcondition:\s*[\"']?service_started\b",
        r"condition:\s*service_(?:healthy|completed_successfully)|wait-for-it|dockerize\s+-wait",
        hits=(
            "api:\nbuild: .\ndepends_on:\n- db\n- redis",
            "depends_on: [postgres]",
            "worker:\ndepends_on:\n- rabbitmq",
            "depends_on:\n  db:\n    condition: service_started",
        ),
        safe=(
            "depends_on:\ndb:\ncondition: service_healthy",
            "depends_on:\nmigrate:\ncondition: service_completed_successfully",
            'depends_on:\n- db\ncommand: ["./wait-for-it.sh", "db:5432", "--", "npm", "start"]',
        ),
    ),
]
