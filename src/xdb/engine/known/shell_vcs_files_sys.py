"""Known mistakes of a shell command line: the system (a restart without the config test
or instead of a reload, crontab -r and crontab overwritten, kill -9 and pkill -f, firewall
flushes and ufw enabled without ssh, sudoers edited without visudo, sudo pip, reboots,
security turned off, unit files without daemon-reload) and the network (curl | sh,
downloads run unverified, TLS or host key checks turned off, passwords on the command
line, curl without --fail).
"""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

S = r"[^\n;&|]"
END = r"(?=\s|$|[;&|)'\"])"
# Where a command starts: the line's start, after an operator, sudo, ssh host, then/do.
CMD = (
    r"(?:^|[;&|(`]\s*|\bsudo\s+(?:-\S+\s+)*|\bssh\s+(?:-\S+\s+)*[^\s;&|]+\s+['\"]?"
    r"|\b(?:then|do|else)\s+)"
)
# Services whose config has a test command.
TESTED = r"(?:nginx|apache2|httpd|sshd?|haproxy|caddy|postfix|named|bind9|varnish)"

PATTERNS: list[Pattern] = [
    pattern(
        "sys-restart-without-config-test",
        "nginx -t before reload | apachectl configtest | sshd -t before restart"
        " | config test before restart | test config before reload | validate config before"
        " restart"
        " | restarted without testing config | reloaded without testing config",
        "shell",
        r"\bsystemctl\s+(?:-\S+\s+)*(?:restart|reload|reload-or-restart|try-restart"
        r"|try-reload-or-restart)\s+(?:[^\s;&|]+\s+)*?"
        + TESTED
        + r"(?:\.service)?"
        + END
        + r"|\bservice\s+"
        + TESTED
        + r"\s+(?:restart|reload|force-reload)\b"
        r"|\bnginx\s+-s\s+reload\b|\bapache2?ctl\s+(?:-k\s+)?(?:restart|graceful)\b"
        r"|/etc/init\.d/" + TESTED + r"\s+(?:restart|reload)\b",
        r"\bnginx\s+(?:-\S+\s+)*-[a-zA-Z]*[tT][a-zA-Z]*\b|\bapache2?ctl\s+(?:configtest|-t)\b"
        r"|\bhttpd\s+-t\b|\bsshd\s+(?:-\S+\s+)*-[tT]\b|\bhaproxy\s+(?:-\S+\s+)*-c\b"
        r"|\bcaddy\s+validate\b|\bpostfix\s+check\b|\bnamed-checkconf\b|\bvarnishd\s+-C\b",
        hits=(
            "sudo systemctl reload nginx",
            "sudo cp site.conf /etc/nginx/conf.d/ && sudo systemctl restart nginx.service",
            "sudo service apache2 restart",
            "sudo systemctl restart sshd",
            "nginx -s reload",
        ),
        safe=(
            "sudo nginx -t && sudo systemctl reload nginx",
            "sudo apachectl configtest && sudo systemctl reload apache2",
            "sudo sshd -t && sudo systemctl restart sshd",
            "systemctl status nginx",
        ),
    ),
    pattern(
        "sys-restart-instead-of-reload",
        "restart instead of reload | reload instead of restart | restart dropped connections"
        " | graceful reload | restarting dropped active connections"
        " | restart drops connections | reload gracefully",
        "shell",
        r"\bsystemctl\s+(?:-\S+\s+)*(?:try-)?restart\s+(?:[^\s;&|]+\s+)*?"
        r"(?:nginx|apache2|httpd|haproxy"
        r"|php[\d.]*-fpm|caddy|varnish|postgresql)(?:@[\w-]+)?(?:\.service)?"
        + END
        + r"|(?:\bservice\s+|/etc/init\.d/|\brc-service\s+)(?:nginx|apache2|httpd|haproxy"
        r"|php[\d.]*-fpm)\s+restart\b"
        r"|\bapache2?ctl\s+(?:-k\s+)?restart\b",
        hits=(
            "sudo systemctl restart nginx",
            "sudo nginx -t && sudo systemctl restart nginx.service",
            "sudo service php8.2-fpm restart",
            "sudo systemctl restart haproxy",
        ),
        safe=(
            "sudo systemctl reload nginx",
            "sudo apachectl -k graceful",
            "sudo systemctl restart api",
            "systemctl status nginx",
        ),
    ),
    pattern(
        "sys-crontab-remove",
        "crontab -r | deleted crontab | removed all cron jobs | wiped crontab"
        " | lost every cron job"
        " | removed crontab | removed whole crontab | crontab -ri",
        "shell",
        r"\bcrontab\s+(?:-u\s+\S+\s+|-(?!u\s)\S+\s+)*-[a-zA-Z]*r[a-zA-Z]*\b",
        hits=("crontab -r", "sudo crontab -u deploy -r", "crontab -ri"),
        safe=("crontab -l", "crontab -e", "crontab -l > cron.backup"),
    ),
    pattern(
        "sys-crontab-overwrite",
        "crontab overwritten | replaced existing crontab | overwrote crontab"
        " | lost existing cron jobs | crontab -l append",
        "shell",
        r"\|\s*(?:sudo\s+)?crontab\s+(?:-u\s+\S+\s+)?-(?=\s|$|[;&|)'\"])"
        r"|\bcrontab\s+(?:-u\s+\S+\s+)?(?!-)[^\s;&|<>'\"]+(?=\s*(?:$|[;&|)]|['\"]+(?:\s|$|[;&|)])))"
        r"|\bcrontab\s+(?:-u\s+\S+\s+)?-?\s*<",
        r"\bcrontab\s+(?:-u\s+\S+\s+)?-l\b",
        hits=(
            "echo '0 3 * * * /opt/backup.sh' | crontab -",
            "crontab deploy/cron.txt",
            "sudo crontab -u app jobs.cron",
            "crontab < mycron",
        ),
        safe=(
            "(crontab -l; echo '0 3 * * * /opt/backup.sh') | crontab -",
            "crontab -l",
            "crontab -e",
        ),
    ),
    pattern(
        "sys-kill-9-first",
        "kill -9 | sigkill | sigterm first | graceful shutdown skipped | killed with -9",
        "shell",
        r"\b(?:kill|pkill|killall)\s+(?:-\S+\s+)*?(?:-9|-KILL|-SIGKILL|-s\s+(?:KILL|SIGKILL|9)"
        r"|--signal[=\s](?:KILL|SIGKILL|9))(?=\s)"
        # ``docker kill`` sends SIGKILL unless given another signal.
        r"|\b(?:docker|podman)\s+(?:container\s+)?kill\b(?!" + S + r"*\s(?:-s|--signal))",
        r"(?<!docker\s)(?<!podman\s)(?<!container\s)\b(?:kill|pkill|killall)\s+"
        r"(?:-(?:TERM|SIGTERM|15|INT|SIGINT|2|s\s+TERM)\s+)?(?:-f\s+)?[^-\s;&|]"
        r"|\b(?:docker|podman)\s+(?:container\s+)?stop\b",
        hits=(
            "kill -9 4312",
            "sudo pkill -9 -f gunicorn",
            "kill -SIGKILL $(cat /run/api.pid)",
            "killall -s KILL node",
        ),
        safe=(
            "kill 4312",
            "kill -TERM $(cat /run/api.pid)",
            "kill $PID; sleep 10; kill -9 $PID",
            "kill -HUP 4312",
        ),
    ),
    pattern(
        "sys-kill-by-name",
        "pkill -f | killall | killed unrelated processes | killed every process"
        " | kill by pid instead | killed the editor",
        "shell",
        # pkill matches its pattern against every process's name (-f: its command line).
        r"\bpkill\s+(?:-\S+\s+)*['\"]?[^-\s;&|'\"]|\bkillall\s"
        r"|\bkill\s+(?:-\S+\s+)*-1(?=\s|$|[;&|)])"
        r"|\bkill\s+(?:-\S+\s+)*(?:\$\(|`)\s*(?:pgrep|ps)\b"
        # ps | grep | awk | xargs kill, pgrep | xargs kill
        r"|\b(?:pgrep|ps)\b[^\n;&]*\|\s*(?:sudo\s+)?xargs\s+(?:-\S+\s+)*(?:sudo\s+)?kill\b",
        hits=(
            "pkill -f node",
            "killall python3",
            "kill -9 -1",
            "kill $(ps aux | grep java | awk '{print $2}')",
            "sudo pkill -9 -f 'python manage.py'",
        ),
        safe=("kill 4312", "kill -TERM $(cat /run/api.pid)", "pgrep -f gunicorn", "ps aux"),
    ),
    pattern(
        "sys-firewall-flush",
        "iptables -F | flushed firewall rules | flush iptables | firewall flushed"
        " | policy drop locked out | nft flush ruleset",
        "shell",
        r"\b(?:ip6?tables|iptables-legacy|iptables-nft)\s+(?:-t\s+\w+\s+)?(?:-F|--flush|-X"
        r"|--delete-chain)\b|\bip6?tables\s+(?:-\S+\s+)*(?:-P|--policy)\s+INPUT\s+DROP\b"
        r"|\bnft\s+flush\s+ruleset\b|\bufw\s+(?:--force\s+)?reset\b",
        hits=(
            "sudo iptables -F",
            "iptables -t nat --flush",
            "sudo iptables -P INPUT DROP",
            "sudo nft flush ruleset",
            "sudo ufw --force reset",
        ),
        safe=(
            "sudo iptables -L -n",
            "sudo iptables -A INPUT -p tcp --dport 22 -j ACCEPT",
            "sudo ufw status verbose",
        ),
    ),
    pattern(
        "sys-ufw-enable-without-ssh",
        "ufw enable locked out | locked out of ssh | allow ssh before enabling"
        " | firewall locked us out | ufw allow ssh"
        " | locked out ufw",
        "shell",
        r"\bufw\s+(?:--force\s+)?enable\b|\bufw\s+default\s+deny\s+incoming\b",
        r"\bufw\s+(?:allow|limit)\s+(?:in\s+)?(?:ssh|22|OpenSSH|\"OpenSSH\"|'OpenSSH')\b"
        r"|\bufw\s+allow\s+" + S + r"*\bport\s+22\b",
        hits=(
            "sudo ufw enable",
            "sudo ufw default deny incoming && sudo ufw --force enable",
            "ufw allow 443/tcp && ufw enable",
        ),
        safe=(
            "sudo ufw allow OpenSSH && sudo ufw enable",
            "sudo ufw limit 22 && sudo ufw --force enable",
            "sudo ufw status",
        ),
    ),
    pattern(
        "sys-sudoers-without-visudo",
        "without visudo | visudo -c | sudoers syntax error | broke sudoers"
        " | edited sudoers directly | sudoers file corrupted"
        " | edited sudoers | sudoers file | visudo -cf | validate with visudo",
        "shell",
        r"(?:(?<![>&])>>?\s*|\btee\s+(?:-\S+\s+)*|\bsed\s+"
        + S
        + r"*?-[a-zA-Z]*i\S*\s+"
        + S
        + r"*?|\b(?:vi|vim|nano|emacs)\s+|\b(?:cp|mv|install)\s+"
        + S
        + r"*?)['\"]?/etc/sudoers(?:\.d/[\w.-]*)?\b",
        r"\bvisudo\b",
        hits=(
            "echo 'deploy ALL=(ALL) NOPASSWD: ALL' | sudo tee -a /etc/sudoers",
            "sudo sh -c \"echo 'ci ALL=(ALL) NOPASSWD:ALL' >> /etc/sudoers\"",
            "sudo sed -i 's/^%sudo.*/%sudo ALL=(ALL) NOPASSWD:ALL/' /etc/sudoers",
            "sudo cp deploy.sudoers /etc/sudoers.d/deploy",
        ),
        safe=(
            "sudo visudo -cf deploy.sudoers && sudo cp deploy.sudoers /etc/sudoers.d/deploy",
            "sudo visudo",
            "sudo -l",
        ),
    ),
    pattern(
        "sys-sudo-package-install",
        "sudo pip | sudo npm | pip as root | npm as root | root-owned node_modules"
        " | sudo gem install | eacces npm sudo",
        "shell",
        r"\bsudo\s+(?:-\S+\s+)*(?:(?:\S*/)?pip[\d.]*|python[\d.]*\s+-m\s+pip)\s+install\b"
        r"|\bsudo\s+(?:-\S+\s+)*(?:npm|pnpm)\s+(?:install|i|add)\b"
        r"|\bsudo\s+(?:-\S+\s+)*(?:gem\s+install|yarn\s+global\s+add|cargo\s+install)\b",
        hits=(
            "sudo pip install requests",
            "sudo -H pip3 install -r requirements.txt",
            "sudo npm install -g typescript",
            "sudo python3 -m pip install --upgrade awscli",
            "sudo gem install bundler",
        ),
        safe=(
            "pip install -r requirements.txt",
            ".venv/bin/pip install requests",
            "sudo apt-get install -y python3-venv",
            "npm install --save-dev vitest",
        ),
    ),
    pattern(
        "sys-shutdown-reboot",
        "rebooted without asking | reboot without permission | shutdown -r | rebooted production"
        " | shut down the host | powered off the machine",
        "shell",
        CMD + r"(?:shutdown|reboot|poweroff|halt)(?=\s|$|[;&|)'\"])|\binit\s+[06](?=\s|$)"
        r"|\bsystemctl\s+(?:-\S+\s+)*(?:reboot|poweroff|halt|kexec)\b",
        hits=(
            "sudo reboot",
            "sudo shutdown -r now",
            "ssh deploy@web1 'sudo reboot'",
            "apt-get upgrade -y && systemctl reboot",
            "sudo init 6",
        ),
        safe=(
            "grep -rn shutdown src",
            "dotnet build-server shutdown",
            "ssh deploy@web1 uptime",
            "last reboot",
        ),
    ),
    pattern(
        "sys-disable-security",
        "disabled selinux | setenforce 0 | disabled the firewall | turned off apparmor"
        " | selinux permissive | disabled security to make it work"
        " | disabled firewalld | firewalld off | turned off selinux",
        "shell",
        r"\bsetenforce\s+(?:0|[Pp]ermissive)\b|\bSELINUX=(?:disabled|permissive)\b|\bufw\s+disable\b"
        r"|\bsystemctl\s+(?:-\S+\s+)*(?:stop|disable|mask)\s+(?:--now\s+)?(?:firewalld|ufw"
        r"|apparmor|auditd|fail2ban|nftables|iptables)\b|\baa-(?:disable|complain|teardown)\b"
        r"|\bSet-MpPreference\s+-Disable\w+\s+(?:\$true|1)\b"
        r"|\bnetsh\s+advfirewall\s+set\s+\w+\s+state\s+off\b"
        r"|\bspctl\s+--master-disable\b|\bcsrutil\s+disable\b",
        hits=(
            "sudo setenforce 0",
            "sudo sed -i 's/^SELINUX=enforcing/SELINUX=disabled/' /etc/selinux/config",
            "sudo systemctl disable --now firewalld",
            "sudo ufw disable",
        ),
        safe=(
            "getenforce",
            "sudo ufw status",
            "sudo systemctl status firewalld",
            "sudo setsebool -P httpd_can_network_connect 1",
        ),
    ),
    pattern(
        "sys-unit-without-daemon-reload",
        "daemon-reload | systemctl daemon-reload | unit file change not picked up"
        " | stale unit file | forgot daemon-reload",
        "shell",
        r"(?:/etc/systemd/system|/lib/systemd/system|/usr/lib/systemd/system"
        r"|\.config/systemd/user)/[^\n]*?\bsystemctl\s+(?:-\S+\s+)*(?:restart|start|reload"
        r"|enable)\b",
        r"\bdaemon-reload\b",
        hits=(
            "sudo cp api.service /etc/systemd/system/ && sudo systemctl restart api",
            "sudo sed -i 's/--workers 2/--workers 4/' /lib/systemd/system/app.service"
            " && sudo systemctl restart app",
            "cp worker.service ~/.config/systemd/user/ && systemctl --user enable --now worker",
        ),
        safe=(
            "sudo cp api.service /etc/systemd/system/ && sudo systemctl daemon-reload"
            " && sudo systemctl restart api",
            "sudo systemctl restart api",
            "systemctl status nginx",
        ),
    ),
    pattern(
        "net-curl-pipe-shell",
        "curl pipe sh | curl sh | curl pipe bash | piped curl to bash | curl piped to shell"
        " | curl bash | wget bash | wget pipe sh"
        " | piping into sh | piped into sh | piping into bash | piped into bash"
        " | piped from the internet",
        "shell",
        r"\b(?:curl|wget)\b[^\n;&]*\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+\S+=\S+\s+)?"
        r"(?:ba|z|da|k)?sh\b|\b(?:ba|z)?sh\s+(?:-s\s+)?<\(\s*(?:curl|wget)\b"
        r"|\b(?:ba|z)?sh\s+-c\s+['\"]?\$\((?:curl|wget)\b"
        r"|\b(?:curl|wget)\b[^\n;&]*\|\s*(?:sudo\s+)?(?:python[\d.]*|node|perl|ruby)\b(?!\s+-[mce]\b)"
        # PowerShell: ``iwr URL | iex``, ``iex (irm URL)``.
        r"|(?i:\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n;&]*\|\s*"
        r"(?:iex|invoke-expression)\b|\b(?:iex|invoke-expression)\s*\(?\s*"
        r"(?:\(?new-object\s+net\.webclient\)?\.downloadstring|iwr|irm)\b)",
        hits=(
            "curl -fsSL https://get.docker.com | sh",
            "wget -qO- https://deb.nodesource.com/setup_20.x | sudo -E bash -",
            'sh -c "$(curl -fsSL https://raw.githubusercontent.com/ohmyzsh/ohmyzsh/master/tools/install.sh)"',
            "bash <(curl -s https://example.com/install.sh)",
            "curl -sSL https://install.python-poetry.org | python3 -",
        ),
        safe=(
            "curl -fsSLo install.sh https://get.docker.com && sha256sum -c install.sh.sha256",
            "curl -s https://api.acme.dev/v1/items | jq .",
            "curl -s https://api.acme.dev/v1/items | python3 -m json.tool",
            "curl -fsS https://api.acme.dev/healthz",
        ),
    ),
    pattern(
        "net-download-without-checksum",
        "verify checksum | unverified download | checksum before running"
        " | downloaded binary without checksum | sha256sum verify | chmod +x downloaded"
        " | without sha256 check | downloaded binary not verified",
        "shell",
        # A download saved to a file (wget saves by default), then made executable,
        # installed as a package or unpacked or copied into a bin directory ...
        # (the output option read one way: a cluster ending in o/O, then one word, possessive:
        # `curl -Looo...` otherwise split three ways under two 300-character spans, 2.3 s)
        r"(?:\bcurl\b[^\n;&|]{0,300}?(?:\s-[a-zA-Z]*[oO]\b|--output\b|--remote-name\b|>)\s*+\S++"
        r"|\bwget\b(?!" + S + r"*\s-[a-zA-Z]*O\s*-(?:\s|$)))"
        r"[^\n]{0,300}?(?:\bchmod\s+(?:-\S+\s+)*(?:[ugoa]*\+[rw]*x"
        r"|(?=[0-7]{3,4}\s)[0-7]*[1357][0-7]*)\b"
        r"|(?:&&|;)\s*(?:sudo\s+)?(?:dpkg\s+-i|rpm\s+-[iU]|apt(?:-get)?\s+install\s+\./)"
        r"|(?:&&|;)\s*(?:sudo\s+)?(?:unzip|tar|install|mv|cp)\b" + S + r"*?\s"
        r"(?:-[dC]\s*|--directory[=\s])?['\"]?(?:/usr(?:/local)?|/opt/[\w.-]+|~|\$HOME"
        r"|~/\.local|\$HOME/\.local)?/s?bin\b)"
        # ... or the downloaded script run by the next command (its name read first).
        r"|\b(?:curl|wget)\b(?="
        + S
        + r"*+(?:&&|;)\s*(?:sudo\s+(?:-\S+\s+)*)?(?:ba|z)?sh\s+(?:-\S+\s+)*(?:\S*/)?"
        r"([\w.-]+\.(?:sh|bash|run))" + END + r")" + S + r"*?(?<=[/\s=])\1" + END,
        r"\b(?:sha256sum|sha512sum|shasum|sha1sum)\b|\bgpg\s+(?:--\S+\s+)*--verify\b"
        r"|\bcosign\s+verify|\bminisign\s+-V\b|\bslsa-verifier\b",
        hits=(
            "curl -Lo kubectl https://dl.k8s.io/release/v1.30.0/bin/linux/amd64/kubectl"
            " && chmod +x kubectl",
            "wget -O /usr/local/bin/yq https://github.com/mikefarah/yq/releases/latest/download/yq"
            " && chmod 755 /usr/local/bin/yq",
            "curl -fsSL https://example.com/setup.sh -o setup.sh && sudo bash setup.sh",
        ),
        safe=(
            'curl -Lo kubectl https://dl.k8s.io/kubectl && echo "$SUM  kubectl" | sha256sum -c'
            " && chmod +x kubectl",
            "chmod +x scripts/release.sh",
            "curl -fsS https://api.acme.dev/healthz",
        ),
    ),
    pattern(
        "net-tls-verification-disabled",
        "curl -k | curl --insecure | disabled certificate verification"
        " | disable tls verification | skip certificate check | no-check-certificate"
        " | sslverify false | strict-ssl false"
        " | certificate errors silenced",
        "shell dotenv",
        r"\bcurl\b"
        + S
        + r"*\s(?:-[a-zA-Z]*k[a-zA-Z]*|--insecure)(?=\s|$)|\bwget\b"
        + S
        + r"*--no-check-certificate\b|\bhttp\.sslVerify[=\s]+['\"]?false\b"
        r"|\bGIT_SSL_NO_VERIFY=['\"]?(?:1|true)\b|\bNODE_TLS_REJECT_UNAUTHORIZED=['\"]?0\b"
        r"|\bstrict-ssl\s+false\b|(?:--|\.|\bPIP_)trusted[-_]host\b|\bPYTHONHTTPSVERIFY=['\"]?0\b"
        r"|--insecure-skip-tls-verify(?:=true)?\b|--tls-verify=false\b|--skip-tls-verify\b",
        hits=(
            "curl -sk https://internal.acme.local/api/health",
            "wget --no-check-certificate https://10.0.0.5/pkg.tgz",
            "git -c http.sslVerify=false clone https://git.acme.local/app.git",
            "NODE_TLS_REJECT_UNAUTHORIZED=0 npm run seed",
            "pip install --trusted-host pypi.acme.local -i http://pypi.acme.local/simple foo",
        ),
        safe=(
            "curl --cacert certs/acme-ca.pem https://internal.acme.local/api/health",
            "curl -fsS https://api.acme.dev/healthz",
            "curl -K curl.cfg https://api.acme.dev",
            "wget https://example.com/pkg.tgz",
        ),
    ),
    pattern(
        "net-ssh-host-key-check-off",
        "stricthostkeychecking | disabled host key checking | host key verification disabled"
        " | known_hosts dev null | skip host key check"
        " | host key checking turned off | accepted unknown host key",
        "shell ini yaml",
        r"StrictHostKeyChecking[=\s]+['\"]?(?:no|off)\b|UserKnownHostsFile[=\s]+['\"]?/dev/null"
        r"|\bhost_key_checking\s*=\s*False\b|ANSIBLE_HOST_KEY_CHECKING[=:]\s*['\"]?(?:False|false|0)\b",
        hits=(
            "ssh -o StrictHostKeyChecking=no deploy@10.0.0.7 'systemctl restart api'",
            "scp -o UserKnownHostsFile=/dev/null build.tgz ci@web1:/tmp/",
            "GIT_SSH_COMMAND='ssh -o StrictHostKeyChecking=no' git clone git@github.com:acme/x.git",
            "ANSIBLE_HOST_KEY_CHECKING=False ansible-playbook site.yml",
        ),
        safe=(
            "ssh -o StrictHostKeyChecking=yes deploy@web1 uptime",
            "ssh-keyscan github.com >> ~/.ssh/known_hosts",
            "ssh deploy@web1 uptime",
        ),
    ),
    pattern(
        "net-secret-on-command-line",
        "password on the command line | password in shell history | secret in command line"
        " | credentials in shell history | password visible in ps | password-stdin"
        " | visible in ps",
        "shell",
        r"\b(?:mysql|mysqldump|mariadb|mysqladmin)\b" + S + r"*\s-p[^\s$'\"-]\S*"
        r"|\b(?:curl|wget)\b" + S + r"*\s(?:-u|--user)\s*['\"]?[^\s:$'\"-][^\s:$'\"]*:[^\s$'\"]+"
        r"|\bsshpass\s+-p\s*['\"]?[^\s$'\"]|\bdocker\s+login\b"
        + S
        + r"*\s(?:-p|--password)(?:=|\s)"
        r"|\b[a-z][\w+.-]*://[^\s:/@$'\"]+:[^\s@/$'\"{]+@[\w.-]+"
        r"|--password[=\s]['\"]?(?!\$)[^\s'\"-]\S*|\bwget\b" + S + r"*--(?:http-)?password="
        # A token typed into a request's header.
        # Clients' password variables and flags given a literal; a chart's password value.
        r"|\b(?:PGPASSWORD|MYSQL_PWD|REDISCLI_AUTH|AWS_SECRET_ACCESS_KEY|GH_TOKEN|GITHUB_TOKEN"
        r"|NPM_TOKEN)=(?![\"']?\$)[^\s'\"]{4}|\bredis-cli\b"
        + S
        + r"*\s(?:-a|--pass)\s+(?![\"']?\$)[^\s-]"
        r"|--set(?:-string)?[=\s](?:[^\s=]*[.,])?"
        r"(?i:(?!existing)[\w-]*(?:password|passwd|secret|token"
        r"|api_?key))=(?![\"']?\$)[^\s,'\"]"
        r"|(?:-H|--header)[=\s]*['\"]?(?i:(?:proxy-)?authorization:\s*(?:bearer|basic|token)\s+"
        r"|(?:x-api-key|x-auth-token|private-token):\s*)(?![\"']?\$)[^\s'\"$]{6}",
        hits=(
            "mysql -u root -pS3cretPass shop",
            "curl -u admin:hunter2 https://ci.acme.local/api/json",
            "git clone https://deploy:ghp_a1b2c3d4@github.com/acme/app.git",
            "docker login -u acme -p dckr_pat_123 registry.acme.dev",
            "psql postgres://app:s3cret@db.acme.internal:5432/shop",
        ),
        safe=(
            "mysql -u root -p shop",
            'echo "$REGISTRY_TOKEN" | docker login -u acme --password-stdin registry.acme.dev',
            'curl -u "$CI_USER:$CI_TOKEN" https://ci.acme.local/api/json',
            "psql \"$DATABASE_URL\" -c 'SELECT 1'",
            "git clone https://github.com/acme/app.git",
        ),
    ),
    pattern(
        "net-curl-without-fail",
        "curl --fail | curl -f | saved error page | saved 404 page"
        " | curl without --fail | downloaded html error page",
        "shell",
        r"\bcurl\b(?=" + S + r"*(?:\s(?:-[a-zA-Z]*o|--output)[=\s]\s*(?!['\"]?/dev/null)\S"
        r"|\s(?:-[a-zA-Z]*O[a-zA-Z]*|--remote-name(?:-all)?)(?=\s|$)"
        # stdout redirected into a file (not stderr's 2>, not /dev/null)
        r"|(?<![\d&>])>>?\s*(?!['\"]?/dev/null|&)[^\s;&|)]))"
        r"|\bcurl\b" + S + r"*\|\s*(?:sudo\s+)?(?:tar|unzip|gunzip|funzip|bsdtar)\b",
        r"\bcurl\b" + S + r"*\s(?:-[a-zA-Z]*f[a-zA-Z]*|--fail(?:-with-body|-early)?)(?=[\s=]|$)",
        hits=(
            "curl -sLo app.tgz https://github.com/acme/app/releases/download/v1.2/app.tgz",
            "curl -O https://downloads.acme.dev/cli.zip",
            "curl -sL https://example.com/node.tar.gz | tar xz",
            "curl --output data.json https://api.acme.dev/export",
        ),
        safe=(
            "curl -fsSLo app.tgz https://github.com/acme/app/releases/download/v1.2/app.tgz",
            "curl --fail -O https://downloads.acme.dev/cli.zip",
            "curl -s -o /dev/null -w '%{http_code}' https://api.acme.dev/healthz",
            "curl -fsS https://api.acme.dev/healthz",
        ),
    ),
]
