# ruff: noqa: E501
"""Wave 5 variants (group i1), written blind: from each pattern's name and examples only,
before its detector was read (see the measurement below).

Blind: hits caught 193/212, safe left alone 105/106.
After widening the detectors: hits caught 212/212, safe left alone 106/106; no variant was
dropped or relabelled."""

VARIANTS: list[tuple[str, str, str, str]] = [  # (pattern name, "hit" | "safe", text, file path)
    # dockerfile-latest-tag
    ("dockerfile-latest-tag", "hit", "FROM mcr.microsoft.com/dotnet/aspnet\nWORKDIR /app\nCOPY --from=build /out .\nENTRYPOINT [\"dotnet\", \"Api.dll\"]", "Dockerfile"),
    ("dockerfile-latest-tag", "hit", "ARG RUBY=3.3\nFROM ruby:${RUBY} AS assets\nRUN bundle exec rake assets:precompile\n\nFROM nginx:latest\nCOPY --from=assets /app/public /usr/share/nginx/html", "docker/web.Dockerfile"),
    ("dockerfile-latest-tag", "safe", "FROM --platform=$BUILDPLATFORM golang:1.22.4-bookworm AS build\nRUN go build ./...\nFROM build AS test\nRUN go test ./...", "Dockerfile"),
    # dockerfile-runs-as-root
    ("dockerfile-runs-as-root", "hit", "FROM ruby:3.3-slim\nWORKDIR /app\nCOPY Gemfile Gemfile.lock ./\nRUN bundle install\nCOPY . .\nEXPOSE 3000\nCMD [\"bundle\", \"exec\", \"puma\"]", "Dockerfile"),
    ("dockerfile-runs-as-root", "hit", "FROM node:20-alpine\nRUN addgroup -S app && adduser -S app -G app\nUSER app\nRUN npm ci\nUSER 0\nCMD [\"node\", \"index.js\"]", "Dockerfile"),
    ("dockerfile-runs-as-root", "safe", "FROM eclipse-temurin:21-jre\nRUN groupadd -r svc && useradd -r -g svc svc\nCOPY app.jar /opt/app.jar\nUSER svc:svc\nENTRYPOINT [\"java\", \"-jar\", \"/opt/app.jar\"]", "Dockerfile"),
    # dockerfile-add-instead-of-copy
    ("dockerfile-add-instead-of-copy", "hit", "FROM python:3.12-slim\nWORKDIR /srv\nADD requirements.txt .\nRUN pip install --no-cache-dir -r requirements.txt", "Dockerfile"),
    ("dockerfile-add-instead-of-copy", "hit", "WORKDIR /usr/src/app\nADD [\"package.json\", \"yarn.lock\", \"./\"]\nRUN yarn install --frozen-lockfile", "Dockerfile"),
    ("dockerfile-add-instead-of-copy", "safe", "FROM debian:12-slim\nADD vendor/jdk-21_linux-x64_bin.tar.gz /opt/", "Dockerfile"),
    # dockerfile-add-remote-url
    ("dockerfile-add-remote-url", "hit", "ADD https://releases.hashicorp.com/terraform/1.8.5/terraform_1.8.5_linux_amd64.zip /tmp/tf.zip\nRUN unzip /tmp/tf.zip -d /usr/local/bin", "Dockerfile"),
    ("dockerfile-add-remote-url", "hit", "ADD --chown=app:app https://raw.githubusercontent.com/vishnubob/wait-for-it/master/wait-for-it.sh /usr/local/bin/wait-for-it", "Dockerfile"),
    ("dockerfile-add-remote-url", "safe", "ADD --checksum=sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 https://github.com/krallin/tini/releases/download/v0.19.0/tini /tini", "Dockerfile"),
    # dockerfile-apt-no-install-recommends
    ("dockerfile-apt-no-install-recommends", "hit", "RUN apt-get update \\\n    && apt-get install --yes \\\n       libpq-dev \\\n       gcc \\\n    && rm -rf /var/lib/apt/lists/*", "Dockerfile"),
    ("dockerfile-apt-no-install-recommends", "hit", "RUN set -eux; apt-get update; apt-get -y install ffmpeg; rm -rf /var/lib/apt/lists/*", "Dockerfile"),
    ("dockerfile-apt-no-install-recommends", "safe", "RUN apt-get update \\\n && apt-get install -qy --no-install-recommends \\\n      tini \\\n && rm -rf /var/lib/apt/lists/*", "Dockerfile"),
    # dockerfile-apt-lists-kept
    ("dockerfile-apt-lists-kept", "hit", "RUN apt-get update && apt-get install -y --no-install-recommends python3 python3-pip && apt-get clean && rm -rf /tmp/*", "Dockerfile"),
    ("dockerfile-apt-lists-kept", "hit", "RUN apt-get -y update && apt-get -y install --no-install-recommends jq unzip", "Dockerfile"),
    ("dockerfile-apt-lists-kept", "safe", "RUN apt-get update \\\n    && apt-get install -y --no-install-recommends git \\\n    && apt-get purge -y --auto-remove \\\n    && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*", "Dockerfile"),
    # dockerfile-apt-update-alone
    ("dockerfile-apt-update-alone", "hit", "FROM debian:bookworm-slim\nRUN apt-get update -y\nRUN apt-get install -y --no-install-recommends curl && rm -rf /var/lib/apt/lists/*", "Dockerfile"),
    ("dockerfile-apt-update-alone", "hit", "RUN apt-get update -qq\nCOPY apt-packages.txt /tmp/\nRUN xargs apt-get install -y < /tmp/apt-packages.txt", "Dockerfile"),
    ("dockerfile-apt-update-alone", "safe", "RUN set -eux; \\\n    apt-get update; \\\n    apt-get install -y --no-install-recommends make; \\\n    rm -rf /var/lib/apt/lists/*", "Dockerfile"),
    # dockerfile-apk-no-cache
    ("dockerfile-apk-no-cache", "hit", "FROM alpine:3.20\nRUN apk update && apk upgrade && apk add bash tzdata", "Dockerfile"),
    ("dockerfile-apk-no-cache", "hit", "RUN apk add --update --virtual build-deps python3-dev libffi-dev \\\n && pip install cryptography \\\n && apk del build-deps", "Dockerfile"),
    ("dockerfile-apk-no-cache", "safe", "FROM alpine:3.20\nRUN apk --no-cache add ca-certificates tzdata", "Dockerfile"),
    # dockerfile-secret-in-env-arg
    ("dockerfile-secret-in-env-arg", "hit", "ARG PIP_INDEX_PASSWORD\nRUN pip install --index-url https://ci:${PIP_INDEX_PASSWORD}@pypi.acme.io/simple acme-core", "Dockerfile"),
    ("dockerfile-secret-in-env-arg", "hit", "FROM node:20-slim\nENV SENTRY_AUTH_TOKEN=sntrys_eyJpYXQiOjE3MDk\nRUN npm run build", "Dockerfile"),
    ("dockerfile-secret-in-env-arg", "safe", "RUN --mount=type=secret,id=sentry,env=SENTRY_AUTH_TOKEN npm run build", "Dockerfile"),
    # dockerfile-copy-secret-file
    ("dockerfile-copy-secret-file", "hit", "COPY --chown=node:node .npmrc ./\nRUN npm ci\nRUN rm .npmrc", "Dockerfile"),
    ("dockerfile-copy-secret-file", "hit", "COPY config/gcp-service-account.json /secrets/sa.json\nENV GOOGLE_APPLICATION_CREDENTIALS=/secrets/sa.json", "Dockerfile"),
    ("dockerfile-copy-secret-file", "safe", "COPY --chown=app:app .env.dist ./.env", "Dockerfile"),
    # dockerfile-curl-pipe-shell
    ("dockerfile-curl-pipe-shell", "hit", "RUN curl -sL https://sentry.io/get-cli/ | bash", "Dockerfile"),
    ("dockerfile-curl-pipe-shell", "hit", "RUN wget -O - https://raw.githubusercontent.com/nvm-sh/nvm/v0.39.7/install.sh | bash \\\n && . ~/.nvm/nvm.sh && nvm install 20", "Dockerfile"),
    ("dockerfile-curl-pipe-shell", "safe", "RUN curl -fsSL https://download.docker.com/linux/debian/gpg -o /etc/apt/keyrings/docker.asc", "Dockerfile"),
    # dockerfile-copy-all-before-install
    ("dockerfile-copy-all-before-install", "hit", "FROM php:8.3-fpm\nWORKDIR /var/www\nCOPY . /var/www\nRUN composer install --no-dev --optimize-autoloader", "Dockerfile"),
    ("dockerfile-copy-all-before-install", "hit", "WORKDIR /app\nADD . .\nRUN pnpm install --frozen-lockfile && pnpm build", "Dockerfile"),
    ("dockerfile-copy-all-before-install", "safe", "COPY pyproject.toml poetry.lock ./\nRUN poetry install --no-root --only main\nCOPY src ./src\nRUN poetry install --only-root", "Dockerfile"),
    # dockerfile-sudo
    ("dockerfile-sudo", "hit", "USER app\nRUN sudo mkdir -p /var/log/app && sudo chown -R app /var/log/app", "Dockerfile"),
    ("dockerfile-sudo", "hit", "RUN curl -fsSL https://deb.nodesource.com/gpgkey/nodesource.gpg.key | sudo gpg --dearmor -o /usr/share/keyrings/nodesource.gpg", "Dockerfile"),
    ("dockerfile-sudo", "safe", "RUN useradd -m devuser && usermod -aG sudo devuser", "Dockerfile"),
    # dockerfile-pip-cache
    ("dockerfile-pip-cache", "hit", "RUN pip install --upgrade pip setuptools wheel \\\n && pip install -e .[prod]", "Dockerfile"),
    ("dockerfile-pip-cache", "hit", "COPY requirements/ requirements/\nRUN python3 -m pip install -r requirements/prod.txt", "Dockerfile"),
    ("dockerfile-pip-cache", "safe", "RUN uv pip install --system --no-cache -r requirements.txt", "Dockerfile"),
    # dockerfile-ssh-server
    ("dockerfile-ssh-server", "hit", "RUN apk add --no-cache openssh \\\n && ssh-keygen -A\nEXPOSE 22\nCMD [\"/usr/sbin/sshd\", \"-D\", \"-e\"]", "Dockerfile"),
    ("dockerfile-ssh-server", "hit", "FROM rockylinux:9\nRUN yum install -y openssh-server && yum clean all", "Dockerfile"),
    ("dockerfile-ssh-server", "safe", "RUN apt-get update && apt-get install -y --no-install-recommends openssh-client rsync && rm -rf /var/lib/apt/lists/*\nEXPOSE 8443", "Dockerfile"),
    # dockerfile-no-healthcheck
    ("dockerfile-no-healthcheck", "hit", "FROM golang:1.22 AS build\nWORKDIR /src\nCOPY . .\nRUN go build -o /out/api ./cmd/api\n\nFROM gcr.io/distroless/base-debian12\nCOPY --from=build /out/api /api\nUSER nonroot\nENTRYPOINT [\"/api\"]", "Dockerfile"),
    ("dockerfile-no-healthcheck", "hit", "FROM openjdk:21-slim\nCOPY app.jar /app.jar\nEXPOSE 8080\nCMD java -jar /app.jar", "Dockerfile"),
    ("dockerfile-no-healthcheck", "safe", "FROM redis:7.2\nHEALTHCHECK --interval=10s --timeout=3s --retries=5 \\\n  CMD redis-cli ping || exit 1\nCMD [\"redis-server\"]", "Dockerfile"),
    # dockerfile-shell-form-cmd
    ("dockerfile-shell-form-cmd", "hit", "COPY docker-entrypoint.sh /usr/local/bin/\nENTRYPOINT /usr/local/bin/docker-entrypoint.sh", "Dockerfile"),
    ("dockerfile-shell-form-cmd", "hit", "EXPOSE 8000\nCMD gunicorn --workers 4 --bind 0.0.0.0:8000 app.wsgi:application", "Dockerfile"),
    ("dockerfile-shell-form-cmd", "safe", "ENTRYPOINT [\"dumb-init\", \"--\"]\nCMD [\"gunicorn\", \"-b\", \"0.0.0.0:8000\", \"app.wsgi\"]", "Dockerfile"),
    # compose-docker-socket
    ("compose-docker-socket", "hit", "services:\n  traefik:\n    image: traefik:v3.0\n    ports:\n      - \"80:80\"\n    volumes:\n      - type: bind\n        source: /var/run/docker.sock\n        target: /var/run/docker.sock\n        read_only: true", "docker-compose.yml"),
    ("compose-docker-socket", "hit", "services:\n  runner:\n    image: gitlab/gitlab-runner:v16.11.0\n    volumes:\n      - /srv/gitlab-runner/config:/etc/gitlab-runner\n      - ${DOCKER_SOCK:-/var/run/docker.sock}:/var/run/docker.sock", "compose.yaml"),
    ("compose-docker-socket", "safe", "services:\n  app:\n    image: acme/app:1.4\n    volumes:\n      - ./docker/entrypoint.sh:/docker-entrypoint.sh:ro", "docker-compose.yml"),
    # compose-network-host
    ("compose-network-host", "hit", "services:\n  homeassistant:\n    image: ghcr.io/home-assistant/home-assistant:2024.6\n    restart: unless-stopped\n    network_mode: host   # needed for mDNS discovery", "docker-compose.yml"),
    ("compose-network-host", "hit", "x-common: &common\n  network_mode: \"host\"\n  restart: always\nservices:\n  scraper:\n    <<: *common\n    image: acme/scraper:3.1", "docker-compose.override.yml"),
    ("compose-network-host", "safe", "services:\n  vpn-client:\n    image: qmcgaw/gluetun:v3\n  torrent:\n    image: linuxserver/qbittorrent:4.6.5\n    network_mode: \"container:vpn-client\"", "docker-compose.yml"),
    # compose-db-port-public
    ("compose-db-port-public", "hit", "services:\n  mysql:\n    image: mysql:8.4\n    restart: unless-stopped\n    ports:\n      - 3306:3306", "docker-compose.yml"),
    ("compose-db-port-public", "hit", "services:\n  cache:\n    image: redis:7.2-alpine\n    ports:\n      - published: 6380\n        target: 6379\n        protocol: tcp", "compose.yaml"),
    ("compose-db-port-public", "safe", "services:\n  mysql:\n    image: mysql:8.4\n    ports:\n      - \"127.0.0.1:3307:3306\"", "docker-compose.yml"),
    # compose-env-password
    ("compose-env-password", "hit", "services:\n  keycloak:\n    image: quay.io/keycloak/keycloak:24.0\n    environment:\n      KEYCLOAK_ADMIN: admin\n      KEYCLOAK_ADMIN_PASSWORD: Adm1nPass!", "docker-compose.yml"),
    ("compose-env-password", "hit", "services:\n  api:\n    build: .\n    environment:\n      - NODE_ENV=production\n      - JWT_SECRET=my-super-secret-jwt-key\n      - PORT=3000", "docker-compose.prod.yml"),
    ("compose-env-password", "safe", "services:\n  grafana:\n    image: grafana/grafana:11.0.0\n    environment:\n      GF_SECURITY_ADMIN_PASSWORD__FILE: /run/secrets/grafana_admin\n    secrets:\n      - grafana_admin", "docker-compose.yml"),
    # compose-depends-on-unhealthy
    ("compose-depends-on-unhealthy", "hit", "services:\n  web:\n    build: ./web\n    depends_on: [api, db]\n  db:\n    image: postgres:16", "docker-compose.yml"),
    ("compose-depends-on-unhealthy", "hit", "services:\n  app:\n    image: acme/app:2.3\n    depends_on:\n      kafka:\n        condition: service_started\n        restart: true", "compose.yaml"),
    ("compose-depends-on-unhealthy", "safe", "services:\n  app:\n    depends_on:\n      postgres:\n        condition: service_healthy\n        restart: true\n  postgres:\n    image: postgres:16\n    healthcheck:\n      test: [\"CMD-SHELL\", \"pg_isready -U app\"]", "docker-compose.yml"),
    # k8s-no-resource-limits
    ("k8s-no-resource-limits", "hit", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: kafka\nspec:\n  serviceName: kafka\n  template:\n    spec:\n      containers:\n      - image: bitnami/kafka:3.7\n        name: kafka\n        ports:\n        - containerPort: 9092\n        resources:\n          requests:\n            memory: 1Gi\n            cpu: 500m", "k8s/kafka.yaml"),
    ("k8s-no-resource-limits", "hit", "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: reindex\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: reindex\n          image: acme/search-tools:0.9.1\n          args: [\"reindex\", \"--all\"]", "k8s/jobs/reindex.yaml"),
    ("k8s-no-resource-limits", "safe", "containers:\n- name: api\n  image: acme/api:2.1.0\n  resources:\n    requests: {cpu: 250m, memory: 256Mi}\n    limits: {memory: 512Mi}", "k8s/api.yaml"),
    # k8s-privileged
    ("k8s-privileged", "hit", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: node-agent\nspec:\n  template:\n    spec:\n      containers:\n      - name: agent\n        image: acme/node-agent:2.4\n        securityContext:\n          runAsUser: 0\n          # needs raw access to the host devices\n          privileged: true", "k8s/node-agent.yaml"),
    ("k8s-privileged", "hit", "services:\n  dind:\n    image: docker:26-dind\n    privileged: true\n    environment:\n      DOCKER_TLS_CERTDIR: /certs", "docker-compose.yml"),
    ("k8s-privileged", "safe", "podSecurityContext:\n  runAsNonRoot: true\nsecurityContext:\n  privileged: false\n  allowPrivilegeEscalation: false", "charts/agent/values.yaml"),
    # k8s-privilege-escalation
    ("k8s-privilege-escalation", "hit", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: debug\nspec:\n  containers:\n  - name: shell\n    image: busybox:1.36\n    command: [\"sleep\", \"3600\"]\n    securityContext:\n      runAsUser: 1000\n      readOnlyRootFilesystem: true", "k8s/debug-pod.yaml"),
    ("k8s-privilege-escalation", "hit", "containers:\n  - name: worker\n    image: acme/worker:5.2.0\n    securityContext: {allowPrivilegeEscalation: true, runAsNonRoot: true}", "k8s/worker.yaml"),
    ("k8s-privilege-escalation", "safe", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - name: api\n        image: acme/api:3.0.1\n        securityContext:\n          runAsNonRoot: true\n          allowPrivilegeEscalation: false\n          capabilities:\n            drop: [ALL]", "k8s/api.yaml"),
    # k8s-runs-as-root
    ("k8s-runs-as-root", "hit", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: redis\nspec:\n  template:\n    spec:\n      securityContext:\n        runAsUser: 0\n        fsGroup: 0\n      containers:\n      - name: redis\n        image: redis:7.2.5", "k8s/redis.yaml"),
    ("k8s-runs-as-root", "hit", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: toolbox\nspec:\n  containers:\n  - image: acme/toolbox:1.0.3\n    name: toolbox\n    command: [\"sleep\", \"infinity\"]", "k8s/toolbox.yaml"),
    ("k8s-runs-as-root", "safe", "spec:\n  securityContext:\n    runAsNonRoot: true\n    runAsUser: 65532\n    runAsGroup: 65532\n  containers:\n  - name: api\n    image: acme/api:3.0.1", "k8s/api.yaml"),
    # k8s-host-namespace
    ("k8s-host-namespace", "hit", "apiVersion: apps/v1\nkind: DaemonSet\nspec:\n  template:\n    spec:\n      hostNetwork: true\n      dnsPolicy: ClusterFirstWithHostNet\n      containers:\n      - name: exporter\n        image: prom/node-exporter:v1.8.1", "k8s/node-exporter.yaml"),
    ("k8s-host-namespace", "hit", "services:\n  agent:\n    image: datadog/agent:7\n    pid: \"host\"\n    ipc: host", "docker-compose.yml"),
    ("k8s-host-namespace", "safe", "spec:\n  hostNetwork: false\n  hostPID: false\n  hostname: worker-1\n  containers:\n  - name: w\n    image: acme/w:1.0.0", "k8s/worker.yaml"),
    # k8s-hostpath-volume
    ("k8s-hostpath-volume", "hit", "volumes:\n  - hostPath:\n      type: Socket\n      path: /run/containerd/containerd.sock\n    name: containerd", "k8s/daemonset.yaml"),
    ("k8s-hostpath-volume", "hit", "persistence:\n  enabled: true\nextraVolumes:\n  - name: host-certs\n    hostPath: { path: /etc/ssl/certs }", "charts/api/values.yaml"),
    ("k8s-hostpath-volume", "safe", "volumes:\n  - name: config\n    configMap:\n      name: app-config\n  - name: cache\n    emptyDir:\n      medium: Memory\nvolumeMounts:\n  - name: config\n    mountPath: /etc/app", "k8s/api.yaml"),
    # k8s-no-readiness-probe
    ("k8s-no-readiness-probe", "hit", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: orders\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n      - name: orders\n        image: acme/orders:4.1.0\n        ports:\n        - containerPort: 8080\n        livenessProbe:\n          httpGet: {path: /healthz, port: 8080}", "k8s/orders.yaml"),
    ("k8s-no-readiness-probe", "hit", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: zookeeper\nspec:\n  template:\n    spec:\n      containers:\n        - image: zookeeper:3.9\n          name: zk\n          resources:\n            limits: {memory: 1Gi}", "k8s/zk.yaml"),
    ("k8s-no-readiness-probe", "safe", "kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - name: grpc\n        image: acme/grpc:1.2.0\n        readinessProbe:\n          grpc:\n            port: 9090\n          periodSeconds: 5", "k8s/grpc.yaml"),
    # k8s-no-liveness-probe
    ("k8s-no-liveness-probe", "hit", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: rabbit\nspec:\n  template:\n    spec:\n      containers:\n      - name: rabbitmq\n        image: rabbitmq:3.13-management\n        readinessProbe:\n          exec:\n            command: [\"rabbitmq-diagnostics\", \"ping\"]", "k8s/rabbit.yaml"),
    ("k8s-no-liveness-probe", "hit", "kind: Deployment\nmetadata:\n  name: gateway\nspec:\n  template:\n    spec:\n      containers:\n        - name: envoy\n          image: envoyproxy/envoy:v1.30.1\n          startupProbe:\n            httpGet: {path: /ready, port: 9901}", "k8s/gateway.yaml"),
    ("k8s-no-liveness-probe", "safe", "kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - name: worker\n        image: acme/worker:2.0.0\n        livenessProbe:\n          exec:\n            command: [cat, /tmp/healthy]\n          initialDelaySeconds: 10", "k8s/worker.yaml"),
    # k8s-secret-env-value
    ("k8s-secret-env-value", "hit", "env:\n  - name: SMTP_PASSWORD\n    value: \"Mailgun!2024\"\n  - name: SMTP_HOST\n    value: smtp.mailgun.org", "k8s/mailer.yaml"),
    ("k8s-secret-env-value", "hit", "containers:\n- name: api\n  image: acme/api:1.2.0\n  env:\n  - name: OPENAI_API_KEY\n    value: sk-proj-abc123def456ghi", "k8s/api.yaml"),
    ("k8s-secret-env-value", "safe", "env:\n  - name: SMTP_PASSWORD\n    valueFrom:\n      secretKeyRef: {name: smtp, key: password}\n  - name: SMTP_USER\n    value: postmaster", "k8s/mailer.yaml"),
    # k8s-secret-manifest-plaintext
    ("k8s-secret-manifest-plaintext", "hit", "apiVersion: v1\nkind: Secret\nmetadata:\n  name: registry-creds\n  namespace: ci\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: eyJhdXRocyI6eyJnaGNyLmlvIjp7ImF1dGgiOiJZbTkwT25Cd2N3PT0ifX19", "k8s/registry-secret.yaml"),
    ("k8s-secret-manifest-plaintext", "hit", "---\napiVersion: v1\nstringData:\n  DATABASE_URL: postgres://app:Pa55word@db:5432/app\nkind: Secret\nmetadata:\n  name: app-env", "k8s/app-env.yaml"),
    ("k8s-secret-manifest-plaintext", "safe", "apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nmetadata:\n  name: app-env\nspec:\n  secretStoreRef:\n    name: vault\n    kind: ClusterSecretStore\n  target:\n    name: app-env\n  data:\n  - secretKey: DATABASE_URL\n    remoteRef:\n      key: prod/app/database_url", "k8s/app-env.yaml"),
    # k8s-capabilities-add
    ("k8s-capabilities-add", "hit", "securityContext:\n  capabilities:\n    drop: [\"ALL\"]\n    add:\n      - NET_ADMIN\n      - NET_RAW", "k8s/vpn.yaml"),
    ("k8s-capabilities-add", "hit", "services:\n  wireguard:\n    image: linuxserver/wireguard:1.0.20210914\n    cap_add: [NET_ADMIN, SYS_MODULE]", "docker-compose.yml"),
    ("k8s-capabilities-add", "safe", "securityContext:\n  capabilities:\n    add: [\"NET_BIND_SERVICE\"]\n    drop: [\"ALL\"]", "k8s/web.yaml"),
    # k8s-automount-sa-token
    ("k8s-automount-sa-token", "hit", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: postgres\nspec:\n  serviceName: postgres\n  template:\n    spec:\n      serviceAccountName: postgres\n      containers:\n      - name: postgres\n        image: postgres:16.3", "k8s/postgres.yaml"),
    ("k8s-automount-sa-token", "hit", "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: migrate\nspec:\n  template:\n    spec:\n      restartPolicy: OnFailure\n      containers:\n      - name: migrate\n        image: acme/api:3.1.0\n        command: [\"./manage.py\", \"migrate\"]", "k8s/migrate-job.yaml"),
    ("k8s-automount-sa-token", "safe", "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      serviceAccountName: web\n      automountServiceAccountToken: false\n      containers:\n      - name: web\n        image: acme/web:2.0.0", "k8s/web.yaml"),
    # k8s-cluster-admin-binding
    ("k8s-cluster-admin-binding", "hit", "kubectl create clusterrolebinding jenkins-admin --clusterrole cluster-admin --serviceaccount jenkins:default", ""),
    ("k8s-cluster-admin-binding", "hit", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata:\n  name: argocd-manager\nroleRef:\n  name: cluster-admin\n  kind: ClusterRole\n  apiGroup: rbac.authorization.k8s.io\nsubjects:\n- kind: ServiceAccount\n  name: argocd-manager\n  namespace: kube-system", "k8s/rbac.yaml"),
    ("k8s-cluster-admin-binding", "safe", "kubectl describe clusterrole cluster-admin", ""),
    # k8s-rbac-wildcard
    ("k8s-rbac-wildcard", "hit", "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: operator\nrules:\n- apiGroups:\n  - \"*\"\n  resources:\n  - \"*\"\n  verbs:\n  - \"*\"", "k8s/operator-rbac.yaml"),
    ("k8s-rbac-wildcard", "hit", "rules:\n  - { apiGroups: [\"\"], resources: [\"*\"], verbs: [\"list\", \"watch\"] }", "k8s/reader.yaml"),
    ("k8s-rbac-wildcard", "safe", "rules:\n- apiGroups: [\"batch\"]\n  resources: [\"jobs\", \"cronjobs\"]\n  verbs: [\"get\", \"list\", \"watch\", \"create\", \"delete\"]\n  resourceNames: [\"nightly-report\"]", "k8s/reporter.yaml"),
    # k8s-image-latest
    ("k8s-image-latest", "hit", "spec:\n  containers:\n    - name: sidecar\n      image: \"docker.io/envoyproxy/envoy:latest\"\n      imagePullPolicy: Always", "k8s/sidecar.yaml"),
    ("k8s-image-latest", "hit", "services:\n  cache:\n    image: redis\n    restart: always", "docker-compose.yml"),
    ("k8s-image-latest", "safe", "initContainers:\n- name: wait\n  image: busybox:1.36.1\ncontainers:\n- name: api\n  image: ghcr.io/acme/api@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "k8s/api.yaml"),
    # k8s-writable-root-fs
    ("k8s-writable-root-fs", "hit", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: payments\nspec:\n  template:\n    spec:\n      containers:\n      - name: payments\n        image: acme/payments:2.2.0\n        securityContext:\n          allowPrivilegeEscalation: false\n          capabilities: {drop: [ALL]}", "k8s/payments.yaml"),
    ("k8s-writable-root-fs", "hit", "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: cleanup\nspec:\n  schedule: \"0 3 * * *\"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers:\n          - name: cleanup\n            image: acme/tools:1.5.0", "k8s/cleanup.yaml"),
    ("k8s-writable-root-fs", "safe", "containers:\n- name: nginx\n  image: nginxinc/nginx-unprivileged:1.27\n  securityContext: {readOnlyRootFilesystem: true, runAsNonRoot: true}\n  volumeMounts:\n  - {name: tmp, mountPath: /tmp}", "k8s/nginx.yaml"),
    # helm-values-plain-secret
    ("helm-values-plain-secret", "hit", "mariadb:\n  enabled: true\n  auth:\n    rootPassword: Tr0ub4dor&3\n    database: wordpress", "charts/wordpress/values.yaml"),
    ("helm-values-plain-secret", "hit", "smtp:\n  host: smtp.sendgrid.net\n  user: apikey\n  apiKey: SG.x8Ff3kQ2TwyZ.abcDEF123", "helm/values-prod.yaml"),
    ("helm-values-plain-secret", "safe", "mariadb:\n  auth:\n    existingSecret: wordpress-db\n    rootPassword: \"\"\n  primary:\n    persistence:\n      size: 8Gi", "charts/wordpress/values.yaml"),
    # tf-hcl-public-bucket
    ("tf-hcl-public-bucket", "hit", "resource \"aws_s3_bucket\" \"assets\" {\n  bucket = \"acme-public-assets\"\n  acl    = \"public-read\"\n\n  website {\n    index_document = \"index.html\"\n  }\n}", "infra/s3.tf"),
    ("tf-hcl-public-bucket", "hit", "resource \"google_storage_bucket_iam_binding\" \"public\" {\n  bucket = google_storage_bucket.site.name\n  role   = \"roles/storage.objectViewer\"\n  members = [\n    \"allUsers\",\n  ]\n}", "infra/gcs.tf"),
    ("tf-hcl-public-bucket", "safe", "resource \"aws_s3_bucket_ownership_controls\" \"logs\" {\n  bucket = aws_s3_bucket.logs.id\n  rule {\n    object_ownership = \"BucketOwnerEnforced\"\n  }\n}\nresource \"aws_s3_bucket_acl\" \"logs\" {\n  bucket = aws_s3_bucket.logs.id\n  acl    = \"log-delivery-write\"\n}", "infra/logs.tf"),
    # tf-hcl-public-access-block-off
    ("tf-hcl-public-access-block-off", "hit", "resource \"aws_s3_bucket_public_access_block\" \"site\" {\n  bucket                  = aws_s3_bucket.site.id\n  block_public_acls       = false\n  block_public_policy     = false\n  ignore_public_acls      = false\n  restrict_public_buckets = false\n}", "infra/site.tf"),
    ("tf-hcl-public-access-block-off", "hit", "module \"bucket\" {\n  source  = \"terraform-aws-modules/s3-bucket/aws\"\n  version = \"4.1.2\"\n  block_public_policy     = false\n  restrict_public_buckets = false\n}", "infra/bucket.tf"),
    ("tf-hcl-public-access-block-off", "safe", "resource \"aws_s3_bucket_public_access_block\" \"logs\" {\n  bucket = aws_s3_bucket.logs.id\n  block_public_acls       = true\n  block_public_policy     = true\n  ignore_public_acls      = true\n  restrict_public_buckets = true\n}", "infra/logs.tf"),
    # tf-hcl-sg-open-admin-port
    ("tf-hcl-sg-open-admin-port", "hit", "resource \"aws_security_group\" \"bastion\" {\n  name = \"bastion\"\n  ingress {\n    description = \"SSH from anywhere\"\n    cidr_blocks = [\"0.0.0.0/0\"]\n    protocol    = \"tcp\"\n    to_port     = 22\n    from_port   = 22\n  }\n}", "infra/bastion.tf"),
    ("tf-hcl-sg-open-admin-port", "hit", "resource \"azurerm_network_security_rule\" \"rdp\" {\n  name                       = \"allow-rdp\"\n  direction                  = \"Inbound\"\n  access                     = \"Allow\"\n  protocol                   = \"Tcp\"\n  destination_port_range     = \"3389\"\n  source_address_prefix      = \"*\"\n}", "infra/nsg.tf"),
    ("tf-hcl-sg-open-admin-port", "safe", "resource \"aws_security_group_rule\" \"https\" {\n  type        = \"ingress\"\n  from_port   = 443\n  to_port     = 443\n  protocol    = \"tcp\"\n  cidr_blocks = [\"0.0.0.0/0\"]\n}\nresource \"aws_security_group_rule\" \"ssh\" {\n  type        = \"ingress\"\n  from_port   = 22\n  to_port     = 22\n  protocol    = \"tcp\"\n  cidr_blocks = [var.office_cidr]\n}", "infra/sg.tf"),
    # tf-hcl-unencrypted-storage
    ("tf-hcl-unencrypted-storage", "hit", "resource \"aws_efs_file_system\" \"shared\" {\n  creation_token   = \"shared\"\n  performance_mode = \"generalPurpose\"\n}", "infra/efs.tf"),
    ("tf-hcl-unencrypted-storage", "hit", "resource \"aws_db_instance\" \"reporting\" {\n  identifier        = \"reporting\"\n  engine            = \"mysql\"\n  allocated_storage = 50\n  storage_encrypted = false\n  username          = \"report\"\n}", "infra/rds.tf"),
    ("tf-hcl-unencrypted-storage", "safe", "resource \"aws_rds_cluster\" \"aurora\" {\n  engine            = \"aurora-postgresql\"\n  storage_encrypted = true\n  kms_key_id        = aws_kms_key.rds.arn\n}", "infra/aurora.tf"),
    # tf-hcl-hardcoded-secret
    ("tf-hcl-hardcoded-secret", "hit", "resource \"azurerm_mssql_server\" \"sql\" {\n  name                         = \"acme-sql\"\n  administrator_login          = \"sqladmin\"\n  administrator_login_password = \"P@ssw0rd1234!\"\n}", "infra/sql.tf"),
    ("tf-hcl-hardcoded-secret", "hit", "provider \"datadog\" {\n  api_key = \"3f9c2a7b1e8d4c6f0a5b9e2d7c1f4a8b\"\n  app_key = \"9b8a7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b\"\n}", "infra/providers.tf"),
    ("tf-hcl-hardcoded-secret", "safe", "resource \"azurerm_mssql_server\" \"sql\" {\n  administrator_login          = \"sqladmin\"\n  administrator_login_password = data.azurerm_key_vault_secret.sql.value\n}", "infra/sql.tf"),
    # tf-hcl-unpinned-source
    ("tf-hcl-unpinned-source", "hit", "module \"eks\" {\n  source       = \"github.com/acme/terraform-eks\"\n  cluster_name = \"prod\"\n}", "infra/eks.tf"),
    ("tf-hcl-unpinned-source", "hit", "module \"label\" {\n  source    = \"cloudposse/label/null\"\n  namespace = \"acme\"\n  stage     = \"prod\"\n}", "infra/label.tf"),
    ("tf-hcl-unpinned-source", "safe", "module \"label\" {\n  source    = \"cloudposse/label/null\"\n  version   = \"0.25.0\"\n  namespace = \"acme\"\n}", "infra/label.tf"),
    # tf-hcl-db-deletion-protection
    ("tf-hcl-db-deletion-protection", "hit", "resource \"google_sql_database_instance\" \"main\" {\n  name                = \"main-pg\"\n  database_version    = \"POSTGRES_16\"\n  deletion_protection = false\n}", "infra/cloudsql.tf"),
    ("tf-hcl-db-deletion-protection", "hit", "resource \"aws_db_instance\" \"orders\" {\n  identifier     = \"orders\"\n  engine         = \"postgres\"\n  instance_class = \"db.m6g.large\"\n  skip_final_snapshot=true\n}", "infra/orders.tf"),
    ("tf-hcl-db-deletion-protection", "safe", "resource \"google_sql_database_instance\" \"main\" {\n  database_version    = \"POSTGRES_16\"\n  deletion_protection = true\n}", "infra/cloudsql.tf"),
    # tf-hcl-publicly-accessible
    ("tf-hcl-publicly-accessible", "hit", "resource \"aws_rds_cluster_instance\" \"writer\" {\n  cluster_identifier  = aws_rds_cluster.main.id\n  instance_class      = \"db.r6g.large\"\n  publicly_accessible = true\n}", "infra/aurora.tf"),
    ("tf-hcl-publicly-accessible", "hit", "resource \"azurerm_postgresql_flexible_server_firewall_rule\" \"all\" {\n  name             = \"allow-all\"\n  server_id        = azurerm_postgresql_flexible_server.db.id\n  start_ip_address = \"0.0.0.0\"\n  end_ip_address   = \"255.255.255.255\"\n}", "infra/pg.tf"),
    ("tf-hcl-publicly-accessible", "safe", "resource \"aws_db_instance\" \"db\" {\n  publicly_accessible    = false\n  db_subnet_group_name   = aws_db_subnet_group.private.name\n}", "infra/db.tf"),
    # tf-hcl-iam-wildcard
    ("tf-hcl-iam-wildcard", "hit", "resource \"aws_iam_role_policy\" \"ci\" {\n  role = aws_iam_role.ci.id\n  policy = jsonencode({\n    Version = \"2012-10-17\"\n    Statement = [{\n      Effect   = \"Allow\"\n      Action   = \"*\"\n      Resource = \"*\"\n    }]\n  })\n}", "infra/iam.tf"),
    ("tf-hcl-iam-wildcard", "hit", "{\n  \"Version\": \"2012-10-17\",\n  \"Statement\": [\n    {\n      \"Sid\": \"Everything\",\n      \"Effect\": \"Allow\",\n      \"Action\": [\"*\"],\n      \"Resource\": [\"*\"]\n    }\n  ]\n}", "iam/deploy-policy.json"),
    ("tf-hcl-iam-wildcard", "safe", "{\n  \"Version\": \"2012-10-17\",\n  \"Statement\": [{\n    \"Effect\": \"Allow\",\n    \"Action\": [\"logs:CreateLogStream\", \"logs:PutLogEvents\"],\n    \"Resource\": \"arn:aws:logs:*:*:log-group:/aws/lambda/*\"\n  }]\n}", "iam/lambda-logs.json"),
    # tf-hcl-principal-wildcard
    ("tf-hcl-principal-wildcard", "hit", "resource \"aws_s3_bucket_policy\" \"site\" {\n  bucket = aws_s3_bucket.site.id\n  policy = jsonencode({\n    Statement = [{\n      Effect    = \"Allow\"\n      Principal = \"*\"\n      Action    = \"s3:GetObject\"\n      Resource  = \"${aws_s3_bucket.site.arn}/*\"\n    }]\n  })\n}", "infra/site.tf"),
    ("tf-hcl-principal-wildcard", "hit", "{\"Statement\": [{\"Effect\": \"Allow\", \"Principal\": {\"AWS\": [\"*\"]}, \"Action\": \"sqs:SendMessage\", \"Resource\": \"arn:aws:sqs:eu-west-1:123456789012:orders\"}]}", "policies/queue-policy.json"),
    ("tf-hcl-principal-wildcard", "safe", "data \"aws_iam_policy_document\" \"assume\" {\n  statement {\n    actions = [\"sts:AssumeRole\"]\n    principals {\n      type        = \"Service\"\n      identifiers = [\"ecs-tasks.amazonaws.com\"]\n    }\n  }\n}", "infra/ecs.tf"),
    # tf-hcl-force-destroy
    ("tf-hcl-force-destroy", "hit", "resource \"aws_s3_bucket\" \"tfstate\" {\n  bucket        = \"acme-terraform-state\"\n  force_destroy = true   # so terraform destroy works in dev\n\n  tags = {\n    Team = \"platform\"\n  }\n}", "infra/state.tf"),
    ("tf-hcl-force-destroy", "hit", "module \"logs_bucket\" {\n  source        = \"terraform-aws-modules/s3-bucket/aws\"\n  version       = \"4.1.2\"\n  bucket        = \"acme-audit-logs\"\n  force_destroy = true\n}", "infra/audit.tf"),
    ("tf-hcl-force-destroy", "safe", "resource \"aws_s3_bucket\" \"tfstate\" {\n  bucket        = \"acme-terraform-state\"\n  force_destroy = false\n  lifecycle {\n    prevent_destroy = true\n  }\n}", "infra/state.tf"),
    # nginx-autoindex
    ("nginx-autoindex", "hit", "server {\n    listen 80;\n    server_name mirror.acme.io;\n    root /srv/mirror;\n    location / {\n        autoindex on;\n        autoindex_exact_size off;\n        autoindex_localtime on;\n    }\n}", "nginx/conf.d/mirror.conf"),
    ("nginx-autoindex", "hit", "location ^~ /backups/ {\n\talias /var/backups/;\n\tautoindex\ton;\n}", "nginx/site.conf"),
    ("nginx-autoindex", "safe", "location /downloads/ {\n    autoindex off;\n    try_files $uri =404;\n}", "nginx/site.conf"),
    # nginx-server-tokens
    ("nginx-server-tokens", "hit", "user nginx;\nworker_processes auto;\nevents { worker_connections 1024; }\nhttp {\n    include /etc/nginx/mime.types;\n    keepalive_timeout 65;\n    gzip on;\n    include /etc/nginx/conf.d/*.conf;\n}", "nginx/nginx.conf"),
    ("nginx-server-tokens", "hit", "server {\n  listen 80;\n  server_name status.acme.io;\n  server_tokens on;\n  location / { return 200; }\n}", "nginx/conf.d/status.conf"),
    ("nginx-server-tokens", "safe", "http {\n    server_tokens off;\n    more_clear_headers Server;\n    include mime.types;\n}", "nginx/nginx.conf"),
    # nginx-weak-tls
    ("nginx-weak-tls", "hit", "server {\n    listen 443 ssl http2;\n    ssl_certificate /etc/ssl/acme.crt;\n    ssl_certificate_key /etc/ssl/acme.key;\n    ssl_protocols  TLSv1.2 TLSv1.1;\n    ssl_ciphers HIGH:!aNULL:!MD5;\n}", "nginx/conf.d/shop.conf"),
    ("nginx-weak-tls", "hit", "stream {\n  server {\n    listen 993 ssl;\n    ssl_protocols TLSv1 TLSv1.2;\n  }\n}", "nginx/stream.conf"),
    ("nginx-weak-tls", "safe", "ssl_protocols TLSv1.3 TLSv1.2;\nssl_ciphers ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256;\nssl_session_tickets off;", "nginx/tls.conf"),
    # nginx-alias-traversal
    ("nginx-alias-traversal", "hit", "location /downloads {\n    internal;\n    alias   /srv/files/;\n}", "nginx/site.conf"),
    ("nginx-alias-traversal", "hit", "location = /favicon.ico { log_not_found off; }\nlocation /static {\n\talias /home/app/static/;\n\taccess_log off;\n}", "nginx/conf.d/app.conf"),
    ("nginx-alias-traversal", "safe", "location /static/ {\n    alias /home/app/staticfiles/;\n    expires 30d;\n}\nlocation /media/ {\n    alias /home/app/media/;\n}", "nginx/conf.d/app.conf"),
    # gha-script-injection
    ("gha-script-injection", "hit", "on: issue_comment\njobs:\n  triage:\n    runs-on: ubuntu-latest\n    steps:\n      - name: Parse command\n        run: |\n          COMMENT=\"${{ github.event.comment.body }}\"\n          if [[ \"$COMMENT\" == /deploy* ]]; then echo deploy; fi", ".github/workflows/chatops.yml"),
    ("gha-script-injection", "hit", "    steps:\n      - uses: actions/checkout@v4\n      - name: Label branch\n        run: ./scripts/label.sh \"${{ github.event.pull_request.head.ref }}\"", ".github/workflows/label.yml"),
    ("gha-script-injection", "safe", "      - name: Check title\n        env:\n          PR_TITLE: ${{ github.event.pull_request.title }}\n          PR_BODY: ${{ github.event.pull_request.body }}\n        run: |\n          echo \"$PR_TITLE\" | grep -Eq \"^(feat|fix|chore):\"", ".github/workflows/pr-lint.yml"),
    # gha-pr-target-checkout-head
    ("gha-pr-target-checkout-head", "hit", "name: preview\non:\n  pull_request_target:\n    types: [opened, synchronize]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@b4ffde65f46336ab88eb53be808477a3936bae11\n        with:\n          repository: ${{ github.event.pull_request.head.repo.full_name }}\n          ref: ${{ github.event.pull_request.head.ref }}\n      - run: npm ci && npm run build", ".github/workflows/preview.yml"),
    ("gha-pr-target-checkout-head", "hit", "on:\n  pull_request_target:\n    branches: [main]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n        with:\n          ref: refs/pull/${{ github.event.pull_request.number }}/merge\n      - run: make test", ".github/workflows/test.yml"),
    ("gha-pr-target-checkout-head", "safe", "on:\n  pull_request_target:\n    types: [opened]\njobs:\n  greet:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/first-interaction@v1\n        with:\n          repo-token: ${{ secrets.GITHUB_TOKEN }}", ".github/workflows/greet.yml"),
    # gha-action-branch-ref
    ("gha-action-branch-ref", "hit", "    steps:\n      - uses: actions/checkout@v4\n      - uses: aquasecurity/trivy-action@master\n        with:\n          image-ref: acme/api:${{ github.sha }}", ".github/workflows/scan.yml"),
    ("gha-action-branch-ref", "hit", "jobs:\n  release:\n    uses: acme/platform-workflows/.github/workflows/release.yml@trunk\n    secrets: inherit", ".github/workflows/release.yml"),
    ("gha-action-branch-ref", "safe", "    steps:\n      - uses: aquasecurity/trivy-action@6e7b7d1fd3e4fef0c5fa8cce1229c54b2c9bd0d8 # v0.24.0\n      - uses: actions/setup-go@v5", ".github/workflows/scan.yml"),
    # gha-action-not-sha
    ("gha-action-not-sha", "hit", "      - name: Login\n        uses: docker/login-action@v3\n        with:\n          registry: ghcr.io", ".github/workflows/docker.yml"),
    ("gha-action-not-sha", "hit", "    steps:\n      - uses: \"hashicorp/setup-terraform@v3.1.1\"\n        with: {terraform_version: 1.8.5}", ".github/workflows/tf.yml"),
    ("gha-action-not-sha", "safe", "    steps:\n      - uses: docker/login-action@0d4c9c5ea7693da7b068278f7b52bda2a190a446   # v3.2.0\n      - uses: ./.github/actions/cache-deps", ".github/workflows/docker.yml"),
    # ci-secret-echoed
    ("ci-secret-echoed", "hit", "debug:\n  stage: test\n  script:\n    - env | sort\n    - echo \"DB pass: ${DB_PASSWORD}\"", ".gitlab-ci.yml"),
    ("ci-secret-echoed", "hit", "      - name: Debug\n        run: |\n          echo \"::notice::API key is ${{ secrets.OPENAI_API_KEY }}\"", ".github/workflows/debug.yml"),
    ("ci-secret-echoed", "safe", "      - name: Write kubeconfig\n        run: |\n          mkdir -p ~/.kube\n          echo \"${{ secrets.KUBECONFIG_B64 }}\" | base64 -d > ~/.kube/config", ".github/workflows/deploy.yml"),
    # gha-permissions-broad
    ("gha-permissions-broad", "hit", "name: deploy\non:\n  workflow_dispatch:\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: ./deploy.sh", ".github/workflows/deploy.yml"),
    ("gha-permissions-broad", "hit", "on:\n  pull_request:\njobs:\n  label:\n    permissions: write-all\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/labeler@v5", ".github/workflows/labeler.yml"),
    ("gha-permissions-broad", "safe", "name: deploy\non:\n  workflow_dispatch:\npermissions:\n  contents: read\n  id-token: write\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./deploy.sh", ".github/workflows/deploy.yml"),
    # ci-continue-on-error
    ("ci-continue-on-error", "hit", "jobs:\n  e2e:\n    runs-on: ubuntu-latest\n    continue-on-error: true\n    steps:\n      - run: npx playwright test", ".github/workflows/e2e.yml"),
    ("ci-continue-on-error", "hit", "integration-tests:\n  stage: test\n  allow_failure: true\n  script:\n    - pytest tests/integration", ".gitlab-ci.yml"),
    ("ci-continue-on-error", "safe", "jobs:\n  test:\n    strategy:\n      matrix:\n        node: [18, 20, 22]\n    continue-on-error: ${{ matrix.node == 22 }}", ".github/workflows/ci.yml"),
    # ci-test-failure-ignored
    ("ci-test-failure-ignored", "hit", "      - name: Unit tests\n        run: |\n          python -m pytest tests/ --junitxml=report.xml || true\n          echo done", ".github/workflows/ci.yml"),
    ("ci-test-failure-ignored", "hit", ".PHONY: check\ncheck:\n\t-go vet ./...\n\t-go test ./...", "Makefile"),
    ("ci-test-failure-ignored", "safe", "test:\n\tpytest -q || (cat .pytest_cache/v/cache/lastfailed; exit 1)", "Makefile"),
    # ci-npm-install
    ("ci-npm-install", "hit", "install:\n  stage: build\n  script:\n    - npm install --no-fund --loglevel=error\n    - npm run build", ".gitlab-ci.yml"),
    ("ci-npm-install", "hit", "FROM node:20-alpine\nWORKDIR /app\nCOPY package*.json ./\nRUN npm i\nCOPY . .", "Dockerfile"),
    ("ci-npm-install", "safe", "      - run: npm install -g @vercel/ncc@0.38.1\n      - run: npm ci --prefer-offline --no-audit", ".github/workflows/ci.yml"),
    # gha-self-hosted-pr
    ("gha-self-hosted-pr", "hit", "on:\n  pull_request:\n    branches: [main]\n  push:\n    branches: [main]\njobs:\n  integration:\n    runs-on: [self-hosted, x64, docker]\n    steps:\n      - uses: actions/checkout@v4", ".github/workflows/integration.yml"),
    ("gha-self-hosted-pr", "hit", "on:\n  - pull_request\njobs:\n  lint:\n    runs-on: \"self-hosted\"\n    steps:\n      - run: make lint", ".github/workflows/lint.yml"),
    ("gha-self-hosted-pr", "safe", "on:\n  workflow_dispatch:\n  schedule:\n    - cron: \"0 3 * * *\"\njobs:\n  nightly:\n    runs-on: [self-hosted, gpu]", ".github/workflows/nightly.yml"),
    # gha-checkout-persist-credentials
    ("gha-checkout-persist-credentials", "hit", "      - name: Checkout\n        uses: actions/checkout@v4.1.7\n        with:\n          submodules: recursive\n          token: ${{ secrets.BOT_PAT }}", ".github/workflows/build.yml"),
    ("gha-checkout-persist-credentials", "hit", "    steps:\n      - uses: actions/checkout@692973e3d937129bcbf40652eb9f2f61becf3332 # v4.1.7\n      - run: make build", ".github/workflows/build.yml"),
    ("gha-checkout-persist-credentials", "safe", "      - uses: actions/checkout@692973e3d937129bcbf40652eb9f2f61becf3332 # v4.1.7\n        with:\n          fetch-depth: 0\n          persist-credentials: false", ".github/workflows/build.yml"),
    # gha-no-timeout
    ("gha-no-timeout", "hit", "name: ci\non: [push]\njobs:\n  lint:\n    runs-on: ubuntu-22.04\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm run lint\n  test:\n    runs-on: ubuntu-22.04\n    timeout-minutes: 20\n    steps:\n      - run: npm test", ".github/workflows/ci.yml"),
    ("gha-no-timeout", "hit", "jobs:\n  e2e:\n    runs-on: macos-14\n    strategy:\n      matrix:\n        browser: [chromium, webkit]\n    steps:\n      - run: npx playwright test --project=${{ matrix.browser }}", ".github/workflows/e2e.yml"),
    ("gha-no-timeout", "safe", "jobs:\n  e2e:\n    timeout-minutes: 30\n    runs-on: macos-14\n    steps:\n      - run: npx playwright test", ".github/workflows/e2e.yml"),
    # env-debug-enabled
    ("env-debug-enabled", "hit", "NODE_ENV=production\nDEBUG=true\nPORT=3000", ".env.production"),
    ("env-debug-enabled", "hit", "FLASK_ENV=production\nFLASK_DEBUG=1\nDATABASE_URL=postgres://db/app", ".env"),
    ("env-debug-enabled", "safe", "APP_ENV=production\nAPP_DEBUG=false\nLOG_LEVEL=warning", ".env.production"),
    # env-public-prefix-secret
    ("env-public-prefix-secret", "hit", "VITE_API_URL=https://api.acme.io\nVITE_STRIPE_SECRET_KEY=sk_live_51Habc", ".env.local"),
    ("env-public-prefix-secret", "hit", "const s3 = new S3Client({\n  credentials: {\n    accessKeyId: process.env.NEXT_PUBLIC_AWS_ACCESS_KEY_ID!,\n    secretAccessKey: process.env.NEXT_PUBLIC_AWS_SECRET_ACCESS_KEY!,\n  },\n})", "src/lib/s3.ts"),
    ("env-public-prefix-secret", "safe", "const stripe = await loadStripe(import.meta.env.VITE_STRIPE_PUBLISHABLE_KEY)", "src/stripe.ts"),
    # env-real-credential
    ("env-real-credential", "hit", "slack:\n  webhook: https://hooks.slack.com/services/T024BE7LD/B08ABCD1234/XyZ12345abcdeFGHIJklmnop\n  bot_token: xoxb-2401234567-5012345678901-AbCdEfGhIjKlMnOpQrStUvWx", "config/settings.yaml"),
    ("env-real-credential", "hit", "[default]\nregion = eu-west-1\naws_access_key_id = AKIA3KZQ7VXN5TRWPL2M\naws_secret_access_key = 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", "config/aws.ini"),
    ("env-real-credential", "safe", "slack:\n  bot_token: ${SLACK_BOT_TOKEN}\n  signing_secret: ${SLACK_SIGNING_SECRET}", "config/settings.yaml"),
    # deps-wildcard-version
    ("deps-wildcard-version", "hit", "{\n  \"name\": \"web\",\n  \"private\": true,\n  \"dependencies\": {\n    \"next\": \"latest\",\n    \"react\": \"^18.3.1\"\n  }\n}", "package.json"),
    ("deps-wildcard-version", "hit", "[package]\nname = \"cli\"\nversion = \"0.1.0\"\n\n[dependencies]\nclap = { features = [\"derive\"], version = \"*\" }\nanyhow = \"1\"", "Cargo.toml"),
    ("deps-wildcard-version", "safe", "{\"dependencies\": {\"next\": \"14.2.4\"}, \"engines\": {\"node\": \">=20\"}}", "package.json"),
    # deps-git-unpinned
    ("deps-git-unpinned", "hit", "django==5.0.6\ngit+https://gitlab.acme.io/platform/acme-auth.git@develop#egg=acme-auth", "requirements.txt"),
    ("deps-git-unpinned", "hit", "source 'https://rubygems.org'\ngem 'devise', github: 'heartcombo/devise', branch: 'main'", "Gemfile"),
    ("deps-git-unpinned", "safe", "[tool.poetry.dependencies]\nacme-auth = { git = \"https://gitlab.acme.io/platform/acme-auth.git\", tag = \"v2.1.0\" }", "pyproject.toml"),
    # deps-requirements-unpinned
    ("deps-requirements-unpinned", "hit", "# runtime deps\nsqlalchemy~=2.0\npsycopg[binary]\nalembic==1.13.1\n", "requirements/prod.txt"),
    ("deps-requirements-unpinned", "hit", "fastapi>=0.110.0\nuvicorn>=0.29\npydantic==2.7.1", "requirements.txt"),
    ("deps-requirements-unpinned", "safe", "-r requirements.txt\npytest==8.2.2\nruff==0.4.8  # linter\nmypy==1.10.0", "requirements-dev.txt"),
    # deps-local-path-dependency
    ("deps-local-path-dependency", "hit", "module github.com/acme/api\n\ngo 1.22\n\nrequire github.com/acme/shared v0.4.0\n\nreplace github.com/acme/shared => ./../shared", "go.mod"),
    ("deps-local-path-dependency", "hit", "{\n  \"name\": \"@acme/web\",\n  \"dependencies\": {\n    \"@acme/design-system\": \"link:../design-system\",\n    \"react\": \"^18.3.1\"\n  }\n}", "package.json"),
    ("deps-local-path-dependency", "safe", "module github.com/acme/api\n\ngo 1.22\n\nrequire (\n\tgithub.com/acme/shared v0.4.1\n\tgolang.org/x/sync v0.7.0\n)", "go.mod"),
    # deps-dev-tool-in-runtime
    ("deps-dev-tool-in-runtime", "hit", "{\n  \"name\": \"api\",\n  \"dependencies\": {\n    \"fastify\": \"^4.27.0\",\n    \"typescript\": \"^5.4.5\",\n    \"@types/node\": \"^20.14.2\"\n  }\n}", "package.json"),
    ("deps-dev-tool-in-runtime", "hit", "[project]\nname = \"billing\"\nversion = \"0.3.0\"\ndependencies = [\n    \"sqlalchemy>=2.0\",\n    \"mypy>=1.10\",\n    \"ruff\",\n]", "pyproject.toml"),
    ("deps-dev-tool-in-runtime", "safe", "[project]\nname = \"billing\"\ndependencies = [\"sqlalchemy>=2.0\"]\n\n[dependency-groups]\ndev = [\"mypy>=1.10\", \"ruff>=0.4\"]", "pyproject.toml"),
    # sshd-root-password-login
    ("sshd-root-password-login", "hit", "echo 'PasswordAuthentication yes' >> /etc/ssh/sshd_config && systemctl restart sshd", ""),
    ("sshd-root-password-login", "hit", "# allow break-glass access\nPermitRootLogin  yes\nChallengeResponseAuthentication yes", "etc/ssh/sshd_config.d/99-local.conf"),
    ("sshd-root-password-login", "safe", "sudo sed -i 's/^#\\?PermitRootLogin.*/PermitRootLogin no/' /etc/ssh/sshd_config", ""),
    # pg-hba-trust
    ("pg-hba-trust", "hit", "# TYPE  DATABASE  USER  ADDRESS  METHOD\nlocal   all       all            peer\nhost    all       all   ::/0     trust", "pg_hba.conf"),
    ("pg-hba-trust", "hit", "services:\n  db:\n    image: postgres:16\n    environment:\n      - POSTGRES_DB=app\n      - POSTGRES_HOST_AUTH_METHOD=trust", "docker-compose.yml"),
    ("pg-hba-trust", "safe", "host    all   all   ::1/128      trust\nhost    all   all   0.0.0.0/0    scram-sha-256", "pg_hba.conf"),
    # redis-unprotected
    ("redis-unprotected", "hit", "bind * -::*\nport 6379\nprotected-mode no\nappendonly yes", "redis/redis.conf"),
    ("redis-unprotected", "hit", "services:\n  redis:\n    image: redis:7.2\n    command: redis-server --appendonly yes --protected-mode no\n    ports:\n      - \"6379:6379\"", "docker-compose.yml"),
    ("redis-unprotected", "safe", "bind 127.0.0.1 ::1\nprotected-mode no\nport 6379", "redis/redis.conf"),
    # mysql-skip-grant-tables
    ("mysql-skip-grant-tables", "hit", "[mysqld]\nskip_grant_tables\nskip-networking = 0", "mysql/conf.d/override.cnf"),
    ("mysql-skip-grant-tables", "hit", "services:\n  mysql:\n    image: mysql:8.0\n    command: [\"mysqld\", \"--skip-grant-tables\"]", "docker-compose.yml"),
    ("mysql-skip-grant-tables", "safe", "mysqld --user=mysql --skip-name-resolve --bind-address=127.0.0.1 &", ""),
    # systemd-no-restart
    ("systemd-no-restart", "hit", "[Unit]\nDescription=Orders API\nAfter=network-online.target\n\n[Service]\nUser=orders\nExecStart=/usr/bin/java -jar /opt/orders/orders.jar\nSuccessExitStatus=143\n\n[Install]\nWantedBy=multi-user.target", "deploy/orders.service"),
    ("systemd-no-restart", "hit", "[Service]\nType=forking\nPIDFile=/run/celery/worker.pid\nExecStart=/opt/venv/bin/celery -A app multi start w1\nRestart=no", "etc/systemd/system/celery.service"),
    ("systemd-no-restart", "safe", "[Service]\nExecStart=/usr/local/bin/api\nRestart=on-abnormal\nRestartSec=3s\nStartLimitBurst=5", "deploy/api.service"),
    # cron-unescaped-percent
    ("cron-unescaped-percent", "hit", "MAILTO=ops@acme.io\n15 3 * * * postgres pg_dump app | gzip > /backups/app_$(date +%Y-%m-%d).sql.gz", "deploy/crontab"),
    ("cron-unescaped-percent", "hit", "echo '0 0 * * * root mv /var/log/app.log /var/log/app-`date +%d`.log' | sudo tee /etc/cron.d/rotate-app", ""),
    ("cron-unescaped-percent", "safe", "SHELL=/bin/bash\n15 3 * * * postgres /usr/local/bin/backup-db.sh >> /var/log/backup.log 2>&1", "deploy/crontab"),
    # ansible-ignore-errors
    ("ansible-ignore-errors", "hit", "- name: Stop old service\n  ansible.builtin.systemd:\n    name: legacy-api\n    state: stopped\n  ignore_errors: yes\n\n- name: Deploy\n  ansible.builtin.copy:\n    src: api.tar.gz\n    dest: /opt/api/", "ansible/roles/web/tasks/main.yml"),
    ("ansible-ignore-errors", "hit", "- hosts: db\n  become: true\n  ignore_errors: true\n  tasks:\n    - name: Create schema\n      community.postgresql.postgresql_db:\n        name: app", "ansible/site.yml"),
    ("ansible-ignore-errors", "safe", "- name: Check if legacy service exists\n  ansible.builtin.command: systemctl status legacy-api\n  register: legacy\n  failed_when: legacy.rc not in [0, 3]\n  changed_when: false", "ansible/roles/web/tasks/main.yml"),
    # cfg-tls-verify-off
    ("cfg-tls-verify-off", "hit", "[user]\n\tname = CI Bot\n[http]\n\tsslVerify = false", "deploy/gitconfig"),
    ("cfg-tls-verify-off", "hit", "{\"elasticsearch\": {\"hosts\": [\"https://es:9200\"], \"verify_certs\": false}}", "config/settings.json"),
    ("cfg-tls-verify-off", "safe", "{\"elasticsearch\": {\"hosts\": [\"https://es:9200\"], \"verify_certs\": true, \"ca_certs\": \"/etc/ssl/es-ca.pem\"}}", "config/settings.json"),
    # deps-extra-index-url
    ("deps-extra-index-url", "hit", "[global]\ntimeout = 60\nextra-index-url =\n    https://pypi.acme.io/simple\n    https://download.pytorch.org/whl/cpu", "pip.conf"),
    ("deps-extra-index-url", "hit", "--extra-index-url=https://${PYPI_USER}:${PYPI_TOKEN}@pkgs.acme.io/pypi/simple/\nacme-metrics==1.2.0\nflask==3.0.3", "requirements.txt"),
    ("deps-extra-index-url", "safe", "[global]\nindex-url = https://pkgs.acme.io/pypi/all/simple\ntimeout = 60", "pip.conf"),
    # npmrc-literal-token
    ("npmrc-literal-token", "hit", "@acme:registry=https://gitlab.acme.io/api/v4/packages/npm/\n//gitlab.acme.io/api/v4/packages/npm/:_authToken=\"glpat-xY7zK2mN9pQ4rT6vW8bC\"", ".npmrc"),
    ("npmrc-literal-token", "hit", "nodeLinker: node-modules\nnpmScopes:\n  acme:\n    npmRegistryServer: \"https://npm.pkg.github.com\"\n    npmAuthToken: ghp_R4nd0mT0k3nV4lu3abcdef123456", ".yarnrc.yml"),
    ("npmrc-literal-token", "safe", "@acme:registry=https://gitlab.acme.io/api/v4/packages/npm/\n//gitlab.acme.io/api/v4/packages/npm/:_authToken=${CI_JOB_TOKEN}", ".npmrc"),
    # tf-hcl-count-length
    ("tf-hcl-count-length", "hit", "resource \"aws_route53_record\" \"cname\" {\n  count   = length(var.domains)\n  zone_id = var.zone_id\n  name    = element(var.domains, count.index)\n  type    = \"CNAME\"\n}", "infra/dns.tf"),
    ("tf-hcl-count-length", "hit", "resource \"aws_subnet\" \"private\" {\n  vpc_id     = aws_vpc.main.id\n  count      = length( local.private_cidrs )\n  cidr_block = local.private_cidrs[count.index]\n}", "infra/vpc.tf"),
    ("tf-hcl-count-length", "safe", "resource \"aws_route53_record\" \"cname\" {\n  for_each = { for d in var.domains : d => d }\n  name     = each.key\n}", "infra/dns.tf"),
    # tf-hcl-backend-no-lock
    ("tf-hcl-backend-no-lock", "hit", "terraform {\n  required_version = \">= 1.6\"\n  backend \"s3\" {\n    region  = \"us-east-2\"\n    bucket  = \"acme-infra-state\"\n    key     = \"eks/terraform.tfstate\"\n    encrypt = true\n    profile = \"infra\"\n  }\n}", "infra/backend.tf"),
    ("tf-hcl-backend-no-lock", "hit", "remote_state {\n  backend = \"s3\"\n  generate = {\n    path      = \"backend.tf\"\n    if_exists = \"overwrite\"\n  }\n  config = {\n    bucket  = \"acme-tg-state\"\n    key     = \"${path_relative_to_include()}/terraform.tfstate\"\n    region  = \"eu-central-1\"\n    encrypt = true\n  }\n}", "live/terragrunt.hcl"),
    ("tf-hcl-backend-no-lock", "safe", "terraform {\n  backend \"s3\" {\n    bucket         = \"acme-infra-state\"\n    key            = \"eks/terraform.tfstate\"\n    region         = \"us-east-2\"\n    dynamodb_table = \"tf-lock\"\n    encrypt        = true\n  }\n}", "infra/backend.tf"),
    # tf-hcl-no-backups
    ("tf-hcl-no-backups", "hit", "resource \"google_sql_database_instance\" \"main\" {\n  database_version = \"MYSQL_8_0\"\n  settings {\n    tier = \"db-f1-micro\"\n    backup_configuration {\n      enabled            = false\n      binary_log_enabled = false\n    }\n  }\n}", "infra/cloudsql.tf"),
    ("tf-hcl-no-backups", "hit", "{\n  \"Resources\": {\n    \"Db\": {\n      \"Type\": \"AWS::RDS::DBInstance\",\n      \"Properties\": {\n        \"DBInstanceClass\": \"db.t3.small\",\n        \"BackupRetentionPeriod\": 0\n      }\n    }\n  }\n}", "cfn/db.json"),
    ("tf-hcl-no-backups", "safe", "resource \"aws_db_instance\" \"main\" {\n  engine                  = \"mysql\"\n  backup_retention_period = 14\n  backup_window           = \"03:00-04:00\"\n}", "infra/rds.tf"),
    # tf-hcl-imdsv1
    ("tf-hcl-imdsv1", "hit", "resource \"aws_launch_template\" \"nodes\" {\n  name_prefix   = \"eks-nodes-\"\n  image_id      = data.aws_ami.eks.id\n  metadata_options {\n    http_tokens                 = \"optional\"\n    http_put_response_hop_limit = 1\n  }\n}", "infra/nodes.tf"),
    ("tf-hcl-imdsv1", "hit", "Resources:\n  LaunchTemplate:\n    Type: AWS::EC2::LaunchTemplate\n    Properties:\n      LaunchTemplateData:\n        ImageId: ami-0abcdef1234567890\n        MetadataOptions:\n          HttpEndpoint: enabled\n          HttpPutResponseHopLimit: 2", "cfn/ec2.yaml"),
    ("tf-hcl-imdsv1", "safe", "resource \"aws_launch_template\" \"nodes\" {\n  metadata_options {\n    http_endpoint               = \"enabled\"\n    http_put_response_hop_limit = 2\n    http_tokens                 = \"required\"\n  }\n}", "infra/nodes.tf"),
    # cfn-no-deletion-policy
    ("cfn-no-deletion-policy", "hit", "AWSTemplateFormatVersion: \"2010-09-09\"\nResources:\n  SessionsTable:\n    Type: AWS::DynamoDB::Table\n    Properties:\n      BillingMode: PAY_PER_REQUEST\n      KeySchema:\n        - AttributeName: id\n          KeyType: HASH", "cfn/storage.yaml"),
    ("cfn-no-deletion-policy", "hit", "{\"Resources\": {\"Postgres\": {\"Properties\": {\"Engine\": \"postgres\", \"AllocatedStorage\": \"100\"}, \"Type\": \"AWS::RDS::DBInstance\"}}}", "cfn/db.json"),
    ("cfn-no-deletion-policy", "safe", "Resources:\n  SessionsTable:\n    Type: AWS::DynamoDB::Table\n    UpdateReplacePolicy: Retain\n    DeletionPolicy: Retain\n    Properties:\n      BillingMode: PAY_PER_REQUEST", "cfn/storage.yaml"),
    # k8s-pdb-blocks-drain
    ("k8s-pdb-blocks-drain", "hit", "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: kafka\nspec:\n  selector:\n    matchLabels:\n      app.kubernetes.io/name: kafka\n  minAvailable: 100%", "k8s/kafka-pdb.yaml"),
    ("k8s-pdb-blocks-drain", "hit", "replicaCount: 3\npodDisruptionBudget:\n  enabled: true\n  maxUnavailable: 0", "charts/api/values.yaml"),
    ("k8s-pdb-blocks-drain", "safe", "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: kafka\nspec:\n  minAvailable: \"66%\"\n  selector:\n    matchLabels:\n      app: kafka", "k8s/kafka-pdb.yaml"),
    # k8s-ingress-no-tls
    ("k8s-ingress-no-tls", "hit", "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: grafana\n  annotations:\n    nginx.ingress.kubernetes.io/rewrite-target: /\nspec:\n  ingressClassName: nginx\n  rules:\n  - host: grafana.acme.io\n    http:\n      paths:\n      - backend:\n          service:\n            name: grafana\n            port:\n              number: 3000\n        path: /\n        pathType: Prefix", "k8s/grafana-ingress.yaml"),
    ("k8s-ingress-no-tls", "hit", "ingress:\n  enabled: true\n  className: traefik\n  hosts:\n    - host: api.acme.io\n      paths:\n        - path: /\n          pathType: ImplementationSpecific\n  tls: []", "charts/api/values.yaml"),
    ("k8s-ingress-no-tls", "safe", "kind: Ingress\nmetadata:\n  name: grafana\n  annotations:\n    cert-manager.io/cluster-issuer: letsencrypt\nspec:\n  rules:\n  - host: grafana.acme.io\n  tls:\n  - secretName: grafana-tls\n    hosts: [grafana.acme.io]", "k8s/grafana-ingress.yaml"),
    # nginx-cors-reflect-origin
    ("nginx-cors-reflect-origin", "hit", "location /api/ {\n    if ($request_method = OPTIONS) {\n        add_header Access-Control-Allow-Origin \"$http_origin\";\n        add_header Access-Control-Allow-Credentials \"true\";\n        return 204;\n    }\n    proxy_pass http://api;\n}", "nginx/conf.d/api.conf"),
    ("nginx-cors-reflect-origin", "hit", "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: api\n  annotations:\n    nginx.ingress.kubernetes.io/enable-cors: \"true\"\n    nginx.ingress.kubernetes.io/cors-allow-origin: \"*\"\n    nginx.ingress.kubernetes.io/cors-allow-credentials: \"true\"", "k8s/api-ingress.yaml"),
    ("nginx-cors-reflect-origin", "safe", "map $http_origin $allow_origin {\n    default \"\";\n    \"https://app.acme.io\" $http_origin;\n    \"https://admin.acme.io\" $http_origin;\n}\nserver {\n    add_header Access-Control-Allow-Origin $allow_origin always;\n    add_header Access-Control-Allow-Credentials true always;\n}", "nginx/conf.d/api.conf"),
    # gha-unsecure-commands
    ("gha-unsecure-commands", "hit", "jobs:\n  build:\n    runs-on: ubuntu-latest\n    env:\n      ACTIONS_ALLOW_UNSECURE_COMMANDS: \"true\"\n    steps:\n      - run: echo \"::set-env name=FOO::bar\"", ".github/workflows/legacy.yml"),
    ("gha-unsecure-commands", "hit", "      - uses: some-org/old-setup-action@v1\n        env: { ACTIONS_ALLOW_UNSECURE_COMMANDS: true }", ".github/workflows/ci.yml"),
    ("gha-unsecure-commands", "safe", "      - name: Set env\n        # ACTIONS_ALLOW_UNSECURE_COMMANDS is no longer needed here\n        run: echo \"FOO=bar\" >> \"$GITHUB_ENV\"", ".github/workflows/ci.yml"),
    # dockerfile-run-cd
    ("dockerfile-run-cd", "hit", "FROM golang:1.22\nCOPY . /go/src/app\nRUN cd /go/src/app\nRUN go build -o /bin/app .", "Dockerfile"),
    ("dockerfile-run-cd", "hit", "RUN mkdir -p /opt/build\nRUN cd /opt/build   # enter build dir\nRUN cmake .. && make", "Dockerfile"),
    ("dockerfile-run-cd", "safe", "WORKDIR /go/src/app\nRUN cd cmd/api && go build -o /bin/api .", "Dockerfile"),
    # docker-daemon-tcp-exposed
    ("docker-daemon-tcp-exposed", "hit", "{\n  \"log-driver\": \"json-file\",\n  \"hosts\": [\"tcp://0.0.0.0:2375\", \"fd://\"]\n}", "etc/docker/daemon.json"),
    ("docker-daemon-tcp-exposed", "hit", "[Service]\nExecStart=\nExecStart=/usr/bin/dockerd --host fd:// --host tcp://0.0.0.0:2375 --containerd=/run/containerd/containerd.sock", "etc/systemd/system/docker.service.d/override.conf"),
    ("docker-daemon-tcp-exposed", "safe", "docker -H tcp://build-host:2376 --tlsverify ps", ""),
    # k8s-reclaim-policy-delete
    ("k8s-reclaim-policy-delete", "hit", "resource \"kubernetes_persistent_volume\" \"pg\" {\n  metadata { name = \"pg-data\" }\n  spec {\n    capacity = { storage = \"50Gi\" }\n    persistent_volume_reclaim_policy = \"Delete\"\n  }\n}", "infra/pv.tf"),
    ("k8s-reclaim-policy-delete", "hit", "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: nfs-data\nspec:\n  persistentVolumeReclaimPolicy: Delete   # default for dynamic\n  capacity: {storage: 200Gi}\n  nfs: {server: 10.0.0.5, path: /exports/data}", "k8s/pv.yaml"),
    ("k8s-reclaim-policy-delete", "safe", "kind: StorageClass\nmetadata:\n  name: retained-ssd\nprovisioner: ebs.csi.aws.com\nreclaimPolicy: Retain\nallowVolumeExpansion: true", "k8s/sc.yaml"),
    # k8s-loadbalancer-db-port
    ("k8s-loadbalancer-db-port", "hit", "apiVersion: v1\nkind: Service\nmetadata:\n  name: mysql-external\nspec:\n  selector: {app: mysql}\n  ports:\n  - protocol: TCP\n    port: 3306\n    targetPort: mysql\n  type: LoadBalancer", "k8s/mysql-svc.yaml"),
    ("k8s-loadbalancer-db-port", "hit", "primary:\n  service:\n    type: LoadBalancer\n    ports:\n      postgresql: 5432", "charts/postgres/values.yaml"),
    ("k8s-loadbalancer-db-port", "safe", "kind: Service\nmetadata:\n  name: mysql\n  annotations:\n    networking.gke.io/load-balancer-type: \"Internal\"\nspec:\n  type: LoadBalancer\n  ports:\n  - port: 3306", "k8s/mysql-svc.yaml"),
    # k8s-cronjob-concurrent-runs
    ("k8s-cronjob-concurrent-runs", "hit", "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: invoice-run\nspec:\n  schedule: \"*/10 * * * *\"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers:\n          - name: invoices\n            image: acme/billing:3.2.0", "k8s/invoice-cron.yaml"),
    ("k8s-cronjob-concurrent-runs", "hit", "kind: CronJob\nspec:\n  concurrencyPolicy: \"Allow\"\n  schedule: \"30 * * * *\"\n  suspend: false", "k8s/sync-cron.yaml"),
    ("k8s-cronjob-concurrent-runs", "safe", "apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: invoice-run\nspec:\n  schedule: \"*/10 * * * *\"\n  concurrencyPolicy: Forbid\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure", "k8s/invoice-cron.yaml"),
    # k8s-termination-grace-zero
    ("k8s-termination-grace-zero", "hit", "apiVersion: apps/v1\nkind: StatefulSet\nspec:\n  template:\n    spec:\n      containers:\n      - name: kafka\n        image: bitnami/kafka:3.7\n      terminationGracePeriodSeconds: 0", "k8s/kafka.yaml"),
    ("k8s-termination-grace-zero", "hit", "spec: {terminationGracePeriodSeconds: 0, containers: [{name: api, image: \"acme/api:2\"}]}", "k8s/api-pod.yaml"),
    ("k8s-termination-grace-zero", "safe", "spec:\n  terminationGracePeriodSeconds: 45\n  containers:\n  - name: api\n    lifecycle:\n      preStop:\n        exec:\n          command: [\"sleep\", \"10\"]", "k8s/api.yaml"),
    # tf-hcl-output-secret-not-sensitive
    ("tf-hcl-output-secret-not-sensitive", "hit", "output \"redis_auth_token\" {\n  description = \"Auth token for the redis cluster\"\n  value       = aws_elasticache_replication_group.redis.auth_token\n}", "infra/outputs.tf"),
    ("tf-hcl-output-secret-not-sensitive", "hit", "output \"kubeconfig\" {\n  value = azurerm_kubernetes_cluster.aks.kube_config_raw\n}", "infra/outputs.tf"),
    ("tf-hcl-output-secret-not-sensitive", "safe", "output \"redis_endpoint\" {\n  value = aws_elasticache_replication_group.redis.primary_endpoint_address\n}\noutput \"redis_auth_token\" {\n  value     = aws_elasticache_replication_group.redis.auth_token\n  sensitive = true\n}", "infra/outputs.tf"),
    # gha-all-secrets-exposed
    ("gha-all-secrets-exposed", "hit", "      - name: Render config\n        run: echo '${{ toJSON(secrets) }}' > secrets.json", ".github/workflows/deploy.yml"),
    ("gha-all-secrets-exposed", "hit", "      - uses: acme/config-action@v2\n        with:\n          secrets: ${{ toJson( secrets ) }}", ".github/workflows/deploy.yml"),
    ("gha-all-secrets-exposed", "safe", "      - name: Dump context\n        env:\n          GITHUB_CONTEXT: ${{ toJSON(github) }}\n        run: echo \"$GITHUB_CONTEXT\"", ".github/workflows/debug.yml"),
    # gha-upload-artifact-workspace
    ("gha-upload-artifact-workspace", "hit", "      - uses: actions/upload-artifact@v4\n        if: always()\n        with:\n          name: workspace-${{ matrix.os }}\n          path: |\n            .\n            !node_modules", ".github/workflows/ci.yml"),
    ("gha-upload-artifact-workspace", "hit", "      - uses: actions/upload-artifact@v3\n        with:\n          path: ${{ github.workspace }}/**", ".github/workflows/build.yml"),
    ("gha-upload-artifact-workspace", "safe", "      - uses: actions/upload-artifact@v4\n        with:\n          name: test-results\n          path: ./reports/junit.xml", ".github/workflows/ci.yml"),
    # nginx-real-ip-from-anywhere
    ("nginx-real-ip-from-anywhere", "hit", "real_ip_header    X-Real-IP;\nset_real_ip_from  0.0.0.0/0;\nset_real_ip_from  ::/0;", "nginx/conf.d/realip.conf"),
    ("nginx-real-ip-from-anywhere", "hit", "http {\n\tset_real_ip_from\t0.0.0.0/0; # behind the LB\n\treal_ip_header proxy_protocol;\n}", "nginx/nginx.conf"),
    ("nginx-real-ip-from-anywhere", "safe", "set_real_ip_from 10.0.0.0/8;\nset_real_ip_from 172.16.0.0/12;\nset_real_ip_from 192.168.0.0/16;\nreal_ip_header X-Forwarded-For;\nreal_ip_recursive on;", "nginx/conf.d/realip.conf"),
    # systemd-environment-secret
    ("systemd-environment-secret", "hit", "[Unit]\nDescription=Billing worker\n\n[Service]\nUser=billing\nEnvironment=RAILS_ENV=production\nEnvironment=SECRET_KEY_BASE=9f8e7d6c5b4a39281706f5e4d3c2b1a0\nExecStart=/srv/billing/bin/worker", "deploy/worker.service"),
    ("systemd-environment-secret", "hit", "[Service]\nEnvironment=\"DATABASE_URL=postgres://api:S3cretPw@db.internal:5432/api\"", "etc/systemd/system/api.service.d/override.conf"),
    ("systemd-environment-secret", "safe", "[Service]\nUser=billing\nEnvironment=RAILS_ENV=production\nEnvironmentFile=-/etc/billing/env\nExecStart=/srv/billing/bin/worker", "deploy/worker.service"),
    # mongo-bind-all-no-auth
    ("mongo-bind-all-no-auth", "hit", "net:\n  ipv6: true\n  bindIp: \"::,0.0.0.0\"\n  port: 27017\nstorage:\n  dbPath: /data/db", "mongod.conf"),
    ("mongo-bind-all-no-auth", "hit", "services:\n  mongo:\n    image: mongo:7.0\n    command: [\"mongod\", \"--bind_ip_all\", \"--replSet\", \"rs0\"]", "docker-compose.yml"),
    ("mongo-bind-all-no-auth", "safe", "net:\n  bindIpAll: true\nsecurity:\n  authorization: \"enabled\"\n  keyFile: /etc/mongo/keyfile", "mongod.conf"),
    # es-security-disabled
    ("es-security-disabled", "hit", "services:\n  es:\n    image: docker.elastic.co/elasticsearch/elasticsearch:8.14.1\n    environment:\n      discovery.type: single-node\n      xpack.security.enabled: \"false\"\n      ES_JAVA_OPTS: -Xms1g -Xmx1g", "docker-compose.yml"),
    ("es-security-disabled", "hit", "docker run -d -p 9200:9200 -e \"discovery.type=single-node\" -e \"xpack.security.enabled=false\" elasticsearch:8.14.1", ""),
    ("es-security-disabled", "safe", "services:\n  es:\n    image: docker.elastic.co/elasticsearch/elasticsearch:8.14.1\n    environment:\n      - xpack.security.enabled=true\n      - ELASTIC_PASSWORD_FILE=/run/secrets/es_pw", "docker-compose.yml"),
]  # fmt: skip
