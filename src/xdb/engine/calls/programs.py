"""How the common programs read their command lines: subcommands, option aliases, options
that take a value (more programs in ``programs_system``, ``programs_build`` and
``programs_platforms``: ``more``). A program in none is read generically (options as
written, none taking a value, no subcommand).

Each entry is a function of the strings below, built into a ``Spec`` the first time the
program is seen: the hook's skip path parses one or two programs a call, and building the
whole table would cost it more than the parse.

- ``aliases``: ``"-r|-R:--recursive -f:--force -D:--delete,--force"``: each spelling on
  the left means the canonical option(s) on the right (several: ``-D`` of git branch is
  ``--delete --force``); an option not listed keeps its spelling;
- ``values``: options that take a value (``-n ns`` and ``-nns`` as well as
  ``--namespace=ns``), by any spelling; ``optional``: options whose value may only be
  attached (sed's ``-i.bak``);
- ``subs``: the program has subcommands (``git status``); ``groups``: subcommands whose
  next word is a subcommand too, with the words it may be (``*``: any word);
  ``depth``: every leading word up to this many is a subcommand (aws, gcloud, az);
- ``combine``: single-dash options combine (``-rf`` = ``-r -f``); off for programs whose
  single-dash options are words (find's ``-name``, terraform's ``-chdir``);
- ``anywhere``: the program's own options may come after the subcommand too (kubectl's
  ``-n``); otherwise they only precede it (git's ``-C``), and each subcommand reads its
  own (``per_sub``: subcommand path -> (aliases, values)).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported: this runs on every tool call
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = ["ANY", "Spec", "spec_of"]

ANY = frozenset({"*"})
_NOTHING: frozenset[str] = frozenset()


class Spec:
    __slots__ = (
        "aliases",
        "anywhere",
        "combine",
        "depth",
        "groups",
        "optional",
        "per_sub",
        "subs",
        "values",
    )

    def __init__(
        self,
        aliases: str = "",
        values: str = "",
        optional: str = "",
        subs: bool = False,
        groups: dict[str, str] | None = None,
        combine: bool = True,
        anywhere: bool = False,
        depth: int = 0,
        per_sub: dict[str, tuple[str, str]] | None = None,
    ) -> None:
        self.aliases = _aliases(aliases)
        self.values = frozenset(values.split())
        self.optional = frozenset(optional.split())
        self.subs = subs or bool(groups) or depth > 0
        self.groups = {
            k: (ANY if v == "*" else frozenset(v.split())) for k, v in (groups or {}).items()
        }
        self.combine = combine
        self.anywhere = anywhere
        self.depth = depth
        self.per_sub = {
            k: (_aliases(a), frozenset(v.split())) for k, (a, v) in (per_sub or {}).items()
        }

    def flag_rules(
        self, path: tuple[str, ...], is_global: bool
    ) -> tuple[dict[str, tuple[str, ...]], frozenset[str]]:
        """The aliases and value-taking options that hold at this point of the line: the
        program's own before its subcommand; after it, the subcommand's (the longest
        path with rules), with the program's own too where they hold anywhere."""
        if is_global or not self.subs:
            return self.aliases, self.values
        aliases: dict[str, tuple[str, ...]] = {}
        values: frozenset[str] = _NOTHING
        if self.anywhere:
            aliases, values = dict(self.aliases), self.values
        for end in range(len(path), 0, -1):
            rules = self.per_sub.get(" ".join(path[:end]))
            if rules is not None:
                aliases.update(rules[0])
                values = values | rules[1]
                break
        return aliases, values


def _aliases(text: str) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for entry in text.split():
        names, _, canonical = entry.partition(":")
        for name in names.split("|"):
            out[name] = tuple(canonical.split(","))
    return out


# fmt: off
_RM = "-r|-R:--recursive -f:--force -i:--interactive -d:--dir -v:--verbose"
_CP = ("-r|-R:--recursive -f:--force -a:--archive -p:--preserve -v:--verbose -i:--interactive"
       " -n:--no-clobber -u:--update -l:--link -s:--symbolic-link -t:--target-directory"
       " -T:--no-target-directory -L:--dereference -P:--no-dereference -b:--backup")
_GIT_SUB = {
    "push": ("-f:--force -u:--set-upstream -d:--delete -n:--dry-run -q:--quiet -v:--verbose",
             "-o --push-option --repo --receive-pack"),
    "clean": ("-f:--force -d:--dirs -x:--ignored-too -X:--only-ignored -n:--dry-run"
              " -i:--interactive -q:--quiet", "-e --exclude"),
    "branch": ("-d:--delete -D:--delete,--force -m:--move -M:--move,--force -c:--copy"
               " -C:--copy,--force -f:--force -u:--set-upstream-to -l:--list -a:--all"
               " -r:--remotes -v|-vv:--verbose -t:--track", "-u --set-upstream-to --contains"
               " --no-contains --merged --no-merged --points-at --sort --format"),
    "tag": ("-d:--delete -f:--force -a:--annotate -s:--sign -l:--list -m:--message"
            " -F:--file -n:--lines", "-m --message -F --file -u --local-user --contains"
            " --points-at --sort --format"),
    "checkout": ("-b:--branch -B:--branch,--force -f:--force -q:--quiet -p:--patch",
                 "-b -B --orphan"),
    "switch": ("-c:--create -C:--create,--force -f:--force -d:--detach", "-c -C --orphan"),
    "commit": ("-m:--message -a:--all -F:--file -q:--quiet -n:--no-verify -s:--signoff"
               " -v:--verbose -C:--reuse-message", "-m --message -F --file -C --reuse-message"
               " --author --date --fixup --squash -c --reedit-message"),
    "reset": ("-q:--quiet -p:--patch", ""),
    "rm": ("-r:--recursive -f:--force -n:--dry-run -q:--quiet", ""),
    "add": ("-A:--all -f:--force -n:--dry-run -p:--patch -u:--update -v:--verbose", ""),
    "mv": ("-f:--force -n:--dry-run -k:--skip-errors -v:--verbose", ""),
    "stash": ("-u:--include-untracked -a:--all -k:--keep-index -p:--patch -q:--quiet"
              " -m:--message", "-m --message"),
    "log": ("-n:--max-count -p:--patch", "-n --max-count --format --pretty --since --until"
            " --author --grep -S -G --output"),
    "diff": ("", "--output"),
    "rebase": ("-i:--interactive", "--onto -x --exec -s --strategy"),
    "merge": ("-m:--message -s:--strategy -X:--strategy-option", "-m -s -X"),
    "config": ("-l:--list -e:--edit", "-f --file --blob --type --default"),
    "remote": ("-v:--verbose", ""),
    "fetch": ("-p:--prune -f:--force -a:--append -t:--tags", "--depth"),
    "pull": ("-f:--force -r:--rebase", "--depth -s --strategy"),
    "apply": ("-R:--reverse", "-p --directory --exclude --include"),
}
_DOCKER_RUN = ("-e --env -v --volume -p --publish --name -w --workdir --network -u --user"
               " --entrypoint --mount --platform -l --label --env-file -m --memory --cpus"
               " --restart -h --hostname --add-host --pull --gpus --device")
_KUBE = ("-n|--namespace:--namespace -A:--all-namespaces -f:--filename -l:--selector"
         " -o:--output -c:--container -R:--recursive -w:--watch -s:--server")
_KUBE_VALUES = ("--namespace --context --cluster --user --kubeconfig --token --server"
                " --filename --selector --output --container --as --as-group --request-timeout"
                " --field-selector --grace-period --timeout --type --image"
                " --replicas --for --sort-by --tail --since --cascade --overrides"
                " --from-literal --from-file --profile")
_TERRAFORM_VALUES = ("-chdir -var -var-file -target -out -state -state-out -backup -replace"
                     " -backend-config -parallelism -lock-timeout -generate-config-out")
_NPM = ("-g:--global -D:--save-dev -S:--save -E:--save-exact -O:--save-optional -f:--force"
        " -w:--workspace -y:--yes -C:--prefix", "--prefix --workspace"
        " --registry --userconfig --cache --loglevel --tag --otp --omit --include")

_TABLE: dict[str, Callable[[], dict[str, Any]]] = {
    "rm": lambda: {"aliases": _RM},
    "cp": lambda: {"aliases": _CP, "values": "-t --target-directory -S --suffix"},
    "mv": lambda: {"aliases": "-f:--force -i:--interactive -n:--no-clobber -u:--update -v:--verbose"
           " -t:--target-directory -T:--no-target-directory -b:--backup",
           "values": "-t --target-directory -S --suffix"},
    "ln": lambda: {"aliases": "-s:--symbolic -f:--force -n:--no-dereference -v:--verbose"
           " -r:--relative -t:--target-directory -T:--no-target-directory",
           "values": "-t --target-directory"},
    "mkdir": lambda: {"aliases": "-p:--parents -m:--mode -v:--verbose", "values": "-m --mode"},
    "touch": lambda: {"aliases": "-c:--no-create -d:--date -r:--reference",
              "values": "-d --date -r --reference -t"},
    "chmod": lambda: {"aliases": "-R:--recursive -v:--verbose -c:--changes -f:--silent",
              "values": "--reference"},
    "chown": lambda: {"aliases": "-R:--recursive -v:--verbose -c:--changes -f:--silent"
                                 " -h:--no-dereference",
              "values": "--reference --from"},
    "git": lambda: {
        "subs": True, "per_sub": _GIT_SUB,
        "aliases": "-P:--no-pager -p:--paginate -v:--version -h:--help",
        "values": "-C -c --git-dir --work-tree --namespace --exec-path --config-env",
        "groups": {"stash": "list show drop pop apply push save clear branch create store",
                   "remote": "add remove rm rename set-url get-url show prune update set-head"
                             " set-branches",
                   "reflog": "show expire delete exists list",
                   "config": "get set unset list edit rename-section remove-section",
                   "worktree": "*", "submodule": "*", "notes": "*", "bisect": "*",
                   "lfs": "*", "sparse-checkout": "*", "maintenance": "*"},
    },
    "kubectl": lambda: {
        "subs": True, "anywhere": True, "aliases": _KUBE, "values": _KUBE_VALUES,
        "optional": "--dry-run",
        "groups": {"config": "*", "rollout": "*", "auth": "*", "set": "*", "create": "*",
                   "top": "*", "certificate": "*", "cluster-info": "dump", "plugin": "*",
                   "apply": "edit-last-applied set-last-applied view-last-applied"},
    },
    "helm": lambda: {
        "subs": True, "anywhere": True,
        "aliases": "-n:--namespace -f:--values -o:--output -a:--all -A:--all-namespaces",
        "optional": "--dry-run",
        "values": "--namespace --kube-context --kubeconfig --values --set --set-string"
                  " --set-file --version --output --timeout --repo --registry-config"
                  " --repository-config --repository-cache --post-renderer --description"
                  " --max -l --selector",
        "groups": {"repo": "*", "get": "*", "show": "*", "plugin": "*", "dependency": "*",
                   "dep": "*", "search": "*", "registry": "*"},
    },
    "terraform": lambda: {"subs": True, "combine": False, "values": _TERRAFORM_VALUES,
                  "groups": {"state": "*", "workspace": "*", "providers": "*"},
                  "per_sub": {"plan": ("", _TERRAFORM_VALUES), "apply": ("", _TERRAFORM_VALUES),
                              "destroy": ("", _TERRAFORM_VALUES),
                              "import": ("", _TERRAFORM_VALUES),
                              "init": ("", _TERRAFORM_VALUES), "state": ("", "-state")}},
    "docker": lambda: {
        "subs": True,
        "aliases": "-c:--context -H:--host -D:--debug -l:--log-level",
        "values": "--context --host --config --log-level --tlscacert --tlscert --tlskey",
        "groups": {g: "*" for g in (
            "container", "image", "network", "volume", "context", "system", "compose",
            "buildx", "builder", "plugin", "secret", "config", "service", "stack", "node",
            "swarm", "manifest", "trust", "scout")},
        "per_sub": {
            "run": ("-d:--detach -i:--interactive -t:--tty -e:--env -v:--volume -p:--publish"
                    " -w:--workdir -u:--user -l:--label -m:--memory -h:--hostname", _DOCKER_RUN),
            "exec": ("-d:--detach -i:--interactive -t:--tty -e:--env -u:--user -w:--workdir",
                     "-e --env -u --user -w --workdir"),
            "build": ("-t:--tag -f:--file -q:--quiet", "-t --tag -f --file --build-arg"
                      " --target --platform --secret --cache-from"),
            "compose": ("-f:--file -p:--project-name", "-f --file -p --project-name"
                        " --env-file --profile --project-directory --ansi"),
            "ps": ("-a:--all -q:--quiet -f:--filter -n:--last", "-f --filter --format -n --last"),
            "logs": ("-f:--follow -n:--tail -t:--timestamps", "-n --tail --since --until"),
            "rm": ("-f:--force -v:--volumes", ""),
            "container rm": ("-f:--force -v:--volumes", ""),
            "rmi": ("-f:--force", ""),
            "image rm": ("-f:--force", ""),
            "push": ("-a:--all-tags", ""),
            "system prune": ("-a:--all -f:--force", "--filter"),
            "image prune": ("-a:--all -f:--force", "--filter"),
            "volume prune": ("-a:--all -f:--force", "--filter"),
        },
    },
    "npm": lambda: {"subs": True, "anywhere": True, "aliases": _NPM[0], "values": _NPM[1],
            "groups": {"cache": "add clean ls verify npx", "audit": "fix signatures",
                       "config": "get set list ls delete edit fix", "pkg": "get set delete fix",
                       "dist-tag": "add rm ls", "owner": "add rm ls", "access": "*",
                       "token": "list revoke create", "profile": "*", "team": "*"}},
    "pnpm": lambda: {"subs": True, "anywhere": True,
             "aliases": "-C:--dir -F:--filter -g:--global -D:--save-dev -r:--recursive",
             "values": "--dir --filter --reporter",
             "groups": {"store": "*", "config": "*", "audit": "fix", "env": "*"}},
    "yarn": lambda: {"subs": True, "anywhere": True, "values": "--cwd",
             "groups": {"config": "*", "workspaces": "*", "cache": "*", "npm": "*",
                        "plugin": "*", "constraints": "*"}},
    "pip": lambda: {"subs": True, "anywhere": True,
            "aliases": "-r:--requirement -e:--editable -U:--upgrade -t:--target -y:--yes"
                       " -q:--quiet -v:--verbose -c:--constraint",
            "values": "--requirement --editable --target --constraint --python --cache-dir"
                      " --log --index-url -i --extra-index-url --prefix --root --src"
                      " --platform --python-version --only-binary --no-binary",
            "groups": {"cache": "*", "config": "*", "index": "*"}},
    "uv": lambda: {"subs": True, "anywhere": True, "values": "--directory --project --python -p",
           "groups": {"pip": "*", "python": "*", "tool": "*", "cache": "*", "self": "*"}},
    "cargo": lambda: {"subs": True, "anywhere": True,
              "aliases": "-p:--package -j:--jobs -q:--quiet -v:--verbose",
              "values": "--package --jobs --manifest-path --target --features -F -Z --bin"
                        " --example --test --bench --target-dir --config"},
    "go": lambda: {"subs": True, "groups": {"mod": "*", "work": "*"},
           "per_sub": {"build": ("", "-o -tags -ldflags -gcflags"),
                       "test": ("", "-run -count -timeout -tags -coverprofile -bench -p")}},
    "dotnet": lambda: {"subs": True, "anywhere": True,
               "aliases": "-c:--configuration -f:--framework -o:--output -p:--project"
                          " -r:--runtime -v:--verbosity",
               "values": "--configuration --framework --output --project --runtime"
                         " --verbosity --context --connection --startup-project -s",
               "groups": {"ef": "*", "ef database": "*", "ef migrations": "*",
                          "ef dbcontext": "*", "sln": "*", "tool": "*", "nuget": "*",
                          "workload": "*", "list": "package reference",
                          "new": "list search install uninstall update details"}},
    "rsync": lambda: {
        "aliases": "-a:--archive -v:--verbose -z:--compress -r:--recursive -n:--dry-run"
                   " -P:--partial,--progress -h:--human-readable -u:--update -e:--rsh"
                   " -c:--checksum -l:--links -p:--perms -t:--times -L:--copy-links"
                   " -H:--hard-links -x:--one-file-system -i:--itemize-changes -q:--quiet"
                   " -R:--relative -b:--backup -W:--whole-file -S:--sparse -f:--filter",
        "values": "--rsh --filter --exclude --include --exclude-from --include-from"
                  " --files-from --backup-dir --suffix --chmod --chown --bwlimit"
                  " --log-file --password-file --port --timeout --max-size --min-size",
    },
    "find": lambda: {"combine": False,
             "values": "-name -iname -path -ipath -wholename -type -maxdepth -mindepth"
                       " -mtime -mmin -atime -ctime -newer -size -user -group -perm -regex"
                       " -iregex -printf -fprint -fprint0 -fls -samefile -links -inum"},
    "sed": lambda: {"aliases": "-i|--in-place:--in-place -n|--silent:--quiet -e:--expression"
                       " -f:--file -E|-r:--regexp-extended -s:--separate -z:--null-data",
            "values": "--expression --file -l --line-length", "optional": "--in-place"},
    "awk": lambda: {"values": "-f -v -F -i --include --file --assign --field-separator"},
    "gawk": lambda: {"values": "-f -v -F -i --include --file --assign --field-separator"},
    "grep": lambda: {"aliases": "-r:--recursive -R:--dereference-recursive -i:--ignore-case"
                        " -n:--line-number -l:--files-with-matches -v:--invert-match"
                        " -E:--extended-regexp -F:--fixed-strings -w:--word-regexp"
                        " -c:--count -o:--only-matching -q:--quiet -e:--regexp -f:--file",
             "values": "--regexp --file -m --max-count -A -B -C --include --exclude"
                       " --exclude-dir"},
    "sort": lambda: {"aliases": "-o:--output -k:--key -t:--field-separator -r:--reverse -u:--unique"
                        " -n:--numeric-sort", "values": "--output --key --field-separator"
             " -S --buffer-size -T --temporary-directory"},
    "head": lambda: {"aliases": "-n:--lines -c:--bytes", "values": "--lines --bytes"},
    "tail": lambda: {"aliases": "-n:--lines -c:--bytes -f:--follow", "values": "--lines --bytes"},
    "tee": lambda: {"aliases": "-a:--append -i:--ignore-interrupts"},
    "chgrp": lambda: {"aliases": "-R:--recursive -v:--verbose"},
    "curl": lambda: {"aliases": "-o:--output -O:--remote-name -X:--request -d:--data -F:--form"
                        " -T:--upload-file -H:--header -u:--user -L:--location -s:--silent"
                        " -S:--show-error -f:--fail -k:--insecure -I:--head -c:--cookie-jar"
                        " -b:--cookie -D:--dump-header -A:--user-agent -e:--referer"
                        " -x:--proxy -m:--max-time -w:--write-out -v:--verbose -G:--get",
             "values": "--output --request --data --data-raw --data-binary --data-urlencode"
                       " --json --form --upload-file --header --user --cookie-jar --cookie"
                       " --dump-header --user-agent --referer --proxy --max-time --write-out"
                       " --output-dir --connect-timeout --retry --cacert --cert --key"
                       " --trace --trace-ascii --config -K"},
    "wget": lambda: {"aliases": "-O:--output-document -q:--quiet -P:--directory-prefix"
                        " -o:--output-file -c:--continue", "values": "--output-document"
             " --directory-prefix --output-file --header --user --password --post-data"},
    "tar": lambda: {"aliases": "-c:--create -x|--get:--extract -t:--list -r:--append -u:--update"
                       " -f:--file -z:--gzip -j:--bzip2 -J:--xz -v:--verbose -C:--directory"
                       " -p:--preserve-permissions -k:--keep-old-files",
            "values": "--file --directory --exclude -T --files-from -X --exclude-from"},
    "systemctl": lambda: {"subs": True, "anywhere": True,
                  "aliases": "-H:--host -M:--machine -t:--type -p:--property -n:--lines"
                             " -o:--output -l:--full -a:--all -q:--quiet -f:--force",
                  "values": "--host --machine --type --state --property --lines --output"
                            " --signal --kill-whom --root"},
    "journalctl": lambda: {"aliases": "-u:--unit -n:--lines -f:--follow -b:--boot -p:--priority"
                              " -o:--output -S:--since -U:--until",
                   "values": "--unit --lines --priority --output --since --until"
                             " --vacuum-size --vacuum-time --vacuum-files"},
    "make": lambda: {"aliases": "-n|--just-print|--recon:--dry-run -q:--question -C:--directory"
                        " -f|--makefile:--file -j:--jobs -k:--keep-going -B:--always-make",
             "values": "--directory --file --jobs -I -o -W"},
    "brew": lambda: {"subs": True, "anywhere": True, "groups": {"services": "*", "bundle": "*"}},
    "apt": lambda: {"subs": True, "anywhere": True, "aliases": "-y:--yes -s:--simulate"},
    "apt-get": lambda: {"subs": True, "anywhere": True,
                "aliases": "-y:--yes -s|--dry-run|--just-print|--recon|--no-act:--simulate"
                           " -q:--quiet"},
    "apt-cache": lambda: {"subs": True},
    "conda": lambda: {"subs": True, "anywhere": True, "aliases": "-n:--name -y:--yes -c:--channel",
              "values": "--name --channel --prefix -p", "groups": {"env": "*", "config": "*"}},
    "gem": lambda: {"subs": True, "anywhere": True},
    "service": lambda: {},
    "psql": lambda: {"aliases": "-c:--command -d:--dbname -h:--host -U:--username -p:--port"
                        " -f:--file -v:--set", "values": "--command --dbname --host --username"
             " --port --file --set --output -o"},
    "mysql": lambda: {"aliases": "-e:--execute -D:--database -h:--host -u:--user -P:--port",
              "values": "--execute --database --host --user --port"},
    "gofmt": lambda: {"aliases": "-w:--write -l:--list -d:--diff"},
    "aws": lambda: {"depth": 2, "anywhere": True, "combine": False,
            "values": "--profile --region --output --query --endpoint-url"},
    "gcloud": lambda: {"depth": 4, "anywhere": True, "combine": False,
               "values": "--project --region --zone --format --account --filter"},
    "az": lambda: {"depth": 4, "anywhere": True, "combine": False,
           "aliases": "-y:--yes -g:--resource-group -n:--name -o:--output -h:--help",
           "values": "--subscription --resource-group -g --name -n --output -o --query"},
}
_SAME = {"podman": "docker", "pip3": "pip", "tofu": "terraform", "terragrunt": "terraform",
         "docker-compose": "docker-compose", "k": "kubectl", "oc": "kubectl", "gsed": "sed",
         "mawk": "awk", "nawk": "awk", "egrep": "grep", "fgrep": "grep", "zgrep": "grep",
         "bsdtar": "tar", "gtar": "tar", "apk": "apt"}
_TABLE["docker-compose"] = lambda: {"subs": True, "anywhere": False,
                            "aliases": "-f:--file -p:--project-name",
                            "values": "-f --file -p --project-name --env-file --profile"
                                      " --project-directory"}
# fmt: on
_BUILT: dict[str, Spec | None] = {}


def more() -> dict[str, Callable[[], dict[str, Any]]]:
    """The programs of ``programs_system``, ``programs_build`` and ``programs_platforms``."""
    global _MORE
    if _MORE is None:
        from xdb.engine.calls.programs_build import BUILD
        from xdb.engine.calls.programs_platforms import PLATFORMS
        from xdb.engine.calls.programs_system import SYSTEM

        _MORE = {**SYSTEM, **BUILD, **PLATFORMS}
    return _MORE


_MORE: dict[str, Callable[[], dict[str, Any]]] | None = None
# The names ``more`` holds (``tests/engine/test_program_options.py`` keeps them equal).
_MORE_NAMES = (
    "alembic ansible ansible-playbook argocd borg bun bundle certbot composer consul "
    "createdb crontab dd deno doctl dropdb eksctl etcdctl firebase flux flyctl flyway gh "
    "gpg gpg2 gradle gradlew gunzip gzip heroku ip6tables iptables iptables-save kill "
    "killall kind kustomize liquibase lvremove minikube mke2fs mkfs mkfs.btrfs mkfs.ext2 "
    "mkfs.ext3 mkfs.ext4 mkfs.fat mkfs.vfat mkfs.xfs mongodump mongorestore mongosh mount "
    "mvn mysqladmin mysqldump nc ncat netcat netlify nomad openssl packer passwd pg_dump "
    "pg_dumpall pg_restore pipx pkill poetry prisma pulumi rails rake rclone redis-cli "
    "restic scp sftp shred skaffold sqlite3 ssh ssh-keygen supabase truncate ufw umount "
    "unzip useradd userdel usermod vagrant vault vercel zfs zip"
)
MORE_NAMES = frozenset(_MORE_NAMES.split())


def spec_of(program: str) -> Spec | None:
    """How ``program`` reads its options (None: read it generically)."""
    if program in _BUILT:
        return _BUILT[program]
    name = _SAME.get(program, program)
    entry = _TABLE.get(name)
    if entry is None and name in MORE_NAMES:
        # More programs, only for a name they hold: loaded on the first such name, so a
        # call of the common programs (``ls``, ``cat``, ``python``) never reads them.
        entry = more().get(name)
    built = None if entry is None else Spec(**entry())
    _BUILT[program] = built
    return built


def same_as(program: str) -> str:
    """The table's name for a program another name stands for (podman: docker)."""
    return _SAME.get(program, program)
