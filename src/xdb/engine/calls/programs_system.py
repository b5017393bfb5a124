"""More programs' command lines, in the form of ``programs`` (read its docstring): database
clients and dump tools, configuration management, remote shells, signals, archives,
firewalls and accounts, mounts and file systems, encryption and signing. Build and
migration tools are in ``programs_build``, the hosted platforms' and cluster tools' in
``programs_platforms``.
``programs.spec_of`` looks in both only for a program its own table lacks, so nothing here
changes how those are read.

Each entry follows the program's manual or ``--help``: its short options as the long ones
they stand for, the options that take a value, its subcommands. A program with no long
options keeps its short ones as written (``ssh -i``, ``scp -r``, ``zfs destroy -r``); a
program whose single-dash options are words combines none. The signals of ``kill``,
``pkill`` and ``killall`` are one option per signal, however written: ``-9``, ``-KILL`` and
``-SIGKILL`` are ``--signal-kill``, and so is ``-s KILL`` (``options`` reads a ``--signal``
value through these).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported: this runs on every tool call
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


_SIGNAL_NAMES = (
    "HUP INT:2 QUIT:3 ABRT:6 KILL:9 ALRM:14 TERM:15 USR1 USR2 STOP CONT TSTP"
    " CHLD PIPE WINCH TTIN TTOU"
)

# The signals' names as the option tables spell them canonically (``--signal-kill``).
SIGNAL_NAMES = frozenset(entry.partition(":")[0].lower() for entry in _SIGNAL_NAMES.split())


def _signals() -> str:
    """Each signal's spellings (the number where it is the same on every system)."""
    out = []
    for entry in _SIGNAL_NAMES.split():
        name, _, number = entry.partition(":")
        spellings = [f"-{name}", f"-SIG{name}", *([f"-{number}"] if number else [])]
        out.append("|".join(spellings) + f":--signal-{name.lower()}")
    return " ".join(out)


# fmt: off
_PG_CONN = "-h:--host -p:--port -U:--username -w:--no-password -W:--password -d:--dbname"
_PG_CONN_VALUES = "--host --port --username --dbname --role --maintenance-db"
_PG_DUMP = (
    _PG_CONN + " -a:--data-only -b:--large-objects -B:--no-large-objects -c:--clean"
    " -C:--create -E:--encoding -f:--file -F:--format -j:--jobs -n:--schema"
    " -N:--exclude-schema -O:--no-owner -s:--schema-only -S:--superuser -t:--table"
    " -T:--exclude-table -v:--verbose -x:--no-privileges -Z:--compress -V:--version",
    _PG_CONN_VALUES + " --encoding --file --format --jobs --schema --exclude-schema"
    " --superuser --table --exclude-table --compress --lock-wait-timeout --section"
    " --exclude-table-data --snapshot --rows-per-insert --extra-float-digits --filter"
    " --exclude-extension --extension")
_PG_RESTORE = (
    _PG_CONN + " -a:--data-only -c:--clean -C:--create -e:--exit-on-error -f:--file"
    " -F:--format -I:--index -j:--jobs -l:--list -L:--use-list -n:--schema"
    " -N:--exclude-schema -O:--no-owner -P:--function -s:--schema-only -S:--superuser"
    " -t:--table -T:--trigger -v:--verbose -x:--no-privileges -1:--single-transaction"
    " -V:--version",
    _PG_CONN_VALUES + " --file --format --index --jobs --use-list --schema --exclude-schema"
    " --function --superuser --table --trigger --section")
_PG_DUMPALL = (
    "-h:--host -p:--port -U:--username -w:--no-password -W:--password -d:--dbname"
    " -l:--database -a:--data-only -c:--clean -E:--encoding -f:--file -g:--globals-only"
    " -O:--no-owner -r:--roles-only -s:--schema-only -S:--superuser -t:--tablespaces-only"
    " -v:--verbose -x:--no-privileges -V:--version",
    "--host --port --username --dbname --database --role --encoding --file --superuser"
    " --exclude-database --lock-wait-timeout --extra-float-digits --rows-per-insert")
_PG_ADMIN = _PG_CONN.replace(" -d:--dbname", "") + " -e:--echo"
_MYSQL_CONN = ("-u:--user -p:--password -h:--host -P:--port -S:--socket -v:--verbose"
               " -V:--version -C:--compress")
_MYSQL_CONN_VALUES = ("--user --host --port --socket --protocol --default-character-set"
                      " --defaults-file --defaults-extra-file --login-path --ssl-mode --ssl-ca"
                      " --ssl-cert --ssl-key --plugin-dir --default-auth")
_MONGO_TOOL = ("-h:--host -u:--username -p:--password -d:--db -c:--collection -v:--verbose"
               " -j:--numParallelCollections",
               "--host --port --username --password --db --collection --uri"
               " --authenticationDatabase --authenticationMechanism --readPreference"
               " --numParallelCollections --config --sslCAFile --sslPEMKeyFile --tlsCAFile"
               " --tlsCertificateKeyFile")
_ANSIBLE = ("-i:--inventory -u:--user -b:--become -K:--ask-become-pass -k:--ask-pass"
            " -e:--extra-vars -l:--limit -f:--forks -C:--check -D:--diff -v:--verbose"
            " -T:--timeout -c:--connection -M:--module-path -J:--ask-vault-password"
            " --ask-vault-pass:--ask-vault-password --key-file:--private-key"
            " --inventory-file:--inventory")
_ANSIBLE_VALUES = ("--inventory --user --extra-vars --limit --forks --timeout --connection"
                   " --module-path --become-user --become-method --private-key"
                   " --vault-password-file --vault-id --ssh-common-args --ssh-extra-args"
                   " --scp-extra-args --sftp-extra-args --become-password-file"
                   " --connection-password-file")
_SSH_VALUES = "-b -B -c -D -E -e -F -I -i -J -L -l -m -O -o -P -p -Q -R -S -W -w"
_KILL = "-s|-n:--signal -l:--list -L:--table"
_ZFS_SUB = {
    "create": ("", "-o -V -b"), "destroy": ("", ""), "snapshot": ("", "-o"),
    "clone": ("", "-o"), "rename": ("", ""), "rollback": ("", ""),
    "list": ("", "-o -s -S -t -d"), "get": ("", "-o -s -t -d"), "set": ("", ""),
    "inherit": ("", ""), "send": ("", "-i -I -X"), "receive": ("", "-o -x"),
    "recv": ("", "-o -x"), "mount": ("", "-o"), "diff": ("", ""),
}
# gzip's and gunzip's options (gzip also compresses: -d, the levels)
_GZIP = ("-c|--to-stdout:--stdout -f:--force -k:--keep -l:--list -n:--no-name -N:--name"
         " -q:--quiet -r:--recursive -S:--suffix -t:--test -v:--verbose")
_MKE2FS = {"values": "-b -C -d -E -e -G -g -I -i -J -L -l -M -m -N -O -o -r -T -t -U -z"}
_SQLITE = ("bail batch cmd csv echo header noheader line list readonly separator nullvalue init"
           " json markdown box table column html interactive safe version help newline mmap"
           " ascii tabs quote append deserialize zip memtrace vfs")
# fmt: on


# fmt: off
SYSTEM: dict[str, Callable[[], dict[str, Any]]] = {
    # PostgreSQL's client tools
    "pg_dump": lambda: {"aliases": _PG_DUMP[0], "values": _PG_DUMP[1]},
    "pg_restore": lambda: {"aliases": _PG_RESTORE[0], "values": _PG_RESTORE[1]},
    "pg_dumpall": lambda: {"aliases": _PG_DUMPALL[0], "values": _PG_DUMPALL[1]},
    "createdb": lambda: {"aliases": _PG_ADMIN + " -D:--tablespace -E:--encoding -l:--locale"
                                                " -O:--owner -T:--template",
                 "values": _PG_CONN_VALUES + " --tablespace --encoding --locale --owner"
                           " --template --lc-collate --lc-ctype --strategy --icu-locale"
                           " --locale-provider"},
    "dropdb": lambda: {"aliases": _PG_ADMIN + " -f:--force -i:--interactive",
               "values": _PG_CONN_VALUES},
    # MySQL's
    "mysqldump": lambda: {
        "aliases": _MYSQL_CONN + " -B:--databases -A:--all-databases -d:--no-data"
                   " -t:--no-create-info -r:--result-file -R:--routines -E:--events"
                   " -q:--quick -l:--lock-tables -x:--lock-all-tables -F:--flush-logs"
                   " -c:--complete-insert -e:--extended-insert -f:--force -w:--where"
                   " -n:--no-create-db -K:--disable-keys -X:--xml -T:--tab -Q:--quote-names"
                   " -y:--no-tablespaces -Y:--all-tablespaces",
        "values": _MYSQL_CONN_VALUES + " --result-file --where --tab --ignore-table"
                  " --compatible --max-allowed-packet --net-buffer-length --set-gtid-purged"
                  " --fields-terminated-by --fields-enclosed-by --lines-terminated-by",
        "optional": "--password"},
    "mysqladmin": lambda: {
        "subs": True, "anywhere": True, "optional": "--password",
        "aliases": _MYSQL_CONN + " -f:--force -i:--sleep -c:--count -s:--silent"
                   " -r:--relative -E:--vertical -w:--wait",
        "values": _MYSQL_CONN_VALUES + " --sleep --count --connect-timeout"
                  " --shutdown-timeout"},
    "sqlite3": lambda: {
        "combine": False,
        "aliases": " ".join(f"--{o}:-{o}" for o in _SQLITE.split()),
        "values": "-cmd -separator -nullvalue -init -mmap -newline -vfs -maxsize -lookaside"
                  " -pagecache -heap -A"},
    "redis-cli": lambda: {
        "subs": True, "combine": False,
        "values": "-h -p -s -a -u -n -r -i -d -D --user --pass --pattern --count --rdb"
                  " --functions-rdb --cacert --cacertdir --cert --key --sni --tls-ciphers"
                  " --eval --memkeys-samples --cluster --quoted-pattern"},
    # MongoDB's
    "mongosh": lambda: {"aliases": "-u:--username -p:--password -f:--file",
                "values": "--host --port --username --password --authenticationDatabase"
                          " --authenticationMechanism --eval --file --tlsCAFile"
                          " --tlsCertificateKeyFile --apiVersion"},
    "mongodump": lambda: {"aliases": _MONGO_TOOL[0] + " -q:--query -o:--out",
                  "values": _MONGO_TOOL[1] + " --query --queryFile --out"
                            " --excludeCollection --excludeCollectionsWithPrefix",
                  "optional": "--archive"},
    "mongorestore": lambda: {"aliases": _MONGO_TOOL[0],
                     "values": _MONGO_TOOL[1] + " --nsInclude --nsExclude --nsFrom --nsTo"
                               " --dir --writeConcern --numInsertionWorkersPerCollection",
                     "optional": "--archive"},
    # Configuration management
    "ansible": lambda: {"aliases": _ANSIBLE + " -m:--module-name -a:--args -o:--one-line"
                                              " -t:--tree -B:--background -P:--poll",
                "values": _ANSIBLE_VALUES + " --module-name --args --tree --background"
                          " --poll"},
    "ansible-playbook": lambda: {
        "aliases": _ANSIBLE + " -t:--tags",
        "values": _ANSIBLE_VALUES + " --tags --skip-tags --start-at-task"},
    "certbot": lambda: {
        "subs": True, "anywhere": True,
        "aliases": "-d|--domain:--domains -m:--email -w:--webroot-path -n|--noninteractive:"
                   "--non-interactive -q:--quiet -v:--verbose -a:--authenticator"
                   " -i:--installer -c:--config --test-cert:--staging"
                   " --renew-by-default:--force-renewal --keep:--keep-until-expiring",
        "values": "--domains --email --webroot-path --authenticator --installer --config"
                  " --cert-name --preferred-challenges --key-type --rsa-key-size"
                  " --elliptic-curve --server --deploy-hook --pre-hook --post-hook"
                  " --config-dir --work-dir --logs-dir --cert-path --key-path"
                  " --fullchain-path --chain-path --reason --eab-kid --eab-hmac-key"},
    "crontab": lambda: {"values": "-u"},
    # Remote shells
    "ssh": lambda: {"values": _SSH_VALUES},
    "scp": lambda: {"values": "-c -D -F -i -J -l -o -P -S -X"},
    "sftp": lambda: {"values": "-b -B -c -D -F -i -J -l -o -P -R -S -s -X"},
    "ssh-keygen": lambda: {"values": "-a -b -C -D -E -F -f -I -M -m -N -n -O -P -R -r -s -t"
                                     " -V -w -Y -Z -z"},
    "nc": lambda: {"aliases": "--listen:-l --udp:-u --verbose:-v --keep-open:-k --nodns:-n"
                              " --exec:-e --source-port:-p --source:-s --wait:-w",
           "values": "-p -s -w -e -q -i -x -X -T --sh-exec --output --hex-dump --proxy"
                     " --proxy-type --proxy-auth --allow --deny --allowfile --denyfile"
                     " --max-conns --idle-timeout"},
    # Signals
    "kill": lambda: {"combine": False, "aliases": _KILL + " " + _signals(),
             "values": "--signal"},
    "pkill": lambda: {
        "aliases": "-e:--echo -f:--full -g:--pgroup -G:--group -i:--ignore-case -n:--newest"
                   " -o:--oldest -O:--older -P:--parent -s:--session -t:--terminal"
                   " -u:--euid -U:--uid -x:--exact -c:--count -F:--pidfile -H:--require-handler"
                   " -A:--ignore-ancestors -q:--queue " + _signals(),
        "values": "--signal --pgroup --group --older --parent --session --terminal --euid"
                  " --uid --pidfile --queue --ns --nslist --env --cgroup"},
    "killall": lambda: {
        "aliases": "-e:--exact -I:--ignore-case -g:--process-group -i:--interactive -l:--list"
                   " -q:--quiet -r:--regexp -s:--signal -u:--user -v:--verbose -w:--wait"
                   " -y:--younger-than -o:--older-than -n:--ns -Z:--context " + _signals(),
        "values": "--signal --user --younger-than --older-than --ns --context"},
    # Files and archives
    "dd": lambda: {"combine": False},  # its operands are if=, of=, bs=: arguments
    "shred": lambda: {"aliases": "-f:--force -n:--iterations -s:--size -u:--remove"
                                 " -v:--verbose -x:--exact -z:--zero",
              "values": "--iterations --size --random-source"},
    "truncate": lambda: {"aliases": "-c:--no-create -o:--io-blocks -r:--reference -s:--size",
                 "values": "--reference --size"},
    "zip": lambda: {"aliases": "-r:--recurse-paths -q:--quiet -v:--verbose -j:--junk-paths"
                               " -m:--move -d:--delete -u:--update -f:--freshen -e:--encrypt"
                               " -P:--password -x:--exclude -i:--include -y:--symlinks"
                               " -T:--test -D:--no-dir-entries -X:--no-extra"
                               " -t:--from-date -tt:--before-date -b:--temp-path"
                               " -n:--suffixes -O:--output-file",
            "values": "--password --exclude --include -b --temp-path -n --suffixes -t"
                      " --from-date -tt --before-date -O --output-file"},
    # (unzip has no long options; layer 1 reads its -l, -v, -t as written)
    "unzip": lambda: {"values": "-d -x -P"},
    "gzip": lambda: {"aliases": _GZIP + " -d|--uncompress:--decompress -1:--fast -9:--best",
             "values": "--suffix"},
    "gunzip": lambda: {"aliases": _GZIP, "values": "--suffix"},
    # Firewalls, accounts, mounts, file systems
    "iptables": lambda: {
        "optional": "--wait",
        "aliases": "-A:--append -C:--check -D:--delete -I:--insert -R:--replace -L:--list"
                   " -S:--list-rules -F:--flush -Z:--zero -N:--new-chain -X:--delete-chain"
                   " -P:--policy -E:--rename-chain -t:--table -p:--protocol -s:--source"
                   " -d:--destination -j:--jump -g:--goto -i:--in-interface"
                   " -o:--out-interface -m:--match -n:--numeric -v:--verbose -x:--exact"
                   " -w:--wait -f:--fragment -c:--set-counters",
        "values": "--append --check --delete --insert --replace --new-chain --policy"
                  " --rename-chain --table --protocol --source --destination --jump --goto"
                  " --in-interface --out-interface --match --set-counters --dport --sport"
                  " --dports --sports --destination-port --source-port --to-destination"
                  " --to-source --to-ports --ctstate --state --comment --log-prefix"
                  " --log-level --limit --limit-burst --uid-owner --reject-with --icmp-type"
                  " --src-range --dst-range --mac-source --set-mark --to"},
    "ufw": lambda: {"subs": True,
            "groups": {"delete": "allow deny reject limit", "route": "*",
                       "default": "allow deny reject", "app": "list info update default",
                       "status": "verbose numbered", "show": "*"}},
    "useradd": lambda: {
        "aliases": "-m:--create-home -M:--no-create-home -s:--shell -d:--home-dir -g:--gid"
                   " -G:--groups -u:--uid -c:--comment -e:--expiredate -f:--inactive"
                   " -k:--skel -r:--system -U:--user-group -N:--no-user-group"
                   " -o:--non-unique -p:--password -D:--defaults -b:--base-dir -K:--key"
                   " -R:--root -P:--prefix -l:--no-log-init -Z:--selinux-user",
        "values": "--shell --home-dir --gid --groups --uid --comment --expiredate --inactive"
                  " --skel --password --base-dir --key --root --prefix --selinux-user"},
    "userdel": lambda: {"aliases": "-f:--force -r:--remove -R:--root -P:--prefix"
                                   " -Z:--selinux-user",
                "values": "--root --prefix"},
    "usermod": lambda: {
        "aliases": "-a:--append -G:--groups -g:--gid -s:--shell -d:--home -m:--move-home"
                   " -l:--login -L:--lock -U:--unlock -u:--uid -c:--comment -e:--expiredate"
                   " -f:--inactive -o:--non-unique -p:--password -R:--root -P:--prefix"
                   " -r:--remove -v:--add-subuids -V:--del-subuids -w:--add-subgids"
                   " -W:--del-subgids -Z:--selinux-user",
        "values": "--groups --gid --shell --home --login --uid --comment --expiredate"
                  " --inactive --password --root --prefix --add-subuids --del-subuids"
                  " --add-subgids --del-subgids --selinux-user"},
    "passwd": lambda: {"aliases": "-a:--all -d:--delete -e:--expire -i:--inactive"
                                  " -k:--keep-tokens -l:--lock -n:--mindays -q:--quiet"
                                  " -r:--repository -R:--root -S:--status -u:--unlock"
                                  " -w:--warndays -x:--maxdays",
               "values": "--inactive --mindays --repository --root --warndays --maxdays"},
    "mount": lambda: {"aliases": "-a:--all -t:--types -o:--options -r:--read-only"
                                 " -w|--read-write:--rw -v:--verbose -f:--fake -n:--no-mtab"
                                 " -l:--show-labels -B:--bind -R:--rbind -M:--move"
                                 " -L:--label -U:--uuid -O:--test-opts -F:--fork"
                                 " -c:--no-canonicalize -T:--fstab -s:--sloppy"
                                 " -i:--internal-only -N:--namespace",
              "values": "--types --options --label --uuid --test-opts --fstab --namespace"
                        " --source --target --target-prefix"},
    "umount": lambda: {"aliases": "-a:--all -f:--force -l:--lazy -r:--read-only"
                                  " -R:--recursive -t:--types -O:--test-opts -v:--verbose"
                                  " -n:--no-mtab -d:--detach-loop -c:--no-canonicalize"
                                  " -A:--all-targets -q:--quiet -N:--namespace",
               "values": "--types --test-opts --namespace"},
    "zfs": lambda: {"subs": True, "per_sub": _ZFS_SUB},
    "lvremove": lambda: {"aliases": "-f:--force -y:--yes -A:--autobackup -S:--select"
                                    " -t:--test -v:--verbose -q:--quiet -d:--debug",
                 "values": "--autobackup --select --config --reportformat --commandprofile"
                           " --profile"},
    "mkfs": lambda: {"aliases": "-t:--type -V:--verbose", "values": "--type"},
    "mke2fs": lambda: _MKE2FS,
    "mkfs.ext2": lambda: _MKE2FS,
    "mkfs.ext3": lambda: _MKE2FS,
    "mkfs.ext4": lambda: _MKE2FS,
    "mkfs.xfs": lambda: {"values": "-b -d -i -l -L -m -n -p -r -s"},
    "mkfs.btrfs": lambda: {"aliases": "-f:--force -L:--label -d:--data -m:--metadata"
                                      " -n:--nodesize -s:--sectorsize -O:--features"
                                      " -r:--rootdir -q:--quiet -U:--uuid -K:--nodiscard"
                                      " -R:--runtime-features -M:--mixed -b:--byte-count",
                   "values": "--label --data --metadata --nodesize --sectorsize --features"
                             " --rootdir --uuid --runtime-features --byte-count"},
    "mkfs.vfat": lambda: {"values": "-F -n -S -s -i -f -r -R -b -h -m"},
    "mkfs.fat": lambda: {"values": "-F -n -S -s -i -f -r -R -b -h -m"},
    "iptables-save": lambda: {"aliases": "-f:--file -c:--counters -t:--table",
                      "values": "--file --table -M --modprobe"},
    "openssl": lambda: {
        "subs": True, "anywhere": True, "combine": False,
        "values": "-in -out -key -keyout -days -subj -config -passin -passout -inform"
                  " -outform -keyform -CA -CAkey -CAfile -CApath -CAform -CAkeyform"
                  " -extfile -extensions -reqexts -name -certfile -connect -servername"
                  " -newkey -pkeyopt -algorithm -set_serial -sigopt -cipher -ciphers -md"
                  " -addext -k -kfile -iter -nameopt -certopt -checkhost -checkemail"
                  " -checkip -rand -writerand -engine -inkey -signkey -pass -section"
                  " -propquery -provider -provider-path"
                  " -host -port -proxy -starttls -cert -CRL -crl -untrusted -trusted"
                  " -verify_hostname -verify_email -verify_ip -attime -keylen -iv -K -S"
                  " -saltlen -macalg -certpbe -keypbe -caname -macopt -kdf"
                  " -kdfopt -digest -pkeyopt_passin -sess_out -sess_in -alpn -msgfile"
                  " -keylogfile -groups -curves -sigalgs -psk -psk_identity -servername"
                  " -ssl_config -dhparam -dcert -dkey -accept -num -bits"
                  " -CAserial -policy"
                  " -extfile -ext -ocsp -url -respin -respout -reqin -reqout -index"
                  " -rsigner -rkey -rother -nmin -ndays -validity_period -status_age",
        "per_sub": {
            "dgst": ("", "-sign -verify -prverify -signature -out -keyform -passin -hmac -mac"
                         " -macopt -sigopt -engine"),
            "smime": ("", "-recip -signer -inkey -certfile -content -to -from -subject"),
            "cms": ("", "-recip -signer -inkey -certfile -content -to -from -subject"
                        " -secretkey -secretkeyid -pwri_password -originator"),
        }},
    # Signing
    "gpg": lambda: {
        "aliases": "-a:--armor -b:--detach-sign -c:--symmetric -d:--decrypt -e:--encrypt"
                   " -k:--list-keys -K:--list-secret-keys -o:--output -r:--recipient"
                   " -R:--hidden-recipient -f:--recipient-file -F:--hidden-recipient-file"
                   " -s:--sign -u:--local-user -v:--verbose -q:--quiet -n:--dry-run"
                   " --gen-key:--generate-key --full-gen-key:--full-generate-key"
                   " --clearsign:--clear-sign --delete-key:--delete-keys"
                   " --delete-secret-key:--delete-secret-keys",
        "values": "--output --recipient --hidden-recipient --recipient-file"
                  " --hidden-recipient-file --local-user --keyserver --homedir --passphrase"
                  " --passphrase-file --passphrase-fd --pinentry-mode --default-key"
                  " --trust-model --keyring --secret-keyring --encrypt-to --cipher-algo"
                  " --digest-algo --compress-algo --status-fd --command-fd --logger-fd"
                  " --keyserver-options --export-options --import-options"
                  " --default-recipient --sig-notation --set-filename -z"},
}
# fmt: on
SYSTEM["gpg2"] = SYSTEM["gpg"]
SYSTEM["ip6tables"] = SYSTEM["iptables"]
SYSTEM["netcat"] = SYSTEM["nc"]
SYSTEM["ncat"] = SYSTEM["nc"]
