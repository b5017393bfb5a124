"""More programs' command lines, in the form of ``programs`` (read its docstring): the
hosted platforms' and the cluster tools' command lines, and backups. ``programs.spec_of``
looks here (and in ``programs_system`` and ``programs_build``) only for a program its own
table lacks, so nothing here changes how those are read.

Each entry follows the program's manual or ``--help``: its short options as the long ones
they stand for, the options that take a value, its subcommands. Go's flag package
(``-address=...``) combines none.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported: this runs on every tool call
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


# fmt: off
_GH_LIST = ("-s:--state -L:--limit -l:--label -a:--assignee -A:--author -B:--base -H:--head"
            " -S:--search -w:--web -q:--jq -t:--template -m:--milestone",
            "--state --limit --label --assignee --author --base --head --search --json --jq"
            " --template --app --milestone --mention")
_GH_SUB = {
    "pr create": ("-t:--title -b:--body -F:--body-file -B:--base -H:--head -d:--draft"
                  " -a:--assignee -l:--label -r:--reviewer -m:--milestone -p:--project"
                  " -w:--web -f:--fill -T:--template",
                  "--title --body --body-file --base --head --assignee --label --reviewer"
                  " --milestone --project --template --recover"),
    "pr merge": ("-m:--merge -s:--squash -r:--rebase -d:--delete-branch -b:--body"
                 " -F:--body-file -t:--subject -A:--author-email",
                 "--body --body-file --subject --author-email --match-head-commit"),
    "pr checkout": ("-b:--branch -f:--force", "--branch"),
    "pr close": ("-c:--comment -d:--delete-branch", "--comment"),
    "pr review": ("-a:--approve -r:--request-changes -c:--comment -b:--body -F:--body-file",
                  "--body --body-file"),
    "pr edit": ("-t:--title -b:--body -F:--body-file -B:--base", "--title --body --body-file"
                " --base --add-label --remove-label --add-reviewer --remove-reviewer"
                " --add-assignee --remove-assignee --milestone"),
    "pr list": _GH_LIST, "issue list": _GH_LIST,
    "pr view": ("-w:--web -c:--comments -q:--jq -t:--template", "--json --jq --template"),
    "issue create": ("-t:--title -b:--body -F:--body-file -a:--assignee -l:--label"
                     " -m:--milestone -p:--project -w:--web -T:--template",
                     "--title --body --body-file --assignee --label --milestone --project"
                     " --template"),
    "issue close": ("-c:--comment -r:--reason", "--comment --reason"),
    "release create": ("-t:--title -n:--notes -F:--notes-file -d:--draft -p:--prerelease",
                       "--title --notes --notes-file --target --discussion-category"
                       " --notes-start-tag --latest"),
    "release delete": ("-y:--yes", ""),
    "release upload": ("", ""),
    "repo create": ("-d:--description -h:--homepage -c:--clone -t:--team -p:--template"
                    " -s:--source -r:--remote -g:--gitignore -l:--license",
                    "--description --homepage --team --template --source --remote"
                    " --gitignore --license"),
    "repo clone": ("-u:--upstream-remote-name", "--upstream-remote-name"),
    "repo delete": ("", ""),
    "repo edit": ("-d:--description -h:--homepage", "--description --homepage --visibility"
                  " --default-branch --add-topic --remove-topic"),
    "secret set": ("-b:--body -e:--env -o:--org -a:--app -f:--env-file -v:--visibility"
                   " -r:--repos -u:--user", "--body --env --org --app --env-file"
                   " --visibility --repos"),
    "secret delete": ("-e:--env -o:--org -a:--app -u:--user", "--env --org --app"),
    "variable set": ("-b:--body -e:--env -o:--org -f:--env-file -v:--visibility -r:--repos",
                     "--body --env --org --env-file --visibility --repos"),
    "run list": ("-L:--limit -w:--workflow -b:--branch -s:--status -u:--user -e:--event"
                 " -c:--commit -q:--jq -t:--template", "--limit --workflow --branch"
                 " --status --user --event --commit --json --jq --template"),
    "run view": ("-j:--job -a:--attempt -v:--verbose -w:--web -q:--jq -t:--template",
                 "--job --attempt --json --jq --template"),
    "run rerun": ("-j:--job -d:--debug", "--job"),
    "workflow run": ("-f:--raw-field -F:--field -r:--ref", "--raw-field --field --ref"),
    "api": ("-X:--method -f:--raw-field -F:--field -H:--header -i:--include -q:--jq"
            " -t:--template -p:--preview", "--method --raw-field --field --header --jq"
            " --template --preview --input --hostname --cache"),
}
_PULUMI_RUN = ("-s:--stack -y:--yes -f:--skip-preview -t:--target -m:--message -p:--parallel"
               " -r:--refresh -c:--config -j:--json -d:--debug -e:--expect-no-changes"
               " -C:--cwd -v:--verbose",
               "--stack --target --message --parallel --config --config-file --exclude"
               " --policy-pack --policy-pack-config --replace --secrets-provider --cwd"
               " --verbose --color --client --exec-kind --plan --import-file")
_PULUMI_STACK = ("-s:--stack -f:--force -y:--yes -C:--cwd -v:--verbose -j:--json",
                 "--stack --cwd --verbose --color --secrets-provider --file")
_ARGOCD_GLOBAL = ("-H:--header", "--server --auth-token --config --header --kube-context"
                  " --port-forward-namespace --loglevel --logformat --http-retry-max"
                  " --client-crt --client-crt-key --server-crt --server-name"
                  " --redis-name --repo-server-name --controller-name")
_RCLONE = ("-n:--dry-run -i:--interactive -v|-vv:--verbose -q:--quiet -P:--progress"
           " -u:--update -c:--checksum -I:--ignore-times -L:--copy-links -l:--links"
           " -M:--metadata -x:--one-file-system",
           "--transfers --checkers --bwlimit --exclude --include --filter --filter-from"
           " --exclude-from --include-from --files-from --max-age --min-age --max-size"
           " --min-size --config --log-file --log-level --backup-dir --suffix --max-delete"
           " --retries --low-level-retries --timeout --contimeout --stats --order-by"
           " --max-transfer --compare-dest --copy-dest --cache-dir"
           " --user-agent --header --max-depth --multi-thread-streams --tpslimit")
_RESTIC = ("-r:--repo -p:--password-file -q:--quiet -v:--verbose -o:--option",
           "--repo --repository-file --password-file --password-command --cache-dir"
           " --limit-upload --limit-download --option --tls-client-cert --cacert"
           " --retry-lock --key-hint --pack-size --compression")
_BORG_ARCHIVES = "-a:--glob-archives -P:--prefix"
_BORG_ARCHIVE_VALUES = "--glob-archives --prefix --first --last --sort-by --format"
_HASHICORP_VALUES = ("-address -namespace -ns -token -token-file -ca-cert -ca-file -ca-path"
                     " -client-cert -client-key -tls-server-name -http-addr -datacenter"
                     " -region -format -output")
_VAULT_VALUES = (_HASHICORP_VALUES + " -field -mount -method -path -wrap-ttl -policy -ttl"
                 " -display-name -period -explicit-max-ttl -role -version -versions -cas"
                 " -description -plugin-name -key-shares -key-threshold -pgp-keys"
                 " -max-lease-ttl -default-lease-ttl -header -agent-address -mfa -config"
                 " -log-level -id -type -local-name -max-versions"
                 " -delete-version-after -dev-root-token-id -dev-listen-address")
_NOMAD_VALUES = (_HASHICORP_VALUES + " -var -var-file -check-index -t -task -job -meta"
                 " -deadline -consul-token -vault-token -vault-namespace -filter -per-page"
                 " -page-token -eval-priority -group -signal -name")
_CONSUL_VALUES = (_HASHICORP_VALUES + " -modify-index -flags -separator -name -id"
                  " -policy-name -policy-id -description -rules -service -partition"
                  " -peer -ttl -accessor -secret -config-file -config-dir"
                  " -data-dir -bind -client -advertise -retry-join -node -join")
_PACKER_VALUES = "-var -var-file -only -except -on-error -parallel-builds"
_MINIKUBE_VALUES = ("--profile --output --driver --cpus --memory --disk-size"
                    " --kubernetes-version --container-runtime --addons --extra-config"
                    " --nodes --image-repository --base-image --iso-url --mount-string"
                    " --insecure-registry --registry-mirror --network --ports"
                    " --listen-address --namespace --format --node --vm-driver --cni")
# fmt: on


# fmt: off
PLATFORMS: dict[str, Callable[[], dict[str, Any]]] = {
    "gh": lambda: {
        "subs": True, "anywhere": True, "aliases": "-R:--repo", "values": "--repo",
        "groups": {**{g: "*" for g in (
            "auth", "codespace", "cs", "gist", "issue", "org", "pr", "project", "release",
            "repo", "cache", "run", "workflow", "alias", "attestation", "config",
            "extension", "ext", "gpg-key", "label", "ruleset", "search", "secret",
            "ssh-key", "variable")},
            "repo deploy-key": "*", "repo autolink": "*", "repo gitignore": "*",
            "repo license": "*"},
        "per_sub": _GH_SUB},
    "vault": lambda: {
        "subs": True, "anywhere": True, "combine": False, "values": _VAULT_VALUES,
        "groups": {**{g: "*" for g in (
            "kv", "token", "secrets", "auth", "policy", "operator", "audit", "lease",
            "plugin", "namespace", "pki", "transit", "transform", "events", "hcp")},
            "kv metadata": "*", "operator raft": "*", "operator raft snapshot": "*",
            "operator raft autopilot": "*", "operator usage": "*", "plugin runtime": "*",
            "pki issuers": "*"}},
    "consul": lambda: {
        "subs": True, "anywhere": True, "combine": False, "values": _CONSUL_VALUES,
        "groups": {**{g: "*" for g in (
            "kv", "services", "catalog", "acl", "connect", "intention", "config",
            "snapshot", "operator", "namespace", "partition", "peering", "tls",
            "troubleshoot", "resource")},
            **{f"acl {g}": "*" for g in ("policy", "token", "role", "auth-method",
                                         "binding-rule", "templated-policy")},
            "connect ca": "*", "operator raft": "*", "operator autopilot": "*",
            "tls ca": "*", "tls cert": "*"}},
    "nomad": lambda: {
        "subs": True, "anywhere": True, "combine": False, "values": _NOMAD_VALUES,
        "groups": {**{g: "*" for g in (
            "job", "alloc", "node", "deployment", "namespace", "acl", "server", "operator",
            "var", "volume", "system", "eval", "quota", "sentinel", "service", "tls",
            "plugin", "recommendation", "config", "setup", "license", "node-pool")},
            "job periodic": "*", "acl policy": "*", "acl token": "*", "acl role": "*",
            "acl auth-method": "*", "acl binding-rule": "*", "operator raft": "*",
            "operator snapshot": "*", "operator scheduler": "*", "operator autopilot": "*",
            "operator gossip": "*", "operator root": "*", "tls ca": "*", "tls cert": "*"}},
    "packer": lambda: {"subs": True, "anywhere": True, "combine": False,
               "values": _PACKER_VALUES, "groups": {"plugins": "*"}},
    "vagrant": lambda: {
        "subs": True,
        "aliases": "-v:--version -h:--help",
        "groups": {"box": "*", "plugin": "*", "snapshot": "*", "cloud": "*", "winrm": "*",
                   "cloud box": "*", "cloud provider": "*", "cloud version": "*"},
        "per_sub": {
            "destroy": ("-f:--force -g:--graceful", ""),
            "halt": ("-f:--force", ""),
            "up": ("", "--provider --provision-with"),
            "reload": ("", "--provision-with"),
            "provision": ("", "--provision-with"),
            "ssh": ("-c:--command -p:--plain -t:--tty", "--command"),
            "box add": ("-c:--clean -f:--force", "--box-version --provider --name"
                        " --checksum --checksum-type --cacert --capath --cert"),
            "box remove": ("-f:--force", "--box-version --provider"),
            "box update": ("-f:--force", "--box --provider"),
            "box prune": ("-f:--force -n:--dry-run -p:--provider -k:--keep-active-boxes",
                          "--provider --name"),
            "package": ("", "--base --output --include --info --vagrantfile"),
            "snapshot restore": ("", ""), "snapshot delete": ("", ""),
        }},
    "pulumi": lambda: {
        "subs": True, "anywhere": True,
        "aliases": "-C:--cwd -v:--verbose -s:--stack -y:--yes -j:--json",
        "values": "--cwd --verbose --color --stack --tracing --profiling --memprofilerate",
        "groups": {"stack": "*", "stack tag": "*", "config": "*", "config env": "*",
                   "state": "*", "plugin": "*", "policy": "*", "org": "*", "env": "*",
                   "package": "*", "schema": "*", "deployment": "*", "deployment settings":
                   "*", "ai": "*"},
        "per_sub": {**{s: _PULUMI_RUN for s in ("up", "update", "preview", "pre",
                                                 "destroy", "down", "refresh", "import",
                                                 "watch")},
                    "stack": _PULUMI_STACK, "state": _PULUMI_STACK,
                    "config": ("-s:--stack -C:--cwd -j:--json", "--stack --cwd --path"
                               " --config-file --color"),
                    "cancel": ("-s:--stack -y:--yes", "--stack")}},
    "argocd": lambda: {
        "subs": True, "anywhere": True, "aliases": _ARGOCD_GLOBAL[0],
        "values": _ARGOCD_GLOBAL[1],
        "groups": {**{g: "*" for g in (
            "app", "cluster", "repo", "proj", "account", "admin", "cert", "gpg",
            "repocreds", "appset")},
            "proj role": "*", "proj windows": "*", "app actions": "*", "admin app": "*",
            "admin cluster": "*", "admin settings": "*", "admin proj": "*",
            "admin repo": "*"},
        "per_sub": {
            "app sync": ("-l:--selector", "--revision --revisions --resource --selector"
                         " --timeout --retry-limit --retry-backoff-duration --strategy"
                         " --local --label --source-positions --source-names"),
            "app create": ("-p:--parameter -f:--file", "--repo --path --dest-server"
                           " --dest-namespace --dest-name --revision --project --sync-policy"
                           " --parameter --values --helm-set --helm-set-string --file"
                           " --label --annotations --directory-include --directory-exclude"
                           " --name --sync-option --values-literal-file --ref"),
            "app set": ("-p:--parameter", "--repo --path --dest-server --dest-namespace"
                        " --revision --project --sync-policy --parameter --values"
                        " --helm-set --helm-set-string --sync-option"),
            "app delete": ("-y:--yes -p:--propagation-policy -l:--selector",
                           "--propagation-policy --selector"),
            "app list": ("-o:--output -p:--project -l:--selector -r:--repo",
                         "--output --project --selector --repo --app-namespace"),
            "app get": ("-o:--output", "--output --source-position"),
            "app rollback": ("", "--timeout"),
            "app wait": ("-l:--selector", "--selector --timeout --resource"),
            "login": ("", "--username --password --sso-port --name"),
            "cluster add": ("-y:--yes", "--name --namespace --project --label --annotation"
                            " --service-account --system-namespace --kubeconfig"),
        }},
    "flux": lambda: {
        "subs": True, "anywhere": True, "aliases": "-n:--namespace",
        "values": "--namespace --context --kubeconfig --timeout --cluster --token"
                  " --owner --repository --branch --path --url --interval --source --kind"
                  " --chart --values --target-namespace --components --components-extra"
                  " --registry --version --hostname --label --secret-ref --tag --tag-semver"
                  " --ref --provider",
        "groups": {**{g: "*" for g in (
            "bootstrap", "create", "delete", "get", "reconcile", "suspend", "resume",
            "export", "diff", "build", "push", "pull", "tag", "list")},
            **{f"{v} {n}": "*" for v in ("create", "delete", "get", "reconcile", "suspend",
                                          "resume", "export")
               for n in ("source", "image", "secret", "alert", "alert-provider")}}},
    "eksctl": lambda: {
        "depth": 2, "anywhere": True,
        "aliases": "-f:--config-file -n:--name -r:--region -p:--profile -o:--output",
        "values": "--config-file --name --region --profile --output --cluster --nodegroup"
                  " --version --timeout --nodes --nodes-min --nodes-max --node-type"
                  " --namespace --zones --tags --ssh-public-key --instance-types"
                  " --node-ami --node-volume-size --vpc-private-subnets --vpc-public-subnets"
                  " --kubeconfig --role-arn --attach-policy-arn --service-account-role-arn"
                  " --arn --username --group --max-pods-per-node"},
    "doctl": lambda: {
        "subs": True, "anywhere": True,
        "aliases": "-t:--access-token -c:--config -o:--output -u:--api-url -v:--verbose"
                   " -f:--force",
        "values": "--access-token --config --output --context --api-url --format --region"
                  " --size --image --ssh-keys --tag-name --tag-names --vpc-uuid --count"
                  " --node-pool --spec --version --engine --num-nodes --db-name --user-data"
                  " --user-data-file --project-id --app --type --timeout --http-retry-max",
        "groups": {**{g: "*" for g in (
            "compute", "kubernetes", "k8s", "databases", "database", "db", "apps", "app",
            "registry", "auth", "account", "projects", "serverless", "sls", "vpcs",
            "monitoring", "1-click", "invoice", "balance", "billing-history", "genai",
            "spaces")},
            **{f"compute {g}": "*" for g in (
                "droplet", "droplet-action", "volume", "volume-action", "firewall", "domain",
                "load-balancer", "ssh-key", "image", "image-action", "snapshot", "region",
                "size", "tag", "certificate", "reserved-ip", "reserved-ip-action",
                "floating-ip", "floating-ip-action", "cdn", "action")},
            "compute domain records": "*", **{f"{k} {g}": "*" for k in ("kubernetes", "k8s")
                                              for g in ("cluster", "options", "1-click")},
            **{f"{k} cluster {g}": "*" for k in ("kubernetes", "k8s")
               for g in ("kubeconfig", "node-pool", "registry")},
            **{f"databases {g}": "*" for g in (
                "pool", "user", "db", "replica", "firewalls", "sql-mode", "configuration",
                "maintenance-window", "topic", "events",
                "options", "indexes")},
            "apps spec": "*", "registry repository": "*", "registry garbage-collection": "*",
            "projects resources": "*", "serverless functions": "*",
            "serverless namespaces": "*", "monitoring alert": "*", "monitoring uptime": "*"}},
    "heroku": lambda: {
        "subs": True, "anywhere": True, "aliases": "-a:--app -r:--remote",
        "values": "--app --remote --confirm --team --region --space --stack --type --size"
                  " --env --num --dyno --source --buildpack --as --name",
        "per_sub": {"logs": ("-t:--tail -n:--num -d:--dyno -s:--source -a:--app"
                             " -r:--remote", "--num --dyno --source --app --remote"),
                    "run": ("-s:--size -e:--env -x:--exit-code -a:--app -r:--remote",
                            "--size --env --type --app --remote")}},
    "flyctl": lambda: {
        "subs": True, "anywhere": True,
        "aliases": "-a:--app -c:--config -t:--access-token -j:--json -o:--org -r:--region"
                   " -y:--yes -e:--env -i:--image",
        "values": "--app --config --access-token --org --region --env --image --strategy"
                  " --dockerfile --build-arg --build-secret --build-target --vm-size"
                  " --vm-memory --vm-cpus --vm-cpu-kind --memory --name --size --count"
                  " --process-group --file-local --file-literal --file-secret --wait-timeout"
                  " --label",
        "groups": {g: "*" for g in (
            "apps", "secrets", "scale", "machine", "machines", "m", "volumes", "volume",
            "vol", "postgres", "pg", "certs", "ips", "config", "auth", "orgs", "tokens",
            "image", "wireguard", "wg", "redis", "ssh", "extensions", "ext", "mpg",
            "consul", "litefs-cloud", "platform", "storage", "tigris",
            "mysql", "volumes snapshots", "volume snapshots", "vol snapshots")}},
    "kustomize": lambda: {
        "subs": True, "anywhere": True, "aliases": "-o:--output -e:--env",
        "values": "--output --load-restrictor --helm-command --env --mount --reorder",
                  "groups": {"edit": "add set remove fix", "edit add": "*", "edit set": "*",
                   "edit remove": "*", "cfg": "*", "fn": "*"}},
    "skaffold": lambda: {
        "subs": True, "anywhere": True,
        "aliases": "-f:--filename -p:--profile -m:--module -n:--namespace -d:--default-repo"
                   " -t:--tag -v:--verbosity -l:--label -o:--output -q:--quiet"
                   " -b:--build-image",
        "values": "--filename --profile --module --namespace --kube-context --kubeconfig"
                  " --default-repo --tag --verbosity --trigger --label --output"
                  " --insecure-registry --build-concurrency --build-image --cache-file"
                  " --digest-source --platform --images --build-artifacts"
                  " --kube-version --remote-cache-dir",
        "groups": {"config": "*", "schema": "*", "inspect": "*"}},
    "minikube": lambda: {
        "subs": True, "anywhere": True, "aliases": "-p:--profile -o:--output",
        "values": _MINIKUBE_VALUES,
        "groups": {"addons": "*", "config": "*", "image": "*", "cache": "*", "node": "*"}},
    "kind": lambda: {
        "subs": True, "anywhere": True, "aliases": "-n:--name -q:--quiet -v:--verbosity",
        "values": "--name --config --image --wait --kubeconfig --verbosity --nodes",
        "groups": {g: "*" for g in ("create", "delete", "get", "load", "export", "build")}},
    "etcdctl": lambda: {
        "subs": True, "anywhere": True, "aliases": "-w:--write-out -d:--discovery-srv",
        "values": "--endpoints --cacert --cert --key --user --password --write-out --limit"
                  " --rev --dial-timeout --command-timeout --keepalive-time"
                  " --keepalive-timeout --discovery-srv --discovery-srv-name --lease"
                  " --order --sort-by --data-dir --name --initial-cluster"
                  " --initial-cluster-token --initial-advertise-peer-urls --peer-urls",
        "groups": {g: "*" for g in ("lease", "member", "endpoint", "snapshot", "alarm",
                                    "auth", "user", "role", "check", "downgrade")}},
    "firebase": lambda: {
        "subs": True, "anywhere": True, "aliases": "-P:--project -m:--message -f:--force",
        "values": "--project --only --except --message --token --account --config"
                  " --import --site --expires"},
    "vercel": lambda: {
        "subs": True, "anywhere": True,
        "aliases": "-t:--token -A:--local-config -Q:--global-config -d:--debug -S:--scope"
                   " -y:--yes -f:--force -e:--env -b:--build-env -m:--meta",
        "values": "--token --local-config --global-config --scope --cwd --env --build-env"
                  " --meta --target --archive --regions --team",
        "groups": {"env": "add rm remove ls list pull", **{g: "*" for g in (
            "domains", "domain", "dns", "certs", "cert", "alias", "aliases", "project",
            "projects", "teams", "team", "git", "secrets", "integration", "blob", "target")}}},
    "netlify": lambda: {
        "subs": True, "anywhere": True,
        "aliases": "-d:--dir -f:--functions -p:--prod -m:--message -a:--auth -s:--site"
                   " -o:--open",
        "values": "--dir --functions --message --auth --site --alias --timeout --filter"
                  " --context --branch"},
    "supabase": lambda: {
        "subs": True, "anywhere": True, "aliases": "-p:--password -s:--schema -o:--output",
        "values": "--project-ref --db-url --workdir --password --schema --version --status"
                  " --output --env-file --import-map --org-id --db-password --region"
                  " --file --name --profile --dns-resolver",
        "groups": {g: "*" for g in (
            "db", "migration", "functions", "secrets", "gen", "projects", "orgs", "storage",
            "branches", "inspect", "inspect db", "test", "seed", "config", "domains",
            "vanity-subdomains", "network-bans", "network-restrictions", "ssl-enforcement",
            "postgres-config", "sso", "snippets", "backups", "encryption")}},
    # Backups and sync
    "rclone": lambda: {"subs": True, "anywhere": True, "aliases": _RCLONE[0],
               "values": _RCLONE[1],
               "groups": {"config": "*", "serve": "*", "backend": "*"}},
    "restic": lambda: {
        "subs": True, "anywhere": True, "aliases": _RESTIC[0], "values": _RESTIC[1],
        "groups": {"key": "*", "repair": "*"},
        "per_sub": {
            "backup": ("-e:--exclude -H:--host -x:--one-file-system -n:--dry-run -f:--force",
                       "--exclude --exclude-file --iexclude --iexclude-file --files-from"
                       " --files-from-raw --files-from-verbatim --tag --host --stdin-filename"
                       " --exclude-if-present --exclude-larger-than --parent --time"
                       " --read-concurrency"),
            "forget": ("-l:--keep-last -H:--keep-hourly -d:--keep-daily -w:--keep-weekly"
                       " -m:--keep-monthly -y:--keep-yearly -n:--dry-run -g:--group-by"
                       " -c:--compact", "--keep-last --keep-hourly --keep-daily"
                       " --keep-weekly --keep-monthly --keep-yearly --keep-within"
                       " --keep-within-hourly --keep-within-daily --keep-within-weekly"
                       " --keep-within-monthly --keep-within-yearly --keep-tag --tag --host"
                       " --path --group-by --max-unused --max-repack-size"),
            "restore": ("-t:--target -i:--include -e:--exclude -H:--host",
                        "--target --include --exclude --iinclude --iexclude --host --path"
                        " --tag --overwrite --include-file --exclude-file"),
            "prune": ("-n:--dry-run", "--max-unused --max-repack-size"),
            "snapshots": ("-H:--host -c:--compact -g:--group-by", "--host --path --tag"
                          " --group-by --latest"),
        }},
    "borg": lambda: {
        "subs": True, "anywhere": True,
        "aliases": "-v|--info:--verbose -p:--progress",
        "values": "--lock-wait --rsh --remote-path --umask --debug-topic --upload-ratelimit"
                  " --upload-buffer",
        "groups": {"key": "*", "benchmark": "*"},
        "per_sub": {
            "init": ("-e:--encryption", "--encryption --storage-quota"),
            "create": ("-s:--stats -n:--dry-run -e:--exclude -C:--compression"
                       " -x:--one-file-system", "--exclude --exclude-from --pattern"
                       " --patterns-from --compression --comment --timestamp"
                       " --checkpoint-interval --chunker-params --files-cache --filter"),
            "extract": ("-n:--dry-run -e:--exclude", "--exclude --exclude-from --pattern"
                        " --patterns-from --strip-components"),
            "prune": (_BORG_ARCHIVES + " -n:--dry-run -s:--stats -H:--keep-hourly"
                      " -d:--keep-daily -w:--keep-weekly -m:--keep-monthly -y:--keep-yearly",
                      _BORG_ARCHIVE_VALUES + " --keep-within --keep-last --keep-secondly"
                      " --keep-minutely --keep-hourly --keep-daily --keep-weekly"
                      " --keep-monthly --keep-yearly"),
            "delete": (_BORG_ARCHIVES + " -n:--dry-run -s:--stats", _BORG_ARCHIVE_VALUES),
            "list": (_BORG_ARCHIVES, _BORG_ARCHIVE_VALUES),
            "info": (_BORG_ARCHIVES, _BORG_ARCHIVE_VALUES),
            "check": (_BORG_ARCHIVES, _BORG_ARCHIVE_VALUES + " --max-duration"),
        }},
}
# fmt: on
