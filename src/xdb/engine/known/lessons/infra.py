# ruff: noqa: E501
"""Lessons about infrastructure and configuration mistakes, written blind (from each
pattern's name and examples, before reading its phrases), as different engineers would
write them after being bitten: the naming test checks the catalogue's words find them."""

from __future__ import annotations

LESSONS: list[tuple[str, str, str]] = [  # (pattern name, question, answer)
    # config_infra (Dockerfile)
    (
        "dockerfile-latest-tag",
        "the image rebuilt from node:latest picked up a new major version overnight and broke the build",
        "pin the base image to an exact version tag, ideally with a digest",
    ),
    (
        "dockerfile-latest-tag",
        "FROM python with no tag",
        "always pin base images; an untagged FROM floats to whatever latest is",
    ),
    (
        "dockerfile-runs-as-root",
        "our container ran as root and a path traversal let the attacker write to /etc",
        "add a non-root user in the Dockerfile and switch to it with USER before CMD",
    ),
    (
        "dockerfile-runs-as-root",
        "Dockerfile had no USER instruction",
        "create an unprivileged app user and drop root",
    ),
    (
        "dockerfile-add-instead-of-copy",
        "used ADD to copy local files into the image and it silently extracted a tarball",
        "prefer COPY over ADD for local files",
    ),
    (
        "dockerfile-add-instead-of-copy",
        "hadolint flagged ADD for plain files",
        "use COPY; ADD only for archives you want unpacked",
    ),
    (
        "dockerfile-add-remote-url",
        "ADD pulled a binary from a github release url at build time and the upstream file changed under us",
        "download with curl and verify its checksum, or use ADD --checksum",
    ),
    (
        "dockerfile-add-remote-url",
        "the Docker build fetched a remote URL via ADD with no integrity check",
        "verify the sha256 of anything downloaded during the build",
    ),
    (
        "dockerfile-apt-no-install-recommends",
        "the image grew by 400MB because apt-get install dragged in recommended packages",
        "pass --no-install-recommends to apt-get install",
    ),
    (
        "dockerfile-apt-no-install-recommends",
        "apt installed a pile of extra recommended packages we never asked for",
        "always use the no-install-recommends flag in Dockerfiles",
    ),
    (
        "dockerfile-apt-lists-kept",
        "the apt package lists were left in the image layer, adding 40MB",
        "rm -rf /var/lib/apt/lists/* in the same RUN as the install",
    ),
    (
        "dockerfile-apt-lists-kept",
        "image bloated because we never cleaned the apt cache after installing",
        "clean up /var/lib/apt/lists in the same layer",
    ),
    (
        "dockerfile-apt-update-alone",
        "apt-get update in its own RUN line got cached and later installs used a stale index and failed with 404",
        "combine apt-get update and apt-get install in one RUN",
    ),
    (
        "dockerfile-apt-update-alone",
        "stale package index from a cached update layer broke the docker build",
        "never run apt update alone on its own line; chain it with the install",
    ),
    (
        "dockerfile-apk-no-cache",
        "apk add left its index cache in the alpine image",
        "use apk add --no-cache",
    ),
    (
        "dockerfile-apk-no-cache",
        "alpine image was larger than needed because of the apk cache",
        "install packages with the no-cache flag",
    ),
    (
        "dockerfile-secret-in-env-arg",
        "we passed the npm token as a build ARG and it was visible in docker history",
        "use BuildKit secret mounts instead of ARG or ENV for credentials",
    ),
    (
        "dockerfile-secret-in-env-arg",
        "a database password set with ENV in the Dockerfile was baked into the image layers",
        "never put secrets in ENV; inject them at runtime or mount them as secrets",
    ),
    (
        "dockerfile-copy-secret-file",
        "COPY .env into the image shipped our production credentials to the public registry",
        "add .env to .dockerignore and never copy secret files into the image",
    ),
    (
        "dockerfile-copy-secret-file",
        "the private ssh key was copied into the container image",
        "use a build secret or ssh mount instead of copying keys into the image",
    ),
    (
        "dockerfile-curl-pipe-shell",
        "the Dockerfile piped curl into bash to install node and the script changed upstream",
        "download the script, verify its checksum, then run it",
    ),
    (
        "dockerfile-curl-pipe-shell",
        "curl | sh during docker build ran an unverified remote script",
        "never pipe a download straight to a shell",
    ),
    (
        "dockerfile-copy-all-before-install",
        "every code change invalidated the npm ci layer because we did COPY . . before installing dependencies",
        "copy package.json and the lock file first, install, then copy the rest of the source",
    ),
    (
        "dockerfile-copy-all-before-install",
        "docker layer cache was busted on each commit so pip install ran every build",
        "copy requirements.txt alone before pip install so the dependency layer is cached",
    ),
    (
        "dockerfile-sudo",
        "sudo in a Dockerfile RUN broke the build and is pointless",
        "RUN already runs as root; switch USER instead of using sudo",
    ),
    (
        "dockerfile-sudo",
        "hadolint warned about using sudo inside the Dockerfile",
        "don't use sudo in the image build; use USER root and then USER app",
    ),
    (
        "dockerfile-pip-cache",
        "pip install in the Dockerfile kept its wheel cache in the layer and the image grew",
        "pip install --no-cache-dir",
    ),
    (
        "dockerfile-pip-cache",
        "the image carried 300MB of pip cache",
        "set PIP_NO_CACHE_DIR or use no-cache-dir when installing python packages in images",
    ),
    (
        "dockerfile-ssh-server",
        "someone installed openssh-server in the container to debug it and exposed port 22",
        "don't run sshd in containers; use docker exec or kubectl exec",
    ),
    (
        "dockerfile-ssh-server",
        "an SSH daemon inside the image became an attack surface",
        "remove sshd from containers and never expose port 22",
    ),
    (
        "dockerfile-no-healthcheck",
        "the container was up but the app inside was hung and docker never restarted it",
        "add a HEALTHCHECK instruction to the Dockerfile",
    ),
    (
        "dockerfile-no-healthcheck",
        "Dockerfile had no health check so orchestration could not tell it was dead",
        "define HEALTHCHECK with curl against the health endpoint",
    ),
    (
        "dockerfile-shell-form-cmd",
        "the app ignored SIGTERM on docker stop because CMD was in shell form and sh was PID 1",
        'use the exec form CMD ["node", "server.js"] so signals reach the process',
    ),
    (
        "dockerfile-shell-form-cmd",
        "container took 10 seconds to stop, killed instead of a graceful shutdown",
        "write ENTRYPOINT/CMD in JSON array (exec) form",
    ),
    # config_infra_compose
    (
        "compose-docker-socket",
        "mounting /var/run/docker.sock into the container gave it root on the host",
        "never mount the docker socket; use a socket proxy with limited API access",
    ),
    (
        "compose-docker-socket",
        "the CI runner container had the Docker socket mounted and a job escaped to the host",
        "don't bind-mount docker.sock into containers",
    ),
    (
        "compose-network-host",
        "network_mode: host in compose bypassed the port mappings and exposed every service on the box",
        "use bridge networks and publish only the needed ports",
    ),
    (
        "compose-network-host",
        "the container used host networking and clashed with a port on the host",
        "don't use host network mode; use a user-defined network",
    ),
    (
        "compose-db-port-public",
        "compose published postgres 5432 on all interfaces and the database was reachable from the internet",
        "bind database ports to 127.0.0.1 or don't publish them at all",
    ),
    (
        "compose-db-port-public",
        "redis port 6379 exposed publicly via docker ports got ransomwared",
        "publish db ports only on localhost",
    ),
    (
        "compose-env-password",
        "the postgres password was hardcoded in docker-compose.yml environment and committed",
        "reference ${POSTGRES_PASSWORD} from an untracked .env or use docker secrets",
    ),
    (
        "compose-env-password",
        "plaintext secrets in compose environment variables ended up in git",
        "use variable substitution or _FILE secrets instead of literal values",
    ),
    (
        "compose-depends-on-unhealthy",
        "api started before postgres was ready even though depends_on listed db, and crashed on boot",
        "use depends_on with condition: service_healthy and a healthcheck on the db",
    ),
    (
        "compose-depends-on-unhealthy",
        "depends_on only waits for the container to start, not for the service to be ready",
        "add healthchecks and condition service_healthy",
    ),
    # config_infra_k8s
    (
        "k8s-no-resource-limits",
        "a pod with no memory limit leaked and took down the whole node",
        "set resources requests and limits on every container",
    ),
    (
        "k8s-no-resource-limits",
        "deployment without resource limits starved its neighbours of CPU",
        "always declare cpu and memory limits",
    ),
    (
        "k8s-privileged",
        "the container ran privileged: true and a compromise gave full host access",
        "remove privileged mode; grant only the specific capability needed",
    ),
    (
        "k8s-privileged",
        "we set privileged in the securityContext just to make a mount work",
        "never run privileged containers",
    ),
    (
        "k8s-privilege-escalation",
        "allowPrivilegeEscalation was left at its default so a setuid binary could get root",
        "set allowPrivilegeEscalation: false on every container",
    ),
    (
        "k8s-privilege-escalation",
        "kube-linter flagged containers that allow privilege escalation",
        "disable privilege escalation in the container securityContext",
    ),
    (
        "k8s-runs-as-root",
        "the pod ran as root because nothing set runAsNonRoot",
        "set runAsNonRoot: true and a non-zero runAsUser",
    ),
    (
        "k8s-runs-as-root",
        "container process was uid 0 inside the cluster",
        "run pods as a non-root user via securityContext",
    ),
    (
        "k8s-host-namespace",
        "hostNetwork: true on the pod let it sniff node traffic",
        "don't share host namespaces (hostNetwork, hostPID, hostIPC)",
    ),
    (
        "k8s-host-namespace",
        "the monitoring container shared the host PID namespace and could see and kill every process",
        "avoid hostPID",
    ),
    (
        "k8s-hostpath-volume",
        "mounting a hostPath volume of /etc let the pod edit node files",
        "use a PVC or emptyDir instead of hostPath",
    ),
    (
        "k8s-hostpath-volume",
        "hostPath mounts tie pods to a node and expose the host filesystem",
        "don't use hostPath volumes",
    ),
    (
        "k8s-no-readiness-probe",
        "traffic was routed to pods before they finished warming up and users saw 502s during the rollout",
        "add a readinessProbe to the deployment",
    ),
    (
        "k8s-no-readiness-probe",
        "deployment had no readiness probe so the service sent requests to pods that were not ready",
        "define readinessProbe on every serving container",
    ),
    (
        "k8s-no-liveness-probe",
        "a deadlocked pod stayed Running for hours because kubernetes never restarted it",
        "add a livenessProbe so the kubelet restarts hung containers",
    ),
    (
        "k8s-no-liveness-probe",
        "no liveness probe on the daemonset",
        "every long-running container needs a liveness probe",
    ),
    (
        "k8s-secret-env-value",
        "the DB password was written as a plain env value in the deployment manifest",
        "use valueFrom secretKeyRef instead of a literal value",
    ),
    (
        "k8s-secret-env-value",
        "an API key hardcoded in the pod spec env leaked through the git repo",
        "reference secrets via secretKeyRef",
    ),
    (
        "k8s-secret-manifest-plaintext",
        "we committed a Kubernetes Secret manifest to git thinking base64 was encryption",
        "use SealedSecrets or sops to encrypt secrets before committing",
    ),
    (
        "k8s-secret-manifest-plaintext",
        "stringData secret with the real api key was pushed to the repo",
        "never commit plaintext Secret objects; use sealed secrets or external-secrets",
    ),
    (
        "k8s-capabilities-add",
        "we added SYS_ADMIN capability to the container and it could escape",
        "drop ALL capabilities and add back only what is needed",
    ),
    (
        "k8s-capabilities-add",
        "cap_add NET_ADMIN gave the container far too much power",
        "don't add linux capabilities; drop all",
    ),
    (
        "k8s-automount-sa-token",
        "the service account token was automounted into every pod and an RCE used it to talk to the API server",
        "set automountServiceAccountToken: false unless the pod needs the API",
    ),
    (
        "k8s-automount-sa-token",
        "pods got a kubernetes API token mounted by default",
        "disable automounting of the service account token",
    ),
    (
        "k8s-cluster-admin-binding",
        "we bound the CI service account to cluster-admin to get the deploy working",
        "create a Role with only the needed verbs in the namespace",
    ),
    (
        "k8s-cluster-admin-binding",
        "a ClusterRoleBinding to cluster-admin gave the argo service account full control of the cluster",
        "least privilege: never grant cluster-admin to workloads",
    ),
    (
        "k8s-rbac-wildcard",
        "the Role used verbs ['*'] and resources ['*']",
        "list explicit verbs and resources in RBAC rules",
    ),
    (
        "k8s-rbac-wildcard",
        "wildcard RBAC permissions let the operator delete secrets it should only read",
        "never use * in rbac rules",
    ),
    (
        "k8s-image-latest",
        "the deployment used image: api:latest and a rollout restart pulled an untested build",
        "pin image tags to a version or digest in manifests",
    ),
    (
        "k8s-image-latest",
        "an untagged container image in the pod spec meant nodes ran different versions",
        "always use an immutable image tag",
    ),
    (
        "k8s-writable-root-fs",
        "the attacker wrote a binary to the container filesystem",
        "set readOnlyRootFilesystem: true and mount emptyDir for scratch",
    ),
    (
        "k8s-writable-root-fs",
        "container root filesystem was writable",
        "make the root filesystem read-only",
    ),
    (
        "helm-values-plain-secret",
        "the postgres password was committed in values.yaml of the helm chart",
        "use existingSecret or an external secret store instead of plaintext values",
    ),
    (
        "helm-values-plain-secret",
        "plaintext credentials in helm values files ended up in the repo",
        "keep secrets out of values files; reference an existing secret",
    ),
    # config_infra_cloud: terraform
    (
        "tf-hcl-public-bucket",
        "terraform set acl = public-read on the S3 bucket and customer files were world readable",
        "keep bucket ACLs private and serve through CloudFront",
    ),
    (
        "tf-hcl-public-bucket",
        "a storage bucket was made public with allUsers",
        "never grant public read on buckets",
    ),
    (
        "tf-hcl-public-access-block-off",
        "we turned off S3 block public access to fix a CloudFront issue and the bucket became public",
        "keep all four public access block settings true",
    ),
    (
        "tf-hcl-public-access-block-off",
        "block_public_acls = false in terraform",
        "leave the public access block enabled",
    ),
    (
        "tf-hcl-sg-open-admin-port",
        "the security group opened SSH port 22 to 0.0.0.0/0 and we got brute-forced",
        "restrict admin ports to the VPN CIDR or use SSM",
    ),
    (
        "tf-hcl-sg-open-admin-port",
        "RDP open to the whole internet in an ingress rule",
        "never allow ingress from anywhere on 22 or 3389",
    ),
    (
        "tf-hcl-unencrypted-storage",
        "the RDS instance was created without storage encryption and can't be encrypted in place",
        "set storage_encrypted = true on databases and encrypted = true on volumes",
    ),
    (
        "tf-hcl-unencrypted-storage",
        "EBS volume unencrypted at rest failed the audit",
        "enable encryption at rest with a KMS key",
    ),
    (
        "tf-hcl-hardcoded-secret",
        "the RDS master password was hardcoded in main.tf and committed",
        "use random_password or a secrets manager, and mark variables sensitive",
    ),
    (
        "tf-hcl-hardcoded-secret",
        "AWS access keys were written in the terraform provider block",
        "never hardcode credentials in terraform; use env vars or a profile",
    ),
    (
        "tf-hcl-unpinned-source",
        "a terraform module sourced from git without a ref pulled a breaking change from main",
        "pin module sources to a tag with ?ref= or set version",
    ),
    (
        "tf-hcl-unpinned-source",
        "registry module had no version constraint so terraform init fetched a new major",
        "always pin module and provider versions",
    ),
    (
        "tf-hcl-db-deletion-protection",
        "terraform destroyed the production database with no final snapshot",
        "enable deletion_protection and set skip_final_snapshot = false",
    ),
    (
        "tf-hcl-db-deletion-protection",
        "the RDS instance had deletion protection disabled and got replaced on apply",
        "turn on deletion protection and prevent_destroy for stateful resources",
    ),
    (
        "tf-hcl-publicly-accessible",
        "the database was publicly accessible and showed up in Shodan",
        "set publicly_accessible = false and keep databases in private subnets",
    ),
    (
        "tf-hcl-publicly-accessible",
        "Cloud SQL authorized network 0.0.0.0/0 exposed the db to the internet",
        "no public network access for databases",
    ),
    (
        "tf-hcl-iam-wildcard",
        "an IAM policy with Action * and Resource * gave the lambda admin rights",
        "grant only the specific actions on specific resource ARNs",
    ),
    (
        "tf-hcl-iam-wildcard",
        "over-broad wildcard IAM permissions let a leaked key delete everything",
        "least privilege: no wildcard actions in policies",
    ),
    (
        "tf-hcl-principal-wildcard",
        "a bucket policy with Principal * let anyone read the objects",
        "name the exact principals, or add a condition like aws:PrincipalOrgID",
    ),
    (
        "tf-hcl-principal-wildcard",
        "the SQS queue policy allowed any AWS principal to send messages",
        "never use a wildcard principal without conditions",
    ),
    (
        "tf-hcl-force-destroy",
        "force_destroy = true on the S3 bucket let terraform delete it with all the objects in it",
        "leave force_destroy off for buckets with data",
    ),
    (
        "tf-hcl-force-destroy",
        "a rename caused terraform to replace the bucket and force destroy wiped the logs",
        "don't set force_destroy on stateful buckets",
    ),
    # config_infra_cloud: nginx
    (
        "nginx-autoindex",
        "nginx autoindex on exposed a directory listing of our backups",
        "turn autoindex off",
    ),
    (
        "nginx-autoindex",
        "directory listing enabled on the web server leaked files",
        "disable directory listing in nginx",
    ),
    (
        "nginx-server-tokens",
        "nginx leaked its exact version in the Server header and error pages",
        "set server_tokens off in the http block",
    ),
    (
        "nginx-server-tokens",
        "the server version disclosure was flagged by the pentest",
        "hide the nginx version with server_tokens off",
    ),
    (
        "nginx-weak-tls",
        "nginx still allowed TLSv1 and TLSv1.1 and failed the PCI scan",
        "ssl_protocols TLSv1.2 TLSv1.3 only",
    ),
    (
        "nginx-weak-tls",
        "old TLS protocol versions were enabled on the load balancer config",
        "disable TLS 1.0 and 1.1",
    ),
    (
        "nginx-alias-traversal",
        "a location without a trailing slash using alias let /static../etc/passwd read outside the folder",
        "make location and alias both end with a slash",
    ),
    (
        "nginx-alias-traversal",
        "nginx off-by-slash alias path traversal",
        "location /static/ with alias /var/www/static/",
    ),
    # config_infra_ci
    (
        "gha-script-injection",
        "a PR title with $(curl ...) got executed because the workflow interpolated github.event.pull_request.title into run",
        "pass untrusted event fields through env variables and quote them",
    ),
    (
        "gha-script-injection",
        "script injection in a GitHub Actions run step via ${{ }} expressions",
        "never use ${{ github.event.* }} directly inside run scripts",
    ),
    (
        "gha-pr-target-checkout-head",
        "a pull_request_target workflow checked out the PR head and ran the fork's code with our secrets",
        "never check out untrusted PR code in pull_request_target; use pull_request",
    ),
    (
        "gha-pr-target-checkout-head",
        "pwn request: the fork's code ran with a write token",
        "don't checkout the head ref under pull_request_target",
    ),
    (
        "gha-action-branch-ref",
        "a third-party action referenced @main changed under us and broke every pipeline",
        "pin actions to a release tag or commit SHA, never a branch",
    ),
    (
        "gha-action-branch-ref",
        "uses: org/action@master pulled in a bad commit",
        "reference actions by a version, not by branch",
    ),
    (
        "gha-action-not-sha",
        "the tj-actions/changed-files tag was moved to a malicious commit and dumped our secrets",
        "pin third-party actions to a full commit SHA",
    ),
    (
        "gha-action-not-sha",
        "actions referenced by mutable version tags can be retagged",
        "use full-length commit hashes for uses: with a version comment",
    ),
    (
        "ci-secret-echoed",
        "the deploy job echoed the API token and it showed up in the build log",
        "never print secrets in CI; mask them",
    ),
    (
        "ci-secret-echoed",
        "a CI step printed a secret variable to the job log",
        "don't echo tokens; pipe them to --password-stdin",
    ),
    (
        "gha-permissions-broad",
        "the workflow's GITHUB_TOKEN had write-all permissions and a compromised step pushed to main",
        "declare permissions: contents: read at the top of every workflow",
    ),
    (
        "gha-permissions-broad",
        "no permissions block in the workflow so the token got the default broad scopes",
        "set least-privilege token permissions explicitly",
    ),
    (
        "ci-continue-on-error",
        "continue-on-error: true on the test step hid failing tests for weeks",
        "don't let test steps continue on error",
    ),
    (
        "ci-continue-on-error",
        "allow_failure on the gitlab test job meant broken builds went green",
        "remove allow_failure from required jobs",
    ),
    (
        "ci-test-failure-ignored",
        "pytest || true in the pipeline swallowed test failures",
        "let the test command's exit code fail the build",
    ),
    (
        "ci-test-failure-ignored",
        "CI was green although the tests failed, because the script ignored the exit status",
        "never mask a failing test command with || true or exit 0",
    ),
    (
        "ci-npm-install",
        "npm install in CI rewrote the lockfile and resolved different versions than local",
        "use npm ci in pipelines",
    ),
    (
        "ci-npm-install",
        "the pipeline ran npm install instead of a clean install from package-lock",
        "npm ci for reproducible installs",
    ),
    (
        "gha-self-hosted-pr",
        "a fork's pull request ran on our self-hosted runner and left a backdoor on the machine",
        "never use self-hosted runners for pull requests from public forks",
    ),
    (
        "gha-self-hosted-pr",
        "self-hosted runner executed untrusted PR code",
        "run pull_request jobs on GitHub-hosted runners",
    ),
    (
        "gha-checkout-persist-credentials",
        "actions/checkout left the GITHUB_TOKEN in .git/config and a later step exfiltrated it",
        "set persist-credentials: false on checkout",
    ),
    (
        "gha-checkout-persist-credentials",
        "checkout persisted credentials in the git config for the whole job",
        "disable persist-credentials unless you need to push",
    ),
    (
        "gha-no-timeout",
        "a hung job ran for 6 hours and ate our actions minutes",
        "set timeout-minutes on every job",
    ),
    (
        "gha-no-timeout",
        "the workflow job had no timeout and hung forever waiting on a service",
        "add a job timeout",
    ),
    (
        "env-debug-enabled",
        "APP_DEBUG=true in the production .env showed stack traces with secrets to users",
        "debug must be off in production",
    ),
    (
        "env-debug-enabled",
        "django ran with DEBUG enabled in prod",
        "set DEBUG=false in the production environment file",
    ),
    (
        "env-public-prefix-secret",
        "NEXT_PUBLIC_ prefix on the stripe secret key bundled it into the client javascript",
        "only publishable keys get the public prefix; secrets stay server-side",
    ),
    (
        "env-public-prefix-secret",
        "a VITE_ env var holding the OpenAI key was shipped to the browser",
        "never expose secret keys via client-exposed env prefixes",
    ),
    (
        "env-real-credential",
        "a real AWS access key was committed in the yaml config and scraped within minutes",
        "rotate the key and load credentials from the environment or a secret manager",
    ),
    (
        "env-real-credential",
        "a live GitHub token got pushed to the repo in a config file",
        "never commit real credentials; use placeholders and secret references",
    ),
    (
        "deps-wildcard-version",
        'a dependency declared as "*" in package.json pulled a breaking major release',
        "use caret or exact version ranges, never *",
    ),
    (
        "deps-wildcard-version",
        "the crate version was a wildcard so a new release broke the build",
        "pin dependency versions",
    ),
    (
        "deps-git-unpinned",
        "a dependency installed from a git branch changed without notice",
        "pin git dependencies to a tag or commit sha",
    ),
    (
        "deps-git-unpinned",
        "our gem pointed at the github repo main branch and builds were not reproducible",
        "add ref: with a commit to git dependencies",
    ),
    (
        "deps-requirements-unpinned",
        "requirements.txt listed flask with no version and a new release broke prod",
        "pin every requirement with == or use a lock file",
    ),
    (
        "deps-requirements-unpinned",
        "unpinned python dependencies made the deploy non-reproducible",
        "pin exact versions in requirements",
    ),
    (
        "deps-local-path-dependency",
        "a go.mod replace pointing to ../payments was committed and CI couldn't build",
        "never commit local replace directives",
    ),
    (
        "deps-local-path-dependency",
        "package.json depended on file:../shared which only exists on my laptop",
        "publish the package or use workspaces instead of a local path dependency",
    ),
    (
        "deps-dev-tool-in-runtime",
        "jest and eslint were in dependencies instead of devDependencies and bloated the production install",
        "put test and lint tools in devDependencies",
    ),
    (
        "deps-dev-tool-in-runtime",
        "pytest was a runtime dependency of the package",
        "move dev tools to a dev dependency group",
    ),
    # config_more (new patterns; each lesson written before its phrases)
    (
        "sshd-root-password-login",
        "we left PermitRootLogin yes in sshd_config and the box got brute-forced",
        "disable root login and password authentication; keys only",
    ),
    (
        "pg-hba-trust",
        "pg_hba.conf had a host line with trust so anyone on the network could log in as postgres without a password",
        "use scram-sha-256 authentication, never trust for host connections",
    ),
    (
        "redis-unprotected",
        "redis was bound to 0.0.0.0 with protected mode off and no password, and got wiped by a bot",
        "bind to localhost, keep protected-mode yes and set requirepass",
    ),
    (
        "mysql-skip-grant-tables",
        "skip-grant-tables was left in my.cnf after resetting the root password so every login was accepted",
        "remove skip-grant-tables immediately after recovery",
    ),
    (
        "systemd-no-restart",
        "the worker's systemd unit had no Restart policy so it stayed dead after a crash",
        "set Restart=on-failure in the [Service] section",
    ),
    (
        "cron-unescaped-percent",
        "the crontab line with date +%F silently cut the command because cron turns % into a newline",
        "escape percent signs as \\% in crontab entries",
    ),
    (
        "ansible-ignore-errors",
        "ignore_errors: yes on the migration task hid a failure and the playbook kept deploying",
        "use failed_when with the exact condition instead of ignoring errors",
    ),
    (
        "cfg-tls-verify-off",
        "validate_certs: no in the playbook let a MITM serve us a fake package repo",
        "keep certificate verification on and add the CA bundle",
    ),
    (
        "deps-extra-index-url",
        "--extra-index-url in requirements.txt let a public package with our internal name win: dependency confusion",
        "use a single index url that proxies PyPI, or pin hashes",
    ),
    (
        "npmrc-literal-token",
        "the npm auth token was hardcoded in the committed .npmrc",
        "reference ${NPM_TOKEN} in .npmrc and keep the token in the environment",
    ),
    (
        "tf-hcl-count-length",
        "removing one user from the list recreated every resource after it because we used count = length(var.users)",
        "use for_each with a set or map so resources are keyed by name, not index",
    ),
    (
        "tf-hcl-backend-no-lock",
        "two terraform applies ran at once and corrupted the state because the S3 backend had no lock table",
        "configure state locking with dynamodb_table or use_lockfile",
    ),
    (
        "tf-hcl-no-backups",
        "backup_retention_period = 0 disabled automated backups on the RDS instance and we could not restore",
        "keep automated backups with a retention of at least 7 days",
    ),
    (
        "tf-hcl-imdsv1",
        "an SSRF read IAM credentials from the instance metadata service because IMDSv1 was still allowed",
        "require IMDSv2 with http_tokens = required",
    ),
    (
        "cfn-no-deletion-policy",
        "deleting the CloudFormation stack also deleted the database because it had no DeletionPolicy",
        "set DeletionPolicy: Retain or Snapshot on stateful resources",
    ),
    (
        "k8s-pdb-blocks-drain",
        "a PodDisruptionBudget with maxUnavailable 0 blocked node drains and stalled the cluster upgrade",
        "allow at least one disruption in every PDB",
    ),
    (
        "k8s-ingress-no-tls",
        "the Ingress had no tls section so the login page was served over plain http",
        "add tls hosts and a secretName, e.g. from cert-manager",
    ),
    (
        "nginx-cors-reflect-origin",
        "nginx echoed $http_origin back in Access-Control-Allow-Origin with credentials, so any site could read user data",
        "allow-list the origins with a map instead of reflecting the request origin",
    ),
    (
        "gha-unsecure-commands",
        "we set ACTIONS_ALLOW_UNSECURE_COMMANDS to get an old action working, re-enabling set-env injection",
        "upgrade the action and use $GITHUB_ENV instead",
    ),
    # about nothing in the catalogue
    (
        "",
        "the ingress host name had a typo so the cert-manager challenge failed",
        "double-check the host in the Ingress rules matches the DNS record",
    ),
    (
        "",
        "terraform plan showed a diff every run because tags were ordered differently",
        "sort the tag map or ignore_changes on tags",
    ),
    (
        "",
        "the helm chart's service selector didn't match the pod labels so the service had no endpoints",
        "keep selector labels in one helper template",
    ),
    (
        "",
        "the GitHub Actions cache key didn't include the lockfile hash so stale node_modules were restored",
        "use hashFiles('**/package-lock.json') in the cache key",
    ),
    (
        "",
        "our multi-stage build copied from the wrong stage name",
        "name stages explicitly and check COPY --from targets",
    ),
    (
        "",
        "nginx returned 413 for large uploads",
        "raise client_max_body_size for the upload location",
    ),
    (
        "",
        "the cron schedule in the workflow was in UTC and ran at the wrong local time",
        "write cron schedules in UTC deliberately",
    ),
    (
        "",
        "the Terraform state bucket was in another region than the backend config said",
        "check the backend region when migrating state",
    ),
    (
        "",
        "kubectl apply used the wrong context and deployed to staging instead of prod",
        "check kubectl config current-context before applying",
    ),
    (
        "",
        "the docker compose volume name changed so the database started empty",
        "keep named volumes stable across compose project renames",
    ),
    (
        "",
        "the matrix build tested only one node version because of a yaml indentation error",
        "lint workflow files with actionlint",
    ),
    (
        "",
        "the HPA never scaled because metrics-server wasn't installed",
        "install metrics-server before relying on autoscaling",
    ),
    (
        "",
        "the .dockerignore excluded the dist folder we needed at runtime",
        "review .dockerignore patterns when the build output changes",
    ),
    (
        "",
        "go.sum was out of date and the build failed on checksum mismatch",
        "run go mod tidy and commit go.sum",
    ),
    (
        "",
        "the terraform variable default for the instance count was wrong",
        "review variable defaults in code review",
    ),
    # --- wave 4 (written blind from the names and examples)
    (
        "dockerfile-run-cd",
        "RUN cd /app on its own line did nothing; the next RUN still ran in /",
        "use WORKDIR",
    ),
    (
        "dockerfile-run-cd",
        "npm ci failed with no package.json found because the directory change was in a separate RUN layer, and that doesn't persist to the next instruction",
        "set WORKDIR /app, or chain cd && command in the same RUN",
    ),
    (
        "docker-daemon-tcp-exposed",
        "dockerd listening on tcp://0.0.0.0:2375 without TLS is remote root for anyone",
        "use the unix socket or ssh://, or TLS with client certificates",
    ),
    (
        "docker-daemon-tcp-exposed",
        "We opened the Docker API on port 2375 so CI could reach the build host; within a day crypto miners were running on it",
        "point DOCKER_HOST at ssh:// and never expose the daemon unauthenticated",
    ),
    (
        "k8s-reclaim-policy-delete",
        "deleting the PVC also deleted the EBS volume and the database data, because the storage class reclaimPolicy was Delete",
        "use Retain for stateful data",
    ),
    (
        "k8s-reclaim-policy-delete",
        "lost the disk when its claim was removed",
        "set the reclaim policy to Retain",
    ),
    (
        "k8s-loadbalancer-db-port",
        "a Service of type LoadBalancer on postgres 5432 gave the database a public IP",
        "use ClusterIP, or an internal load balancer with source ranges",
    ),
    (
        "k8s-loadbalancer-db-port",
        "I exposed redis through a cloud load balancer for a quick test and it was reachable from the internet with no password",
        "use the internal-LB annotation and loadBalancerSourceRanges, or port-forward",
    ),
    (
        "k8s-cronjob-concurrent-runs",
        "the billing CronJob every 5 minutes overlapped with the previous run and charged customers twice",
        "concurrencyPolicy: Forbid",
    ),
    (
        "k8s-cronjob-concurrent-runs",
        "scheduled job pods piled up running in parallel",
        "set concurrencyPolicy to Forbid or Replace",
    ),
    (
        "k8s-termination-grace-zero",
        "grace period 0 killed pods mid-request during rollouts",
        "give a 30-60s shutdown period and handle SIGTERM",
    ),
    (
        "k8s-termination-grace-zero",
        "Someone set the pod shutdown grace to zero to make deploys faster; every rollout cut in-flight requests and left half-written jobs",
        "keep a reasonable graceful termination window",
    ),
    (
        "tf-hcl-output-secret-not-sensitive",
        "terraform output printed the db password in the CI log",
        "mark the output sensitive = true",
    ),
    (
        "tf-hcl-output-secret-not-sensitive",
        "The generated admin password was exposed as a plain output and appeared in the apply log for everyone with pipeline access",
        "flag outputs holding credentials as sensitive",
    ),
    (
        "gha-all-secrets-exposed",
        "toJSON(secrets) handed every repository secret to a step",
        "pass only the specific secrets the step needs",
    ),
    (
        "gha-all-secrets-exposed",
        "A workflow dumped the whole secrets context into an env var for the deploy script, so a compromised dependency in that script could read all of them",
        "reference individual secrets by name",
    ),
    (
        "gha-upload-artifact-workspace",
        "upload-artifact with path: . published the whole checkout including .git/config with the token",
        "upload only dist/",
    ),
    (
        "gha-upload-artifact-workspace",
        "We archived the entire GitHub workspace as a build artifact; it contained persisted checkout credentials and .env files, downloadable by anyone with read access",
        "narrow the artifact path to the build output",
    ),
    (
        "nginx-real-ip-from-anywhere",
        "set_real_ip_from 0.0.0.0/0 let clients fake their IP via X-Forwarded-For",
        "trust only the load balancer or CDN ranges",
    ),
    (
        "nginx-real-ip-from-anywhere",
        "Rate limiting and IP bans in nginx were useless, because the real_ip module trusted the forwarded header from any address",
        "list only your proxies' CIDRs",
    ),
    (
        "systemd-environment-secret",
        "put DB_PASSWORD in Environment= in the unit file, and systemctl show exposes it to any user",
        "use an EnvironmentFile with mode 600 or LoadCredential",
    ),
    (
        "systemd-environment-secret",
        "the stripe secret key was hardcoded in the systemd service file",
        "use systemd credentials",
    ),
    (
        "mongo-bind-all-no-auth",
        "mongod bound to 0.0.0.0 without authorization and the database got ransomed",
        "enable authorization and bind to localhost or a private address",
    ),
    ("mongo-bind-all-no-auth", "--bind_ip_all and no --auth", "turn on auth"),
    (
        "es-security-disabled",
        "xpack.security.enabled: false in the compose file, and the cluster ended up open on the internet",
        "keep security on",
    ),
    (
        "es-security-disabled",
        "To get OpenSearch running locally we turned the security plugin off; that config got copied to staging, which was publicly reachable",
        "leave security enabled and set up proper certs and passwords",
    ),
    (
        "",
        "the CI cache key didn't include the lockfile hash so stale dependencies were restored",
        "key the cache on hashFiles of the lockfile",
    ),
    (
        "",
        "the scheduled GitHub workflow ran at the wrong hour because its cron is in UTC",
        "convert the schedule to UTC",
    ),
    (
        "",
        "cloud resources had inconsistent tags so the cost report couldn't group them",
        "enforce a tagging convention",
    ),
    ("", "the YAML value no for Norway was parsed as false", "quote strings in YAML"),
    (
        "",
        "the nginx regex location won over the prefix location I expected to match",
        "use ^~ or reorder the locations",
    ),
    (
        "",
        "the readiness probe pointed at the wrong port so pods never became ready",
        "probe the port the app listens on",
    ),
    (
        "",
        "a typo in the env var name in the compose file made the app use its default",
        "validate configuration at startup",
    ),
    (
        "",
        "the CI matrix tested only Node 18 while production ran 20",
        "match the matrix to production",
    ),
    (
        "",
        "the DNS TTL was a day so the migration took a day to propagate",
        "lower the TTL before migrating",
    ),
    (
        "",
        "the alert fired on every deploy because it used a one-minute window",
        "use a longer window and a for: duration",
    ),
]
