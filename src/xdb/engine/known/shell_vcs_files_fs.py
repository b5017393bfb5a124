"""Known mistakes of a shell command line: the file system and text tools (rm -rf of an
unguarded variable, of / or ~, of a glob, after an unchecked cd; chmod 777 and chmod -R;
chown -R of system directories; find -delete unscoped; sed -i across a tree or without a
backup; a redirection truncating its own input; dd and mkfs on a device; tar over /; cp
over .env; ln -sf; xargs without -0; rsync --delete).
"""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

S = r"[^\n;&|]"
END = r"(?=\s|$|[;&|)'\"])"
# rm (not git rm), and rm with a recursive flag.
RM = r"(?<![\w./-])(?<!git\s)rm\s+"
RMR = RM + r"(?=(?:" + S + r"*?\s)?(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)(?=\s))"

PATTERNS: list[Pattern] = [
    pattern(
        "fs-rm-rf-variable",
        "rm -rf unset variable | empty variable rm | unset variable deleted | rm -rf $var"
        " | variable was empty rm | deleted home directory"
        " | unset variable removed | unset variable deleted | variable unset wiped"
        " | rm -rf was empty | rm -rf empty variable | rm -rf while empty"
        " | blank variable rm",
        "shell",
        RMR
        + S
        + r"*?(?<=\s)['\"]?\$(?:\{[A-Za-z_\d]\w*\}|[A-Za-z_\d]\w*)['\"]?"
        # ``$VAR/lib``: a system directory's name under it is that directory when it is empty.
        + r"(?:/(?:usr|etc|var|home|bin|sbin|lib|lib64|opt|boot|root|srv))?"
        + r"/?['\"]?\*?['\"]?"
        + END,
        r"\$\{\w+:\?|\bset\s+-[a-zA-Z]*u|\bset\s+-o\s+nounset|\[\[?\s+-[nz]\s",
        hits=(
            'rm -rf "$BUILD_DIR/"',
            "sudo rm -Rf $STEAMROOT/*",
            "rm -r --force ${OUT}/",
            'cd /srv && rm -fr "$1"/*',
            "rm -rf $DEPLOY_PATH",
        ),
        safe=(
            'rm -rf "${BUILD_DIR:?}/"',
            'set -euo pipefail; rm -rf "$OUT/"',
            "rm -rf ./build",
            'rm "$TMPFILE"',
            "git rm -r --cached $DIR",
            'rm -rf "$TMPDIR/build-cache"',
        ),
    ),
    pattern(
        "fs-rm-rf-root-or-home",
        "rm -rf / | rm -rf ~ | deleted home directory | wiped root filesystem"
        " | no-preserve-root | deleted system directories",
        "shell",
        RMR + S + r"*?\s(?:--no-preserve-root\b|['\"]?(?:/|/\*|~|~/|~/\*|\$HOME/?\*?"
        r"|\$\{HOME\}/?\*?|/(?:usr|etc|var|home|bin|sbin|lib|lib64|opt|boot|root|srv)/?\*?)['\"]?"
        + END
        + r")",
        hits=(
            "rm -rf /",
            "sudo rm -rf ~/",
            "rm -rf --no-preserve-root /",
            'rm -fr "$HOME"',
            "sudo rm -r -f /usr/*",
        ),
        safe=(
            "rm -rf ./dist",
            "rm -rf ~/project/build/cache",
            "rm -rf /tmp/build-123",
            "rm build/app.o",
        ),
    ),
    pattern(
        "fs-rm-glob",
        "rm -rf glob | rm star | rm glob wrong directory | deleted everything in current directory"
        " | unquoted glob rm"
        " | rm wildcard",
        "shell",
        RM + r"(?=(?:" + S + r"*?\s)?-[a-zA-Z]*[rRf])" + S + r"*?\s['\"]?(?:\./)?(?:\*|\.\*)" + END,
        hits=("rm -rf *", "cd dist; rm -f ./*", "sudo rm -Rf .*", "rm -r -f * .o"),
        safe=("rm -rf ./dist/*", "rm build/app.o", "rm -f *.log.gz", "ls *"),
    ),
    pattern(
        "fs-cd-unchecked-rm",
        "cd failed rm | unchecked cd | cd or exit | cd without error check"
        " | rm ran in wrong directory"
        " | cd succeeded deleting | cd failed deleted | cd didn't succeed",
        "shell",
        r"\bcd\s+[^\n;&|]+(?:;|\n)\s*(?:sudo\s+)?rm\s+-[a-zA-Z]*[rRf]",
        r"\bset\s+-[a-zA-Z]*e",
        hits=(
            "cd build; rm -rf *",
            "cd $TMPDIR\nrm -rf ./*",
            "cd /var/cache/app ; sudo rm -f *.tmp",
        ),
        safe=(
            "cd build && rm -rf *",
            "cd build || exit 1; rm -rf ./out",
            "set -e\ncd build\nrm -rf out",
        ),
    ),
    pattern(
        "fs-chmod-777",
        "chmod 777 | world-writable | world writable | 777 permissions | chmod a+rwx"
        " | permissions too open"
        " | rwx for everyone | writable by everyone",
        "shell",
        # A mode that others may write: the last digit 2, 3, 6 or 7 (not /tmp's 1777), or
        # o/a given w (``a+rwX``, ``u=rwx,g=rwx,o=rwx``).
        r"\bchmod\s+(?:-\S+\s+)*(?:0?[0-7]{2}[2367]|(?:[ugoa]*[-+=][rwxXst]*,)*[ugoa]*[oa][ugoa]*"
        r"[+=][rwxXst]*w[rwxXst]*(?:,[ugoa]*[-+=][rwxXst]*)*|\+rwx)(?=\s)",
        hits=(
            "chmod 777 /var/www/uploads",
            "sudo chmod -R 0777 storage",
            "chmod a+rwx deploy.sh",
            "chmod 666 /var/run/docker.sock",
            "chmod o+w shared/",
        ),
        safe=(
            "chmod 755 bin/run",
            "chmod +x scripts/release.sh",
            "chmod 600 ~/.ssh/id_ed25519",
            "chmod u+rw notes.txt",
        ),
    ),
    pattern(
        "fs-chmod-recursive-exec",
        "chmod -R | recursive chmod | made every file executable | all files executable"
        " | chmod recursively",
        "shell",
        r"\bchmod\s+(?=(?:"
        + S
        + r"*\s)?(?:-[a-zA-Z]*R[a-zA-Z]*|--recursive)(?=\s))(?:"
        + S
        + r"*\s)?(?:(?=[0-7]{3,4}\s)[0-7]*[1357][0-7]*|[ugoa]*\+[rwt]*x[rwt]*)(?=\s)",
        hits=(
            "chmod -R 755 /var/www/html",
            "sudo chmod --recursive 775 storage",
            "chmod -R a+x project/",
            "chmod 755 -R src",
        ),
        safe=(
            "chmod -R u=rwX,go=rX /var/www/html",
            "chmod -R 644 docs",
            "chmod 755 bin/run",
            "find . -type d -exec chmod 755 {} +",
        ),
    ),
    pattern(
        "fs-chown-recursive-system",
        "chown -R | recursive chown | changed ownership of system directories"
        " | chown /usr/local | broke sudo permissions"
        " | ownership recursively | chowned recursively | chown system directory"
        " | changed the owner recursively | chown recursively",
        "shell",
        r"\bchown\s+(?=(?:"
        + S
        + r"*\s)?(?:-[a-zA-Z]*R[a-zA-Z]*|--recursive)(?=\s))"
        + S
        + r"*\s['\"]?(?:/|/\*|/usr(?:/[\w.@-]+)*|/(?:etc|var|lib|lib64|bin|sbin|opt|home"
        r"|root|boot)|~|\$HOME)/?\*?['\"]?" + END,
        hits=(
            "sudo chown -R $(whoami) /usr/local",
            "chown -R app:app /",
            "sudo chown --recursive deploy /etc/",
            'sudo chown -R "$USER" /usr/lib',
        ),
        safe=(
            "sudo chown -R www-data:www-data /var/www/html",
            "chown -R app:app ./data",
            "sudo chown $(whoami) /usr/local/bin/tool",
        ),
    ),
    pattern(
        "fs-find-delete-unscoped",
        "find -delete before -name | find -delete without -name | -delete action first"
        " | find deleted whole directory"
        " | find -delete came first | find -delete last | find deleted the whole tree",
        "shell",
        # (-type alone scopes nothing: ``find . -type f -delete`` deletes every file.)
        r"\bfind\s(?:(?:(?!-(?:i?name|i?path|i?wholename|i?regex|mtime|mmin|atime|ctime"
        r"|newer|size|empty|user|perm|links)\b)" + S + r")*?\s(?:-delete\b|-exec(?:dir)?\s+rm\b)"
        r"|" + S + r"*?\s(?:-delete\b|-exec(?:dir)?\s+rm\b)" + S + r"*?\s-(?:i?name|i?path"
        r"|i?regex|type|mtime|mmin|newer|size)\b)",
        hits=(
            "find . -delete -name '*.pyc'",
            "find /var/tmp/app -delete",
            "find build -maxdepth 2 -exec rm -rf {} +",
            "find ~/Downloads -delete -type f -mtime +30",
        ),
        safe=(
            "find . -name '*.pyc' -delete",
            "find /var/tmp/app -type f -mtime +7 -delete",
            "find . -name '*.py' -newer setup.py",
            "find build -name '*.o' -exec rm {} +",
        ),
    ),
    pattern(
        "fs-sed-inplace-whole-tree",
        "sed -i across the repo | sed -i node_modules | mass sed replace | find xargs sed"
        " | bulk search and replace | sed -i whole tree",
        "shell",
        r"(?:\bfind(?:\s+['\"]?(?:\.|\./|/|~|\$PWD|\.\.)['\"]?)?\s+-|\bgrep\s+(?:-\S+\s+)*"
        r"-[a-zA-Z]*[rR]" + S + r"*?\s\./?(?=\s*\|))[^\n]*?(?:\|\s*xargs\s+(?:-\S+\s+)*|-exec\s+)"
        r"(?:sed\s+(?:-\S+\s+)*(?:-[a-zA-Z]*i|--in-place)|perl\s+(?:-\S+\s+)*-[a-zA-Z]*i)",
        r"-not\s+-path|!\s+-path|-prune\b|--exclude-dir",
        hits=(
            "find . -type f | xargs sed -i 's/acme/globex/g'",
            "grep -rl oldName . | xargs sed -i 's/oldName/newName/g'",
            "find . -name '*.js' -exec sed -i '' 's/var /let /' {} +",
            "find -name '*.py' -print0 | xargs -0 perl -pi -e 's/foo/bar/'",
        ),
        safe=(
            "find . -name '*.js' -not -path './node_modules/*' | xargs sed -i 's/a/b/'",
            "git ls-files '*.py' | xargs sed -i 's/foo/bar/'",
            "sed -i 's/foo/bar/' src/app.py",
            "find src -name '*.ts' -exec sed -i 's/a/b/' {} +",
            "grep -rl TODO src",
        ),
    ),
    pattern(
        "fs-sed-inplace-portability",
        "sed -i macos | sed -i bsd | invalid command code | sed in-place backup"
        " | sed -i without backup | sed -i.bak",
        "shell",
        # (``-i""`` is ``-i`` once the shell drops the empty quotes)
        r"\bsed\s+(?:" + S + r"*?\s)?(?:-[a-zA-Z]*i|--in-place)(?=\s|(?:''|\"\")\s)",
        r"\s-[a-zA-Z]*i\s+(?:''|\"\"|'\.\w+'|\.\w+\s)",
        hits=(
            "sed -i 's/3000/8080/' config/app.yml",
            "sed -E -i 's/v[0-9]+/v2/' Chart.yaml",
            "sed -ri 's/^#?Port .*/Port 2222/' sshd_config",
            "find . -name '*.md' -exec sed -i 's/a/b/' {} +",
        ),
        safe=(
            "sed -i.bak 's/3000/8080/' config/app.yml",
            "sed -i '' 's/3000/8080/' config/app.yml",
            "sed -n '1,40p' app.py",
            "sed 's/a/b/' in.txt > out.txt",
        ),
    ),
    pattern(
        "fs-redirect-truncates-input",
        "truncated the input file | redirect output to the same file | same file redirect"
        " | redirected output to input file | file emptied by redirect | use sponge"
        " | shell truncates the output | sort emptied the file | jq emptied the file"
        " | redirect into the same file"
        " | zero bytes file | empties the file",
        "shell",
        r"(?:^|[\s'\"])([\w./~-]*[\w~]\.\w+|[\w./~-]*/[\w.-]+|\.\w[\w.-]*)(?=[\s'\"])[^\n;&>]{0,300}?"
        r"(?:(?<![>&])>|\btee\s+(?!-a\b|--append\b))\s*['\"]?\1(?=['\"]?(?:\s|$|[;&|)]))",
        hits=(
            "sort data.txt > data.txt",
            "jq '.version = \"2.0\"' package.json > package.json",
            "cat config/app.conf | grep -v debug > config/app.conf",
            "sed 's/http:/https:/' urls.txt | tee urls.txt",
        ),
        safe=(
            "jq '.v = 2' package.json > package.json.tmp && mv package.json.tmp package.json",
            "sort -u names.txt -o names.txt",
            "cat a.txt b.txt > all.txt",
            "grep -v debug app.log >> app.log.filtered",
        ),
    ),
    pattern(
        "fs-dd-mkfs-device",
        "dd to the wrong disk | dd of=/dev | overwrote the wrong disk | mkfs wrong device"
        " | wiped the disk | formatted wrong drive"
        " | mkfs | wipefs | formatted the wrong volume | formatted the data volume",
        "shell",
        r"\bdd\s" + S + r"*\bof=/dev/(?!null\b|zero\b|stdout\b|stderr\b|fd/)\w+"
        r"|\bmkfs(?:\.\w+)?\s" + S + r"*/dev/\w+|\bwipefs\s|\bsgdisk\s+(?:-\S+\s+)*(?:-Z|--zap-all)"
        r"|\bshred\s" + S + r"*/dev/\w+|(?<![>&])>\s*/dev/(?:sd[a-z]|nvme\d|disk\d|mmcblk\d|hd[a-z]"
        r"|xvd[a-z]|vd[a-z])"
        r"|\bparted\s+(?:-\S+\s+)*/dev/\w+\s+(?:-\S+\s+)*(?:mklabel|mktable|rm)\b",
        hits=(
            "sudo dd if=ubuntu.iso of=/dev/sdb bs=4M status=progress",
            "mkfs.ext4 /dev/nvme1n1",
            "sudo wipefs -a /dev/sdc",
            "cat image.img > /dev/disk2",
        ),
        safe=(
            "dd if=/dev/zero of=./swapfile bs=1M count=1024",
            "dd if=/dev/urandom of=/dev/null bs=1M count=10",
            "lsblk -f",
            "mkfs.ext4 ./disk.img",
        ),
    ),
    pattern(
        "fs-tar-extract-over-root",
        "tar extracted over root | tar -C / overwrote | extracted archive into / | tar bomb"
        " | absolute-names overwrote system files"
        " | tarball overwrote | archive overwrote system files"
        " | extracted over system files",
        "shell",
        r"\btar\s+(?=-?[a-zA-Z]*x[a-zA-Z]*\s|"
        + S
        + r"*?\s-[a-zA-Z]*x[a-zA-Z]*\s|(?:"
        + S
        + r"*\s)?--(?:extract|get)\b)"
        + S
        + r"*?(?:(?<=\s)(?:-C\s*|--directory[=\s]\s*)['\"]?/['\"]?"
        + END
        + r"|(?<=\s)-[a-zA-Z]*P[a-zA-Z]*\b|\s--absolute-names\b)"
        r"|\bcd\s+/\s*(?:&&|;)\s*(?:sudo\s+)?tar\s+-?[a-zA-Z]*x",
        hits=(
            "sudo tar -xzf backup.tgz -C /",
            "tar xvf rootfs.tar --directory=/",
            "tar -xPf etc-backup.tar",
            "cd / && sudo tar xzf /tmp/site.tgz",
        ),
        safe=(
            "tar -xzf backup.tgz -C ./restore",
            "tar czf site.tgz public/",
            "tar -tzf backup.tgz",
            "tar -xzf node.tgz -C /opt/node",
        ),
    ),
    pattern(
        "fs-cp-mv-force-overwrite",
        "cp overwrote existing | mv overwrote existing | no-clobber | cp -n | mv -n"
        " | silently overwritten"
        " | mv -f | cp -f | cp -rf | silently replaced existing file",
        "shell",
        r"(?:^|[\s;&|('\"])\\?(?:cp|mv)\s+(?:-\S+\s+)*(?:-[a-zA-Z]*f[a-zA-Z]*|--force"
        r"|--remove-destination)(?=\s)|\byes\s*\|\s*(?:cp|mv)\b|(?:^|[\s;&|('\"])\\(?:cp|mv)\s",
        r"\s(?:-[a-zA-Z]*[nib][a-zA-Z]*|--no-clobber|--interactive|--backup\S*|--update=none)(?=\s)",
        hits=(
            "cp -rf dist/* /var/www/html/",
            "mv -f settings.new.py settings.py",
            "\\cp templates/nginx.conf /etc/nginx/nginx.conf",
            "yes | cp -r defaults/ config/",
        ),
        safe=(
            "cp -n config.example.yml config.yml",
            "mv -i old.txt archive/old.txt",
            "cp config.example.yml config.yml",
            "cp -r --backup=numbered defaults/ config/",
        ),
    ),
    pattern(
        "fs-overwrote-dotenv",
        "overwrote .env | overwrote env file | overwritten .env | replaced existing .env"
        " | lost env secrets | clobbered .env"
        " | wiped .env | cp .env.example | .env wiped | create .env if missing"
        " | example env over real env | copied the example env",
        "shell",
        r"(?:\bcp|\bmv)\s+(?:-\S+\s+)*['\"]?\S*\.env[.\w-]*['\"]?\s+['\"]?(?:\S*/)?\.env"
        r"(?:\.local)?['\"]?"
        + END
        + r"|(?<![>&])>\s*['\"]?(?:\S*/)?\.env(?:\.local)?['\"]?"
        + END
        + r"|\btee\s+(?!-a\b|--append\b)(?:-\S+\s+)*['\"]?(?:\S*/)?\.env(?:\.local)?['\"]?"
        + END,
        r"\s-[a-zA-Z]*n\b|--no-clobber|--update=none|\[\s+!?\s*-[ef]\s+\S*\.env|\btest\s+!?\s*-[ef]\s"
        r"|\bset\s+-o\s+noclobber",
        hits=(
            "cp .env.example .env",
            "echo 'DEBUG=1' > .env",
            "cp backend/.env.sample backend/.env",
            "cat > .env.local <<EOF\nAPI_URL=http://localhost\nEOF",
        ),
        safe=(
            "[ -f .env ] || cp .env.example .env",
            "cp -n .env.example .env",
            "echo 'DEBUG=1' >> .env",
            "cp .env .env.bak",
        ),
    ),
    pattern(
        "fs-ln-sf-into-directory",
        "ln -sf | symlink created inside directory | nested symlink | ln -sfn"
        " | replaced directory symlink | symlink into existing directory",
        "shell",
        r"\bln(?="
        + S
        + r"*\s(?:-[a-zA-Z]*s[a-zA-Z]*|--symbolic)(?=\s))(?="
        + S
        + r"*\s(?:-[a-zA-Z]*f[a-zA-Z]*|--force)(?=\s))",
        r"\bln\s+(?:" + S + r"*\s)?(?:-[a-zA-Z]*[nT][a-zA-Z]*|--no-dereference"
        r"|--no-target-directory)(?=\s)",
        hits=(
            "ln -sf /opt/app/releases/42 /opt/app/current",
            "sudo ln -s -f ../shared/config config",
            "ln --symbolic --force $RELEASE current",
        ),
        safe=(
            "ln -sfn /opt/app/releases/42 /opt/app/current",
            "ln -s ../shared/config config",
            "ln -sfT $RELEASE current",
        ),
    ),
    pattern(
        "fs-xargs-without-null",
        "xargs filenames with spaces | find -print0 | xargs -0 | filenames with spaces broke"
        " | spaces in file names",
        "shell",
        r"\b(?:find|ls|grep\s+(?:-\S+\s+)*-[a-zA-Z]*l)\b[^\n;&]*\|\s*(?:sudo\s+)?xargs\s+"
        r"(?!(?:-\S+\s+(?:\d+\s+)?)*(?:-0|--null|-d\b|--delimiter))(?:-\S+\s+(?:\d+\s+)?)*"
        r"(?:sudo\s+(?:-\S+\s+)*)?(?:rm|mv|cp|chmod|chown|sed|perl|unlink|shred|touch|ln"
        r"|git\s+(?:rm|add|checkout|restore|mv))\b",
        hits=(
            "find . -name '*.tmp' | xargs rm -f",
            "ls *.log | xargs rm",
            "grep -rl legacy src | xargs sed -i 's/legacy/modern/'",
            "find uploads -type f -mtime +30 | sudo xargs -n 50 mv -t archive/",
        ),
        safe=(
            "find . -name '*.tmp' -print0 | xargs -0 rm -f",
            "find . -name '*.tmp' -delete",
            "git ls-files -z | xargs -0 wc -l",
            "find . -name '*.py' | xargs wc -l",
        ),
    ),
    pattern(
        "fs-rsync-delete",
        "rsync --delete | rsync deleted destination | rsync trailing slash | rsync dry run"
        " | rsync wiped",
        "shell",
        r"\brsync\b" + S + r"*\s--del(?:ete(?:-\w+)*)?\b",
        r"\brsync\b" + S + r"*\s(?:-[a-zA-Z]*n[a-zA-Z]*|--dry-run)(?=\s)",
        hits=(
            "rsync -avz --delete build/ deploy@web1:/var/www/site",
            "rsync -a --delete-after ./dist /srv/app",
            "sudo rsync -rlt --delete-excluded src/ backup/",
        ),
        safe=(
            "rsync -avzn --delete build/ deploy@web1:/var/www/site",
            "rsync -av --dry-run --delete ./dist /srv/app",
            "rsync -avz build/ deploy@web1:/var/www/site",
        ),
    ),
]
