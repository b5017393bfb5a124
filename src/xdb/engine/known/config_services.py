"""More known mistakes in infrastructure and service configuration: ``RUN cd`` in a
Dockerfile (the directory does not persist), the Docker daemon's API on TCP without TLS,
volumes whose reclaim policy deletes the data with the claim, databases exposed by a
``LoadBalancer`` Service, CronJobs that may overlap, pods killed without a grace period,
Terraform outputs of secrets not marked sensitive, workflows that serialise every secret
(``toJSON(secrets)``) or upload the whole workspace as an artifact, nginx trusting
``X-Forwarded-For`` from anywhere, secrets in systemd ``Environment=`` lines, MongoDB
bound to every interface without authorization and Elasticsearch with its security
turned off.

Blind lessons named their pattern 13/26 before the phrases were widened; blind
variants: hits caught 36/39, safe left alone 26/26 before the detectors were widened
(all 26, 39 and 26 after).
"""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

_DB_PORT = r"(?:5432|3306|6379|27017|9200|5672|9092|2379|11211|1433|22)"
# A Service's port, or a chart's ``service.ports`` map (``postgresql: 5432``).
_PORT_KEY = r"(?:port|targetPort|postgres(?:ql)?|mysql|mariadb|redis|mongodb?|elasticsearch)"
_SECRET = r"(?:PASSWORD|PASSWD|SECRET|TOKEN|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY)"
# The rest of an output block up to its closing brace, with no ``sensitive = true`` in it:
# a map value or up to three ``${...}`` interpolations may come before the attribute.
_NOT_SENSITIVE = r"(?:(?!sensitive\s*=\s*true)[^{}])"
_BRACES = r"(?:\{[^{}]{0,400}\}" + _NOT_SENSITIVE + r"{0,300})?"
_REST_OF_OUTPUT = _NOT_SENSITIVE + r"{0,600}" + _BRACES * 3 + r"\}"
_SECRET_VALUE = (
    r"(?:random_password\.|\.password\b|private_key_pem|\.secret\b|secret_string|\.token\b"
    r"|\.kube_(?:admin_)?config(?:_raw)?\b)"
)
_SHA_UPLOAD = "actions/upload-artifact@65462800fd760344b1a7b4382951275a0abb4808  # v4.3.3"

PATTERNS: list[Pattern] = [
    pattern(
        "dockerfile-run-cd",
        "run cd does not persist | dockerfile run cd | use workdir instead of cd"
        " | cd in a separate run | working directory reset between run steps"
        " | cd in a dockerfile run"
        " | run cd workdir",
        "dockerfile",
        r"(?i)^RUN\s+cd\s+[^\s;&|\\#]+\s*(?:#[^\n]*)?$",
        hits=(
            "FROM node:20\nRUN cd /app\nRUN npm ci",
            "RUN cd /src",
            "WORKDIR /\nRUN cd frontend\nRUN npm run build",
            "run cd /opt/app",
        ),
        safe=(
            "WORKDIR /app\nRUN npm ci",
            "RUN cd /app && make",
            "RUN cd /src \\\n    && make",
            "WORKDIR /src",
        ),
    ),
    pattern(
        "docker-daemon-tcp-exposed",
        "docker daemon exposed on tcp | dockerd -h tcp://0.0.0.0:2375"
        " | docker api exposed without tls | docker port 2375 | unauthenticated docker api"
        " | docker remote api open"
        " | dockerd tcp 2375",
        "shell json ini other yaml",
        r"tcp://(?:0\.0\.0\.0|\[?::\]?)?:237[56]\b",
        r"--tlsverify\b|[\"']tlsverify[\"']\s*:\s*true",
        hits=(
            "sudo dockerd -H unix:///var/run/docker.sock -H tcp://0.0.0.0:2375",
            '{"hosts": ["unix:///var/run/docker.sock", "tcp://0.0.0.0:2375"]}',
            "ExecStart=/usr/bin/dockerd -H fd:// -H tcp://0.0.0.0:2376",
            "command: dockerd --host=tcp://:2375",
        ),
        safe=(
            "dockerd -H tcp://0.0.0.0:2376 --tlsverify --tlscacert=ca.pem"
            " --tlscert=server-cert.pem --tlskey=server-key.pem",
            '{"hosts": ["unix:///var/run/docker.sock"]}',
            "DOCKER_HOST=ssh://deploy@build1 docker ps",
            "dockerd -H tcp://127.0.0.1:2375",
        ),
    ),
    pattern(
        "k8s-reclaim-policy-delete",
        "reclaimpolicy delete | reclaim policy delete | storageclass reclaim policy"
        " | pv reclaim policy retain | persistentvolumereclaimpolicy"
        " | reclaim policy to retain",
        "yaml terraform",
        r"^(?:-\s*)?(?:persistentVolumeReclaimPolicy|reclaimPolicy)\s*:\s*[\"']?Delete\b"
        r"|^(?:persistent_volume_)?reclaim_policy\s*=\s*\"Delete\"",
        hits=(
            "persistentVolumeReclaimPolicy: Delete",
            "kind: StorageClass\nprovisioner: ebs.csi.aws.com\nreclaimPolicy: Delete",
            'spec:\n  capacity:\n    storage: 100Gi\n  persistentVolumeReclaimPolicy: "Delete"',
            'resource "kubernetes_storage_class" "db" {\nreclaim_policy = "Delete"',
        ),
        safe=(
            "persistentVolumeReclaimPolicy: Retain",
            "kind: StorageClass\nreclaimPolicy: Retain",
            "storageClassName: gp3",
            'reclaim_policy = "Retain"',
        ),
    ),
    pattern(
        "k8s-loadbalancer-db-port",
        "loadbalancer service exposed the database | database exposed through a loadbalancer"
        " | loadbalancersourceranges missing | internal load balancer annotation"
        " | loadbalancer database public ip",
        "yaml",
        r"^type:\s*[\"']?LoadBalancer\b(?:[^\n]*\n){0,25}?(?:-\s*)?"
        + _PORT_KEY
        + r":\s*[\"']?"
        + _DB_PORT
        + r"\b|^(?:-\s*)?"
        + _PORT_KEY
        + r":\s*[\"']?"
        + _DB_PORT
        + r"\b(?:[^\n]*\n){0,25}?type:\s*[\"']?LoadBalancer\b",
        r"loadBalancerSourceRanges|load-balancer-(?:scheme|type)[\"']?:\s*[\"']?(?:internal|Internal)"
        r"|azure-load-balancer-internal|load-balancer-internal|networking\.gke\.io/"
        r"load-balancer-type[\"']?:\s*[\"']?Internal",
        hits=(
            "kind: Service\nmetadata:\n  name: postgres\nspec:\n  type: LoadBalancer\n  ports:\n"
            "  - port: 5432\n    targetPort: 5432",
            "spec:\n  type: LoadBalancer\n  selector:\n    app: redis\n  ports:\n    - port: 6379",
            "spec:\n  ports:\n  - name: mongo\n    port: 27017\n  type: LoadBalancer",
            'kind: Service\nspec:\n  type: "LoadBalancer"\n  ports:\n  - port: 9200',
        ),
        safe=(
            "spec:\n  type: LoadBalancer\n  loadBalancerSourceRanges:\n  - 10.0.0.0/8\n  ports:\n"
            "  - port: 5432",
            "metadata:\n  annotations:\n    service.beta.kubernetes.io/aws-load-balancer-scheme:"
            " internal\nspec:\n  type: LoadBalancer\n  ports:\n  - port: 5432",
            "spec:\n  type: ClusterIP\n  ports:\n  - port: 5432",
            "spec:\n  type: LoadBalancer\n  ports:\n  - port: 443\n    targetPort: 8443",
        ),
    ),
    pattern(
        "k8s-cronjob-concurrent-runs",
        "cronjob concurrencypolicy | concurrencypolicy forbid | overlapping cronjob runs"
        " | cron job ran twice concurrently | cronjob runs overlapped"
        " | concurrent cronjob executions",
        "yaml",
        r"^kind:\s*[\"']?CronJob\b(?:[^\n]*\n){0,40}?schedule:",
        r"^concurrencyPolicy:\s*[\"']?(?:Forbid|Replace)\b",
        hits=(
            "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: billing\nspec:\n"
            "  schedule: '*/5 * * * *'\n  jobTemplate:",
            'kind: CronJob\nspec:\n  schedule: "0 * * * *"\n  concurrencyPolicy: Allow',
            "kind: CronJob\nmetadata:\n  name: sync-inventory\n  namespace: shop\nspec:\n"
            "  successfulJobsHistoryLimit: 3\n  schedule: '*/1 * * * *'",
            "kind: \"CronJob\"\nspec:\n  schedule: '@hourly'\n  startingDeadlineSeconds: 100",
        ),
        safe=(
            "kind: CronJob\nspec:\n  schedule: '*/5 * * * *'\n  concurrencyPolicy: Forbid",
            "kind: CronJob\nspec:\n  concurrencyPolicy: Replace\n  schedule: '0 * * * *'",
            "kind: Job\nspec:\n  backoffLimit: 2",
        ),
    ),
    pattern(
        "k8s-termination-grace-zero",
        "terminationgraceperiodseconds 0 | termination grace period zero"
        " | pod killed without graceful shutdown"
        " | in-flight requests dropped on pod shutdown"
        " | grace period 0 killed pods | shutdown grace zero",
        "yaml",
        r"(?:^(?:-\s*)?|[{,]\s*)terminationGracePeriodSeconds:\s*[\"']?0\b",
        hits=(
            "terminationGracePeriodSeconds: 0",
            "spec:\n  terminationGracePeriodSeconds: 0\n  serviceAccountName: api",
            'template:\n  spec:\n    terminationGracePeriodSeconds: "0"',
            "spec:\n  replicas: 3\n  template:\n    spec:\n      terminationGracePeriodSeconds: 0",
        ),
        safe=(
            "terminationGracePeriodSeconds: 60",
            "spec:\n  terminationGracePeriodSeconds: 30",
            "terminationGracePeriodSeconds: 120",
        ),
    ),
    pattern(
        "tf-hcl-output-secret-not-sensitive",
        "output not marked sensitive | sensitive = true on the output"
        " | terraform output not sensitive | terraform output showed the password"
        " | terraform sensitive output"
        " | output credentials as sensitive",
        "terraform",
        r"^output\s+\"\w*(?i:password|passwd|secret|token|private_key|api_key|access_key"
        r"|connection_string|credential|kubeconfig|kube_config)\w*\"\s*\{"
        + _REST_OF_OUTPUT
        + r"|^output\s+\"[^\"\n]+\"\s*\{"
        + _NOT_SENSITIVE
        + r"{0,300}?\bvalue\s*=(?:[^\n]*?"
        + _SECRET_VALUE
        + r"[^\n]*?(?=\n|\}\s*$)|\s*\{[^{}]{0,400}?"
        + _SECRET_VALUE
        + r"[^{}]{0,400}\})"
        + _REST_OF_OUTPUT,
        hits=(
            'output "db_password" {\nvalue = aws_db_instance.main.password\n}',
            'output "admin" {\nvalue = random_password.admin.result\ndescription = "admin pw"\n}',
            'output "api_token" {\n  value = var.api_token\n}',
            'output "tls_key" {\nvalue = tls_private_key.ca.private_key_pem\n}',
        ),
        safe=(
            'output "db_password" {\nvalue = aws_db_instance.main.password\nsensitive = true\n}',
            'output "db_endpoint" {\nvalue = aws_db_instance.main.endpoint\n}',
            'output "api_token" {\n  value     = var.api_token\n  sensitive = true\n}',
        ),
    ),
    pattern(
        "gha-all-secrets-exposed",
        "tojson(secrets) | tojson secrets | all secrets exposed to the job | dumped every secret"
        " | whole secrets context | secrets context serialized",
        "yaml role:ci",
        r"(?i)\$\{\{\s*toJSON\(\s*secrets\s*\)\s*\}\}",
        hits=(
            "env:\n  ALL_SECRETS: ${{ toJSON(secrets) }}",
            "- run: ./deploy.sh\n  env:\n    SECRETS_JSON: ${{ toJson(secrets) }}",
            "with:\n  payload: ${{ tojson(secrets) }}",
            "SECRETS_CONTEXT: ${{toJSON(secrets)}}",
        ),
        safe=(
            "env:\n  DB_PASSWORD: ${{ secrets.DB_PASSWORD }}",
            "with:\n  payload: ${{ toJSON(steps.build.outputs) }}",
            "env:\n  MATRIX: ${{ toJSON(matrix) }}",
        ),
    ),
    pattern(
        "gha-upload-artifact-workspace",
        "uploaded the whole workspace as an artifact | artifact included the .git directory"
        " | artifact leaked credentials | upload-artifact path . | upload-artifact whole"
        " repository | artifact contained the git token"
        " | entire workspace artifact",
        "yaml role:ci",
        r"actions/upload-artifact@(?:[^\n]*\n){1,8}?(?:-\s*)?path:\s*"
        # (or the first lines of a ``path: |`` block)
        r"(?:\|[-+]?\n(?:[^\n:]*\n){0,5}?)?[\"']?(?:\.|\./|\.\/\*\*?"
        r"|\*\*?|\$\{\{\s*github\.workspace\s*\}\}(?:/\*{0,2})?)[\"']?\s*$",
        hits=(
            "- uses: " + _SHA_UPLOAD + "\n  with:\n    name: build\n    path: .",
            "- uses: " + _SHA_UPLOAD + "\n  with:\n    name: repo\n"
            "    path: ${{ github.workspace }}",
            "- uses: " + _SHA_UPLOAD + "\n  with:\n    path: ./\n    retention-days: 5",
            "- name: Save everything\n  uses: " + _SHA_UPLOAD + "\n  with:\n    name: all\n"
            '    path: "**"',
        ),
        safe=(
            "- uses: " + _SHA_UPLOAD + "\n  with:\n    name: dist\n    path: dist/",
            "- uses: " + _SHA_UPLOAD + "\n  with:\n    name: coverage\n"
            "    path: coverage/lcov.info",
            "- uses: actions/checkout@b4ffde65f46336ab88eb53be808477a3936bae11\n  with:\n"
            "    path: .",
        ),
    ),
    pattern(
        "nginx-real-ip-from-anywhere",
        "set_real_ip_from 0.0.0.0/0 | trusted x-forwarded-for from anywhere"
        " | real ip from any source"
        " | set_real_ip_from every address"
        " | nginx real_ip trusted any address",
        "ini other",
        r"^set_real_ip_from\s+(?:0\.0\.0\.0/0|::/0|all)\s*;",
        hits=(
            "set_real_ip_from 0.0.0.0/0;\nreal_ip_header X-Forwarded-For;",
            "set_real_ip_from  0.0.0.0/0;",
            "set_real_ip_from ::/0;",
            "set_real_ip_from 0.0.0.0/0;\nreal_ip_recursive on;",
        ),
        safe=(
            "set_real_ip_from 10.0.0.0/8;\nreal_ip_header X-Forwarded-For;",
            "set_real_ip_from 173.245.48.0/20;",
            "real_ip_header CF-Connecting-IP;",
        ),
    ),
    pattern(
        "systemd-environment-secret",
        "secret in the systemd unit | environment= password in the unit file"
        " | systemd environment secret"
        " | use environmentfile for secrets | password in a systemd unit"
        " | secret hardcoded systemd service file",
        "ini other",
        r"^Environment\s*=(?:[^\n]*?[\s\"'])?[A-Z0-9_]*" + _SECRET + r"[A-Z0-9_]*(?<!_FILE)"
        r"(?<!_PATH)=(?![\s\"'$%])"
        # (a URL with its password: ``DATABASE_URL=postgres://api:S3cret@db/api``)
        r"|^Environment\s*=[^\n]*?=[\"']?[a-z][\w+.-]*://[^\s:/@\"'$%]+:(?![$%])[^\s/@\"']+@",
        hits=(
            '[Service]\nEnvironment="DB_PASSWORD=hunter2"\nExecStart=/opt/api/bin/api\nRestart=always',
            "Environment=STRIPE_SECRET_KEY=sk_test_4eC39HqLyjWDarjtT1",
            'Environment="PORT=8080" "API_TOKEN=ghp_abc123"',
            "Environment=AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI",
        ),
        safe=(
            "EnvironmentFile=/etc/api/secrets.env",
            'Environment="PORT=8080" "LOG_LEVEL=info"',
            "LoadCredential=db_password:/etc/credstore/db_password",
            "Environment=DB_PASSWORD_FILE=/run/secrets/db",
        ),
    ),
    pattern(
        "mongo-bind-all-no-auth",
        "mongo bindip 0.0.0.0 | mongod bind_ip_all"
        " | mongodb authorization enabled | mongodb ransomware | mongod open to the internet"
        " | mongod 0.0.0.0 without authorization | bind_ip_all without auth",
        "yaml ini other shell",
        r"^[ \t]*(?:-\s*)?bindIp:\s*[\"']?(?:[\w.:]+,)*(?:0\.0\.0\.0|::|\*)\b"
        r"|^[ \t]*bindIpAll:\s*true\b"
        r"|\bmongod\b[^\n]*?(?:--bind_ip_all\b|--bind_ip[=\s]+[\"']?0\.0\.0\.0)",
        r"^[ \t]*authorization:\s*[\"']?enabled|--auth\b|--keyFile\b|^[ \t]*keyFile:"
        r"|MONGO_INITDB_ROOT_PASSWORD",
        hits=(
            "net:\n  bindIp: 0.0.0.0\n  port: 27017",
            "net:\n  bindIpAll: true",
            "mongod --bind_ip_all --dbpath /data/db",
            "command: mongod --bind_ip 0.0.0.0 --port 27017",
        ),
        safe=(
            "net:\n  bindIp: 0.0.0.0\nsecurity:\n  authorization: enabled",
            "net:\n  bindIp: 127.0.0.1",
            "mongod --bind_ip_all --auth --dbpath /data/db",
            "command: mongod --bind_ip_all --keyFile /etc/mongo/key",
        ),
    ),
    pattern(
        "es-security-disabled",
        "xpack.security.enabled false | elasticsearch security disabled"
        " | elasticsearch without authentication | opensearch security plugin disabled"
        " | elasticsearch open without a password"
        " | opensearch security plugin off",
        "yaml ini other shell dotenv",
        r"(?i)xpack\.security\.enabled[\"']?\s*[:=]\s*[\"']?false\b"
        r"|plugins\.security\.disabled[\"']?\s*[:=]\s*[\"']?true\b"
        r"|DISABLE_SECURITY_PLUGIN[\"']?\s*[:=]\s*[\"']?true\b",
        hits=(
            "xpack.security.enabled: false",
            "environment:\n  - discovery.type=single-node\n  - xpack.security.enabled=false",
            "plugins.security.disabled: true",
            'environment:\n  DISABLE_SECURITY_PLUGIN: "true"',
        ),
        safe=(
            "xpack.security.enabled: true",
            "xpack.security.http.ssl.enabled: true",
            "plugins.security.disabled: false",
        ),
    ),
]
