"""More programs' command lines, in the form of ``programs`` (read its docstring): build and
package tools and migration tools (the JVM's, Ruby's, PHP's, JavaScript's and Python's).
``programs.spec_of`` looks here (and in ``programs_system`` and ``programs_platforms``)
only for a program its own table lacks, so nothing here changes how those are read.

Each entry follows the program's manual or ``--help``: its short options as the long ones
they stand for, the options that take a value, its subcommands; a tool whose single-dash
options are words (``mvn -DskipTests``) combines none.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported: this runs on every tool call
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


# fmt: off
_GRADLE = ("-x:--exclude-task -P:--project-prop -D:--system-prop -q:--quiet -i:--info"
           " -d:--debug -s:--stacktrace -S:--full-stacktrace -w:--warn -m:--dry-run"
           " -p:--project-dir -b:--build-file -c:--settings-file -g:--gradle-user-home"
           " -I:--init-script -t:--continuous -a:--no-rebuild -h:--help -v:--version"
           " -F:--dependency-verification -M:--write-verification-metadata",
           "--exclude-task --project-prop --system-prop --project-dir --build-file"
           " --settings-file --gradle-user-home --init-script --console --max-workers"
           " --warning-mode --priority --include-build --dependency-verification"
           " --write-verification-metadata --project-cache-dir --update-locks")
# fmt: on


# fmt: off
BUILD: dict[str, Callable[[], dict[str, Any]]] = {
    "mvn": lambda: {
        "subs": True, "anywhere": True, "combine": False,
        "aliases": "-pl:--projects -am:--also-make -amd:--also-make-dependents"
                   " -rf:--resume-from -T:--threads -U:--update-snapshots -o:--offline"
                   " -q:--quiet -X:--debug -e:--errors -B:--batch-mode -N:--non-recursive"
                   " -s:--settings -gs:--global-settings -gt:--global-toolchains -f:--file"
                   " -P:--activate-profiles -fae:--fail-at-end -ff:--fail-fast"
                   " -fn:--fail-never -nsu:--no-snapshot-updates -ntp:--no-transfer-progress"
                   " -l:--log-file -t:--toolchains -V:--show-version -v:--version -h:--help"
                   " -b:--builder -C:--strict-checksums -c:--lax-checksums -D:--define"
                   " -llr:--legacy-local-repository -emp:--encrypt-master-password"
                   " -ep:--encrypt-password -npu:--no-plugin-updates -cpu:--check-plugin-updates",
        "values": "--projects --resume-from --threads --settings --global-settings"
                  " --global-toolchains --file --activate-profiles --log-file --toolchains"
                  " --builder --define --encrypt-master-password --encrypt-password"},
    "gradle": lambda: {"subs": True, "anywhere": True, "aliases": _GRADLE[0],
               "values": _GRADLE[1]},
    "gradlew": lambda: {"subs": True, "anywhere": True, "aliases": _GRADLE[0],
                "values": _GRADLE[1]},
    "bun": lambda: {
        "subs": True, "values": "--cwd --env-file --preload -r --config -c -e --eval -p --print",
        "groups": {"pm": "*"},
        "per_sub": {s: ("-g:--global -E:--exact -f:--force -p:--production -d|-D:--dev"
                        " -y:--yarn -c:--config", "--cwd --config --registry --backend"
                        " --cache-dir --filter -F --concurrent-scripts --network-concurrency"
                        " --linker")
                    for s in ("install", "i", "add", "a", "remove", "rm", "update")} | {
            "test": ("-t:--test-name-pattern -u:--update-snapshots -r:--preload",
                     "--test-name-pattern --timeout --rerun-each --preload"
                     " --coverage-reporter --coverage-dir --reporter --reporter-outfile"),
            "run": ("-r:--preload -F:--filter", "--cwd --env-file --preload --filter"
                    " --elide-lines"),
        }},
    "deno": lambda: {
        "subs": True, "anywhere": True,
        "aliases": "-A:--allow-all -R:--allow-read -W:--allow-write -N:--allow-net"
                   " -E:--allow-env -r:--reload -q:--quiet -L:--log-level -c:--config"
                   " -o:--output -g:--global -n:--name -f:--force",
        "values": "--log-level --config --output --import-map --cert --location --seed --ext"
                  " --target --include --name --root --line-width --indent-width"
                  " --prose-wrap --filter --reporter --junit-path --port --host --icon"},
    "poetry": lambda: {
        "subs": True, "anywhere": True,
        "aliases": "-v|-vv|-vvv:--verbose -q:--quiet -n:--no-interaction -C:--directory"
                   " -P:--project -V:--version -h:--help",
        "values": "--directory --project",
        "groups": {"env": "*", "cache": "*", "source": "*", "self": "*", "debug": "*",
                   "python": "*"},
        "per_sub": {
            "add": ("-G:--group -D:--dev -E:--extras -e:--editable", "--group --extras"
                    " --python --platform --source --markers"),
            "remove": ("-G:--group -D:--dev", "--group"),
            "install": ("-E:--extras", "--extras --only --with --without"),
            "sync": ("-E:--extras", "--extras --only --with --without"),
            "publish": ("-r:--repository -u:--username -p:--password", "--repository"
                        " --username --password --cert --client-cert --dist-dir"),
            "export": ("-f:--format -o:--output -E:--extras", "--format --output --extras"
                       " --only --with --without"),
            "build": ("-f:--format -o:--output", "--format --output --config-settings"),
            "show": ("-t:--tree -l:--latest -o:--outdated -a:--all -T:--top-level",
                     "--only --with --without"),
        }},
    "pipx": lambda: {
        "subs": True, "anywhere": True,
        "aliases": "-f:--force -e:--editable -v:--verbose -q:--quiet -i:--index-url",
        "values": "--python --suffix --pip-args --index-url --spec --preinstall"},
    "bundle": lambda: {
        "subs": True, "anywhere": True,
        "aliases": "-V:--verbose -r:--retry -j:--jobs",
        "values": "--retry --jobs --path --without --with --gemfile --group --source"
                  " --trust-policy --shebang",
        "groups": {"exec": "*", "config": "list get set unset", "plugin": "*"}},
    "composer": lambda: {
        "subs": True, "anywhere": True,
        "aliases": "-n:--no-interaction -q:--quiet -v|-vv|-vvv:--verbose -d:--working-dir"
                   " -V:--version -h:--help",
        "values": "--working-dir --prefer-install --ignore-platform-req --with --stability"
                  " --repository --repository-url",
        "groups": {"global": "*"},
        "per_sub": {s: ("-o:--optimize-autoloader -a:--classmap-authoritative"
                        " -W:--with-all-dependencies -w:--with-dependencies"
                        " -m:--minimal-changes", "--prefer-install --ignore-platform-req"
                        " --with --apcu-autoloader-prefix")
                    for s in ("install", "update", "upgrade", "require", "remove",
                              "dump-autoload", "dumpautoload", "reinstall")} | {
            "create-project": ("-s:--stability", "--stability --repository"
                               " --repository-url --prefer-install")}},
    "rake": lambda: {
        "subs": True, "anywhere": True,
        "optional": "--tasks --describe --trace --jobs --rakefile --where",
        "aliases": "-n:--dry-run -P:--prereqs -W:--where -D:--describe -T:--tasks"
                   " -j:--jobs -m:--multitask -I:--libdir -r:--require -R:--rakelibdir"
                   " -e:--execute -p:--execute-print -E:--execute-continue -C:--directory"
                   " -N:--no-search -G:--no-system -g:--system -q:--quiet -s:--silent"
                   " -t:--trace -v:--verbose -V:--version -A:--all -B:--build-all"
                   " -f:--rakefile",
        "values": "--libdir --require --rakelibdir --execute --execute-print"
                  " --execute-continue --directory"},
    "rails": lambda: {
        "subs": True,
        "groups": {"generate": "*", "g": "*", "destroy": "*", "d": "*"},
        "per_sub": {
            "new": ("-d:--database -j:--javascript -c:--css -T:--skip-test -B:--skip-bundle"
                    " -G:--skip-git -m:--template -f:--force -p:--pretend -q:--quiet"
                    " -s:--skip", "--database --javascript --css --template --asset-pipeline"
                    " --ruby --rc"),
            **{s: ("-p:--port -b:--binding -e:--environment -d:--daemon -P:--pid -u:--using",
                   "--port --binding --environment --pid --using")
               for s in ("server", "s")},
            **{s: ("-e:--environment -s:--sandbox", "--environment")
               for s in ("console", "c", "runner", "r", "dbconsole")},
            **{s: ("-f:--force -p:--pretend -q:--quiet -s:--skip", "")
               for s in ("generate", "g", "destroy", "d")},
        }},
    # Migrations
    "alembic": lambda: {
        "subs": True, "aliases": "-c:--config -n:--name -q:--quiet",
        "values": "--config --name -x",
        "per_sub": {
            "revision": ("-m:--message", "--message --head --branch-label --version-path"
                         " --rev-id --depends-on"),
            "merge": ("-m:--message", "--message --branch-label --rev-id"),
            "upgrade": ("", "--tag"), "downgrade": ("", "--tag"), "stamp": ("", "--tag"),
            "history": ("-r:--rev-range -v:--verbose -i:--indicate-current", "--rev-range"),
            "init": ("-t:--template", "--template"),
            "current": ("-v:--verbose", ""), "heads": ("-v:--verbose", ""),
            "show": ("", ""), "branches": ("-v:--verbose", ""),
        }},
    "flyway": lambda: {"subs": True, "anywhere": True, "combine": False},
    "liquibase": lambda: {
        "subs": True, "anywhere": True,
        "aliases": "--changeLogFile:--changelog-file --defaultsFile:--defaults-file"
                   " --logLevel:--log-level --outputFile:--output-file"
                   " --referenceUrl:--reference-url --defaultSchemaName:--default-schema-name"
                   " --searchPath:--search-path",
        "values": "--changelog-file --url --username --password --defaults-file"
                  " --search-path --contexts --context-filter --labels --label-filter"
                  " --log-level --tag --count --output-file --driver --classpath"
                  " --reference-url --reference-username --reference-password"
                  " --default-schema-name --date"},
    "prisma": lambda: {
        "subs": True, "anywhere": True,
        "aliases": "-n:--name -f:--force -p:--port -b:--browser",
        "values": "--schema --name --applied --rolled-back --url --file --port --browser"
                  " --datasource-provider --generator --from-url --to-url"
                  " --from-schema-datamodel --to-schema-datamodel --from-schema-datasource"
                  " --to-schema-datasource --from-migrations --to-migrations"
                  " --shadow-database-url --output",
        "groups": {"migrate": "dev deploy reset resolve status diff",
                   "db": "push pull seed execute"}},
    # The hosted platforms' and the cluster tools' command lines
}
# fmt: on
