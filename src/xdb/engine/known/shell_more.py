"""More known mistakes of a shell command line and of the scripts it writes: merges that
take one side of every conflict, scripts that run on after a failure (no ``set -e``, no
``pipefail``), packages published unchecked, a second package index (dependency
confusion), servers and port-forwards open on every interface, ssh agent forwarding, the
host's root mounted into a container, ``usermod -G`` without ``-a``, shared system files
overwritten by ``>`` or ``tee``, admin and basic roles granted in the clouds, KMS keys
deleted, ``kubectl apply --prune``, secrets typed into ``gh secret set`` and git's
plain-text credential store.
"""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern
from xdb.engine.known.shell_ops import DOCKER, B, S

# git with its global options (-C dir, -c key=value, --no-pager ...).
GIT = r"(?<![\w./-])git\s+(?:-[cC]\s+\S+\s+|--[\w-]+(?:=\S+)?\s+)*"
KUBECTL = B + r"(?:kubectl|oc)\s"
# ssh's options before the host: those that take an argument, and flags combined.
SSH_OPT = r"(?:\s+-[bcDEeFIiJLlmOoPpQRSWw](?:=|\s+)?[^\s;&|-]\S*|\s+-[1246aCfGgKkMNnqsTtVvXxYy]+)"
# Files that hold more than one writer's lines: ``>`` or ``tee`` without ``-a`` replaces
# them whole.
SHARED_FILE = (
    r"(?:/etc/(?:hosts|fstab|resolv\.conf|environment|sysctl\.conf|passwd|group|shadow"
    r"|profile|bash\.bashrc|ssh/sshd_config|apt/sources\.list)"
    r"|(?:~|\$HOME|\$\{HOME\}|/root|/home/[\w.-]+)/\.(?:bashrc|zshrc|profile|bash_profile"
    r"|ssh/authorized_keys|ssh/config|gitconfig))(?=['\"\s;&|)]|$)"
)

PATTERNS: list[Pattern] = [
    pattern(
        "git-merge-take-side",
        "merge -X theirs | merge -X ours | strategy option theirs | strategy-option ours"
        " | took theirs for every conflict | lost our side of the conflicts"
        " | take one side wholesale | resolve conflicts file by file"
        " | merge with theirs | resolved with theirs | resolved with ours",
        "shell",
        GIT
        + r"(?:merge|pull|rebase|cherry-pick|revert)\b"
        + S
        + r"*?\s(?:-X\s*|--strategy-option(?:=|\s+))['\"]?(?:theirs|ours)\b"
        # the ``ours`` strategy (the other side dropped whole); one side checked out for the
        # whole tree
        + r"|"
        + GIT
        + r"(?:merge|pull)\b"
        + S
        + r"*?\s(?:-s\s*|--strategy(?:=|\s+))['\"]?ours\b"
        + r"|"
        + GIT
        + r"(?:checkout|restore)\s+(?:-\S+\s+)*?--(?:ours|theirs)\s+(?:-\S+\s+)*"
        r"['\"]?\.['\"]?(?=\s|$|[;&|)])",
        hits=(
            "git merge -X theirs origin/main",
            "git pull --strategy-option=ours upstream develop",
            "cd api && git rebase -Xtheirs main",
            "git cherry-pick -X theirs 4f2a9c1",
        ),
        safe=(
            "git merge origin/main",
            "git merge --no-ff feature/cart",
            "git rebase --continue",
            "git merge -X patience feature/cart",
        ),
    ),
    pattern(
        "sh-script-no-errexit",
        "script without set -e | set -euo pipefail | set -o errexit"
        " | script kept running after a failed | script continued after a failed command"
        " | kept going after the build failed"
        " | enable errexit | carries on after errors",
        "shell",
        # A script's first line, or one printf/echo writes: ``printf '#!/bin/bash\\n...'``.
        r"(?:^|\b(?:printf|echo)(?:\s+-[a-zA-Z]+)*\s+['\"])"
        r"#!\s*/(?:usr/)?bin/(?:env\s+)?(?:ba|z|k)?sh\b(?![^\n]*\s-[a-zA-Z]*e)",
        r"(?:^|[\s;&|(])set\s+(?:[-+][a-zA-Z]+\s+)*(?:-[a-zA-Z]*e[a-zA-Z]*(?=\s|$|;)"
        r"|-o\s+errexit\b)",
        hits=(
            "#!/bin/bash\nnpm run build\nrsync -a dist/ web1:/srv/app",
            '#!/usr/bin/env bash\ncd "$(dirname "$0")"\n./migrate.sh\n./deploy.sh',
            "cat > deploy.sh <<'EOF'\n#!/bin/sh\nmake build\nmake deploy\nEOF",
        ),
        safe=(
            "#!/usr/bin/env bash\nset -euo pipefail\nnpm run build",
            "#!/bin/bash -e\nmake deploy",
            "#!/bin/sh\nset -e\nmake deploy",
            "#!/usr/bin/env bash\nset -o errexit\nmake deploy",
            "bash deploy.sh",
        ),
    ),
    pattern(
        "sh-set-e-no-pipefail",
        "set -o pipefail | without pipefail | failure inside a pipe | failed inside a pipe"
        " | pipe failure ignored | set -e did not stop pipe"
        " | pipeline exit status",
        "shell",
        r"(?s)(?:^|[\s;&('\"])set\s+(?:[-+][a-zA-Z]+\s+)*(?:-[a-zA-Z]*e[a-zA-Z]*|-o\s+errexit)"
        r"(?=\s|$|;).*?[^|\n]\|(?![|&])",
        r"pipefail",
        hits=(
            "#!/bin/bash\nset -e\ncurl -sL $URL | tar xz -C /opt",
            "set -eux; pg_dump shop | gzip > shop.sql.gz",
            "set -o errexit\ncat ids.txt | xargs -n1 ./process.sh",
        ),
        safe=(
            "set -euo pipefail\ncurl -fsSL $URL | tar xz",
            "set -e\nmake build\nmake test",
            "set -o errexit -o pipefail; pg_dump shop | gzip > a.gz",
            "set -e; make build || exit 1",
        ),
    ),
    pattern(
        "pkg-publish-without-dry-run",
        "npm publish | cargo publish | twine upload | poetry publish | gem push"
        " | published by accident | publish dry run | published the wrong files"
        " | check the package contents before publishing",
        "shell",
        B + r"(?:(?:npm|pnpm)\s+publish|yarn\s+(?:npm\s+)?publish|cargo\s+publish|twine\s+upload"
        r"|poetry\s+publish|uv\s+publish|gem\s+push|dotnet\s+nuget\s+push"
        r"|(?:flit|hatch|pdm)\s+publish)\b",
        r"--dry-run\b|\btestpypi\b|test\.pypi\.org",
        hits=(
            "npm publish --access public",
            "cd packages/ui && pnpm publish --no-git-checks",
            "cargo publish -p acme-core",
            "twine upload dist/*",
            "poetry publish --build",
        ),
        safe=(
            "npm publish --dry-run",
            "cargo publish --dry-run -p acme-core",
            "twine upload --repository testpypi dist/*",
            "npm pack",
            "twine check dist/*",
        ),
    ),
    pattern(
        "pkg-pip-extra-index-url",
        "extra-index-url | extra index url | dependency confusion | pip_extra_index_url"
        " | public package with the same name | same name as our internal package"
        " | extra index",
        "shell",
        r"--extra-index-url\b|\b(?:PIP|UV)_EXTRA_INDEX_URL\s*="
        r"|\bpip3?\s+config\s+(?:--\S+\s+)*set\s+[\w.]*extra-index-url\b"
        # poetry: a source searched besides PyPI
        r"|\bpoetry\s+source\s+add\b" + S + r"*?\s(?:--priority(?:=|\s+)['\"]?(?:supplemental"
        r"|secondary)\b|--secondary\b)",
        hits=(
            "pip install --extra-index-url https://pypi.acme.internal/simple acme-billing",
            "PIP_EXTRA_INDEX_URL=https://nexus.acme.dev/simple pip install -r requirements.txt",
            "uv pip install --extra-index-url=https://pkgs.acme.dev/simple acme-auth",
            "pip3 install acme-sdk --extra-index-url $PRIVATE_INDEX",
        ),
        safe=(
            "pip install --index-url https://nexus.acme.dev/repository/pypi/simple acme-billing",
            "pip install -r requirements.txt",
            "uv pip install --index-url https://pkgs.acme.dev/simple acme-auth",
            "pip download --no-deps acme-billing",
        ),
    ),
    pattern(
        "k8s-cli-port-forward-all-interfaces",
        "port-forward --address 0.0.0.0 | port-forward all interfaces"
        " | port-forward exposed | port forward exposed | kubectl proxy exposed"
        " | port-forward on localhost"
        " | port-forward 0.0.0.0",
        "shell",
        KUBECTL
        + S
        + r"*?\b(?:port-forward|proxy)\b"
        + S
        + r"*?\s--address(?:=|\s+)['\"]?(?:[\w.:]+,)*(?:0\.0\.0\.0|::|\*)['\"]?(?=[\s,;&|]|$)",
        hits=(
            "kubectl port-forward --address 0.0.0.0 svc/postgres 5432:5432 -n db",
            "kubectl -n shop port-forward deploy/api 8080:80 --address=0.0.0.0",
            "oc port-forward pod/redis-0 6379 --address localhost,0.0.0.0",
            "kubectl proxy --address=0.0.0.0 --accept-hosts='^.*$'",
        ),
        safe=(
            "kubectl port-forward svc/postgres 5432:5432 -n db",
            "kubectl port-forward --address 127.0.0.1 svc/api 8080:80",
            "kubectl proxy --port=8001",
            "kubectl get svc -n db",
        ),
    ),
    pattern(
        "net-http-server-exposed",
        "python http.server | simplehttpserver | http-server exposed | served my home directory"
        " | file server on all interfaces | served files to the network | php -s 0.0.0.0",
        "shell",
        B + r"(?:python(?:3(?:\.\d+)?)?\s+-m\s+(?:http\.server|SimpleHTTPServer)\b"
        r"|php\s+-S\s+0\.0\.0\.0|(?:npx\s+)?http-server\b"
        # vercel's ``serve`` listens on every interface unless -l names localhost.
        r"|(?:npx|bunx|pnpm\s+dlx)\s+(?:-y\s+|--yes\s+)?serve\b"
        r"|ruby\s+-run\s+-e\s*httpd\b|busybox\s+httpd\b)",
        r"\s(?:-b|--bind(?:-address)?|-a|-l|--listen)(?:=|\s+)['\"]?(?:tcp://)?"
        r"(?:127\.0\.0\.1|localhost|::1)\b"
        r"|\s-p\s*(?:127\.0\.0\.1|localhost):",
        hits=(
            "python3 -m http.server 8000",
            "cd ~ && python -m http.server",
            "python -m SimpleHTTPServer 8080",
            "php -S 0.0.0.0:8000 -t public",
            "npx http-server ./dist -p 8080",
        ),
        safe=(
            "python3 -m http.server 8000 --bind 127.0.0.1",
            "python -m http.server -b localhost 9000",
            "php -S localhost:8000 -t public",
            "npx http-server ./dist -a 127.0.0.1",
            "python -m pytest",
        ),
    ),
    pattern(
        "net-ssh-agent-forwarding",
        "agent forwarding | forwardagent | forwarded my ssh agent | forward the ssh agent"
        " | use proxyjump",
        "shell",
        B + r"ssh" + SSH_OPT + r"*?\s+-[1246aCfGgKkMNnqsTtVvXxYy]*A[1246aCfGgKkMNnqsTtVvXxYy]*"
        r"(?=\s|$)|ForwardAgent(?:=|\s+)['\"]?yes\b",
        hits=(
            "ssh -A deploy@bastion.acme.dev",
            "ssh -i ~/.ssh/ci -At jump.acme.internal",
            "ssh -o ForwardAgent=yes admin@10.0.0.4",
            "echo 'ForwardAgent yes' >> ~/.ssh/config",
        ),
        safe=(
            "ssh -J bastion.acme.dev deploy@10.0.0.4",
            "ssh deploy@web1 'kubectl get pods -A'",
            "ssh-add -A",
            "ssh -o ForwardAgent=no deploy@web1",
            "ssh deploy@web1 ps -A",
        ),
    ),
    pattern(
        "docker-mount-host-root",
        "host root filesystem | mount host filesystem"
        " | host's root into a container | bind-mounted root filesystem"
        " | container whole host disk | host disk into container",
        "shell",
        r"(?:"
        + DOCKER
        + r"|"
        + B
        + r"(?:nerdctl|finch)\s+)"
        + r"(?:container\s+)?(?:run|create)\b"
        + S
        + r"*?\s(?:(?:-v|--volume)(?:=|\s+)"
        r"['\"]?/:|--mount(?:=|\s+)['\"]?\S*?\b(?:source|src)=/(?=[,\s'\"]|$))",
        hits=(
            "docker run -v /:/host --rm alpine chroot /host",
            "docker run --rm -it --volume=/:/rootfs:ro busybox",
            "sudo podman run --mount type=bind,source=/,target=/host fedora",
            'docker create -v "/:/mnt" debug',
        ),
        safe=(
            "docker run -v /srv/data:/data alpine",
            'docker run -v "$PWD":/app node:20',
            "docker run --mount type=bind,source=/opt/app,target=/app alpine",
            "docker run --rm -v ./:/work alpine",
        ),
    ),
    pattern(
        "sys-usermod-without-append",
        "usermod -g without -a | usermod -ag | usermod append | removed from other groups"
        " | removed from sudo group | lost group membership | usermod --groups",
        "shell",
        B + r"usermod\b" + S + r"*?(?:\s-[a-zA-Z]*G|\s--groups\b)",
        B + r"usermod\b" + S + r"*?(?:\s-[a-zA-Z]*a[a-zA-Z]*(?=\s)|\s--append\b)",
        hits=(
            "sudo usermod -G docker alice",
            "usermod --groups wheel,docker deploy",
            "sudo usermod -G sudo $USER && newgrp",
            "usermod -s /bin/bash -G adm ci",
        ),
        safe=(
            "sudo usermod -aG docker alice",
            "usermod --append --groups wheel deploy",
            "sudo gpasswd -a alice docker",
            "usermod -L olduser",
        ),
    ),
    pattern(
        "fs-overwrote-system-config",
        "tee without -a | tee overwrote | tee /etc/hosts | overwrote /etc/hosts"
        " | overwrote fstab | overwrote bashrc | overwrote authorized_keys"
        " | replaced the whole hosts file"
        " | written instead of appended | authorized_keys overwritten",
        "shell",
        r"(?:(?<![>&\d])>\|?|\btee(?:\s+-(?![a-z]*a)[a-z]+|\s+--(?!append)[\w-]+)*)\s*['\"]?"
        + SHARED_FILE,
        hits=(
            "echo '10.0.0.5 db.internal' | sudo tee /etc/hosts",
            "echo 'export PATH=$HOME/.local/bin:$PATH' > ~/.bashrc",
            "cat deploy.pub > ~/.ssh/authorized_keys",
            "echo 'nameserver 1.1.1.1' | sudo tee -i /etc/resolv.conf > /dev/null",
            "printf 'UUID=abc /data ext4 defaults 0 2\\n' | sudo tee /etc/fstab",
        ),
        safe=(
            "echo '10.0.0.5 db.internal' | sudo tee -a /etc/hosts",
            "echo 'export PATH=$HOME/.local/bin:$PATH' >> ~/.bashrc",
            "cat deploy.pub >> ~/.ssh/authorized_keys",
            "cat /etc/hosts",
            "echo 'deb https://x.dev stable main' | sudo tee /etc/apt/sources.list.d/x.list",
        ),
    ),
    pattern(
        "aws-iam-admin-policy",
        "administratoraccess | admin policy | iamfullaccess | poweruseraccess"
        " | least privilege policy | least-privilege iam | full admin rights",
        "shell",
        B
        + r"aws\s"
        + S
        + r"*?\biam\s+(?:(?:attach|put)-(?:user|role|group)-policy|create-policy(?:-version)?)\b"
        + S
        + r"*?(?:policy/(?:AdministratorAccess|IAMFullAccess|PowerUserAccess)\b"
        r"|[\"']?Action[\"']?\s*:\s*\[?\s*[\"']\*[\"'])",
        hits=(
            "aws iam attach-user-policy --user-name ci"
            " --policy-arn arn:aws:iam::aws:policy/AdministratorAccess",
            "aws --profile prod iam attach-role-policy --role-name lambda-exec"
            " --policy-arn arn:aws:iam::aws:policy/AdministratorAccess",
            "aws iam attach-group-policy --group-name devs"
            " --policy-arn arn:aws:iam::aws:policy/IAMFullAccess",
            "aws iam put-role-policy --role-name app --policy-name all --policy-document"
            ' \'{"Statement":[{"Effect":"Allow","Action":"*","Resource":"*"}]}\'',
            "aws iam attach-role-policy --role-name ec2-app"
            " --policy-arn=arn:aws:iam::aws:policy/PowerUserAccess",
        ),
        safe=(
            "aws iam attach-role-policy --role-name lambda-exec --policy-arn"
            " arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
            "aws iam list-attached-user-policies --user-name ci",
            "aws iam detach-user-policy --user-name ci"
            " --policy-arn arn:aws:iam::aws:policy/AdministratorAccess",
            "aws iam get-policy --policy-arn arn:aws:iam::aws:policy/AdministratorAccess",
        ),
    ),
    pattern(
        "gcp-primitive-role",
        "roles/editor | roles/owner | basic role | primitive role | owner role project"
        " | editor role project | narrow predefined roles",
        "shell",
        B
        + r"gcloud\s"
        + S
        + r"*?\badd-iam-policy-binding\b"
        + S
        + r"*?--role(?:=|\s+)['\"]?roles/(?:owner|editor)(?![\w.])",
        hits=(
            "gcloud projects add-iam-policy-binding acme-prod"
            " --member=serviceAccount:ci@acme-prod.iam.gserviceaccount.com --role=roles/editor",
            "gcloud projects add-iam-policy-binding $PROJECT --role roles/owner"
            " --member user:contractor@gmail.com",
            "gcloud resource-manager folders add-iam-policy-binding 1234"
            " --member=group:devs@acme.dev --role=roles/owner",
            "gcloud iam service-accounts add-iam-policy-binding x@acme.iam.gserviceaccount.com"
            " --member=user:a@acme.dev --role='roles/editor'",
        ),
        safe=(
            "gcloud projects add-iam-policy-binding acme-prod"
            " --member=serviceAccount:ci@acme-prod.iam.gserviceaccount.com"
            " --role=roles/run.developer",
            "gcloud projects get-iam-policy acme-prod",
            "gcloud projects remove-iam-policy-binding acme-prod --member=user:a@acme.dev"
            " --role=roles/owner",
            "gcloud projects add-iam-policy-binding acme --role=roles/storage.objectViewer"
            " --member=group:x@acme.dev",
        ),
    ),
    pattern(
        "aws-kms-key-deletion",
        "schedule-key-deletion | kms key deletion | deleted the kms key"
        " | destroyed the key version | keyvault key purge | encrypted data unreadable",
        "shell",
        B + r"(?:aws\s" + S + r"*?\bkms\s+(?:schedule-key-deletion|delete-imported-key-material)"
        r"|gcloud\s" + S + r"*?\bkms\s+keys\s+versions\s+destroy"
        r"|az\s+keyvault\s+(?:key\s+)?purge)\b",
        hits=(
            "aws kms schedule-key-deletion --key-id 1234abcd --pending-window-in-days 7",
            "aws --profile prod kms schedule-key-deletion --key-id alias/app",
            "gcloud kms keys versions destroy 1 --key app --keyring prod --location global",
            "az keyvault key purge --vault-name kv-prod --name app-key",
        ),
        safe=(
            "aws kms disable-key --key-id 1234abcd",
            "aws kms cancel-key-deletion --key-id 1234abcd",
            "aws kms describe-key --key-id alias/app",
            "gcloud kms keys versions list --key app --keyring prod --location global",
        ),
    ),
    pattern(
        "k8s-cli-apply-prune",
        "apply --prune | kubectl prune | prune deleted resources | pruned resources"
        " | apply prune | prune-allowlist",
        "shell",
        KUBECTL + S + r"*?\bapply\b" + S + r"*?\s--prune(?![\w-])",
        r"--dry-run\b(?!=none)",
        hits=(
            "kubectl apply -f k8s/ --prune -l app=api",
            "kubectl -n shop apply --prune --all -f manifests/",
            "oc apply -k overlays/prod --prune -l team=payments",
        ),
        safe=(
            "kubectl apply -f k8s/ -n shop",
            "kubectl apply -f k8s/ --prune -l app=api --dry-run=server",
            "kubectl diff -f k8s/",
            "kubectl apply -f k8s/ --prune -l app=api --dry-run=client",
        ),
    ),
    pattern(
        "az-owner-role",
        "owner role subscription | user access administrator | contributor on the subscription"
        " | role assignment owner | azure owner role",
        "shell",
        B
        + r"az\s+role\s+assignment\s+create\b(?:"
        + S
        # (or their ids: Owner's, User Access Administrator's, Contributor's)
        + r"*?--role(?:=|\s+)['\"]?(?:Owner|User Access Administrator"
        r"|8e3af657-a8ff-443c-a75c-2fe8c4bcb635|18d7d88d-d35e-4fb5-a5c3-7773c20a72d9)\b|(?="
        + S
        + r"*?--role(?:=|\s+)['\"]?(?:Contributor|b24988ac-6180-42a0-ab88-20f7382dd24c)\b)(?="
        + S
        + r"*?--scope(?:=|\s+)['\"]?/subscriptions/[^/\s'\"]+/?['\"]?(?=\s|$|[;&|])))",
        hits=(
            "az role assignment create --assignee $SP_ID --role Owner --scope /subscriptions/$SUB",
            "az role assignment create --role 'User Access Administrator' --assignee ci@acme.dev",
            "az role assignment create --assignee 1111-2222 --role Contributor"
            " --scope /subscriptions/0000-1111",
        ),
        safe=(
            "az role assignment create --assignee $SP_ID --role 'Storage Blob Data Reader'"
            " --scope /subscriptions/x/resourceGroups/rg",
            "az role assignment create --assignee 1111 --role Contributor"
            " --scope /subscriptions/0000/resourceGroups/rg-shop",
            "az role assignment list --assignee 1111",
            "az role assignment delete --assignee 1111 --role Owner",
        ),
    ),
    pattern(
        "gh-cli-secret-literal",
        "gh secret set | gh secret --body | github secret shell history | secret body literal",
        "shell",
        B + r"gh\s+secret\s+set\b" + S + r"*?\s(?:-b|--body(?=[=\s]))(?![=\s]*[\"']?\$)"
        # a literal piped in: ``echo -n abc123 | gh secret set NAME``
        r"|\b(?:echo|printf)\s+(?:-[a-zA-Z]+\s+)*['\"]?(?![$%])[^\s|;&'\"$]+['\"]?\s*\|\s*"
        r"gh\s+secret\s+set\b",
        hits=(
            "gh secret set NPM_TOKEN --body npm_abc123",
            "gh secret set -b 'sk_live_42' STRIPE_KEY --repo acme/api",
            "gh secret set AWS_SECRET --env prod --body=wJalrXUtnFEMI",
        ),
        safe=(
            "gh secret set NPM_TOKEN < token.txt",
            'gh secret set NPM_TOKEN --body "$NPM_TOKEN"',
            "gh secret list",
            "gh secret set -f .env.ci",
        ),
    ),
    pattern(
        "git-credential-store-plaintext",
        "credential.helper store | credential helper store"
        " | password in plain text git | plaintext git credentials | credential store plain",
        "shell",
        GIT + r"config\b" + S + r"*?\scredential(?:\.\S+?)?\.helper(?:=|\s+)['\"]?store\b"
        # git -c credential.helper=store <command>: the same helper for one command
        r"|(?<![\w./-])git\s+(?:-\S+\s+(?!-)\S+\s+)*?-c\s+['\"]?credential(?:\.\S+?)?\.helper=['\"]?"
        r"store\b"
        # the store's file written by hand
        r"|>>?\s*['\"]?(?:~|\$HOME|\$\{HOME\}|/root|/home/[\w.-]+)/\.git-credentials\b",
        hits=(
            "git config --global credential.helper store",
            "git config credential.helper 'store --file ~/.creds'",
            "git -C api config --local credential.https://github.com.helper store",
            "git config --system credential.helper store",
        ),
        safe=(
            "git config --global credential.helper osxkeychain",
            "git config --global credential.helper 'cache --timeout=3600'",
            "git config --global credential.helper manager",
            "git config --global user.email ana@acme.dev",
        ),
    ),
]
