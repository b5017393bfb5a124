"""The command lines of the programs in ``xdb.engine.calls.programs_system``,
``programs_build`` and ``programs_platforms``: several spellings of one option read as one
canonical option, options that take a value take it, and subcommands are found past the
program's own options."""

from __future__ import annotations

from typing import Any

import pytest

from xdb.engine.calls import Command, parse_shell
from xdb.engine.calls.programs import _TABLE, MORE_NAMES, Spec, more, spec_of
from xdb.engine.calls.programs_build import BUILD
from xdb.engine.calls.programs_platforms import PLATFORMS
from xdb.engine.calls.programs_system import SYSTEM
from xdb.engine.readonly import command_is_read_only

CWD = "/work/shop"


def one(line: str) -> Command:
    """The command of ``line`` that its first word runs (ssh's remote command is another)."""
    found, complete = parse_shell(line, CWD)
    assert complete, line
    mine = [c for c in found if c.program == line.split()[0]]
    assert len(mine) == 1, (line, found)
    return mine[0]


# line -> its command's subcommand path, flags {name: value} and arguments' texts
CASES: list[tuple[str, dict[str, Any]]] = [
    # PostgreSQL
    ("pg_restore -c -d shop x.dump", {"flags": {"--clean": None, "--dbname": "shop"},
                                      "args": ["x.dump"]}),
    ("pg_restore -cv --dbname=shop x.dump", {"flags": {"--clean": None, "--verbose": None,
                                                       "--dbname": "shop"}}),
    ("pg_restore --clean --if-exists -dshop -1 x.dump",
     {"flags": {"--clean": None, "--if-exists": None, "--dbname": "shop",
                "--single-transaction": None}, "args": ["x.dump"]}),
    ("pg_dump -Fc -f out.dump -U app shop", {"flags": {"--format": "c", "--file": "out.dump",
                                                       "--username": "app"},
                                             "args": ["shop"]}),
    ("pg_dump --schema-only -t users shop", {"flags": {"--schema-only": None,
                                                       "--table": "users"}}),
    ("pg_dumpall -g -f globals.sql", {"flags": {"--globals-only": None,
                                                "--file": "globals.sql"}}),
    ("createdb -O app -E UTF8 shop", {"flags": {"--owner": "app", "--encoding": "UTF8"},
                                      "args": ["shop"]}),
    ("dropdb -f -h db.internal shop", {"flags": {"--force": None, "--host": "db.internal"},
                                       "args": ["shop"]}),
    # MySQL, SQLite, Redis, MongoDB
    ("mysqldump -uroot -psecret -B shop", {"flags": {"--user": "root", "--password": "secret",
                                                     "--databases": None}, "args": ["shop"]}),
    ("mysqldump -u root -p --single-transaction shop",
     {"flags": {"--user": "root", "--password": None, "--single-transaction": None},
      "args": ["shop"]}),
    ("mysqladmin -u root -f drop shop", {"subcommand": ("drop",),
                                         "flags": {"--user": "root", "--force": None},
                                         "args": ["shop"]}),
    ("sqlite3 --readonly -cmd '.tables' app.db", {"flags": {"-readonly": None,
                                                            "-cmd": ".tables"},
                                                  "args": ["app.db"]}),
    ("redis-cli -h cache -n 2 FLUSHDB", {"subcommand": ("FLUSHDB",),
                                         "flags": {"-h": "cache", "-n": "2"}}),
    ("mongodump -d shop -o /backup --gzip", {"flags": {"--db": "shop", "--out": "/backup",
                                                       "--gzip": None}}),
    ("mongorestore --drop --nsInclude 'shop.*' dump/",
     {"flags": {"--drop": None, "--nsInclude": "shop.*"}, "args": ["dump/"]}),
    ("mongosh -u admin --eval 'db.dropDatabase()' shop",
     {"flags": {"--username": "admin", "--eval": "db.dropDatabase()"}, "args": ["shop"]}),
    # Configuration management, certificates, cron
    ("ansible all -i hosts.ini -m shell -a 'reboot' -b",
     {"flags": {"--inventory": "hosts.ini", "--module-name": "shell", "--args": "reboot",
                "--become": None}, "args": ["all"]}),
    ("ansible-playbook -i prod site.yml -l web -t deploy -C",
     {"flags": {"--inventory": "prod", "--limit": "web", "--tags": "deploy",
                "--check": None}, "args": ["site.yml"]}),
    ("ansible-playbook site.yml -vvv --ask-become-pass",
     {"flags": {"--verbose": None, "--ask-become-pass": None}}),
    ("certbot certonly --nginx -d example.com -n --agree-tos",
     {"subcommand": ("certonly",), "flags": {"--nginx": None, "--domains": "example.com",
                                             "--non-interactive": None,
                                             "--agree-tos": None}}),
    ("certbot renew --test-cert --dry-run", {"subcommand": ("renew",),
                                             "flags": {"--staging": None, "--dry-run": None}}),
    ("crontab -u deploy -r", {"flags": {"-u": "deploy", "-r": None}, "args": []}),
    # Remote shells
    ("ssh -i key.pem -p 2222 deploy@web uptime", {"flags": {"-i": "key.pem", "-p": "2222"},
                                                  "args": ["deploy@web", "uptime"]}),
    ("scp -rP 2222 dist deploy@web:/srv", {"flags": {"-r": None, "-P": "2222"},
                                           "args": ["dist", "deploy@web:/srv"]}),
    ("sftp -b batch.txt deploy@web", {"flags": {"-b": "batch.txt"}, "args": ["deploy@web"]}),
    ("ssh-keygen -t ed25519 -C me -f id_deploy -N ''",
     {"flags": {"-t": "ed25519", "-C": "me", "-f": "id_deploy", "-N": ""}}),
    ("nc -l -p 4444 -e /bin/sh", {"flags": {"-l": None, "-p": "4444", "-e": "/bin/sh"}}),
    ("ncat --listen --exec /bin/sh 4444", {"flags": {"-l": None, "-e": "/bin/sh"},
                                           "args": ["4444"]}),
    # Signals: every spelling of one signal is one option
    ("kill -9 1234", {"flags": {"--signal-kill": None}, "args": ["1234"]}),
    ("kill -KILL 1234", {"flags": {"--signal-kill": None}, "args": ["1234"]}),
    ("kill -SIGKILL 1234", {"flags": {"--signal-kill": None}, "args": ["1234"]}),
    ("kill -s KILL 1234", {"flags": {"--signal-kill": None}, "args": ["1234"]}),
    ("kill -s 9 1234", {"flags": {"--signal-kill": None}, "args": ["1234"]}),
    ("kill -HUP 1234", {"flags": {"--signal-hup": None}, "args": ["1234"]}),
    ("kill -s usr1 1234", {"flags": {"--signal-usr1": None}, "args": ["1234"]}),
    ("pkill -9 -f 'node server'", {"flags": {"--signal-kill": None, "--full": None},
                                   "args": ["node server"]}),
    ("pkill -KILL -fx node", {"flags": {"--signal-kill": None, "--full": None,
                                        "--exact": None}}),
    ("pkill --signal TERM -u app nginx", {"flags": {"--signal-term": None, "--euid": "app"},
                                          "args": ["nginx"]}),
    ("killall -s 9 node", {"flags": {"--signal-kill": None}, "args": ["node"]}),
    ("killall -KILL -u app node", {"flags": {"--signal-kill": None, "--user": "app"}}),
    # Files and archives
    ("shred -vzu -n 3 secrets.txt", {"flags": {"--verbose": None, "--zero": None,
                                               "--remove": None, "--iterations": "3"},
                                     "args": ["secrets.txt"]}),
    ("truncate -s 0 app.log", {"flags": {"--size": "0"}, "args": ["app.log"]}),
    ("zip -rq site.zip public -x '*.map'", {"flags": {"--recurse-paths": None,
                                                       "--quiet": None, "--exclude": "*.map"},
                                            "args": ["site.zip", "public"]}),
    ("unzip -o site.zip -d /srv", {"flags": {"-o": None, "-d": "/srv"},
                                   "args": ["site.zip"]}),
    ("unzip -qo site.zip", {"flags": {"-q": None, "-o": None}}),
    ("gzip -dc app.log.gz", {"flags": {"--decompress": None, "--stdout": None}}),
    ("gzip -kv9 dump.sql", {"flags": {"--keep": None, "--verbose": None, "--best": None}}),
    ("gunzip -kf dump.sql.gz", {"flags": {"--keep": None, "--force": None}}),
    # Firewalls, accounts, mounts, file systems
    ("iptables -nvL", {"flags": {"--numeric": None, "--verbose": None, "--list": None}}),
    ("iptables -A INPUT -p tcp --dport 22 -j ACCEPT",
     {"flags": {"--append": "INPUT", "--protocol": "tcp", "--dport": "22",
                "--jump": "ACCEPT"}, "args": []}),
    ("iptables -t nat -F", {"flags": {"--table": "nat", "--flush": None}}),
    ("ip6tables -P INPUT DROP", {"flags": {"--policy": "INPUT"}, "args": ["DROP"]}),
    ("ufw delete allow 22/tcp", {"subcommand": ("delete", "allow"), "args": ["22/tcp"]}),
    ("ufw --force reset", {"subcommand": ("reset",), "flags": {"--force": None}}),
    ("ufw default deny incoming", {"subcommand": ("default", "deny"), "args": ["incoming"]}),
    ("useradd -m -s /bin/bash -G sudo deploy",
     {"flags": {"--create-home": None, "--shell": "/bin/bash", "--groups": "sudo"},
      "args": ["deploy"]}),
    ("userdel -r deploy", {"flags": {"--remove": None}, "args": ["deploy"]}),
    ("usermod -aG docker deploy", {"flags": {"--append": None, "--groups": "docker"},
                                   "args": ["deploy"]}),
    ("usermod -G docker deploy", {"flags": {"--groups": "docker"}, "args": ["deploy"]}),
    ("passwd -l deploy", {"flags": {"--lock": None}, "args": ["deploy"]}),
    ("mount -t ext4 -o ro /dev/sdb1 /mnt", {"flags": {"--types": "ext4", "--options": "ro"},
                                            "args": ["/dev/sdb1", "/mnt"]}),
    ("mount -B /srv/a /srv/b", {"flags": {"--bind": None}}),
    ("umount -lf /mnt/data", {"flags": {"--lazy": None, "--force": None}}),
    ("zfs destroy -rf tank/data", {"subcommand": ("destroy",), "flags": {"-r": None,
                                                                         "-f": None},
                                   "args": ["tank/data"]}),
    ("zfs list -t snapshot -o name", {"subcommand": ("list",),
                                      "flags": {"-t": "snapshot", "-o": "name"}}),
    ("lvremove -fy vg0/data", {"flags": {"--force": None, "--yes": None},
                               "args": ["vg0/data"]}),
    ("mkfs.ext4 -F -L data /dev/sdb1", {"flags": {"-F": None, "-L": "data"},
                                        "args": ["/dev/sdb1"]}),
    ("mkfs -t xfs /dev/sdc", {"flags": {"--type": "xfs"}, "args": ["/dev/sdc"]}),
    ("mkfs.btrfs -f -L pool /dev/sdd", {"flags": {"--force": None, "--label": "pool"}}),
    # Certificates and signing
    ("openssl req -x509 -newkey rsa:4096 -keyout key.pem -out cert.pem -days 365 -nodes",
     {"subcommand": ("req",), "flags": {"-x509": None, "-newkey": "rsa:4096",
                                        "-keyout": "key.pem", "-out": "cert.pem",
                                        "-days": "365", "-nodes": None}}),
    ("openssl enc -aes-256-cbc -in a.txt -out a.enc -k secret",
     {"subcommand": ("enc",), "flags": {"-aes-256-cbc": None, "-in": "a.txt",
                                        "-out": "a.enc", "-k": "secret"}}),
    ("openssl dgst -sha256 -sign key.pem -out sig.bin data",
     {"subcommand": ("dgst",), "flags": {"-sha256": None, "-sign": "key.pem",
                                         "-out": "sig.bin"}, "args": ["data"]}),
    ("gpg -ab -u me release.tar.gz", {"flags": {"--armor": None, "--detach-sign": None,
                                                "--local-user": "me"}}),
    ("gpg --batch --yes -r ops -o secrets.gpg -e secrets",
     {"flags": {"--batch": None, "--yes": None, "--recipient": "ops",
                "--output": "secrets.gpg", "--encrypt": None}}),
    # Build tools, package managers
    ("mvn clean install -DskipTests -pl api -am",
     {"subcommand": ("clean",), "flags": {"-DskipTests": None, "--projects": "api",
                                          "--also-make": None}, "args": ["install"]}),
    ("mvn -B -U -T 4 deploy -Pprod", {"subcommand": ("deploy",),
                                      "flags": {"--batch-mode": None,
                                                "--update-snapshots": None,
                                                "--threads": "4", "-Pprod": None}}),
    ("gradle build -x test --offline", {"subcommand": ("build",),
                                        "flags": {"--exclude-task": "test",
                                                  "--offline": None}}),
    ("gradlew assemble -Pversion=2 -q", {"subcommand": ("assemble",),
                                         "flags": {"--project-prop": "version=2",
                                                   "--quiet": None}}),
    ("bun add -d typescript", {"subcommand": ("add",), "flags": {"--dev": None},
                               "args": ["typescript"]}),
    ("deno run -A --allow-read=./data main.ts", {"subcommand": ("run",),
                                                 "flags": {"--allow-all": None,
                                                           "--allow-read": "./data"}}),
    ("poetry add -G dev pytest", {"subcommand": ("add",), "flags": {"--group": "dev"},
                                  "args": ["pytest"]}),
    ("poetry -C api install --sync", {"subcommand": ("install",),
                                      "flags": {"--directory": "api", "--sync": None}}),
    ("pipx install -f --python python3.12 ruff", {"subcommand": ("install",),
                                                  "flags": {"--force": None,
                                                            "--python": "python3.12"},
                                                  "args": ["ruff"]}),
    ("bundle exec rake db:migrate", {"subcommand": ("exec", "rake"),
                                     "args": ["db:migrate"]}),
    ("bundle install -j 4 --without test", {"subcommand": ("install",),
                                            "flags": {"--jobs": "4", "--without": "test"}}),
    ("composer install -o --no-dev", {"subcommand": ("install",),
                                      "flags": {"--optimize-autoloader": None,
                                                "--no-dev": None}}),
    ("composer -d app require -W vendor/pkg", {"subcommand": ("require",),
                                               "flags": {"--working-dir": "app",
                                                         "--with-all-dependencies": None}}),
    ("rake -n db:migrate", {"subcommand": ("db:migrate",), "flags": {"--dry-run": None}}),
    ("rails db:migrate", {"subcommand": ("db:migrate",)}),
    ("rails generate model User -f", {"subcommand": ("generate", "model"),
                                      "flags": {"--force": None}, "args": ["User"]}),
    ("rails server -p 3000 -e production", {"subcommand": ("server",),
                                            "flags": {"--port": "3000",
                                                      "--environment": "production"}}),
    # Migrations
    ("alembic -c alembic.ini downgrade base", {"subcommand": ("downgrade",),
                                               "flags": {"--config": "alembic.ini"},
                                               "args": ["base"]}),
    ("alembic revision --autogenerate -m 'add users'",
     {"subcommand": ("revision",), "flags": {"--autogenerate": None,
                                             "--message": "add users"}}),
    ("flyway -url=jdbc:postgresql://db/shop clean", {"subcommand": ("clean",),
                                                     "flags": {"-url":
                                                               "jdbc:postgresql://db/shop"}}),
    ("liquibase --changeLogFile=db.xml update", {"subcommand": ("update",),
                                                 "flags": {"--changelog-file": "db.xml"}}),
    ("prisma migrate reset -f", {"subcommand": ("migrate", "reset"),
                                 "flags": {"--force": None}}),
    ("prisma db push --accept-data-loss", {"subcommand": ("db", "push"),
                                           "flags": {"--accept-data-loss": None}}),
    # Hosted platforms and cluster tools
    ("gh pr merge 12 -d -s", {"subcommand": ("pr", "merge"),
                              "flags": {"--delete-branch": None, "--squash": None},
                              "args": ["12"]}),
    ("gh pr create -d -t 'Fix' -B main", {"subcommand": ("pr", "create"),
                                          "flags": {"--draft": None, "--title": "Fix",
                                                    "--base": "main"}}),
    ("gh repo delete owner/app --yes", {"subcommand": ("repo", "delete"),
                                        "flags": {"--yes": None}, "args": ["owner/app"]}),
    ("gh secret set TOKEN -b secret -R owner/app", {"subcommand": ("secret", "set"),
                                                    "flags": {"--body": "secret",
                                                              "--repo": "owner/app"},
                                                    "args": ["TOKEN"]}),
    ("vault kv put -mount=secret app/db password=x", {"subcommand": ("kv", "put"),
                                                      "flags": {"-mount": "secret"},
                                                      "args": ["app/db", "password=x"]}),
    ("vault kv metadata delete secret/app", {"subcommand": ("kv", "metadata", "delete")}),
    ("vault read -field=password secret/db", {"subcommand": ("read",),
                                              "flags": {"-field": "password"}}),
    ("consul kv delete -recurse app/", {"subcommand": ("kv", "delete"),
                                        "flags": {"-recurse": None}, "args": ["app/"]}),
    ("nomad job stop -purge web", {"subcommand": ("job", "stop"), "flags": {"-purge": None},
                                   "args": ["web"]}),
    ("packer build -var 'region=eu' -force app.pkr.hcl",
     {"subcommand": ("build",), "flags": {"-var": "region=eu", "-force": None}}),
    ("vagrant destroy -f web", {"subcommand": ("destroy",), "flags": {"--force": None},
                                "args": ["web"]}),
    ("vagrant box remove -f ubuntu/jammy64", {"subcommand": ("box", "remove"),
                                              "flags": {"--force": None}}),
    ("pulumi destroy -s prod -y", {"subcommand": ("destroy",),
                                   "flags": {"--stack": "prod", "--yes": None}}),
    ("pulumi up --stack=prod --skip-preview", {"subcommand": ("up",),
                                               "flags": {"--stack": "prod",
                                                         "--skip-preview": None}}),
    ("pulumi stack rm -f -s dev", {"subcommand": ("stack", "rm"),
                                   "flags": {"--force": None, "--stack": "dev"}}),
    ("argocd app sync web --prune --server cd.example.com",
     {"subcommand": ("app", "sync"), "flags": {"--prune": None,
                                               "--server": "cd.example.com"},
      "args": ["web"]}),
    ("argocd app delete web -y", {"subcommand": ("app", "delete"), "flags": {"--yes": None}}),
    ("flux reconcile kustomization apps -n flux-system",
     {"subcommand": ("reconcile", "kustomization"), "flags": {"--namespace": "flux-system"},
      "args": ["apps"]}),
    ("flux get source git", {"subcommand": ("get", "source", "git")}),
    ("eksctl delete cluster -n prod -r eu-west-1",
     {"subcommand": ("delete", "cluster"), "flags": {"--name": "prod",
                                                     "--region": "eu-west-1"}}),
    ("doctl compute droplet delete web-1 -f", {"subcommand": ("compute", "droplet", "delete"),
                                               "flags": {"--force": None},
                                               "args": ["web-1"]}),
    ("heroku pg:reset DATABASE -a shop --confirm shop",
     {"subcommand": ("pg:reset",), "flags": {"--app": "shop", "--confirm": "shop"},
      "args": ["DATABASE"]}),
    ("heroku logs -t -a shop", {"subcommand": ("logs",), "flags": {"--tail": None,
                                                                  "--app": "shop"}}),
    ("flyctl apps destroy shop -y", {"subcommand": ("apps", "destroy"),
                                     "flags": {"--yes": None}, "args": ["shop"]}),
    ("kustomize edit set image app=app:v2", {"subcommand": ("edit", "set", "image")}),
    ("kustomize build overlays/prod -o out.yaml", {"subcommand": ("build",),
                                                   "flags": {"--output": "out.yaml"},
                                                   "args": ["overlays/prod"]}),
    ("skaffold run -p prod -n shop", {"subcommand": ("run",),
                                      "flags": {"--profile": "prod", "--namespace": "shop"}}),
    ("minikube delete --all --purge -p dev", {"subcommand": ("delete",),
                                              "flags": {"--all": None, "--purge": None,
                                                        "--profile": "dev"}}),
    ("kind delete cluster -n dev", {"subcommand": ("delete", "cluster"),
                                    "flags": {"--name": "dev"}}),
    ("etcdctl del --prefix /registry -w json", {"subcommand": ("del",),
                                                "flags": {"--prefix": None,
                                                          "--write-out": "json"},
                                                "args": ["/registry"]}),
    ("etcdctl snapshot save snap.db --endpoints=https://e:2379",
     {"subcommand": ("snapshot", "save"), "flags": {"--endpoints": "https://e:2379"}}),
    ("firebase deploy --only hosting -P prod", {"subcommand": ("deploy",),
                                                "flags": {"--only": "hosting",
                                                          "--project": "prod"}}),
    ("vercel env rm API_KEY production -y", {"subcommand": ("env", "rm"),
                                             "flags": {"--yes": None}}),
    ("vercel deploy --prod -t tok", {"subcommand": ("deploy",),
                                     "flags": {"--prod": None, "--token": "tok"}}),
    ("netlify deploy -p -d dist", {"subcommand": ("deploy",),
                                   "flags": {"--prod": None, "--dir": "dist"}}),
    ("supabase db reset --linked", {"subcommand": ("db", "reset"), "flags": {"--linked": None}}),
    ("supabase db push -p secret", {"subcommand": ("db", "push"),
                                    "flags": {"--password": "secret"}}),
    # Backups and sync
    ("rclone sync -n --exclude '*.tmp' src remote:dst",
     {"subcommand": ("sync",), "flags": {"--dry-run": None, "--exclude": "*.tmp"},
      "args": ["src", "remote:dst"]}),
    ("rclone purge -P remote:old", {"subcommand": ("purge",), "flags": {"--progress": None}}),
    ("restic -r s3:bucket forget --keep-last 3 --prune",
     {"subcommand": ("forget",), "flags": {"--repo": "s3:bucket", "--keep-last": "3",
                                           "--prune": None}}),
    ("restic forget -l 3 -n", {"subcommand": ("forget",),
                               "flags": {"--keep-last": "3", "--dry-run": None}}),
    ("borg prune -v --list -d 7 -w 4 /backup", {"subcommand": ("prune",),
                                                "flags": {"--verbose": None, "--list": None,
                                                          "--keep-daily": "7",
                                                          "--keep-weekly": "4"},
                                                "args": ["/backup"]}),
    ("borg create -s -e '*.pyc' /backup::today src",
     {"subcommand": ("create",), "flags": {"--stats": None, "--exclude": "*.pyc"}}),
    ("borg init -e repokey /backup", {"subcommand": ("init",),
                                      "flags": {"--encryption": "repokey"}}),
]  # fmt: skip


@pytest.mark.parametrize(("line", "expected"), CASES, ids=[c[0] for c in CASES])
def test_structure(line: str, expected: dict[str, Any]) -> None:
    command = one(line)
    assert command.subcommand == expected.get("subcommand", ())
    if "flags" in expected:
        assert {f.name: f.value for f in command.flags} == expected["flags"]
    if "args" in expected:
        assert [a.text for a in command.args] == expected["args"]


# Spellings that are one option: the same flags, whichever is written.
SAME: list[tuple[str, ...]] = [
    ("pg_restore -c -d shop x.dump", "pg_restore --clean --dbname shop x.dump",
     "pg_restore -cdshop x.dump", "pg_restore --clean --dbname=shop x.dump"),
    ("pg_dump -s shop", "pg_dump --schema-only shop"),
    ("kill -9 1", "kill -KILL 1", "kill -SIGKILL 1", "kill -s KILL 1", "kill -n 9 1",
     "kill --signal=KILL 1", "kill -s SIGKILL 1"),
    ("kill -TERM 1", "kill -15 1", "kill -s TERM 1", "kill -SIGTERM 1"),
    ("pkill -9 node", "pkill -KILL node", "pkill --signal KILL node", "pkill -SIGKILL node"),
    ("killall -9 node", "killall -KILL node", "killall -s KILL node",
     "killall --signal=KILL node"),
    ("gzip -d -c a.gz", "gzip -dc a.gz", "gzip --decompress --stdout a.gz",
     "gzip --uncompress --to-stdout a.gz"),
    ("usermod -aG docker bob", "usermod -a -G docker bob", "usermod --append --groups docker bob"),
    ("iptables -F", "iptables --flush"),
    ("mysqldump -u root -B shop", "mysqldump --user=root --databases shop",
     "mysqldump -uroot -B shop"),
    ("gh pr merge -s -d", "gh pr merge --squash --delete-branch"),
    ("certbot renew --force-renewal", "certbot renew --renew-by-default"),
    ("ansible-playbook -K site.yml", "ansible-playbook --ask-become-pass site.yml"),
    ("sqlite3 -readonly a.db", "sqlite3 --readonly a.db"),
    ("zip -r a.zip d", "zip --recurse-paths a.zip d"),
    ("mount -o ro /dev/sdb /mnt", "mount --options ro /dev/sdb /mnt",
     "mount --options=ro /dev/sdb /mnt"),
]  # fmt: skip


def _flags(line: str) -> frozenset[tuple[str, str | None]]:
    return frozenset((f.name, f.value) for f in one(line).flags)


@pytest.mark.parametrize("lines", SAME, ids=[s[0] for s in SAME])
def test_spellings_of_one_option(lines: tuple[str, ...]) -> None:
    first = _flags(lines[0])
    for line in lines[1:]:
        assert _flags(line) == first, line
    # (read generically, the first and the last spelling differ)
    assert len({one(line).flags[0].raw for line in lines}) > 1


def test_kill_signals_are_one_option_each() -> None:
    assert _flags("kill -TERM 1") == _flags("kill -15 1") == {("--signal-term", None)}
    assert _flags("kill -9 1") != _flags("kill -15 1")
    # pkill's -s is the session, not the signal
    assert _flags("pkill -s 0 node") == {("--session", "0")}


def test_every_entry_builds_and_none_shadows_the_main_table() -> None:
    assert len(more()) >= 80
    assert len(more()) == len(SYSTEM) + len(BUILD) + len(PLATFORMS)  # no name in two
    assert set(more()) == MORE_NAMES  # what spec_of asks before it loads them
    for name, entry in more().items():
        assert name not in _TABLE, name
        spec = spec_of(name)
        assert isinstance(spec, Spec), name
        assert Spec(**entry()).subs == spec.subs
    # docker-compose and podman stay the main table's
    assert one("docker-compose -f a.yml down -v").subcommand == ("down",)
    assert {f.name for f in one("podman rm -f web").flags} == {"--force"}


# Layer 1: the new readings (option values no longer taken for arguments, combined
# options split) let a listing read, and leave what writes writing.
READ_ONLY = [
    ("unzip -lv site.zip", "unzip -o site.zip"),  # -l and -v: a listing
    ("mount -t ext4", "mount -t ext4 /dev/sdb1 /mnt"),  # the ext4 mounts listed
    ("unzip -tq site.zip", "unzip -qo site.zip -d /srv"),
]


@pytest.mark.parametrize(("reads", "writes"), READ_ONLY, ids=[r[0] for r in READ_ONLY])
def test_layer_one(reads: str, writes: str) -> None:
    assert command_is_read_only(reads)
    assert not command_is_read_only(writes)
    assert not command_is_read_only("gzip -kv dump.sql")
    assert not command_is_read_only("gh pr merge 12 -s")


# mount mounts with any option but the listing's, whatever else it is given.
@pytest.mark.parametrize(
    ("line", "reads"),
    [
        ("mount", True),
        ("mount -t ext4", True),
        ("mount -l", True),
        ("mount -a", False),
        ("mount -L data", False),
        ("mount -U 1234-ABCD", False),
        ("mount --target /mnt/data", False),
        ("mount -o remount,ro --target /", False),
        ("mount -t nfs -a", False),
    ],
)
def test_mount_reads_only_when_it_lists(line: str, reads: bool) -> None:
    assert command_is_read_only(line) is reads


# Options that are flags, not options taking the next word (a value swallowed would hide
# what follows: openssl's -out, argocd's application).
@pytest.mark.parametrize(
    ("line", "flag", "arg"),
    [
        ("openssl x509 -serial -out x.pem -in c.pem", "-serial", None),
        ("argocd app delete --wait myapp", "--wait", "myapp"),
        ("vault token revoke -accessor abc123", "-accessor", "abc123"),
        ("consul kv put -cas -modify-index 5 foo bar", "-cas", "foo"),
        ("gh workflow run --json deploy.yml", "--json", "deploy.yml"),
        ("mkfs.vfat -C disk.img 1024", "-C", "disk.img"),
    ],
)
def test_a_flag_takes_no_value(line: str, flag: str, arg: str | None) -> None:
    command = one(line)
    assert (flag, None) in {(f.name, f.value) for f in command.flags}
    if arg is not None:
        assert arg in [a.text for a in command.args]


def test_kill_reads_a_pid_of_minus_one_as_a_pid() -> None:
    assert _flags("kill -9 -1") == {("--signal-kill", None), ("-1", None)}
    assert _flags("gh issue list -m v1") == {("--milestone", "v1")}
