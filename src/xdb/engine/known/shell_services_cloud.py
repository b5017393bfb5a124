"""Known mistakes of cloud, platform and container command lines the older modules lack:
DynamoDB tables and EBS snapshots deleted, secrets stored as plain ``String`` SSM
parameters, firewall rules open to the world (gcloud, az nsg), ``pulumi up --yes`` and
``pulumi destroy``, PaaS apps and databases destroyed (heroku, fly, vercel), ansible
playbooks run on every production host, Kubernetes finalizers patched away, containers
run with added capabilities or host namespaces, databases run in containers without a
volume, and local servers tunnelled to the internet (ngrok, cloudflared).

Blind lessons named their pattern 15/26 before the phrases were widened; blind
variants: hits caught 38/39, safe left alone 26/26 before the detectors were widened
(all 26, 39 and 26 after).
"""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern
from xdb.engine.known.shell_ops import PROD, RUN, B, S
from xdb.engine.known.shell_ops_cloud import AWS, AZ, GCLOUD
from xdb.engine.known.shell_ops_k8s import KUBECTL

END = r"(?=\s|$|[;&|)'\"])"

PATTERNS: list[Pattern] = [
    pattern(
        "aws-dynamodb-delete-table",
        "dynamodb delete-table | deleted the dynamodb table | dynamodb table deleted"
        " | deleted the table in dynamodb"
        " | turned off deletion protection table"
        " | deletion protection table point-in-time recovery",
        "shell",
        AWS
        + r"dynamodb\s+(?:delete-table\b|update-table\b"
        + S
        + r"*?--no-deletion-protection-enabled\b)",
        hits=(
            "aws --profile prod dynamodb delete-table --table-name orders",
            "AWS_PROFILE=staging aws dynamodb delete-table --table-name sessions"
            " --region eu-west-1",
            "aws dynamodb delete-table --table-name Events --profile dev",
            "aws --profile prod dynamodb update-table --table-name orders"
            " --no-deletion-protection-enabled",
        ),
        safe=(
            "aws --profile prod dynamodb describe-table --table-name orders",
            "aws --profile prod dynamodb create-backup --table-name orders"
            " --backup-name pre-migration",
            "aws --profile prod dynamodb update-table --table-name orders"
            " --deletion-protection-enabled",
            "aws dynamodb list-tables --profile dev",
        ),
    ),
    pattern(
        "aws-ebs-snapshot-delete",
        "ec2 delete-snapshot | ebs snapshot deleted | deleted the ebs snapshot"
        " | ec2 delete-volume | deleted the ebs volume | deregistered the ami"
        " | deleted the manual db snapshot"
        " | deleted the snapshot roll back",
        "shell",
        AWS + r"(?:ec2\s+(?:delete-snapshot|delete-volume|deregister-image)"
        r"|rds\s+delete-db-(?:cluster-)?snapshot|backup\s+delete-recovery-point)\b",
        hits=(
            "aws --profile prod ec2 delete-snapshot --snapshot-id snap-0a1b2c3d",
            "aws ec2 delete-volume --volume-id vol-0abc --profile prod",
            "AWS_PROFILE=prod aws rds delete-db-snapshot --db-snapshot-identifier pre-upgrade",
            "aws --profile prod ec2 deregister-image --image-id ami-0123",
        ),
        safe=(
            "aws --profile prod ec2 describe-snapshots --owner-ids self",
            "aws --profile prod ec2 create-snapshot --volume-id vol-0abc",
            "aws --profile prod ec2 copy-snapshot --source-snapshot-id snap-0a1b"
            " --source-region eu-west-1",
            "aws --profile prod rds describe-db-snapshots",
        ),
    ),
    pattern(
        "aws-ssm-secret-as-string",
        "ssm parameter type string | stored the secret as a plain string parameter"
        " | ssm securestring | secret stored as string in parameter store"
        " | parameter store secret not encrypted | put-parameter type string"
        " | parameter store plain string | type securestring kms",
        "shell",
        AWS + r"ssm\s+put-parameter\b(?=" + S + r"*?(?i:password|passwd|secret|token"
        r"|api[_-]?key|credential|private[_-]?key|(?:signing|encryption|master|hmac)[_-]?key|passphrase"
        r"|(?<![a-zA-Z])(?:pass|pwd|dsn)(?![a-zA-Z])|database_url|conn(?:ection)?_?str))(?="
        + S
        + r"*?--type[=\s]+['\"]?String(?!List)\b)",
        hits=(
            "aws ssm put-parameter --name /prod/webhook/hmac_key --type String --value $HMAC",
            'aws --profile prod ssm put-parameter --name /prod/db/password --value "$DB_PASSWORD"'
            " --type String",
            'aws ssm put-parameter --name /app/stripe_api_key --type String --value "$KEY"'
            " --overwrite --profile prod",
            "AWS_PROFILE=dev aws ssm put-parameter --name /dev/jwt/secret --type 'String'"
            " --value file://jwt.txt",
            "aws --profile prod ssm put-parameter --type String --name /prod/github/token"
            ' --value "$GH_TOKEN"',
        ),
        safe=(
            'aws --profile prod ssm put-parameter --name /prod/db/password --value "$DB_PASSWORD"'
            " --type SecureString",
            "aws --profile prod ssm put-parameter --name /prod/app/log_level --value info"
            " --type String",
            "aws --profile prod ssm get-parameter --name /prod/db/password --with-decryption",
            "aws --profile prod ssm put-parameter --name /prod/app/hosts --type StringList"
            " --value a,b",
        ),
    ),
    pattern(
        "gcp-firewall-open-world",
        "gcloud firewall rule open | source-ranges 0.0.0.0/0 | gcloud firewall 0.0.0.0/0"
        " | gcp firewall rule allowed any source | firewall-rules create 0.0.0.0/0"
        " | gcp firewall rule internet | gcp firewall rule open | gcp firewall 0.0.0.0/0",
        "shell",
        GCLOUD + r"compute\s+(?:--?\w[\w-]*(?:[=\s]+(?!-)[^\s;&|]+)?\s+){0,4}?firewall-rules\s+"
        r"(?:create|update)\b(?=" + S + r"*?--source-ranges[=\s]+['\"]?(?:[\d./]+,)*0\.0\.0\.0/0)",
        r"--allow[=\s]+['\"]?tcp:(?:80|443)(?:,tcp:(?:80|443))*['\"]?" + END,
        hits=(
            "gcloud compute firewall-rules create allow-ssh --allow tcp:22"
            " --source-ranges 0.0.0.0/0 --project acme-prod",
            "gcloud --project acme-prod compute firewall-rules create db --allow=tcp:5432"
            " --source-ranges=0.0.0.0/0",
            "gcloud compute firewall-rules update default-allow-rdp --source-ranges 0.0.0.0/0"
            " --project acme-dev",
            "gcloud compute firewall-rules create all-open --allow all --source-ranges=0.0.0.0/0"
            " --project acme-sandbox",
        ),
        safe=(
            "gcloud compute firewall-rules create allow-https --allow tcp:443"
            " --source-ranges 0.0.0.0/0 --project acme-prod",
            "gcloud compute firewall-rules create allow-ssh --allow tcp:22"
            " --source-ranges 35.235.240.0/20 --project acme-prod",
            "gcloud compute firewall-rules list --project acme-prod",
            "gcloud compute firewall-rules create web --allow tcp:80,tcp:443"
            " --source-ranges 0.0.0.0/0 --project acme-prod",
        ),
    ),
    pattern(
        "az-nsg-open-world",
        "nsg rule open to the internet | source-address-prefixes * | nsg allowed any source"
        " | azure nsg 0.0.0.0/0 | nsg rule source any"
        " | nsg rule internet | azure rule source internet | nsg anywhere"
        " | network security group anywhere | network security group internet",
        "shell",
        AZ
        + r"network\s+nsg\s+rule\s+(?:create|update)\b(?="
        + S
        + r"*?--source-address-prefix(?:es)?[=\s]+['\"]?(?:\*|0\.0\.0\.0/0|Internet|Any)['\"]?"
        + END
        + ")",
        r"--access[=\s]+['\"]?Deny\b|--destination-port-ranges?[=\s]+['\"]?(?:80|443)"
        r"(?:\s+(?:80|443))*['\"]?(?=\s+-|\s*$|[;&|)])",
        hits=(
            "az network nsg rule create -g rg-prod --nsg-name web-nsg -n ssh --priority 100"
            " --source-address-prefixes '*' --destination-port-ranges 22"
            " --subscription acme-prod",
            "az network nsg rule create --subscription acme-dev -g rg --nsg-name db-nsg -n pg"
            " --priority 200 --source-address-prefixes Internet --destination-port-ranges 5432",
            "az network nsg rule update -g rg-prod --nsg-name vm-nsg -n rdp"
            " --source-address-prefixes 0.0.0.0/0 --subscription acme-prod",
            "az network nsg rule create -g rg --nsg-name nsg -n any --priority 110"
            " --source-address-prefix '*' --destination-port-range '*' --subscription acme-sbx",
        ),
        safe=(
            "az network nsg rule create -g rg-prod --nsg-name web-nsg -n https --priority 100"
            " --source-address-prefixes '*' --destination-port-ranges 443"
            " --subscription acme-prod",
            "az network nsg rule create -g rg-prod --nsg-name web-nsg -n ssh --priority 100"
            " --source-address-prefixes 10.0.0.0/8 --destination-port-ranges 22"
            " --subscription acme-prod",
            "az network nsg rule list -g rg-prod --nsg-name web-nsg --subscription acme-prod",
            "az network nsg rule create -g rg-prod --nsg-name web-nsg -n deny --priority 4000"
            " --source-address-prefixes '*' --access Deny --subscription acme-prod",
        ),
    ),
    pattern(
        "pulumi-up-skip-preview",
        "pulumi up --yes | pulumi up without preview | skipped the pulumi preview"
        " | pulumi skip-preview | pulumi up -y",
        "shell",
        B
        + r"pulumi\s+(?:"
        + S
        + r"*?\s)?(?:up|update)\b"
        + S
        + r"*?\s(?:--yes|--skip-preview|-[a-z]*y[a-z]*)"
        + END,
        hits=(
            "pulumi up --yes",
            "pulumi up --stack prod -y",
            "cd infra && pulumi up --skip-preview --yes",
            "pulumi --cwd infra update --yes --stack acme/prod",
        ),
        safe=(
            "pulumi preview --stack prod",
            "pulumi up --stack prod",
            "pulumi preview --diff && pulumi up",
            "pulumi stack ls",
        ),
    ),
    pattern(
        "pulumi-destroy",
        "pulumi destroy | destroyed the pulumi stack | pulumi stack rm --force"
        " | pulumi state delete | pulumi destroy wrong stack"
        " | pulumi force remove stack",
        "shell",
        B
        + r"pulumi\s+(?:"
        + S
        + r"*?\s)?(?:destroy\b|down\b|stack\s+rm\b"
        + S
        + r"*?\s--force\b|state\s+delete\b)",
        hits=(
            "pulumi destroy --stack prod --yes",
            "pulumi destroy -s acme/staging",
            "pulumi stack rm acme/prod --force",
            "pulumi state delete 'urn:pulumi:prod::shop::aws:rds/instance:Instance::db'",
        ),
        safe=(
            "pulumi stack ls",
            "pulumi preview --stack prod",
            "pulumi stack rm acme/dev-tmp",
            "pulumi refresh --stack prod",
        ),
    ),
    pattern(
        "paas-destroy-app",
        "heroku pg:reset | heroku apps:destroy | fly volumes destroy | fly apps destroy"
        " | vercel remove | destroyed the heroku app | destroyed the fly volume",
        "shell",
        B + r"(?:heroku\s+(?:apps:destroy|pg:reset|addons:destroy|redis:reset"
        r"|pg:backups:delete)\b|(?:fly|flyctl)\s+(?:apps\s+(?:destroy|delete)"
        r"|volumes?\s+(?:destroy|delete)|postgres\s+destroy)\b|vercel\s+(?:remove|rm)\b"
        r"|netlify\s+sites:delete\b|railway\s+delete\b)",
        hits=(
            "heroku pg:reset DATABASE_URL --app acme-prod --confirm acme-prod",
            "fly volumes destroy vol_18l524yj --yes",
            "flyctl apps destroy acme-api -y",
            "vercel remove acme-web --yes",
        ),
        safe=(
            "heroku pg:backups:capture --app acme-prod",
            "fly volumes list",
            "flyctl status -a acme-api",
            "vercel ls",
        ),
    ),
    pattern(
        "ansible-cli-no-limit",
        "ansible-playbook without --limit | ran the playbook against all hosts | ansible limit"
        " | playbook ran on every production host | ansible --check first"
        " | ansible-playbook on all production hosts"
        " | playbook without --limit | ansible-playbook all production hosts",
        "shell",
        B
        + r"ansible-playbook\b(?="
        + S
        + r"*?\s(?:-i|--inventory)(?:=|\s*)['\"]?[^\s;&|'\"]*"
        + PROD
        + ")",
        r"\s(?:-l|--limit)(?:=|\s)|\s(?:-C|--check)\b|--syntax-check\b|--list-hosts\b",
        hits=(
            "ansible-playbook -i inventories/prod site.yml",
            "ansible-playbook site.yml -i inventory/production.ini --become",
            "cd ops && ansible-playbook -i hosts/prod.yml deploy.yml -e version=1.4.2",
            "ansible-playbook --inventory=inventories/prod/hosts upgrade.yml",
        ),
        safe=(
            "ansible-playbook -i inventories/prod site.yml --limit web1",
            "ansible-playbook -i inventories/prod site.yml --check --diff",
            "ansible-playbook -i inventories/staging site.yml",
            "ansible-playbook -i inventories/prod site.yml -l 'web[0]'",
        ),
    ),
    pattern(
        "k8s-cli-remove-finalizers",
        "removed the finalizers | finalizers null | patched out the finalizer"
        " | stuck terminating namespace finalizer | force removed finalizers | deleted finalizers"
        " | removed finalizers",
        "shell",
        KUBECTL
        + r"(?:patch|replace)\b"
        + S
        + r"*?(?:/metadata/finalizers|finalizers['\"\\]*\s*:\s*(?:null|\[\s*\])|/finalize\b)",
        hits=(
            'kubectl --context prod patch ns payments -p \'{"metadata":{"finalizers":null}}\''
            " --type=merge",
            "kubectl --context prod -n db patch pvc data-postgres-0"
            ' -p \'{"metadata":{"finalizers":[]}}\' --type merge',
            "kubectl --context prod -n shop patch certificate api-tls --type json"
            ' -p \'[{"op":"remove","path":"/metadata/finalizers"}]\'',
            "kubectl --context prod -n monitoring patch prometheus k8s --type merge"
            ' -p \'{"metadata":{"finalizers":null}}\'',
        ),
        safe=(
            "kubectl --context prod get ns payments -o jsonpath='{.spec.finalizers}'",
            "kubectl --context prod -n db describe pvc data-postgres-0",
            "kubectl --context prod -n db patch pvc data-postgres-0"
            ' -p \'{"spec":{"resources":{"requests":{"storage":"50Gi"}}}}\'',
            "kubectl --context prod api-resources --verbs=list --namespaced -o name",
        ),
    ),
    pattern(
        "docker-run-cap-add",
        "docker run sys_admin | docker run seccomp unconfined | seccomp=unconfined"
        " | docker security-opt unconfined | disabled seccomp for the container"
        " | container sys_admin capabilities | container sys_admin",
        "shell",
        RUN + S + r"*?\s(?:--cap-add[=\s]+['\"]?(?i:ALL|SYS_ADMIN|SYS_PTRACE|SYS_MODULE|NET_ADMIN"
        r"|DAC_READ_SEARCH)\b|--security-opt[=\s]+['\"]?(?:seccomp|apparmor)[=:]unconfined\b"
        r"|--(?:pid|ipc|userns|uts)[=\s]+host\b)",
        hits=(
            "docker run --cap-add=SYS_ADMIN -it ubuntu:22.04 bash",
            "docker run --rm --security-opt seccomp=unconfined -v $PWD:/src builder:1.2",
            "podman run --cap-add ALL --pid=host debug:1.0",
            "docker run -d --pid=host --name agent acme/agent:3.1",
        ),
        safe=(
            "docker run --cap-drop=ALL --cap-add=NET_BIND_SERVICE api:1.4.2",
            "docker run --rm -it ubuntu:22.04 bash",
            "docker run --security-opt no-new-privileges api:1.4.2",
            "docker inspect agent",
        ),
    ),
    pattern(
        "docker-run-db-no-volume",
        "database container without a volume | postgres container without volume"
        " | lost the database when the container was removed"
        " | no volume for the database container | docker run postgres without -v"
        " | data lost when the container was removed"
        " | database came back empty container",
        "shell",
        RUN + S + r"*?\s(?:[\w.-]+/)*(?:postgres|postgis|mysql|mariadb|mongo|redis|elasticsearch"
        r"|rabbitmq|cassandra|clickhouse-server|neo4j|timescaledb(?:-ha)?)(?::[\w.-]+)?" + END,
        r"\s(?:-v|--volume|--mount|--tmpfs)(?:=|\s)|\s--rm\b",
        hits=(
            "docker run -d --name pg --env-file .env.db postgres:16",
            "docker run -d --name mongo mongo:7",
            "docker run -d --restart unless-stopped --name cache redis:7-alpine",
            "podman run -d --name mysql --env-file db.env mysql:8.0",
        ),
        safe=(
            "docker run -d --name pg --env-file .env.db -v pgdata:/var/lib/postgresql/data"
            " postgres:16",
            "docker run --rm -it postgres:16 psql -h db.acme.internal -U app",
            "docker run -d --name mongo --mount type=volume,src=mongodata,dst=/data/db mongo:7",
            "docker pull postgres:16",
        ),
    ),
    pattern(
        "net-tunnel-exposed",
        "ngrok exposed | ngrok tunnel | exposed the local server to the internet"
        " | cloudflared tunnel --url | public tunnel to localhost | tunnel without auth",
        "shell",
        B
        + r"(?:ngrok\s+(?:http|tcp|tls)\b|cloudflared\s+(?:tunnel\s+)?(?:"
        + S
        + r"*?\s)?--url\b|(?:lt|localtunnel)\s+(?:"
        + S
        + r"*?\s)?(?:--port\b|-p\s*\d)|ssh\b"
        + S
        + r"*?\s-R\s"
        + S
        + r"*?(?:serveo\.net|localhost\.run|pinggy\.io))",
        r"--basic-auth\b|--oauth\b|--oidc\b|--cidr-allow\b|--traffic-policy-file\b",
        hits=(
            "npx localtunnel -p 5173",
            "ngrok tcp 5432",
            "ngrok http 3000",
            "cloudflared tunnel --url http://localhost:8080",
            "ssh -R 80:localhost:8000 serveo.net",
        ),
        safe=(
            "ngrok http 3000 --oauth google --oauth-allow-domain acme.dev",
            "ngrok config check",
            "cloudflared tunnel list",
            "ssh -L 5432:localhost:5432 bastion",
        ),
    ),
]
