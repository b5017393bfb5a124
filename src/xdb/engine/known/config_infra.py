"""Known mistakes in container builds: what hadolint, trivy/checkov's Dockerfile checks
and Docker's own build checks flag. Compose files: ``config_infra_compose``; Kubernetes and
Helm: ``config_infra_k8s``; Terraform and nginx: ``config_infra_cloud``; CI, ``.env`` files
and dependency manifests: ``config_infra_ci``. The secret-name and literal fragments here
(``ENV_SECRET_NAME``, ``LITERAL``) are shared with the compose and Kubernetes modules.
"""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

# A secret's name in an environment variable (DB_PASSWORD, GITHUB_TOKEN, SECRET_KEY_BASE),
# less the names that point at one (DB_PASSWORD_FILE, TOKEN_URL) or describe one
# (PASSWORD_MIN_LENGTH, PUBLIC_KEY).
ENV_SECRET_NAME = (
    r"(?![A-Z0-9_]*?(?:_(?:FILE|PATH|DIR|URL|URI|NAME|ID|LENGTH|LEN|TTL|EXPIRY|EXPIRES"
    r"|EXPIRATION|TIMEOUT|HEADER|ENDPOINT|TYPE|MIN|MAX|ENABLED|REQUIRED|AUTHENTICATION|POLICY"
    r"|RESET|SECONDS|MINUTES|HOURS|DAYS|LIFETIME|ALGORITHM|ISSUER|AUDIENCE|COUNT|ROTATION"
    r"|SIZE)|PUBLIC|ALLOW_EMPTY|RANDOM_ROOT|GENERATE)(?:_|\b))"
    r"(?:[A-Z0-9]+_)*(?:PASSWORD|PASSWD|PASSPHRASE|PASS(?!\w)|SECRET|TOKEN|API_?KEY|ACCESS_KEY"
    r"|SECRET_KEY|PRIVATE_KEY|CREDENTIALS?)(?:_[A-Z0-9]+)*\b"
)
# A literal value (not a ${VAR} reference, a template, empty or a boolean).
LITERAL = r"[\"']?(?![\"']|\$|\{\{|~|null\b|true\b|false\b|<)[^\s\"'#]{2,}"

# The install steps whose cache a `COPY . .` before them throws away on every edit.
_INSTALL = (
    r"(?:\bnpm\s+(?:ci|install|i)\b|\bpnpm\s+(?:install|i)\b|\bbun\s+install\b"
    r"|\byarn(?:\s+install\b|[ \t]*(?:$|&&|\\))|\bpip3?\s+install\s+(?:-\S+\s+)*-r\b"
    r"|\bpoetry\s+install\b|\buv\s+sync\b"
    r"|\bpipenv\s+install\b|\bbundle\s+install\b|\bgo\s+mod\s+download\b"
    r"|\bcomposer\s+install\b|\bmvn\b[^\n]*dependency:go-offline)"
)
_MANIFEST = (
    r"(?:package(?:-lock)?\.json|package\*\.json|requirements[\w.*-]*\.txt|pyproject\.toml"
    r"|poetry\.lock|uv\.lock|Gemfile(?:\.lock)?|go\.(?:mod|sum)|composer\.(?:json|lock)"
    r"|yarn\.lock|pnpm-lock\.yaml|Pipfile(?:\.lock)?|pom\.xml)"
)
_COPY_ALL = r"^(?:COPY|ADD)\s+(?:--\S+\s+)*\./?\s+\S+\s*$"
# A running image: a FROM, then what it runs.
_IMAGE = r"(?i)^FROM\s[\s\S]*^(?:CMD|ENTRYPOINT)\b"

PATTERNS: list[Pattern] = [
    # --- Dockerfile -------------------------------------------------------------------
    pattern(
        "dockerfile-latest-tag",
        "latest tag image | latest tag docker | latest base image | untagged base image | base"
        " image tag | pin base image | floating image tag",
        "dockerfile",
        r"(?i)^FROM\s+(?:--\S+\s+)*(?:\S+:latest|(?:[\w.-]+(?::\d+)?/)+[\w.-]+|(?:ubuntu"
        r"|debian|alpine|node|python|golang|nginx|centos|fedora|ruby|php|openjdk|rust|redis"
        r"|postgres|mysql|mongo|httpd|busybox|amazonlinux|rockylinux|almalinux"
        r"|eclipse-temurin|amazoncorretto|maven|gradle|elixir|erlang|perl|haproxy|traefik"
        r"|caddy|tomcat|bash))(?:\s+AS\s+\S+)?\s*$",
        hits=(
            "FROM node:latest\nWORKDIR /app",
            "FROM python AS builder\nRUN pip install -r requirements.txt",
            "FROM --platform=linux/amd64 ghcr.io/acme/base-image\nCOPY . /srv",
            "from ubuntu:latest as runtime",
            "FROM registry.local:5000/team/api",
        ),
        safe=(
            "FROM node:20.11-alpine AS build",
            "FROM python:3.12-slim@sha256:0a1b2c3d4e5f",
            "FROM build AS runtime",
            "FROM scratch\nCOPY --from=build /app /app",
            "FROM ${BASE_IMAGE}",
            "FROM ghcr.io/acme/base-image:2024.05",
        ),
    ),
    pattern(
        "dockerfile-runs-as-root",
        "runs as root | running as root | container root user | non-root user | nonroot user"
        " | no user directive | user instruction dockerfile | drop root | unprivileged user"
        " | image uid 0 | container uid 0 | image runs as root",
        "dockerfile",
        _IMAGE,
        r"(?i)^USER\s+(?!root\b|0\b)\S+(?![\s\S]*^USER\s)|:nonroot\b|\b(?:gosu|su-exec)\b",
        hits=(
            'FROM node:20-slim\nWORKDIR /app\nCOPY . .\nRUN npm ci\nCMD ["node", "server.js"]',
            'FROM python:3.12\nRUN pip install flask\nUSER root\nENTRYPOINT ["flask", "run"]',
            "FROM golang:1.22 AS build\nRUN go build -o /bin/svc\nFROM debian:12\n"
            "COPY --from=build /bin/svc /bin/svc\nCMD /bin/svc",
        ),
        safe=(
            'FROM node:20-slim\nRUN useradd -m app\nUSER app\nCMD ["node", "server.js"]',
            'FROM python:3.12\nUSER 10001:10001\nENTRYPOINT ["gunicorn", "app:app"]',
            'FROM gcr.io/distroless/static:nonroot\nCOPY svc /\nCMD ["/svc"]',
            "RUN apt-get update && apt-get install -y --no-install-recommends curl",
        ),
    ),
    pattern(
        "dockerfile-add-instead-of-copy",
        "add instead of copy | copy instead of add | use copy not add"
        " | add instruction local files | add command dockerfile | copy over add"
        " | copy rather than add | add plain files | add archive copy | add auto extract"
        " | add unpacks archive",
        "dockerfile",
        r"(?i)^ADD\s+(?:--(?!checksum)\S+\s+)*(?!-|\[|https?://|git@|\S+\.(?:tar|tgz|txz|tbz2?"
        r"|tar\.(?:gz|bz2|xz|zst))\s)\S+\s+\S+"
        # (the exec form: ``ADD ["package.json", "yarn.lock", "./"]``)
        r"|^ADD\s+(?:--(?!checksum)\S+\s+)*\[\s*\"(?!https?://|git@|[^\"\n]*\.(?:tar|tgz|txz"
        r"|tbz2?|gz|bz2|xz|zst)\")[^\"\n]+\"\s*,",
        hits=(
            "ADD . /app",
            "ADD --chown=app:app requirements.txt /srv/",
            "add ./config/nginx.conf /etc/nginx/nginx.conf",
        ),
        safe=(
            "COPY . /app",
            "ADD rootfs.tar.gz /",
            "ADD --checksum=sha256:abc123 https://example.com/tool.bin /usr/local/bin/tool",
            "COPY --chown=app:app requirements.txt /srv/",
        ),
    ),
    pattern(
        "dockerfile-add-remote-url",
        "add remote url | add instruction url | add https url | download with add | add without"
        " checksum",
        "dockerfile",
        r"(?i)^ADD\s+(?:--\S+\s+)*https?://",
        r"(?i)--checksum=",
        hits=(
            "ADD https://github.com/acme/tool/releases/download/v1/tool /usr/local/bin/tool",
            "ADD --chmod=755 http://get.example.io/install.sh /tmp/install.sh",
            "add https://dl.k8s.io/release/v1.30.0/bin/linux/amd64/kubectl /usr/bin/",
        ),
        safe=(
            "ADD --checksum=sha256:24454f830cdb571e2c4ad15481119c43b3cafd48dd869a9b2945d1036d"
            " https://example.com/tool /usr/local/bin/tool",
            "RUN curl -fsSLo /tmp/tool https://example.com/tool && sha256sum -c tool.sha256",
            "COPY tool /usr/local/bin/tool",
        ),
    ),
    pattern(
        "dockerfile-apt-no-install-recommends",
        "no-install-recommends | install recommends | recommended packages | apt install"
        " bloat | image size apt",
        "dockerfile",
        r"\bapt(?:-get)?\s+(?:-\S+\s+)*install\b",
        r"--no-install-recommends|Install-Recommends",
        hits=(
            "RUN apt-get update && apt-get install -y curl ca-certificates",
            "RUN apt-get -qq install -y git",
            "RUN apt update \\\n&& DEBIAN_FRONTEND=noninteractive apt install -y build-essential",
        ),
        safe=(
            "RUN apt-get update && apt-get install -y --no-install-recommends curl",
            "RUN apk add --no-cache curl",
            "RUN apt-get update",
        ),
    ),
    pattern(
        "dockerfile-apt-lists-kept",
        "apt lists | var lib apt lists | apt cache layer | clean apt cache | apt-get clean"
        " | rm rf apt lists",
        "dockerfile",
        r"\bapt(?:-get)?\s+(?:-\S+\s+)*install\b",
        r"\brm\s+-[a-zA-Z]*[rR][a-zA-Z]*\s+(?:\S+\s+)*/var/lib/apt/lists"
        r"|--mount=type=cache[^\n]*/var/(?:lib|cache)/apt",
        hits=(
            "RUN apt-get update && apt-get install -y --no-install-recommends curl",
            "RUN apt-get update \\\n&& apt-get install -y libpq5 \\\n&& apt-get clean",
            "RUN apt install -y jq",
        ),
        safe=(
            "RUN apt-get update && apt-get install -y --no-install-recommends curl \\\n"
            "&& rm -rf /var/lib/apt/lists/*",
            "RUN --mount=type=cache,target=/var/cache/apt apt-get update && apt-get install -y gcc",
            "RUN apt-get install -y tzdata && rm -fr /tmp/* /var/lib/apt/lists/*",
        ),
    ),
    pattern(
        "dockerfile-apt-update-alone",
        "apt-get update separate | apt update separate run | stale apt cache"
        " | update and install same run | apt update own layer | update install single run"
        " | update install one run | cached apt update | apt-get update cached"
        " | stale package index",
        "dockerfile",
        r"(?i)^RUN\s+(?:apt-get|apt)\s+(?:-\S+\s+)*update(?:\s+-\S+)*\s*$",
        hits=(
            "RUN apt-get update\nRUN apt-get install -y curl",
            "RUN apt-get -q update",
            "run apt update -y",
        ),
        safe=(
            "RUN apt-get update && apt-get install -y --no-install-recommends curl",
            "RUN apt-get update \\\n&& apt-get install -y git",
            "RUN apk update && apk add git",
        ),
    ),
    pattern(
        "dockerfile-apk-no-cache",
        "apk add no-cache | apk cache | apk add without no-cache | var cache apk",
        "dockerfile",
        r"\bapk\s+(?:-\S+\s+)*add\b",
        r"--no-cache|\brm\s+-[a-zA-Z]*[rR][a-zA-Z]*\s+(?:\S+\s+)*/var/cache/apk"
        r"|--mount=type=cache",
        hits=(
            "RUN apk add curl",
            "RUN apk update && apk add --virtual .build-deps gcc musl-dev",
            "RUN apk -U add git openssh",
        ),
        safe=(
            "RUN apk add --no-cache curl",
            "RUN apk add git && rm -rf /var/cache/apk/*",
            "RUN apt-get install -y --no-install-recommends curl",
        ),
    ),
    pattern(
        "dockerfile-secret-in-env-arg",
        "secret in dockerfile env | secret in build arg | token in build arg | password in"
        " dockerfile | docker history secret | secret mount | build arg secret",
        "dockerfile",
        r"(?i)^(?:ENV|ARG)\s+(?:\w+=\S*\s+|\\\s+)*" + ENV_SECRET_NAME,
        hits=(
            'ARG NPM_TOKEN\nRUN echo "//registry.npmjs.org/:_authToken=$NPM_TOKEN" > .npmrc',
            "ENV DATABASE_PASSWORD=s3cr3t",
            "ENV AWS_SECRET_ACCESS_KEY wJalrXUtnFEMI",
            "arg github_token",
            "ENV APP_ENV=prod SECRET_KEY_BASE=abc123",
            "ENV REDIS_HOST=cache \\\n    REDIS_PASSWORD=hunter2",
        ),
        safe=(
            "ENV DATABASE_PASSWORD_FILE=/run/secrets/db_password",
            "RUN --mount=type=secret,id=npm_token NPM_TOKEN=$(cat /run/secrets/npm_token) npm ci",
            "ENV TOKENIZERS_PARALLELISM=false",
            "ARG NODE_VERSION=20",
            "ENV GPG_KEY=A035C8C19219BA821ECEA86B64E628F8D684696D",
            "ENV JWT_TOKEN_EXPIRY_SECONDS=3600 PUBLIC_KEY_PATH=/etc/app/pub.pem",
            "ENV PASS_THROUGH_HEADERS=1",
        ),
    ),
    pattern(
        "dockerfile-copy-secret-file",
        "copied env file into image | env file in image | ssh key in image"
        " | secret baked into image | npmrc in image | dockerignore env | private key in image"
        " | ssh key image | private key image | secret file copied image"
        " | env copied into image | credentials copied into image | dockerignore secrets"
        " | npmrc image | auth token copied image | secret copied into image",
        "dockerfile",
        r"(?i)^(?:COPY|ADD)[ \t]+(?:--\S+[ \t]+)*(?:\S+[ \t]+)*?[\"']?(?:\S*/)?"
        r"(?:\.env(?:\.(?!example|sample|template|dist)\w+)?|id_rsa|id_ed25519|id_ecdsa|\.npmrc|\.pypirc|\.netrc"
        r"|\.git-credentials|[\w.-]*credentials\.json|[\w.-]*service[-_]account[\w.-]*\.json|\S+\.pem"
        r"|\S+\.key|\.aws"
        r"|\.ssh|\.docker/config\.json)[\"']?,?(?=[ \t]+\S)",
        hits=(
            "COPY .env /app/.env",
            "COPY --chown=app id_rsa /root/.ssh/id_rsa",
            "COPY .npmrc package.json package-lock.json ./",
            "ADD certs/server.key /etc/ssl/private/",
            "COPY .env.production ./",
        ),
        safe=(
            "COPY .env.example .env",
            "COPY . .",
            "COPY package.json package-lock.json ./",
            "RUN --mount=type=secret,id=npmrc,target=/root/.npmrc npm ci",
        ),
    ),
    pattern(
        "dockerfile-curl-pipe-shell",
        "curl pipe sh | curl pipe bash | curl bash | wget pipe sh | piped to shell"
        " | pipe install script",
        "dockerfile",
        r"\b(?:curl|wget)\b[^|\n]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+\S+=\S+\s+)*"
        r"(?:(?:ba|z|da|k)?sh|python3?)\b",
        hits=(
            "RUN curl -fsSL https://deb.nodesource.com/setup_20.x | bash -",
            "RUN wget -qO- https://get.example.io/install | sh -s -- --yes",
            "RUN curl -sSL https://install.python-poetry.org | python3 -",
        ),
        safe=(
            "RUN curl -fsSLo /tmp/setup.sh https://example.com/setup.sh && sha256sum -c"
            " setup.sha256 && sh /tmp/setup.sh",
            "RUN curl -fsSL https://example.com/key.asc | gpg --dearmor -o /usr/share/key.gpg",
            "RUN curl -fsSL https://example.com/tool.tgz | tar xz -C /usr/local/bin",
        ),
    ),
    pattern(
        "dockerfile-copy-all-before-install",
        "copy before install | docker layer cache | cache busting docker layer | copy package"
        " json first | dependency layer cache | reinstalled dependencies every build | copy"
        " manifest first",
        "dockerfile",
        r"(?i)" + _COPY_ALL + r"[\s\S]*?" + _INSTALL,
        r"(?i)^COPY\s+(?:--\S+\s+)*(?:[^\n]*\s)?\S*" + _MANIFEST + r"\b[^\n]*[\s\S]*" + _COPY_ALL,
        hits=(
            'FROM node:20\nWORKDIR /app\nCOPY . .\nRUN npm ci\nCMD ["npm", "start"]',
            "COPY . /srv\nRUN pip install --no-cache-dir -r requirements.txt",
            "COPY --chown=app:app . .\nRUN bundle install --jobs 4",
            "COPY . .\nRUN go mod download && go build -o /bin/api ./cmd/api",
            "COPY ./ /app/\nRUN yarn install --frozen-lockfile",
        ),
        safe=(
            "COPY package.json package-lock.json ./\nRUN npm ci\nCOPY . .\nRUN npm run build",
            "COPY requirements.txt .\nRUN pip install -r requirements.txt\nCOPY . .",
            "COPY go.mod go.sum ./\nRUN go mod download\nCOPY . .\nRUN go build ./...",
            "COPY . .\nRUN npm run build",
        ),
    ),
    pattern(
        "dockerfile-sudo",
        "sudo in dockerfile | sudo inside container | sudo docker build | sudo run dockerfile"
        " | sudo base image | sudo already root | sudo image build | sudo docker image",
        "dockerfile",
        r"(?:^RUN\s+(?:--\S+\s+)*|&&\s*|;\s*|\|\|?\s*)sudo\s+(?:-\S+\s+)*[\w/.-]",
        hits=(
            "RUN sudo apt-get install -y curl",
            "RUN mkdir -p /opt/app && sudo chown app /opt/app",
            "RUN cd /tmp; sudo -u app make install",
            "RUN echo 'deb http://deb.acme.io stable main' | sudo tee /etc/apt/sources.list",
        ),
        safe=(
            "RUN apt-get install -y --no-install-recommends sudo curl",
            "USER root\nRUN chown app /opt/app\nUSER app",
            "RUN echo 'app ALL=(ALL) NOPASSWD: ALL' > /etc/sudoers.d/app",
        ),
    ),
    pattern(
        "dockerfile-pip-cache",
        "pip no-cache-dir | pip cache in image | pip install no cache | pip cache layer",
        "dockerfile",
        r"\bpip3?\s+(?:-\S+\s+)*install\b",
        r"--no-cache|PIP_NO_CACHE_DIR|UV_NO_CACHE|--mount=type=cache",
        hits=(
            "RUN pip install -r requirements.txt",
            "RUN python -m pip install --upgrade pip && pip install gunicorn",
            "RUN pip3 install --user poetry==1.8.3",
        ),
        safe=(
            "RUN pip install --no-cache-dir -r requirements.txt",
            "ENV PIP_NO_CACHE_DIR=1\nRUN pip install gunicorn",
            "RUN --mount=type=cache,target=/root/.cache/pip pip install -r requirements.txt",
        ),
    ),
    pattern(
        "dockerfile-ssh-server",
        "sshd in container | ssh server in container | expose 22 | openssh-server"
        " | ssh into container | sshd container | ssh daemon | ssh server container"
        " | sshd image | openssh server",
        "dockerfile",
        r"(?i)^EXPOSE\s+(?:\S+\s+)*22(?:/tcp)?(?:\s|$)|\bopenssh-server\b|/sshd\b"
        r"|\bsshd\s+-D\b",
        hits=(
            "RUN apt-get install -y --no-install-recommends openssh-server",
            "EXPOSE 8080 22",
            'CMD ["/usr/sbin/sshd", "-D"]',
        ),
        safe=(
            "EXPOSE 8080",
            "EXPOSE 2222/tcp 8022",
            "RUN apt-get install -y --no-install-recommends openssh-client git",
        ),
    ),
    pattern(
        "dockerfile-no-healthcheck",
        "no healthcheck | missing healthcheck | healthcheck instruction | add healthcheck"
        " | container health check",
        "dockerfile",
        _IMAGE,
        r"(?i)^HEALTHCHECK\s",
        hits=(
            'FROM node:20-slim\nUSER node\nCMD ["node", "server.js"]',
            'FROM nginx:1.27\nCOPY site /usr/share/nginx/html\nENTRYPOINT ["nginx", "-g",'
            ' "daemon off;"]',
            "from python:3.12-slim\ncmd python -m app",
        ),
        safe=(
            "FROM node:20-slim\nHEALTHCHECK --interval=30s CMD curl -f http://localhost:3000/"
            'healthz || exit 1\nCMD ["node", "server.js"]',
            'FROM python:3.12\nHEALTHCHECK NONE\nCMD ["python", "-m", "app"]',
            "RUN npm ci",
        ),
    ),
    pattern(
        "dockerfile-shell-form-cmd",
        "shell form cmd | exec form | shell form entrypoint | sigterm not received"
        " | pid 1 signal | signals not forwarded | graceful shutdown container",
        "dockerfile",
        r"(?i)^(?:CMD|ENTRYPOINT)\s+(?!\[)\S",
        r"(?i)^(?:CMD|ENTRYPOINT)\s+exec\s|\b(?:tini|dumb-init)\b",
        hits=(
            "CMD npm start",
            "ENTRYPOINT python -m app.server",
            "cmd node dist/main.js --port 8080",
        ),
        safe=(
            'CMD ["node", "dist/main.js"]',
            'ENTRYPOINT ["/sbin/tini", "--"]\nCMD node dist/main.js',
            "CMD exec gunicorn app:app --bind 0.0.0.0:8000",
        ),
    ),
]
