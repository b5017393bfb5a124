"""Known mistakes of an operator's command line: docker (prunes, volumes wiped by compose
down -v, forced removals, privileged containers, the docker socket mounted, host
networking, :latest pushed, secrets in build args and env flags, database ports
published to every interface, exec into production) and helm (upgrades that neither wait
nor roll back, uninstalls, unpinned charts, --force, --reuse-values).

kubectl is in ``shell_ops_k8s``; terraform in ``shell_ops_tf``; the clouds' CLIs in
``shell_ops_cloud``; database CLIs, gh and openssl in ``shell_ops_data``.
"""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

# Where a program's name starts: the line's start, a space, an operator, a subshell or a
# quote (``bash -c '...'``, ``- run: ...``).
B = r"(?:^|[\s;&|(`'\"])"
# The rest of one simple command: no newline and no operator that starts another command.
S = r"[^\n;&|]"
DOCKER = B + r"(?:docker|podman)\s+"
# docker's run and create, however the container subcommand is spelled.
RUN = DOCKER + r"(?:container\s+)?(?:run|create)\b"
# helm with its global options (--kube-context x, -n ns) before the subcommand.
HELM = B + r"helm(?:\s+-\S+(?:\s+(?!-)[^\s;&|]+)?)*?\s+"
# A production environment named in a container, context, host or namespace.
PROD = r"(?<![a-zA-Z])prod(?:uction)?(?![a-zA-Z])"
# A name that holds a secret: a password, a token, a key (case-insensitive patterns).
SECRET_NAME = r"\w*?(?:password|passwd|secret|token|api_?key|access_?key|private_?key|credentials?)"

PATTERNS: list[Pattern] = [
    # ---------------------------------------------------------------- docker
    pattern(
        "docker-system-prune",
        "docker system prune | system prune | docker prune | image prune all | container prune"
        " | removed unused docker images",
        "shell",
        DOCKER
        + r"(?:system\s+prune\b|container\s+prune\b|image\s+prune\b"
        + S
        + r"*\s(?:-[a-zA-Z]*a[a-zA-Z]*|--all)\b"
        + r"|(?:rmi|image\s+rm)\b[^\n]*\$\((?:docker|podman)\s+(?:images|image\s+ls)\b"
        + r"|(?:images|image\s+ls)\b(?:[^\n;&|]*\|){1,3}\s*xargs\b[^\n;&|]*"
        + r"\s(?:docker|podman)\s+(?:rmi|image\s+rm)\b)",
        r"\sprune\b" + S + r"*--filter\b",
        hits=(
            "docker image ls -q --filter reference='acme/*' | xargs -r docker image rm -f",
            "docker system prune -af --volumes",
            "sudo docker system prune -f",
            "docker image prune --all --force",
            "docker rmi -f $(docker images -q)",
            "cd infra && docker container prune -f",
        ),
        safe=(
            "docker system df",
            "docker image prune -f",
            "docker system prune -af --filter until=168h",
            "docker builder prune -f",
        ),
    ),
    pattern(
        "docker-volume-prune",
        "docker volume prune | volume prune | docker volume rm | deleted docker volume"
        " | named volume deleted",
        "shell",
        DOCKER + r"volume\s+(?:prune|rm|remove)\b",
        r"volume\s+prune\b" + S + r"*--filter\b",
        hits=(
            "docker volume prune -f",
            "docker volume rm shop_pgdata",
            "docker volume rm $(docker volume ls -q)",
            "sudo podman volume prune --force",
        ),
        safe=(
            "docker volume ls",
            "docker volume inspect shop_pgdata",
            "docker volume create cache",
            "docker volume prune --filter label=ephemeral=true",
        ),
    ),
    pattern(
        "docker-compose-down-volumes",
        "compose down -v | compose down volumes | docker compose down | down --volumes"
        " | compose deleted volumes",
        "shell",
        B
        + r"(?:docker[\s-]compose|podman-compose)\b"
        + S
        + r"*\sdown\b"
        + S
        + r"*\s(?:-v|--volumes)\b(?!=false)",
        hits=(
            "docker compose down -v",
            "docker-compose down --volumes --remove-orphans",
            "docker compose -f compose.prod.yml down -v",
            "cd deploy && sudo docker-compose down -v --rmi all",
        ),
        safe=(
            "docker compose down",
            "docker compose down --remove-orphans",
            "docker compose up -d",
            "docker compose run -v ./data:/data web",
        ),
    ),
    pattern(
        "docker-rm-force",
        "docker rm -f | docker rm force | force removed container | killed running container"
        " | removed running container",
        "shell",
        DOCKER
        + r"(?:(?:container\s+)?(?:rm|remove)\b"
        + S
        + r"*\s(?:--force\b|-[a-zA-Z]*f[a-zA-Z]*\b)|(?:kill|stop)\s+\$\((?:docker|podman)\s+ps\b)",
        hits=(
            "docker rm -f api",
            "docker container rm --force postgres-dev",
            "docker rm -fv $(docker ps -aq)",
            "docker kill $(docker ps -q)",
        ),
        safe=(
            "docker rm api-old",
            "docker stop api && docker rm api",
            "docker rmi api:1.4.1",
            "docker ps -a --filter status=exited",
        ),
    ),
    pattern(
        "docker-run-privileged",
        "privileged container | docker privileged | run --privileged | privileged mode"
        " | privileged flag",
        "shell",
        B
        + r"(?:docker|podman)(?:-compose\s+|\s+(?:container\s+|compose\s+)?)(?:run|create|exec)\b"
        + S
        + r"*\s--privileged\b(?!=false)",
        hits=(
            "docker run --privileged -it ubuntu bash",
            "docker run --rm --privileged=true -v /dev:/dev tools",
            "sudo docker exec --privileged api sh",
            "podman run --privileged --name builder img",
        ),
        safe=(
            "docker run --rm --cap-add=NET_ADMIN nicolaka/netshoot",
            "docker run --rm alpine echo ok",
            "docker run --privileged=false img",
            "docker info",
        ),
    ),
    pattern(
        "docker-socket-mount",
        "docker sock | docker socket | mounted docker socket | socket mount"
        " | docker socket container",
        "shell",
        r"(?:(?:-v|--volume|--mount)[=\s]+[\"']?\S*?|^-\s*[\"']?)/(?:var/)?run/docker\.sock\b",
        hits=(
            "docker run -v /var/run/docker.sock:/var/run/docker.sock ci-runner",
            "docker run --volume=/var/run/docker.sock:/var/run/docker.sock:ro portainer/agent",
            "docker run --mount type=bind,source=/run/docker.sock,target=/var/run/docker.sock a",
            "- /var/run/docker.sock:/var/run/docker.sock",
        ),
        safe=(
            'docker run -v "$PWD":/app -w /app node:20 npm test',
            "docker context use build-host",
            "ls -l /var/run/docker.sock",
            "DOCKER_HOST=tcp://builder:2376 docker build -t api:1.4.2 .",
        ),
    ),
    pattern(
        "docker-network-host",
        "network host | net=host | host networking | network mode host | docker host network",
        "shell",
        RUN + S + r"*\s--net(?:work)?[=\s]+[\"']?host\b",
        hits=(
            "docker run --network host api:1.4.2",
            "docker run -d --net=host --name agent datadog/agent",
            "sudo docker create --network=host proxy",
            "podman run --net host img",
        ),
        safe=(
            "docker run -p 8080:80 nginx",
            "docker run --network backend api",
            "docker network ls",
            "docker run --network=hostnet api",
        ),
    ),
    pattern(
        "docker-push-latest",
        "latest tag | docker push latest | untagged image | mutable image tag | tagged latest",
        "shell",
        DOCKER + r"(?:image\s+)?push\b(?:\s+-\S+)*\s+(?:[^\s;&|]*:latest\b|"
        r"(?:[^\s;&|:]*(?::\d+)?/)?(?:[\w.-]+/)*[\w.-]+(?=\s*(?:$|[;&|)]|['\"]+(?:\s|$|[;&|)]))))"
        + r"|"
        + DOCKER
        + r"(?:buildx\s+)?build\b(?="
        + S
        + r"*\s--push\b)"
        + S
        + r"*\s(?:-t|--tag)[=\s]+['\"]?[^\s;&|'\"]*:latest\b",
        r"\spush\b" + S + r"*(?:--all-tags|\s-a)\b",
        hits=(
            "docker push acme/api:latest",
            "docker push ghcr.io/acme/web",
            "docker build -t registry.acme.dev:5000/shop/cart:latest . &&"
            " docker push registry.acme.dev:5000/shop/cart:latest",
            'docker image push "$REGISTRY/worker:latest"',
            "docker push localhost:5000/team/api",
        ),
        safe=(
            "docker push acme/api:1.4.2",
            "docker push ghcr.io/acme/web:${GIT_SHA}",
            'docker push "$IMAGE:$TAG"',
            "docker pull postgres:latest",
            "docker push --all-tags acme/api",
        ),
    ),
    pattern(
        "docker-build-arg-secret",
        "build arg secret | build-arg token | build arg password | secret image history"
        " | build secret | secret in image layer",
        "shell",
        r"(?i)--build-arg[=\s]+[\"']?" + SECRET_NAME + r"\w*(?:=|[\"']?(?=\s|$))",
        hits=(
            "docker build --build-arg NPM_TOKEN=$NPM_TOKEN -t web .",
            "docker build -t api --build-arg=DB_PASSWORD=hunter2 .",
            "docker buildx build --build-arg GITHUB_TOKEN --push -t ghcr.io/acme/api:1.2 .",
            "docker build --build-arg 'AWS_SECRET_ACCESS_KEY=abc' -t etl .",
        ),
        safe=(
            "docker build --build-arg VERSION=1.4.2 -t api:1.4.2 .",
            "docker build --secret id=npm,src=$HOME/.npmrc -t web .",
            "DOCKER_BUILDKIT=1 docker build --build-arg NODE_ENV=production .",
            "ARG NODE_VERSION=20",
        ),
    ),
    pattern(
        "docker-run-env-secret",
        "docker inspect password | docker inspect secret | docker env password"
        " | password docker run | secret environment docker"
        " | secrets environment variables leaked | passed secrets environment variables"
        " | secrets from files docker",
        "shell",
        r"(?i)"
        + DOCKER
        + r"(?:container\s+)?(?:run|create|exec)\b"
        + S
        + r"*\s(?:-e|--env)[=\s]+[\"']?"
        + SECRET_NAME
        + r"(?!\w*_file=)\w*=(?![\"']?\$)[\"']?[^\s\"'$]",
        hits=(
            "docker run -e POSTGRES_PASSWORD=hunter2 -d postgres:16",
            "docker run --rm --env=API_TOKEN=sk_live_abc123 worker:2.1",
            "docker exec -e AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI api env",
            "docker run -d -e 'REDIS_PASSWORD=changeme' redis:7",
        ),
        safe=(
            "docker run -e POSTGRES_PASSWORD_FILE=/run/secrets/pg -d postgres:16",
            "docker run --env-file .env.local api:1.4.2",
            "docker run -e API_TOKEN -e LOG_LEVEL=debug worker:2.1",
            'docker run -e DB_PASSWORD="$DB_PASSWORD" api:1.4.2',
        ),
    ),
    pattern(
        "docker-publish-db-port",
        "exposed database port | exposed redis port | published port all interfaces"
        " | docker bypassed firewall | docker ufw | database port exposed internet"
        " | exposed redis | exposed postgres | exposed mongo | published postgres"
        " | all interfaces | publish to localhost",
        "shell",
        RUN + S + r"*\s(?:-p|--publish)[=\s]+[\"']?(?:0\.0\.0\.0:)?(?:\d+:)?"
        r"(?:5432|3306|6379|27017|9200|11211|5672|15672|9042|26257|8086|2379)(?=[\s\"'/]|$)",
        hits=(
            "docker run -d -p 5432:5432 -e POSTGRES_PASSWORD_FILE=/run/secrets/pg postgres:16",
            "docker run --name cache -p 6379:6379 redis:7",
            "docker run -d --publish=0.0.0.0:27017:27017 mongo:7",
            "docker run -p 13306:3306 mysql:8",
        ),
        safe=(
            "docker run -d -p 127.0.0.1:5432:5432 postgres:16",
            "docker run -p 8080:80 nginx",
            "docker run -d --network backend redis:7",
            "docker run -p 5173:5173 web",
        ),
    ),
    pattern(
        "docker-exec-prod",
        "exec into production container | exec into prod container | shell into production"
        " | hotfix inside container | docker exec production"
        " | hot-patched container | patched production container | docker cp prod"
        " | changed running production container",
        "shell",
        DOCKER + r"(?=" + S + r"*" + PROD + r")(?=(?:" + S + r"*?\s)?(?:exec|cp|attach)\s)"
        r"|\bDOCKER_(?:HOST|CONTEXT)=\S*" + PROD + S + r"*\s(?:docker|podman)\s+(?:exec|cp)\b",
        hits=(
            "docker exec -it shop-prod-api bash",
            "docker --context production exec -it db psql -U app",
            "docker cp hotfix.py api-prod:/app/hotfix.py",
            "DOCKER_HOST=ssh://deploy@prod1 docker exec -it api sh",
        ),
        safe=(
            "docker exec -it shop-dev-api bash",
            "docker exec api-staging env",
            "docker compose exec web pytest",
            "docker exec -it products-api sh",
            "docker logs api-prod --tail 50",
        ),
    ),
    # ------------------------------------------------------------------ helm
    pattern(
        "helm-upgrade-no-atomic",
        "helm atomic | helm upgrade atomic | failed helm release | helm pending upgrade"
        " | helm rollback on failure | helm failed state"
        " | pending-upgrade | release stuck failed upgrade | stuck in pending-install",
        "shell",
        HELM + r"(?:upgrade|install)\b",
        r"--atomic\b(?!=false)|--rollback-on-failure\b",
        hits=(
            "helm upgrade api ./charts/api -n shop",
            "helm upgrade --install web charts/web -f values/prod.yaml --wait",
            "helm -n payments install ledger ./chart",
            "helm upgrade --install redis bitnami/redis --version 19.0.1",
        ),
        safe=(
            "helm upgrade --install api ./charts/api -n shop --atomic --timeout 10m",
            "helm upgrade api ./charts/api --rollback-on-failure",
            "helm list -n shop",
            "helm template api ./charts/api",
            "helm plugin install https://github.com/databus23/helm-diff",
        ),
    ),
    pattern(
        "helm-upgrade-no-wait",
        "helm wait | helm upgrade wait | helm install wait | helm returned before ready",
        "shell",
        HELM + r"(?:upgrade|install)\b",
        r"--wait\b(?!=false)|--atomic\b(?!=false)|--rollback-on-failure\b",
        hits=(
            "helm upgrade api ./charts/api -n shop",
            "helm upgrade --install web charts/web -f values/prod.yaml",
            "helm --kube-context prod install ledger ./chart",
        ),
        safe=(
            "helm upgrade api ./charts/api -n shop --wait --timeout 5m",
            "helm upgrade --install web charts/web --atomic",
            "helm history api -n shop",
        ),
    ),
    pattern(
        "helm-uninstall",
        "helm uninstall | helm delete | uninstalled helm release | deleted helm release | helm del",
        "shell",
        HELM + r"(?:uninstall|delete|del|un)\b",
        r"--dry-run\b",
        hits=(
            "helm uninstall api -n shop",
            "helm delete --purge old-release",
            "helm -n monitoring uninstall prometheus --wait",
            "helm del redis",
        ),
        safe=(
            "helm uninstall api -n shop --dry-run",
            "helm list --uninstalled",
            "helm history api -n shop",
            "helm rollback api 3 -n shop",
        ),
    ),
    pattern(
        "helm-unpinned-chart",
        "helm chart version | pin chart version | pinned chart version | unpinned chart"
        " | helm --version | chart upgraded unexpectedly"
        " | latest chart | version for charts | chart without version",
        "shell",
        HELM + r"(?:upgrade|install)\b(?:" + S + r"*?\s(?!(?:charts?|helm|deploy|deployments?"
        r"|k8s|kubernetes|infra|ops|manifests)/)(?:oci://\S+|[a-z][\w-]*/[\w-]+)(?=\s|$)"
        r"|" + S + r"*\s--repo[=\s])",
        r"--version[=\s]+\S",
        hits=(
            "helm upgrade --install pg bitnami/postgresql -n db",
            "helm install ingress ingress-nginx/ingress-nginx --namespace ingress"
            " --create-namespace",
            "helm upgrade --install cm oci://registry-1.docker.io/bitnamicharts/cert-manager"
            " -f values/cm.yaml",
            "helm install grafana grafana --repo https://grafana.github.io/helm-charts",
        ),
        safe=(
            "helm upgrade --install pg bitnami/postgresql --version 15.5.1 -n db",
            "helm upgrade --install api ./charts/api -f values/prod.yaml",
            "helm upgrade api charts/api -n shop --set image.repository=acme/api",
            "helm repo add bitnami https://charts.bitnami.com/bitnami",
        ),
    ),
    pattern(
        "helm-upgrade-force",
        "helm force | helm upgrade --force | helm force replace | helm recreated resources",
        "shell",
        HELM + r"(?:upgrade|install|rollback)\b" + S + r"*\s--force(?:-replace)?(?![\w-])",
        hits=(
            "helm upgrade api ./charts/api --force",
            "helm upgrade --install --force web charts/web -n shop",
            "helm rollback api 4 --force",
            "helm upgrade --force-replace api ./charts/api",
        ),
        safe=(
            "helm upgrade api ./charts/api --atomic",
            "helm upgrade api ./charts/api --server-side --force-conflicts",
            "helm repo update",
            "helm dependency update charts/api",
        ),
    ),
    pattern(
        "helm-reuse-values",
        "reuse values | reuse-values | helm stale values | reset then reuse values",
        "shell",
        HELM + r"upgrade\b" + S + r"*\s--reuse-values\b",
        hits=(
            "helm upgrade api ./charts/api --reuse-values --set image.tag=1.5.0",
            "helm upgrade --install --reuse-values web charts/web",
            "helm -n shop upgrade cart bitnami/nginx --version 15.1.0 --reuse-values",
        ),
        safe=(
            "helm upgrade api ./charts/api -f values/prod.yaml --set image.tag=1.5.0",
            "helm upgrade api ./charts/api --reset-then-reuse-values --set image.tag=1.5.0",
            "helm get values api -n shop",
        ),
    ),
]
