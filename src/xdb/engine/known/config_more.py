"""More known mistakes in server and infrastructure configuration: sshd, PostgreSQL,
Redis and MySQL server configs, systemd units, crontabs, Ansible, TLS verification in
config files, package index and registry settings, Terraform state and instance
settings, CloudFormation, Kubernetes disruption budgets and ingresses, nginx CORS and
GitHub Actions' unsecure commands: what CIS benchmarks, checkov, ansible-lint, gixy and
the vendors' hardening guides flag."""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, near, pattern

# A shell word's start, or a config line's: what a setting follows in a command line
# (``sed -i 's/.../PermitRootLogin yes/'``, ``echo "..." >>``) and in the file itself.
_START = r"(?:^|(?<!#)[\s'\"/])"
_CRON_TIME = (
    r"(?:@(?:reboot|yearly|annually|monthly|weekly|daily|midnight|hourly)"
    r"|(?:[\d*/,-]+[ \t]+){4}[\d*/,A-Za-z-]+)"
)
_NOT_KIND = r"(?:(?!^kind:)[\s\S])*?"

PATTERNS: list[Pattern] = [
    # --- servers: sshd, PostgreSQL, Redis, MySQL --------------------------------------
    pattern(
        "sshd-root-password-login",
        "permitrootlogin | root login ssh | ssh root login | passwordauthentication"
        " | ssh password authentication | password login ssh | sshd_config root"
        " | sshd password | ssh brute force | ssh keys only",
        "shell ini other",
        r"(?i)" + _START + r"(?:PermitRootLogin|PasswordAuthentication|PermitEmptyPasswords)"
        r"[ \t]+yes\b(?!/[^/\n'\"]*/)",
        hits=(
            "PermitRootLogin yes\nPort 22",
            "sudo sed -i 's/^#\\?PasswordAuthentication .*/PasswordAuthentication yes/'"
            " /etc/ssh/sshd_config",
            'echo "PermitRootLogin yes" | sudo tee -a /etc/ssh/sshd_config.d/10-root.conf',
            "Match User deploy\n  PermitEmptyPasswords yes",
        ),
        safe=(
            "PermitRootLogin no\nPasswordAuthentication no",
            "PermitRootLogin prohibit-password",
            "sudo sed -i 's/PasswordAuthentication yes/PasswordAuthentication no/'"
            " /etc/ssh/sshd_config",
            "#PermitRootLogin yes",
            "PubkeyAuthentication yes",
        ),
    ),
    pattern(
        "pg-hba-trust",
        "pg_hba trust | trust authentication | trust auth postgres | postgres without password"
        " | postgres_host_auth_method | host auth method trust | login without password postgres"
        " | scram-sha-256",
        "shell ini other yaml dotenv",
        r"(?i)(?:^|['\"])[ \t]*host(?:ssl|nossl|gssenc|nogssenc)?[ \t]+\S+[ \t]+\S+[ \t]+"
        r"(?!127\.0\.0\.1/32\b|::1/128\b|localhost\b|samehost\b)\S+"
        r"(?:[ \t]+\d+\.\d+\.\d+\.\d+)?[ \t]+trust\b"
        r"|\bPOSTGRES_HOST_AUTH_METHOD[\"']?[ \t]*[:=][ \t]*[\"']?trust\b",
        hits=(
            "host    all    all    0.0.0.0/0    trust",
            'echo "hostssl app_db app_user 10.0.0.0/8 trust" >> /etc/postgresql/pg_hba.conf',
            "environment:\n  POSTGRES_HOST_AUTH_METHOD: trust",
            "host replication replicator 192.168.1.0 255.255.255.0 trust",
            "docker run -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16",
        ),
        safe=(
            "host    all    all    0.0.0.0/0    scram-sha-256",
            "local   all    postgres             peer",
            "host    all    all    127.0.0.1/32 trust",
            "POSTGRES_HOST_AUTH_METHOD: scram-sha-256",
            "hostssl all all 10.0.0.0/8 cert",
        ),
    ),
    pattern(
        "redis-unprotected",
        "protected-mode | protected mode redis | redis without password | redis requirepass"
        " | redis exposed | redis no auth | unauthenticated redis | redis open to internet",
        "shell ini other yaml",
        r"(?i)(?:^|[\s'\"\[,])(?:--)?protected-mode[\"',\s]+no\b",
        r"(?i)\brequirepass\b|--requirepass\b|\baclfile\b"
        r"|^bind(?:[ \t]+-?(?:127\.\d+\.\d+\.\d+|::1|localhost))+[ \t]*$",
        hits=(
            "bind 0.0.0.0\nprotected-mode no",
            "redis-server --protected-mode no --bind 0.0.0.0",
            'command: ["redis-server", "--protected-mode", "no"]',
            "protected-mode  no\nport 6379",
        ),
        safe=(
            "protected-mode yes\nbind 127.0.0.1 -::1",
            'redis-server --requirepass "$REDIS_PASSWORD" --protected-mode no',
            "bind 10.0.1.5\nrequirepass ${REDIS_PASSWORD}\nprotected-mode no",
            "redis-cli -h cache ping",
        ),
    ),
    pattern(
        "mysql-skip-grant-tables",
        "skip-grant-tables | skip grant tables | mysql without password login"
        " | mysql root password reset | mysql authentication disabled",
        "shell ini other yaml",
        r"(?i)(?:^|(?<!#)[\s'\"\[,])(?:--)?skip[-_]grant[-_]tables\b",
        hits=(
            "[mysqld]\nskip-grant-tables\nbind-address = 0.0.0.0",
            "sudo mysqld_safe --skip-grant-tables &",
            "command: --skip-grant-tables --default-authentication-plugin=mysql_native_password",
            "skip_grant_tables = 1",
        ),
        safe=(
            "[mysqld]\nskip-name-resolve\nbind-address = 127.0.0.1",
            "# skip-grant-tables (recovery only, never commit)",
            "mysqld --skip-networking",
        ),
    ),
    # --- systemd, cron, Ansible -------------------------------------------------------
    pattern(
        "systemd-no-restart",
        "restart=on-failure | restart policy systemd | systemd unit restart"
        " | service stayed dead | systemd service crashed not restarted"
        " | unit without restart | service not restarted after crash | systemd stayed dead"
        " | systemd never brought back",
        "other ini",
        r"^\[Service\][\s\S]*?^ExecStart[ \t]*=",
        r"^Restart[ \t]*=[ \t]*(?!no\b)\S|^Type[ \t]*=[ \t]*oneshot\b",
        hits=(
            "[Unit]\nDescription=Queue worker\n[Service]\nUser=app\n"
            "ExecStart=/opt/app/bin/worker --queue default\n[Install]\nWantedBy=multi-user.target",
            "[Service]\nType=simple\nWorkingDirectory=/srv/api\nExecStart=/usr/bin/node server.js",
            "[Service]\nEnvironmentFile=/etc/default/exporter\nExecStart = /usr/local/bin/exporter",
            "[Service]\nExecStart=/opt/app/bin/api\nRestart=no",
        ),
        safe=(
            "[Service]\nExecStart=/opt/app/bin/worker\nRestart=on-failure\nRestartSec=5",
            "[Service]\nType=oneshot\nExecStart=/opt/app/bin/backup.sh",
            "[Timer]\nOnCalendar=daily\nPersistent=true",
            "[Service]\nRestart=always\nExecStart=/usr/bin/app",
        ),
    ),
    pattern(
        "cron-unescaped-percent",
        "percent crontab | percent cron | cron newline percent | escape percent cron"
        " | date crontab percent | crontab escape | cron percent sign | crontab date percent"
        " | cron truncated command",
        "shell other",
        r"(?:^|['\"])[ \t]*" + _CRON_TIME + r"[ \t]+(?:[^\n%\\'\"]|\\.|['\"](?=[^\n]))*?%",
        hits=(
            "0 2 * * * tar czf /backup/db-$(date +%F).tgz /var/lib/db",
            '(crontab -l; echo "*/5 * * * * /opt/bin/report > /var/log/report-$(date +%H%M)'
            '.log") | crontab -',
            "@daily find /tmp -mtime +7 -printf '%p\\n' -delete",
            "30 4 * * MON-FRI root /usr/local/bin/rotate --tag $(date +%Y%m%d)",
        ),
        safe=(
            "0 2 * * * tar czf /backup/db-$(date +\\%F).tgz /var/lib/db",
            "0 2 * * * /opt/bin/backup.sh",
            'tar czf "backup-$(date +%F).tgz" /srv/data',
            "- cron: '0 2 * * *'",
            "*/10 * * * * /usr/bin/flock -n /tmp/sync.lock /opt/bin/sync",
        ),
    ),
    pattern(
        "ansible-ignore-errors",
        "ignore errors ansible | ansible task failure ignored | playbook ignored failure"
        " | ansible errors ignored | ignore_errors yes | ignore_errors true"
        " | ignore_errors ansible | ignore_errors playbook | ignore_errors task"
        " | failed_when ansible | failed_when instead",
        "yaml",
        r"(?:^(?:-[ \t]*)?|[{,][ \t]*)ignore_errors:[ \t]*[\"']?(?i:yes|true|on)\b",
        hits=(
            "- name: Run migrations\n  command: ./manage.py migrate\n  ignore_errors: yes",
            "ignore_errors: true",
            "- ignore_errors: True\n  shell: systemctl restart api",
            "- { name: Load schema, shell: psql -f schema.sql, ignore_errors: True }",
        ),
        safe=(
            "- name: Run migrations\n  command: ./manage.py migrate\n  ignore_errors: false",
            "failed_when: result.rc not in [0, 2]",
            'ignore_errors: "{{ ansible_check_mode }}"',
            "ignore_unreachable: false",
        ),
    ),
    pattern(
        "cfg-tls-verify-off",
        "validate_certs | insecure_skip_verify | insecure-skip-tls-verify | sslverify"
        " | verify_ssl | strict-ssl | certificate verification disabled"
        " | certificate validation off | tls verification off | ssl verification disabled"
        " | skip tls verify",
        "yaml ini toml other json",
        r"(?i)(?:^|[\s{,\"'])[\"']?(?:validate_certs|verify_ssl|ssl_?verify|strict[-_]ssl"
        r"|tls_?verify|verify_certs?|reject_?unauthorized)[\"']?[ \t]*[:=][ \t]*[\"']?"
        r"(?:no|false|0|off)\b"
        r"|(?:^|[\s{,\"'])[\"']?(?:insecure[-_]?skip[-_]?(?:tls[-_]?)?verify"
        r"|skip[-_]?tls[-_]?verify"
        r"|tls[-_]?skip[-_]?verify|insecure_?ssl)[\"']?[ \t]*[:=][ \t]*[\"']?(?:yes|true|1|on)\b",
        hits=(
            "- name: Fetch installer\n  get_url:\n    url: https://repo.acme.io/x.sh\n"
            "    validate_certs: no",
            "clusters:\n- cluster:\n    server: https://10.0.0.1:6443\n"
            "    insecure-skip-tls-verify: true",
            "[acme]\nbaseurl=https://repo.acme.io/el9\nsslverify=0",
            '[[source]]\nurl = "https://pypi.acme.io/simple"\nverify_ssl = false',
            "tls_config:\n  insecure_skip_verify: true",
            "strict-ssl=false",
            "serversTransport:\n  insecureSkipVerify: true",
        ),
        safe=(
            "validate_certs: true",
            "tls_config:\n  ca_file: /etc/prometheus/ca.pem\n  insecure_skip_verify: false",
            "[acme]\nbaseurl=https://repo.acme.io/el9\nsslverify=1\ngpgcheck=1",
            '[[source]]\nurl = "https://pypi.org/simple"\nverify_ssl = true',
            "certificate-authority-data: LS0tLS1CRUdJTi",
        ),
    ),
    # --- package indexes and registries ----------------------------------------------
    pattern(
        "deps-extra-index-url",
        "extra-index-url | extra index url | dependency confusion | internal package name pypi"
        " | private index and pypi | package index confusion",
        "text ini toml",
        r"(?i)(?:^|\s)--extra-index-url\b|^extra[-_]index[-_]url[ \t]*=",
        r"(?i)--require-hashes\b|--hash[=\s]sha256:",
        hits=(
            "--extra-index-url https://pypi.acme.internal/simple\nacme-billing==2.3.1",
            "[global]\nextra-index-url = https://nexus.acme.io/repository/pypi/simple",
            "-i https://pypi.org/simple\n--extra-index-url https://download.pytorch.org/whl/cu121"
            "\ntorch==2.3.1",
            "extra_index_url = https://gitlab.acme.io/api/v4/projects/12/packages/pypi/simple",
        ),
        safe=(
            "--index-url https://nexus.acme.io/repository/pypi-all/simple\nacme-billing==2.3.1",
            "[global]\nindex-url = https://nexus.acme.io/repository/pypi-all/simple",
            "--extra-index-url https://pypi.acme.internal/simple\n--require-hashes\n"
            "acme-billing==2.3.1 --hash=sha256:0a1b",
            "requests==2.32.3",
        ),
    ),
    pattern(
        "npmrc-literal-token",
        "_authtoken | npmrc token | npm token committed | npm token hardcoded"
        " | auth token npmrc | npmauthtoken | registry token committed",
        "other ini yaml",
        r"(?:^|[\s:])_(?:authToken|auth|password)[ \t]*=[ \t]*(?![\"']?\$\{)[\"']?[\w+/=.-]{8,}"
        r"|^npmAuthToken:[ \t]*(?![\"']?\$\{)[\"']?[\w+/=.-]{8,}",
        hits=(
            "//registry.npmjs.org/:_authToken=npm_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ",
            "@acme:registry=https://npm.pkg.github.com\n"
            "//npm.pkg.github.com/:_authToken=ghp_0123456789abcdefABCDEF",
            "_auth=ZGVwbG95OnMzY3IzdA==\nalways-auth=true",
            'npmRegistries:\n  "https://npm.acme.io":\n    npmAuthToken: 5f2c9a1e-7b3d-4c8e-9f10',
        ),
        safe=(
            "//registry.npmjs.org/:_authToken=${NPM_TOKEN}",
            "registry=https://registry.npmjs.org/\nalways-auth=true",
            'npmAuthToken: "${NPM_AUTH_TOKEN}"',
            "save-exact=true",
        ),
    ),
    # --- Terraform and CloudFormation ------------------------------------------------
    pattern(
        "tf-hcl-count-length",
        "count index shift | resources recreated index | for_each instead of count"
        " | count by index | terraform count list | removing item recreated resources"
        " | count length terraform | count length var | count length for_each"
        " | count.index shift",
        "terraform",
        r"\bcount\s*=\s*\"?(?:\$\{)?length\((?:[^()\n]|\([^()\n]*\))*\)(?![ \t]*(?:[<>=!?]))",
        hits=(
            'resource "aws_iam_user" "u" {\n  count = length(var.users)\n'
            "  name  = var.users[count.index]\n}",
            "count=length(concat(var.public_subnets, var.private_subnets))",
            'count = "${length(var.buckets)}"',
        ),
        safe=(
            'resource "aws_iam_user" "u" {\n  for_each = toset(var.users)\n'
            "  name     = each.value\n}",
            "count = var.create_bucket ? 1 : 0",
            "count = length(var.azs) > 0 ? 1 : 0",
            "count = 3",
        ),
    ),
    pattern(
        "tf-hcl-backend-no-lock",
        "terraform lock table | concurrent terraform apply | s3 backend lock"
        " | dynamodb_table lock | use_lockfile backend | terraform state corrupted"
        " | backend lock table | two terraform applies | backend without lock"
        " | state lock table | state locking disabled | state locking backend",
        "terraform",
        r"\bbackend\s+\"s3\"\s*\{(?!\s*\})"
        # (Terragrunt's remote_state block)
        r"|\bremote_state\s*\{[^{}]*?\bbackend\s*=\s*\"s3\"",
        r"\bdynamodb_table\s*=|\buse_lockfile\s*=\s*true\b",
        hits=(
            'terraform {\n  backend "s3" {\n    bucket = "acme-tf-state"\n'
            '    key    = "prod/network.tfstate"\n    region = "eu-west-1"\n  }\n}',
            'backend "s3" {\n  bucket  = "tf-state-shop"\n  key     = "app.tfstate"\n'
            "  encrypt = true\n}",
            'backend "s3" { bucket = "state" key = "k" region = "us-east-1" }',
            'remote_state {\n  backend = "s3"\n  config = {\n    bucket = "acme-tg-state"\n  }\n}',
        ),
        safe=(
            'backend "s3" {\n  bucket         = "acme-tf-state"\n  key            = "prod.tfstate"'
            '\n  dynamodb_table = "terraform-locks"\n}',
            'backend "s3" {\n  bucket       = "acme-tf-state"\n  use_lockfile = true\n}',
            'backend "s3" {}',
            'backend "gcs" {\n  bucket = "acme-tf-state"\n}',
        ),
    ),
    pattern(
        "tf-hcl-no-backups",
        "backup_retention_period | backup retention | automated backups disabled"
        " | backups disabled database | no backups rds | point-in-time recovery",
        "terraform yaml json",
        r"\bbackup_retention_period\s*=\s*0\b|\"?BackupRetentionPeriod\"?\s*:\s*[\"']?0\b"
        # (Cloud SQL's backups turned off)
        r"|\bbackup_configuration\s*\{[^}]*?\benabled\s*=\s*false\b",
        hits=(
            'resource "aws_db_instance" "main" {\n  engine = "postgres"\n'
            "  backup_retention_period = 0\n}",
            "Properties:\n  Engine: postgres\n  BackupRetentionPeriod: 0",
            '"Properties": {"Engine": "mysql", "BackupRetentionPeriod": "0"}',
            "backup_configuration {\n  enabled = false\n}",
        ),
        safe=(
            "backup_retention_period = 7",
            "BackupRetentionPeriod: 14",
            "backup_retention_period = var.backup_days",
            "retention_in_days = 0",
        ),
    ),
    pattern(
        "tf-hcl-imdsv1",
        "instance metadata service | metadata credentials ssrf | httptokens | imdsv1 allowed"
        " | imdsv1 enabled | require imdsv2 | imdsv2 required | enforce imdsv2"
        " | http_tokens required | http_tokens optional | ec2 metadata ssrf",
        "terraform yaml json",
        r"\bhttp_tokens\s*=\s*\"optional\"|\"?HttpTokens\"?\s*:\s*[\"']?optional\b"
        r"|\bmetadata_options\s*\{(?![^}]*\b(?:http_tokens\b|http_endpoint\s*=\s*\"disabled\"))"
        # (CloudFormation's MetadataOptions with no HttpTokens among the next lines)
        r"|^\"?MetadataOptions\"?:\s*$(?!(?:\n[^\n]*){0,5}\n\"?(?:HttpTokens\"?:"
        r"|HttpEndpoint\"?:\s*[\"']?disabled))"
        r"|\"MetadataOptions\"\s*:\s*\{(?![^}]*\"(?:HttpTokens\"|disabled\"))",
        hits=(
            'resource "aws_instance" "web" {\n  metadata_options {\n'
            '    http_endpoint = "enabled"\n    http_tokens   = "optional"\n  }\n}',
            "MetadataOptions:\n  HttpEndpoint: enabled\n  HttpTokens: optional",
            'metadata_options {\n  http_endpoint = "enabled"\n  http_put_response_hop_limit = 2\n}',
        ),
        safe=(
            'metadata_options {\n  http_endpoint = "enabled"\n  http_tokens   = "required"\n}',
            "MetadataOptions:\n  HttpTokens: required",
            'resource "aws_instance" "web" {\n  instance_type = "t3.micro"\n}',
            'metadata_options {\n  http_endpoint = "disabled"\n}',
        ),
    ),
    pattern(
        "cfn-no-deletion-policy",
        "deletionpolicy | deletion policy | stack deletion deleted database"
        " | cloudformation deleted table | deletionpolicy retain | stack delete data loss"
        " | updatereplacepolicy snapshot | cloudformation deleted database"
        " | stack deleted database",
        "yaml json",
        r"\bType[\"']?\s*:\s*[\"']?AWS::(?:RDS::DB(?:Instance|Cluster)|DynamoDB::(?:Global)?Table"
        r"|EFS::FileSystem|DocDB::DBCluster|Neptune::DBCluster|ElastiCache::ReplicationGroup"
        r"|OpenSearchService::Domain|Elasticsearch::Domain)\b",
        r"\bDeletionPolicy[\"']?\s*:\s*[\"']?(?:Retain|Snapshot|RetainExceptOnCreate)\b",
        hits=(
            "Database:\n  Type: AWS::RDS::DBInstance\n  Properties:\n    Engine: postgres",
            '"OrdersTable": {"Type": "AWS::DynamoDB::Table", "Properties": {"BillingMode": '
            '"PAY_PER_REQUEST"}}',
            "Cluster:\n  Type: 'AWS::RDS::DBCluster'\n  DeletionPolicy: Delete",
        ),
        safe=(
            "Database:\n  Type: AWS::RDS::DBInstance\n  DeletionPolicy: Snapshot\n"
            "  UpdateReplacePolicy: Snapshot",
            '"OrdersTable": {"Type": "AWS::DynamoDB::Table", "DeletionPolicy": "Retain"}',
            "Queue:\n  Type: AWS::SQS::Queue",
            "Bucket:\n  Type: AWS::S3::Bucket",
        ),
    ),
    # --- Kubernetes --------------------------------------------------------------------
    pattern(
        "k8s-pdb-blocks-drain",
        "poddisruptionbudget | pod disruption budget | pdb blocked drain | pdb maxunavailable"
        " | node drain blocked | drain stuck pdb | disruption budget zero",
        "yaml",
        r"^kind:\s*[\"']?PodDisruptionBudget\b"
        + _NOT_KIND
        + r"(?:^|[{,][ \t]*)(?:maxUnavailable:\s*[\"']?0%?[\"']?|minAvailable:\s*[\"']?100%[\"']?)"
        r"\s*(?:$|[,}])"
        # (a chart's values: ``podDisruptionBudget:`` with ``maxUnavailable: 0``)
        r"|^(?:podDisruptionBudget|pdb):\s*$(?:\n(?!(?:enabled|create):\s*false)[^\n]*){0,4}?"
        r"\n(?:maxUnavailable:\s*[\"']?0%?[\"']?|minAvailable:\s*[\"']?100%[\"']?)\s*$",
        hits=(
            "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: api\nspec:\n"
            "  maxUnavailable: 0\n  selector:\n    matchLabels:\n      app: api",
            'kind: PodDisruptionBudget\nspec:\n  minAvailable: "100%"',
            "kind: PodDisruptionBudget\nspec:\n  selector: {matchLabels: {app: db}}\n"
            "  maxUnavailable: '0%'",
            "kind: PodDisruptionBudget\nspec: {maxUnavailable: 0, selector: {app: q}}",
        ),
        safe=(
            "kind: PodDisruptionBudget\nspec:\n  maxUnavailable: 1",
            "kind: PodDisruptionBudget\nspec:\n  minAvailable: 50%",
            "kind: PodDisruptionBudget\nspec:\n  minAvailable: 2\n---\nkind: Deployment\n"
            "spec:\n  strategy:\n    rollingUpdate:\n      maxUnavailable: 0",
            "kind: Deployment\nspec:\n  strategy:\n    rollingUpdate:\n      maxUnavailable: 0",
        ),
    ),
    pattern(
        "k8s-ingress-no-tls",
        "ingress without tls | ingress no tls | ingress tls section | ingress plain http"
        " | ingress https | tls secretname | ingress without https | ingress served over http"
        " | ingress tls hosts",
        "yaml",
        r"^kind:\s*[\"']?Ingress[\"']?\s*(?:#[^\n]*)?$"
        # (a chart's values: ``ingress:`` with ``enabled: true``)
        r"|^ingress:\s*$(?:\n[^\n]*){0,2}?\nenabled:\s*true\s*$",
        r"^(?:-\s*)?tls:(?!\s*(?:\[\s*\]|\{\s*\}|null|~|false)\s*$)|certificate-arn"
        r"|pre-shared-cert|ssl-cert",
        hits=(
            "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n"
            "  rules:\n    - host: shop.acme.io\n      http:\n        paths:\n"
            "          - path: /\n            pathType: Prefix",
            'kind: "Ingress"\nspec:\n  ingressClassName: nginx\n  rules:\n  - host: admin.acme.io',
            "apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nspec:\n  backend:\n"
            "    serviceName: api",
            "kind: Ingress  # public\nspec:\n  rules:\n  - host: docs.acme.io",
        ),
        safe=(
            "kind: Ingress\nspec:\n  tls:\n    - hosts: [shop.acme.io]\n"
            "      secretName: shop-tls\n  rules:\n    - host: shop.acme.io",
            "kind: Ingress\nmetadata:\n  annotations:\n"
            "    alb.ingress.kubernetes.io/certificate-arn: arn:aws:acm:eu-west-1:1:certificate/x",
            "kind: IngressClass\nmetadata:\n  name: nginx",
            "kind: Service\nspec:\n  type: ClusterIP",
        ),
    ),
    # --- nginx, GitHub Actions ----------------------------------------------------------
    pattern(
        "nginx-cors-reflect-origin",
        "http_origin | reflected origin | reflect origin cors | cors origin reflected"
        " | access-control-allow-origin | cors allow origin credentials | cors any origin nginx",
        "ini role:infrastructure",
        r"(?i)add_header\s+[\"']?Access-Control-Allow-Origin[\"']?\s+[\"']?(?:\$http_origin\b"
        r"|\*[\"']?[\s\S]*?add_header\s+[\"']?Access-Control-Allow-Credentials[\"']?\s+[\"']?true)"
        r"|more_set_headers\s+[\"']Access-Control-Allow-Origin:\s*\$http_origin\b|"
        # (ingress-nginx's annotations: any origin, with credentials)
        + near(
            r"cors-allow-origin[\"']?:\s*[\"']?\*[\"']?\s*$",
            r"cors-allow-credentials[\"']?:\s*[\"']?true\b",
            400,
        ),
        r"(?i)\bmap\s+\$http_origin\b|\$http_origin\s*~",
        hits=(
            "location /api/ {\n  add_header Access-Control-Allow-Origin $http_origin always;\n"
            "  add_header Access-Control-Allow-Credentials true always;\n}",
            "add_header 'Access-Control-Allow-Origin' '$http_origin';",
            "add_header Access-Control-Allow-Origin *;\n"
            "add_header Access-Control-Allow-Credentials true;",
            "more_set_headers 'Access-Control-Allow-Origin: $http_origin';",
        ),
        safe=(
            'map $http_origin $cors_origin {\n  default "";\n  ~^https://app\\.acme\\.io$ '
            "$http_origin;\n}\nadd_header Access-Control-Allow-Origin $cors_origin;",
            "add_header Access-Control-Allow-Origin https://app.acme.io;",
            "add_header Access-Control-Allow-Origin *;",
            "add_header X-Frame-Options DENY;",
        ),
    ),
    pattern(
        "gha-unsecure-commands",
        "actions_allow_unsecure_commands | unsecure commands | deprecated set-env"
        " | set-env injection | set-env command | add-path command | allow unsecure commands",
        "role:ci",
        r"\bACTIONS_ALLOW_UNSECURE_COMMANDS[\"']?[ \t]*[:=][ \t]*[\"']?true\b",
        hits=(
            "env:\n  ACTIONS_ALLOW_UNSECURE_COMMANDS: true",
            'echo "ACTIONS_ALLOW_UNSECURE_COMMANDS=true" >> $GITHUB_ENV',
            "ACTIONS_ALLOW_UNSECURE_COMMANDS: 'true'",
        ),
        safe=(
            'echo "VERSION=1.2.3" >> "$GITHUB_ENV"',
            "ACTIONS_ALLOW_UNSECURE_COMMANDS: false",
            "ACTIONS_STEP_DEBUG: true",
        ),
    ),
]
