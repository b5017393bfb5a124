"""Known mistakes of a server operator's command line that the older modules lack: the
ssh daemon stopped or the network interface taken down over ssh (the session cut off),
the journal vacuumed to nothing, ``userdel -r``, accounts left without a password,
setuid bits, a ``umask 000``, the system python replaced, storage pools and volumes
destroyed (zfs, LVM), private keys made readable, ``tar -cf *.log`` (the first file
becomes the archive) and ``PATH`` overwritten instead of extended.

Blind lessons named their pattern 19/24 before the phrases were widened; blind
variants: hits caught 33/36, safe left alone 23/24 before the detectors were widened
(all 24, 36 and 24 after).
"""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern
from xdb.engine.known.shell_ops import B

END = r"(?=\s|$|[;&|)'\"])"

PATTERNS: list[Pattern] = [
    pattern(
        "sys-stop-sshd",
        "stopped sshd | stopped sshd over ssh | disabled sshd | ssh service stopped"
        " | systemctl stop ssh | masked sshd | disable the ssh service"
        " | stopped the ssh daemon",
        "shell",
        B + r"(?:systemctl\s+(?:--\S+\s+)*(?:stop|disable|mask|kill)\s+(?:--?\S+\s+){0,3}"
        r"(?:[\w@.-]+\s+){0,4}?['\"]?(?:sshd?|openssh-server|ssh\.socket)(?:\.service)?['\"]?"
        + END
        + r"|service\s+sshd?\s+stop\b|/etc/init\.d/sshd?\s+stop\b"
        r"|(?:pkill|killall)\s+(?:-\S+\s+)*sshd" + END + r")",
        hits=(
            "sudo systemctl stop sshd",
            "systemctl disable --now ssh",
            "sudo systemctl mask ssh.service",
            "ssh admin@web1 'sudo service ssh stop'",
        ),
        safe=(
            "sudo systemctl reload sshd",
            "systemctl status ssh",
            "sudo systemctl stop nginx",
            "sudo systemctl enable --now ssh",
        ),
    ),
    pattern(
        "sys-network-down-remote",
        "took the network interface down | ip link set down | ifdown over ssh"
        " | brought down the network interface | network interface down remotely"
        " | disabled networking over ssh"
        " | ifdown remotely | bounce the nic remotely"
        " | ifdown | cut off my own connection",
        "shell",
        B + r"(?:ip\s+link\s+set\s+(?:dev\s+)?['\"]?(?:eth|ens|enp|eno|wlan|wlp|bond|br)\w*['\"]?"
        r"\s+down\b|ifdown\s+(?:-\S+\s+)*[\w-]|ifconfig\s+(?:eth|ens|enp|eno|bond|br)\w*\s+down\b"
        r"|nmcli\s+(?:-\S+\s+)*(?:con(?:nection)?\s+down|dev(?:ice)?\s+disconnect"
        r"|networking\s+off)\b|systemctl\s+(?:stop|disable)\s+(?:--now\s+)?"
        r"(?:NetworkManager|networking|systemd-networkd)\b)",
        r"\bifup\b|\bset\s+(?:dev\s+)?\S+\s+up\b|\bcon(?:nection)?\s+up\b",
        hits=(
            "sudo ip link set eth0 down",
            "ifdown ens5",
            "nmcli con down 'Wired connection 1'",
            "ssh root@db1 'ip link set dev enp3s0 down'",
        ),
        safe=(
            "sudo ip link set eth0 down && sudo ip link set eth0 up",
            "nohup sh -c 'ifdown eth0; ifup eth0' &",
            "ip link show eth0",
            "ip addr show",
        ),
    ),
    pattern(
        "sys-journal-vacuum",
        "journalctl vacuum | vacuumed the journal | deleted the journal logs"
        " | journal logs deleted | lost the system logs | vacuum-time"
        " | trimmed the systemd journal | purged the journal logs",
        "shell",
        B + r"journalctl\s+(?:-\S+\s+)*?--vacuum-(?:time[=\s]+['\"]?"
        r"(?:\d+\s*(?:s|sec|m|min|h|hours?)|[1-6]\s*(?:d|days?))\b"
        r"|size[=\s]+['\"]?\d+\s*[KkMm]\b|files[=\s]+['\"]?[01]\b)"
        r"|(?<![\w./-])rm\s+(?:-\S+\s+)*['\"]?/var/log/journal\b",
        hits=(
            "sudo journalctl --vacuum-time=1s",
            "journalctl --rotate --vacuum-time=1h",
            "sudo journalctl --vacuum-size=50M",
            "journalctl --vacuum-files=1",
        ),
        safe=(
            "journalctl --vacuum-time=30d",
            "journalctl --disk-usage",
            "journalctl -u api --since today",
            "sudo journalctl --vacuum-size=2G",
        ),
    ),
    pattern(
        "sys-userdel-remove-home",
        "userdel -r | removed the home directory with the user | deluser --remove-home"
        " | user deletion removed home | userdel removed the home directory",
        "shell",
        B + r"(?:userdel\s+(?:-\S+\s+)*(?:-[a-zA-Z]*r[a-zA-Z]*|--remove)(?=\s)"
        r"|deluser\s+(?:-\S+\s+)*--remove-(?:home|all-files)\b)",
        hits=(
            "sudo userdel -r alice",
            "userdel --remove deploy",
            "sudo deluser --remove-home jenkins",
            "userdel -rf olduser",
        ),
        safe=(
            "sudo userdel alice",
            "sudo usermod -L alice",
            "deluser alice",
            "id alice",
        ),
    ),
    pattern(
        "sys-empty-password",
        "empty password account | passwd -d | deleted the user's password"
        " | account password deleted | user password removed | blank password account"
        " | account without password | cleared the password",
        "shell",
        B + r"(?:passwd\s+(?:-\S+\s+)*(?:-d|--delete)(?=\s)"
        r"|usermod\s+(?:-\S+\s+)*?(?:-p\s+|--password[=\s]+)(?:''|\"\")"
        r"|echo\s+['\"]?[\w.-]+:['\"]?\s*\|\s*(?:sudo\s+)?chpasswd\b)",
        hits=(
            "sudo passwd -d deploy",
            "passwd --delete root",
            "usermod -p '' pi",
            "echo 'root:' | sudo chpasswd",
        ),
        safe=(
            "sudo passwd -l deploy",
            "sudo passwd deploy",
            "usermod -L pi",
            'echo "deploy:$NEW_PW" | sudo chpasswd',
        ),
    ),
    pattern(
        "sys-setuid-bit",
        "setuid bit | suid bit | chmod u+s | chmod 4755 | setuid root binary"
        " | setuid binary exploited",
        "shell",
        r"\bchmod\s+(?:-\S+\s+)*(?:(?:[ugo]*[ua][ugoa]*)?\+[rwxX]*s[rwxX]*|0?[4-7][0-7]{3})(?=\s)"
        r"|\binstall\s+(?:[^\n;&|]{0,80}?\s)?(?:-m\s*|--mode[=\s]+)0?[4-7][0-7]{3}(?=\s)",
        hits=(
            "sudo chmod u+s /usr/local/bin/backup",
            "chmod 4755 ./bin/helper",
            "sudo chmod +s $(which python3)",
            "install -m 4755 build/runner /usr/local/bin/runner",
        ),
        safe=(
            "chmod 755 bin/run",
            "chmod g+s /srv/shared",
            "chmod 0755 /usr/local/bin/backup",
            "chmod u+x deploy.sh",
        ),
    ),
    pattern(
        "sys-umask-permissive",
        "umask 000 | umask 0 | permissive umask | umask too permissive | umask too open",
        "shell",
        r"(?:^|[\s;&|(`'\"])umask\s+(?=[01])0{0,3}[01]?"
        + END
        # symbolic: others (or all) may write, ``umask u=rwx,g=rwx,o=rwx``
        + r"|(?:^|[\s;&|(`'\"])umask\s+(?:-S\s+)?[^\s;&|]*\b[ug]*[oa][ugo]*=[rx]*w",
        hits=(
            "umask 000",
            "umask 0 && npm run build",
            "sudo sh -c 'umask 0000; ./install.sh'",
            "echo 'umask 000' >> ~/.bashrc",
        ),
        safe=("umask 022", "umask 077", "umask", "umask 0027"),
    ),
    pattern(
        "sys-replace-system-python",
        "replaced system python | system python replaced | update-alternatives python3"
        " | broke apt by changing python | /usr/bin/python3 symlink | changed the default python3"
        " | pointing /usr/bin/python3 | os tools system interpreter"
        " | replaced python3 system scripts",
        "shell",
        r"\bln\s+(?:-[a-zA-Z]+\s+)*\S+\s+['\"]?/usr/bin/python3?['\"]?" + END + r"|\bupdate-"
        r"alternatives\s+(?:--\S+\s+)*?--(?:install\s+/usr/bin/python3?\s|set\s+python3?\s+/"
        r"|config\s+python3?" + END + r")"
        r"|(?<![\w./-])rm\s+(?:-\S+\s+)*/usr/bin/python3?" + END + r"|\bapt(?:-get)?\s+(?:-\S+\s+)*"
        r"(?:remove|purge)\s+(?:-\S+\s+)*python3(?:-minimal)?" + END,
        hits=(
            "sudo update-alternatives --install /usr/bin/python3 python3 /usr/bin/python3.12 1",
            "sudo ln -s /usr/local/bin/python3.11 /usr/bin/python3",
            "sudo rm /usr/bin/python3",
            "sudo apt-get remove -y python3",
        ),
        safe=(
            "python3.12 -m venv .venv",
            "sudo apt-get install -y python3.12-venv",
            "uv python install 3.12",
            "update-alternatives --display python3",
        ),
    ),
    pattern(
        "sys-storage-destroy",
        "zfs destroy | lvremove | zpool destroy | vgremove | destroyed the zfs dataset"
        " | removed the logical volume | deleted the storage pool",
        "shell",
        B + r"(?:zfs\s+destroy\b|zpool\s+(?:destroy|labelclear)\b|lvremove\b|vgremove\b"
        r"|pvremove\b|mdadm\s+(?:-\S+\s+)*--zero-superblock\b|btrfs\s+subvolume\s+delete\b)",
        r"\bzfs\s+destroy\s+(?:-\S+\s+)*-[a-zA-Z]*n",
        hits=(
            "sudo zfs destroy -r tank/data",
            "zpool destroy backup",
            "lvremove -f /dev/vg0/data",
            "sudo vgremove vg_db",
        ),
        safe=(
            "zfs destroy -nv tank/data@old",
            "zfs list -t snapshot",
            "lvs",
            "sudo lvextend -L +10G /dev/vg0/data",
        ),
    ),
    pattern(
        "fs-chmod-private-key-readable",
        "private key readable | chmod 644 private key | unprotected private key file"
        " | ssh private key world-readable | private key readable by others"
        " | tls key world-readable | private key world-readable | permissions are too open"
        " | private key others can read",
        "shell",
        r"\bchmod\s+(?:-\S+\s+)*(?:0?[0-7][1-7][0-7]|0?[0-7][0-7][1-7]|(?:[ugo]*[goa][ugoa]*)?"
        r"\+[rwx]*r[rwx]*)\s+(?:\S+\s+){0,5}?['\"]?[^\s'\";&|]*(?:id_(?:rsa|dsa|ecdsa|ed25519)"
        r"(?!\.pub)|(?<!chain)(?<!cert)(?<!\bca)\.pem|\.key|\.p12|\.pfx|/\.ssh/?)['\"]?" + END,
        hits=(
            "chmod 644 ~/.ssh/id_rsa",
            "chmod 755 ~/.ssh",
            "sudo chmod 0644 /etc/ssl/private/api.key",
            "chmod go+r deploy/certs/server.pem",
        ),
        safe=(
            "chmod 600 ~/.ssh/id_ed25519",
            "chmod 700 ~/.ssh",
            "chmod 644 ~/.ssh/id_rsa.pub",
            "chmod 400 deploy/certs/server.pem",
        ),
    ),
    pattern(
        "fs-tar-create-glob-archive",
        "tar overwrote the first file | forgot the archive name tar | tar -cf glob"
        " | archive name missing tar | tar create without archive name"
        " | first file became the archive"
        " | tar clobbered the first",
        "shell",
        # c (create) in any of the flags, f the last before the glob: ``tar -c -z -f *.log``
        r"\btar\s+(?=(?:-\S+\s+)*?(?:-?[a-zA-Z]*c[a-zA-Z]*|--create)\s)(?:-\S+\s+)*"
        r"-?[a-zA-Z]*f\s+['\"]?[^\s;&|'\"]*\*",
        hits=(
            "tar -czvf *.log",
            "tar cf *.csv",
            "cd /var/log/app && tar -cvf *.log",
            "tar -czf src/*.py",
        ),
        safe=(
            "tar -czf logs.tgz *.log",
            "tar -cvf backup.tar *.txt",
            "tar -xzf site.tgz",
            "tar cf - *.csv | gzip > csv.tgz",
        ),
    ),
    pattern(
        "sh-path-overwritten",
        "export path overwritten | path variable overwritten | overwrote the path variable"
        " | path environment variable replaced | append to path not replace"
        " | setx path truncated | path without appending | replaced the search path"
        " | env path original search path"
        " | path single directory",
        "shell",
        r"(?:^|[\s;&|(`'\"])(?:(?:export|ENV)\s+PATH(?:=|[ \t]+(?=['\"]?/))"
        r"|setx\s+(?:/M\s+)?PATH\s)(?![^\n]*(?:\$\{?PATH\b|%PATH%))"
        # ``PATH=/one/dir cmd``: a single directory (no ``:``) put before a command.
        r"|(?:^|[\s;&|(`'\"])PATH=['\"]?[/~][^\s:$;&|'\"]*['\"]?(?=\s|$|;)"
        # fish's ``set -gx PATH dir`` and PowerShell's ``$env:Path = "dir"``, without the old one
        r"|(?:^|[\s;&|(])set\s+(?:-[a-zA-Z]+\s+)+PATH\s+(?![^\n]*\$PATH\b)"
        r"|(?i:\$env:path\s*=(?![^\n]*\$env:path\b))",
        hits=(
            "export PATH=/opt/tools/bin",
            "ENV PATH=/opt/venv/bin",
            "echo 'export PATH=\"$HOME/.local/bin\"' >> ~/.bashrc",
            'setx PATH "C:\\tools\\bin"',
        ),
        safe=(
            'export PATH="$HOME/.local/bin:$PATH"',
            "ENV PATH=/opt/venv/bin:$PATH",
            'ENV PATH="${PATH}:/usr/local/go/bin"',
            "echo $PATH",
        ),
    ),
]
