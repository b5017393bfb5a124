"""Known mistakes in Kubernetes manifests and Helm values: what kube-linter, checkov's and
kubesec's Kubernetes checks flag (a container's privileges, resources, probes, secrets,
RBAC and images)."""

from __future__ import annotations

from xdb.engine.known.config_infra import ENV_SECRET_NAME, LITERAL
from xdb.engine.known.pattern import Pattern, pattern

# A container spec: a `containers:` list with an image (YAML nesting is flattened).
CONTAINER = r"^(?:-\s*)?containers:\s*$[\s\S]*?^(?:-\s*)?image:\s*\S"
_WORKLOAD = r"^kind:\s*[\"']?(?:Deployment|StatefulSet|DaemonSet)\b[\s\S]*?" + CONTAINER
_POD_SPEC = (
    r"^kind:\s*[\"']?(?:Pod|Deployment|StatefulSet|DaemonSet|Job|CronJob|ReplicaSet)\b"
    r"[\s\S]*?^(?:-\s*)?containers:\s*$"
)
# A key's start: a block mapping's line (or a list item's) or a flow mapping's entry
# (``securityContext: {privileged: true}``).
_K = r"(?:^(?:-[ \t]*)?|(?<!\$)\{[ \t]*|,[ \t]*)"
# A chart whose templates take the security context from its values.
_VALUES_SECURITY = r"\.Values\.\S*[sS]ecurityContext"
# Set to run as root: uid 0, or non-root turned off.
_ROOT = (
    r"(?:" + _K + r"runAsUser:\s*[\"']?0[\"']?\s*(?:$|[,}])|" + _K + r"runAsNonRoot:\s*[\"']?false)"
)
_IMG = r"(?:[\w.-]+(?::\d+)?/)*[\w.-]+"
# An image reference that is :latest or carries no tag (a picture's path is no image).
_LATEST = (
    r"[\"']?(?!\S*\.(?:png|jpe?g|gif|svg|webp|ico)\b)(?:" + _IMG + r":latest|" + _IMG + r")[\"']?"
)
_CAPS = (
    r"(?:CAP_)?(?:SYS_ADMIN|ALL|NET_ADMIN|SYS_PTRACE|SYS_MODULE|DAC_READ_SEARCH|SYS_RAWIO"
    r"|BPF|SYS_BOOT)"
)
_DEPLOYMENT = (
    "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  template:\n"
    "    spec:\n      containers:\n        - name: {name}\n          image: acme/{name}:1.4.2\n"
)

PATTERNS: list[Pattern] = [
    pattern(
        "k8s-no-resource-limits",
        "resource limits | memory limit | cpu limit | resources limits | resources requests |"
        " oomkilled memory | noisy neighbour",
        "yaml",
        CONTAINER,
        r"^limits:\s*(?:$|\{\s*[\w\"'])|\.Values\.\S*resources",
        hits=(
            _DEPLOYMENT.format(name="api"),
            "containers:\n- name: worker\n  image: ghcr.io/acme/worker:2.0\n  resources: {}",
            "containers:\n- name: web\nimage: nginx:1.27\nresources:\nrequests:\ncpu: 100m",
        ),
        safe=(
            _DEPLOYMENT.format(name="api")
            + "          resources:\n            limits:\n              memory: 256Mi",
            "containers:\n- name: web\nimage: nginx:1.27\nresources:\nlimits: {cpu: 500m,"
            " memory: 512Mi}",
            'containers:\n- name: {{ .Chart.Name }}\nimage: "{{ .Values.image.repository }}"\n'
            "resources:\n{{- toYaml .Values.resources | nindent 12 }}",
            "replicas: 3",
        ),
    ),
    pattern(
        "k8s-privileged",
        "privileged container | privileged true | privileged mode | privileged: true"
        " | runs privileged",
        "yaml",
        _K + r"privileged:\s*[\"']?true\b",
        hits=(
            "securityContext:\n  privileged: true",
            "services:\n  agent:\n    image: acme/agent:1\n    privileged: true",
            'privileged: "true"',
            "securityContext: {privileged: true, runAsUser: 0}",
        ),
        safe=(
            "securityContext:\n  privileged: false",
            "securityContext:\n  allowPrivilegeEscalation: false",
            "privileged_ports: [80]",
        ),
    ),
    pattern(
        "k8s-privilege-escalation",
        "allowPrivilegeEscalation | privilege escalation | escalate privileges | setuid"
        " binaries container",
        "yaml",
        _K + r"allowPrivilegeEscalation:\s*[\"']?true|" + CONTAINER,
        r"\A(?![\s\S]*"
        + _K
        + r"allowPrivilegeEscalation:\s*[\"']?true)[\s\S]*(?:"
        + _K
        + r"allowPrivilegeEscalation:\s*[\"']?false|"
        + _VALUES_SECURITY
        + ")",
        hits=(
            _DEPLOYMENT.format(name="billing"),
            "securityContext:\n  allowPrivilegeEscalation: true",
            "containers:\n- name: api\n  image: acme/api:3\n  securityContext:\n"
            "    runAsNonRoot: true",
        ),
        safe=(
            _DEPLOYMENT.format(name="billing")
            + "          securityContext:\n            allowPrivilegeEscalation: false",
            "containers:\n- name: app\nimage: acme/app:1\nsecurityContext:\n"
            "{{- toYaml .Values.securityContext | nindent 12 }}",
            "kind: Service\nspec:\n  ports:\n    - port: 80",
            "containers:\n- name: api\n  image: acme/api:3\n"
            "  securityContext: {allowPrivilegeEscalation: false}",
        ),
    ),
    pattern(
        "k8s-runs-as-root",
        "runAsNonRoot | run as non-root | runAsUser | container runs as root | running as root"
        " | root user pod | uid 0",
        "yaml",
        _ROOT + r"|" + CONTAINER,
        r"\A(?![\s\S]*"
        + _ROOT
        + r")[\s\S]*(?:"
        + _K
        + r"runAsNonRoot:\s*[\"']?true|"
        + _K
        + r"runAsUser:\s*[\"']?[1-9]|"
        + _VALUES_SECURITY
        + ")",
        hits=(
            _DEPLOYMENT.format(name="web"),
            "securityContext:\n  runAsUser: 0",
            "securityContext:\n  runAsNonRoot: false",
            "securityContext: {runAsUser: 0}",
        ),
        safe=(
            _DEPLOYMENT.format(name="web")
            + "          securityContext:\n            runAsNonRoot: true\n"
            "            runAsUser: 10001",
            "securityContext:\n  runAsUser: 1000\n  runAsGroup: 1000",
            "database:\n  user: root\n  host: db",
            "securityContext: {runAsUser: 1001, fsGroup: 1001}\ncontainers:\n- name: api\n"
            "  image: acme/api:1",
        ),
    ),
    pattern(
        "k8s-host-namespace",
        "hostNetwork | hostPID | hostIPC true | host network namespace | host pid namespace"
        " | share host namespace | pid host",
        "yaml",
        _K + r"host(?:Network|PID|IPC):\s*[\"']?true|" + _K + r"(?:pid|ipc):\s*[\"']?host\b",
        hits=(
            "spec:\n  hostNetwork: true\n  containers: []",
            "hostPID: true",
            "services:\n  monitor:\n    pid: host",
        ),
        safe=(
            "spec:\n  hostNetwork: false",
            "dnsPolicy: ClusterFirst",
            "hostname: api-0",
        ),
    ),
    pattern(
        "k8s-hostpath-volume",
        "hostPath | host path volume | mounted host filesystem | host mount | node filesystem"
        " mounted",
        "yaml",
        _K + r"hostPath:\s*(?:$|\{)",
        hits=(
            "volumes:\n- name: logs\n  hostPath:\n    path: /var/log",
            "- hostPath:\npath: /etc\nname: host-etc",
            "hostPath: {path: /data, type: Directory}",
            "- {name: host-root, hostPath: {path: /}}",
        ),
        safe=(
            "volumes:\n- name: data\n  persistentVolumeClaim:\n    claimName: data",
            "volumes:\n- name: tmp\n  emptyDir: {}",
            "mountPath: /var/log/app",
        ),
    ),
    pattern(
        "k8s-no-readiness-probe",
        # ("readiness probe" and "no readiness" named a lesson about a probe on the wrong
        # port, "pods never became ready": a probe there, not one missing)
        "add readiness probe | missing readinessProbe | add readinessProbe | traffic before ready"
        " | not ready pod traffic | deployment without readiness probe | readiness check"
        " | container without readiness probe | traffic starting pods | traffic to unready pods",
        "yaml",
        _WORKLOAD,
        r"^readinessProbe:",
        hits=(
            _DEPLOYMENT.format(name="checkout"),
            "kind: StatefulSet\nspec:\ntemplate:\nspec:\ncontainers:\n- name: db\n"
            "image: postgres:16\nlivenessProbe:\nexec:\ncommand: [pg_isready]",
            "kind: Deployment\ncontainers:\n- image: ghcr.io/acme/web:7\nname: web",
        ),
        safe=(
            _DEPLOYMENT.format(name="checkout")
            + "          readinessProbe:\n            httpGet:\n              path: /ready",
            "kind: Job\nspec:\ntemplate:\nspec:\ncontainers:\n- name: migrate\nimage: acme/m:1",
            "kind: Service\nspec:\n  selector:\n    app: api",
        ),
    ),
    pattern(
        "k8s-no-liveness-probe",
        "liveness probe | missing livenessProbe | add livenessProbe | hung pod not restarted"
        " | deadlocked pod | no liveness",
        "yaml",
        _WORKLOAD,
        r"^livenessProbe:",
        hits=(
            _DEPLOYMENT.format(name="search"),
            "kind: Deployment\ncontainers:\n- name: api\nimage: acme/api:2\nreadinessProbe:\n"
            "httpGet:\npath: /ready",
            "kind: DaemonSet\ncontainers:\n- image: fluent/fluent-bit:3.0\nname: logs",
        ),
        safe=(
            _DEPLOYMENT.format(name="search")
            + "          livenessProbe:\n            httpGet:\n              path: /healthz",
            "kind: CronJob\ncontainers:\n- name: report\nimage: acme/report:1",
            "kind: ConfigMap\ndata:\n  LOG_LEVEL: info",
        ),
    ),
    pattern(
        "k8s-secret-env-value",
        "password in manifest | secret in manifest env | plaintext secret manifest"
        " | valueFrom secret | secretKeyRef env | hardcoded password manifest"
        " | env value secret kubernetes | hardcoded env var deployment | api key env deployment"
        " | secret env var kubernetes | secret env var manifest | password env var deployment"
        " | plaintext env deployment",
        "yaml",
        r"(?:^-\s*|\{\s*)name:\s*[\"']?"
        + ENV_SECRET_NAME
        + r"[\"']?\s*(?:\n(?:-\s*)?|,\s*)value:\s*"
        + LITERAL
        + r"|^-\s*value:\s*"
        + LITERAL
        + r"[^\n]*\nname:\s*[\"']?"
        + ENV_SECRET_NAME,
        hits=(
            "env:\n- name: DB_PASSWORD\n  value: hunter2",
            '- name: STRIPE_API_KEY\nvalue: "sk_live_abc123def456"',
            "- name: \"GITHUB_TOKEN\"\n  value: 'ghp_0123456789abcdef'",
            '- {name: API_TOKEN, value: "tok_8f2a9c41d7"}',
            "- value: hunter2\n  name: DB_PASSWORD",
        ),
        safe=(
            "env:\n- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef:\n      name: db\n"
            "      key: password",
            "- name: DB_PASSWORD\nvalue: {{ .Values.db.password | quote }}",
            "- name: LOG_LEVEL\nvalue: debug",
            "- name: DB_PASSWORD_FILE\nvalue: /run/secrets/db",
        ),
    ),
    pattern(
        "k8s-secret-manifest-plaintext",
        "secret manifest committed | base64 is not encryption | kubernetes secret in git"
        " | sealed secrets | external secrets | sops secret | stringData committed",
        "yaml",
        r"^kind:\s*[\"']?Secret\b[\s\S]*?^(?:stringData|data):\s*$\n^[\w.-]+:\s*[\"']?"
        r"(?!\{\{|\$|ENC\[)[^\s\"'{]{3,}"
        # (the data first, the kind after it in the same document, within 1,000 characters:
        # unbounded, every `data:` line of a long YAML with no Secret in it scanned to its
        # end, quadratic: 0.76 s on a 16 KB piece of an OpenAPI file's `data:` keys)
        r"|^(?:stringData|data):\s*$\n^[\w.-]+:\s*[\"']?(?!\{\{|\$|ENC\[)[^\s\"'{]{3,}"
        r"(?:(?!^(?:---|kind:))[\s\S]){0,1000}^kind:\s*[\"']?Secret[\"']?\s*$",
        r"^sops:|ENC\[AES256",
        hits=(
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n"
            "  password: aHVudGVyMg==",
            "kind: Secret\nmetadata:\n  name: api-keys\nstringData:\n  STRIPE_KEY: sk_live_abc",
            'kind: "Secret"\nstringData:\nconfig.json: eyJ0b2tlbiI6ImFiYyJ9',
        ),
        safe=(
            "kind: SealedSecret\nspec:\n  encryptedData:\n    password: AgBy3i4OJSWK",
            "kind: Secret\ndata:\n  password: {{ .Values.db.password | b64enc }}",
            "kind: Secret\nstringData:\n  password: ENC[AES256_GCM,data:abc,type:str]\nsops:\n"
            "  version: 3.8.1",
            "kind: ConfigMap\ndata:\n  LOG_LEVEL: info",
        ),
    ),
    pattern(
        "k8s-capabilities-add",
        "capabilities add | sys_admin capability | cap_add | net_admin capability"
        " | added linux capabilities | drop all capabilities",
        "yaml",
        _K + r"(?:cap_)?add:\s*(?:\[[^\]\n]*?[\"']?" + _CAPS + r"[\"']?\s*[,\]]|\n(?:-\s*[\"']?"
        r"\w+[\"']?\s*\n)*-\s*[\"']?" + _CAPS + r"[\"']?\s*$)",
        hits=(
            "capabilities:\n  add:\n    - SYS_ADMIN",
            'capabilities:\n  add: ["NET_BIND_SERVICE", "NET_ADMIN"]',
            "cap_add:\n- ALL",
            "cap_add:\n- CHOWN\n- SYS_PTRACE",
        ),
        safe=(
            "capabilities:\n  drop:\n    - ALL",
            "capabilities:\n  drop: [ALL]\n  add: [NET_BIND_SERVICE]",
            "cap_drop:\n- ALL",
        ),
    ),
    pattern(
        "k8s-automount-sa-token",
        "automountServiceAccountToken | service account token mounted | automount service"
        " account | mounted service account token",
        "yaml",
        _POD_SPEC,
        _K + r"automountServiceAccountToken:\s*[\"']?false",
        hits=(
            _DEPLOYMENT.format(name="frontend"),
            "kind: Pod\nspec:\nautomountServiceAccountToken: true\ncontainers:\n- name: x\n"
            "image: busybox:1.36",
            "kind: CronJob\nspec:\njobTemplate:\nspec:\ntemplate:\nspec:\ncontainers:\n"
            "- name: backup\nimage: acme/backup:1",
        ),
        safe=(
            "kind: Deployment\nspec:\ntemplate:\nspec:\nautomountServiceAccountToken: false\n"
            "containers:\n- name: web\nimage: acme/web:1",
            "kind: ServiceAccount\nmetadata:\n  name: web",
            "kind: Service\nspec:\n  type: ClusterIP",
        ),
    ),
    pattern(
        "k8s-cluster-admin-binding",
        "cluster-admin | cluster admin binding | clusterrolebinding cluster-admin | bound to"
        " cluster-admin | least privilege rbac",
        "yaml shell",
        r"^roleRef:\s*(?:\n(?!name:|subjects:)[^\n]*){0,3}\n^name:\s*[\"']?cluster-admin\b"
        r"|^roleRef:\s*\{[^}\n]*name:\s*[\"']?cluster-admin\b"
        r"|--clusterrole[= ][\"']?cluster-admin\b",
        hits=(
            "kubectl create clusterrolebinding ci-admin --clusterrole=cluster-admin"
            " --serviceaccount=ci:deployer",
            # (a shell pattern's examples are read as they are: YAML as an edit adds it)
            "kind: ClusterRoleBinding\nsubjects:\n- kind: ServiceAccount\nname: argo\n"
            "roleRef:\napiGroup: rbac.authorization.k8s.io\nkind: ClusterRole\n"
            "name: cluster-admin",
            "roleRef: {kind: ClusterRole, name: cluster-admin}",
        ),
        safe=(
            "kind: ClusterRoleBinding\nroleRef:\nkind: ClusterRole\nname: view",
            "kubectl create rolebinding dev-view --clusterrole=view --user=dev -n shop",
            "kubectl get clusterrolebindings",
        ),
    ),
    pattern(
        "k8s-rbac-wildcard",
        "rbac wildcard | wildcard verbs | wildcard resources | verbs star | all verbs"
        " | least privilege role | rbac verbs resources | explicit verbs"
        " | rbac overly permissive | rbac too broad | role verbs wildcard | rbac rules wildcard"
        " | clusterrole verbs | role verbs | enumerate verbs | clusterrole wildcard",
        "yaml",
        r"(?:^(?:-\s*)?|[{,]\s*)(?:verbs|resources):\s*(?:\[[^\]\n]*[\"']\*[\"']"
        r"|\n-\s*[\"']\*[\"'])",
        hits=(
            'rules:\n- apiGroups: [""]\n  resources: ["*"]\n  verbs: ["get"]',
            '- apiGroups: [apps]\nresources: [deployments]\nverbs: ["*"]',
            "verbs:\n- '*'",
        ),
        safe=(
            'rules:\n- apiGroups: [""]\n  resources: ["pods"]\n  verbs: ["get", "list"]',
            "verbs:\n- get\n- watch",
            'apiGroups: ["*"]\nresources: ["pods"]\nverbs: ["list"]',
        ),
    ),
    pattern(
        "k8s-image-latest",
        "latest tag image | latest tag kubernetes | image latest | untagged image | pin image"
        " tag | mutable image tag | image tag latest",
        "yaml",
        _K + r"image:[ \t]*" + _LATEST + r"[ \t]*(?:$|[,}])"
        r"|^(?:newTag|tag):[ \t]*[\"']?latest[\"']?[ \t]*$",
        r"^build:",
        hits=(
            "containers:\n- name: api\n  image: acme/api:latest",
            "services:\n  db:\n    image: postgres",
            "image:\n  repository: ghcr.io/acme/web\n  tag: latest",
            '- image: "registry.local:5000/team/worker"',
            "containers:\n- {name: web, image: nginx}",
        ),
        safe=(
            "image: acme/api:1.4.2",
            "image: postgres:16.3@sha256:4aea012537edfad80f98d870a36e6b90b4c09b27be7f4b4759d72",
            'image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"',
            "services:\n  api:\n    build: .\n    image: acme-api",
            "image: ${REGISTRY}/api:${TAG}",
            "title: Acme docs\nimage: assets/social-card.png",
            "containers:\n- {name: web, image: nginx:1.27.0}",
        ),
    ),
    pattern(
        "k8s-writable-root-fs",
        "readOnlyRootFilesystem | read-only root filesystem | writable root filesystem"
        " | read only filesystem container",
        "yaml",
        _K + r"readOnlyRootFilesystem:\s*[\"']?false|" + CONTAINER,
        r"\A(?![\s\S]*"
        + _K
        + r"readOnlyRootFilesystem:\s*[\"']?false)[\s\S]*(?:"
        + _K
        + r"readOnlyRootFilesystem:\s*[\"']?true|"
        + _VALUES_SECURITY
        + ")",
        hits=(
            _DEPLOYMENT.format(name="cart"),
            "securityContext:\n  readOnlyRootFilesystem: false",
            "containers:\n- name: api\nimage: acme/api:2\nsecurityContext:\nrunAsNonRoot: true",
            "securityContext: {readOnlyRootFilesystem: false}",
        ),
        safe=(
            _DEPLOYMENT.format(name="cart")
            + "          securityContext:\n            readOnlyRootFilesystem: true",
            "containers:\n- name: app\nimage: acme/app:1\nsecurityContext:\n"
            "{{- toYaml .Values.containerSecurityContext | nindent 12 }}",
            "kind: Service\nspec:\n  type: ClusterIP",
        ),
    ),
    # --- Helm values --------------------------------------------------------------------
    pattern(
        "helm-values-plain-secret",
        "password in values yaml | helm values password | values.yaml password | plaintext"
        " password helm | existingSecret values | helm secrets | secret in helm values",
        "yaml",
        r"^(?!existing|use|create|enable)(?:[a-z]\w*?)?(?:[Pp]assword|[Pp]asswd|[Aa]pi_?[Kk]ey"
        r"|[Aa]ccess_?[Kk]ey|[Ss]ecret_?[Kk]ey|[Cc]lient_?[Ss]ecret|[Aa]uth_?[Tt]oken"
        r"|[Aa]ccess_?[Tt]oken|[Pp]rivate_?[Kk]ey|[Tt]oken):[ \t]*"
        + LITERAL.replace("{2,}", "{3,}"),
        hits=(
            "auth:\n  postgresPassword: s3cretpass",
            'redis:\n  password: "changeme123"',
            "oauth:\n  clientSecret: 8f14e45fceea167a5a36dedd4bea2543",
            "slack:\n  token: xoxb-123-456",
            "production:\n  db_password: s3cr3t-pw",
        ),
        safe=(
            "auth:\n  existingSecret: db-credentials\n  secretKeys:\n"
            "    adminPasswordKey: postgres-password",
            'redis:\n  password: ""',
            "with:\n  password: ${{ secrets.REGISTRY_PASSWORD }}",
            "password: {{ .Values.global.password }}",
            "useToken: true",
            "password: <%= ENV['DB_PASSWORD'] %>",
        ),
    ),
]
