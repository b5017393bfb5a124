"""How a lesson's prose names commands and flags without writing them (issue 33): the
programs it may name by themselves, a product's name written as a name ("Terraform",
"Pulumi") and a flag told in words ("without the staging flag", "the capital D flag").

The list of programs is general knowledge of command-line tools, written apart from any
benchmark family; a program that is also an English word ("make", "kind", "at") is left to
the parser's table or to a flag following it, or every sentence saying "make" would name it.
"""

from __future__ import annotations

import re

from xdb.engine.calls.programs import _SAME, _TABLE

# Command-line tools whose name is no English word, by what they work on.
_TOOLS = """
crontab mysqldump mysqladmin pg_dump pg_dumpall pg_restore pg_ctl pg_ctlcluster
pg_basebackup pg_upgrade createdb dropdb createuser dropuser redis-cli redis-server mongo
mongosh mongodump mongorestore mongoimport sqlite3 clickhouse-client cqlsh etcdctl influx
sqlcmd sqlplus duckdb cockroach
ansible-playbook ansible ansible-galaxy ansible-vault terragrunt tofu pulumi packer
vagrant nomad consul vault kustomize helmfile minikube k3d k9s kubectx kubens kubeadm
istioctl linkerd eksctl argocd skaffold tilt flux podman buildah skopeo nerdctl crictl ctr
virsh lxc qemu-img cosign crane trivy snyk semgrep
gsutil bq doctl flyctl heroku vercel netlify wrangler firebase supabase s3cmd s5cmd azcopy
rclone restic borg duplicity tarsnap
ssh scp sftp ssh-keygen ssh-add ssh-copy-id gpg openssl certbot keytool cfssl
nginx apache2ctl httpd caddy haproxy
iptables ip6tables nft ufw firewall-cmd sysctl modprobe systemd-run launchctl update-rc.d
chattr setfacl mkfs fdisk parted wipefs losetup cryptsetup lvremove zfs zpool btrfs dd
truncate shred pkill killall nohup xargs rsync unzip zip gzip gunzip
gh glab svn hg git-lfs git-filter-repo bfg
poetry pipenv pipx pdm hatch tox nox twine flit pytest mamba micromamba pyenv
virtualenv alembic flyway liquibase prisma knex sequelize django-admin
npx pnpx bunx corepack nvm volta deno bun tsc eslint prettier jest vitest webpack vite
mvn gradle gradlew sbt lein bazel cmake ninja meson rustup nuget msbuild xcodebuild
fastlane adb flutter dart expo eas cdk serverless sls knife puppet salt
composer artisan bundler rails rake rbenv asdf
jq yq gcloud
"""

PROSE_PROGRAMS = frozenset({*_TABLE, *_SAME, *_TOOLS.split()})

# Names of products that are their command-line tool's name too, written as a name: the
# lowercase word is the program ("Terraform" is ``terraform``).
_PRODUCT = re.compile(r"\b([A-Z][a-z0-9]+(?:-[a-z]+)?)\b(\s+[a-z][\w-]*\s+-)?")
# A tool named after what it drives ("the k8s CLI", "the Kubernetes command line").
_CLI_OF = {"k8s": "kubectl", "kubernetes": "kubectl", "aws": "aws", "azure": "az",
           "gcp": "gcloud", "github": "gh", "gitlab": "glab", "heroku": "heroku"}  # fmt: skip
_CLI = re.compile(
    r"\b(?:the\s+)?(" + "|".join(_CLI_OF) + r")(?:'s)?\s+(?:cli|command[- ]line(?:\s+tool)?)\b",
    re.IGNORECASE,
)
# A flag told in words: "the staging flag", "its --force option", "the capital D flag", "the
# all namespaces flag"; a letter's flag after "with" or "and" is the command's own ("git
# branch and the capital D flag").
_FLAG_WORDS = re.compile(
    r"(?:\b(with|and|using|passing|plus)\s+)?\b(?:the|a|an|its|their|that)\s+"
    r"(?:([a-z]+)\s+)??(?:(capital|upper-?case|lower-?case|small)\s+)?"
    r"([A-Za-z][\w-]*)\s+(?:flag|option|switch)\b",
    re.IGNORECASE,
)
_NOT_A_FLAG = frozenset((
    "same", "other", "right", "wrong", "new", "old", "one", "only", "first", "last", "safe",
    "dangerous", "usual", "capital", "uppercase", "upper-case", "lowercase", "lower-case",
    "small", "long", "short", "feature", "red", "green", "yellow", "white", "warning", "the",
    "a", "an", "with", "and", "of", "to", "its", "their", "that", "this", "any", "no",
    "default", "missing", "extra", "global", "proper",
))  # fmt: skip


def products(text: str) -> str:
    """``text`` with a product named as its tool (``Terraform``, ``the k8s CLI``) written as
    the tool's command, so the prose reader finds it. The words after a product's name are
    not the tool's subcommand ("a Docker build ARG" is no ``docker build``): the name ends
    its clause, unless a word and a flag follow it, as a command line goes on ("Terraform
    destroy -auto-approve")."""
    text = _CLI.sub(lambda m: f"{_CLI_OF[m.group(1).lower()]} ;", text)

    def lower(m: re.Match[str]) -> str:
        word, command_line = m.group(1), m.group(2)
        if word.lower() not in _TOOLS_BY_NAME:
            return m.group(0)
        return f"{word.lower()}{command_line}" if command_line else f"{word.lower()} ;"

    return _PRODUCT.sub(lower, text)


# Tools whose capitalised name is the product, never the start of an English sentence.
_TOOLS_BY_NAME = PROSE_PROGRAMS - frozenset((
    "make", "find", "sort", "head", "tail", "touch", "service", "go", "ln", "mv", "cp", "rm",
    "tee", "grep", "sed", "tar", "zip", "gem", "dd", "ip", "mkdir", "rails", "rake", "expo",
    "flux", "salt", "crane", "tilt", "consul", "nomad", "packer", "puppet", "knife",
    "bundler", "composer", "prettier", "jest", "ninja", "borg", "caddy", "k", "oc", "apk",
))  # fmt: skip


def flags_told(text: str) -> str:
    """``text`` with each flag told in words written as the flag: "without the staging
    flag" reads "without --staging", "the all namespaces flag" "--all-namespaces", and "git
    branch and the capital D flag" "git branch -D" (a letter says which flag it is; a word
    after "with" stays beside the command, not in it: "--force and the feature flag was
    on" is no flag of the command). A word that describes rather than names ("the same
    option", "a red flag") is left alone."""

    def flag(m: re.Match[str]) -> str:
        joined, modifier, case, word = m.groups()
        if case is not None and len(word) == 1:
            written = "-" + (word.upper() if case.lower().startswith(("cap", "up")) else word)
            return f" {written}" if joined else written
        if case is not None or word.lower() in _NOT_A_FLAG:
            return m.group(0)
        if modifier is not None and modifier.lower() in _NOT_A_FLAG:
            return m.group(0)
        name = (f"{modifier}-{word}" if modifier is not None else word).lower()
        written = f"-{name}" if len(name) == 1 else f"--{name}"
        return f"{joined} {written}" if joined else written

    return _FLAG_WORDS.sub(flag, text)
