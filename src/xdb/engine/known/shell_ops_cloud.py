"""Known mistakes of the clouds' command lines: aws (recursive s3 deletes, sync --delete,
terminated instances, RDS without a final snapshot, long-lived keys, public ACLs, the
wrong profile, stacks and secrets deleted, security groups open to the world), gcloud /
gsutil (no --project, projects and instances deleted, recursive removals, rsync -d,
allUsers, service account keys) and az (resource groups and resources deleted, no
--subscription, public blob access).

terraform is in ``shell_ops_tf``.
"""

from __future__ import annotations

from xdb.engine.known.model import Pattern, pattern
from xdb.engine.known.shell_ops import B, S

# aws, gcloud and az with their global options (--profile p, --region r) before the service.
AWS = B + r"aws(?:\s+--?[\w-]+(?:[=\s]+(?!-)[^\s;&|]+)?)*?\s+"
GCLOUD = B + r"gcloud(?:\s+--?[\w-]+(?:[=\s]+(?!-)[^\s;&|]+)?)*?\s+(?:(?:alpha|beta)\s+)?"
GSUTIL = B + r"gsutil\b"
AZ = B + r"az\s+"
# A value that is not a variable's expansion: a literal typed on the command line.
LITERAL = r"(?![\"']?\$)[\"']?[^\s\"'$]"

PATTERNS: list[Pattern] = [
    # ------------------------------------------------------------------- aws
    pattern(
        "aws-s3-rm-recursive",
        "s3 rm recursive | deleted bucket contents | s3 rb force | emptied s3 bucket | aws s3 rm"
        " | s3 recursive | removed every object s3 | s3 prefix removed",
        "shell",
        AWS + r"s3\s+(?:rm\b" + S + r"*\s--recursive\b|rb\b" + S + r"*\s--force\b)",
        r"\s--dryrun\b",
        hits=(
            "aws s3 rm s3://acme-assets/ --recursive",
            "aws --profile prod s3 rm --recursive s3://acme-logs/2024/",
            "aws s3 rb s3://acme-tmp --force",
            "AWS_PROFILE=prod aws s3 rm \"s3://$BUCKET/uploads\" --recursive --exclude '*.keep'",
        ),
        safe=(
            "aws s3 rm s3://acme-assets/old/logo.png",
            "aws s3 rm s3://acme-assets/ --recursive --dryrun",
            "aws s3 ls s3://acme-assets/ --recursive",
            "aws s3 rb s3://acme-empty-bucket",
        ),
    ),
    pattern(
        "aws-s3-sync-delete",
        "s3 sync delete | aws sync delete | s3 sync --delete | s3 sync dryrun"
        " | sync deleted bucket files",
        "shell",
        AWS + r"s3\s+sync\b" + S + r"*\s--delete\b",
        r"\s--dryrun\b",
        hits=(
            "aws s3 sync ./dist s3://acme-site --delete",
            "aws s3 sync --delete build/ s3://acme-web/",
            "aws --region eu-west-1 s3 sync s3://acme-prod s3://acme-backup --delete",
            'cd web && aws s3 sync out/ "s3://$BUCKET" --delete --cache-control max-age=300',
        ),
        safe=(
            "aws s3 sync ./dist s3://acme-site",
            "aws s3 sync ./dist s3://acme-site --delete --dryrun",
            "aws s3 cp ./dist/index.html s3://acme-site/index.html",
            "aws s3 ls s3://acme-site",
        ),
    ),
    pattern(
        "aws-ec2-terminate",
        "terminate instances | ec2 terminate | terminated wrong instance | termination protection"
        " | terminate-instances",
        "shell",
        AWS + r"ec2\s+terminate-instances\b",
        r"\s--dry-run\b",
        hits=(
            "aws ec2 terminate-instances --instance-ids i-0abc123",
            "aws --profile prod ec2 terminate-instances --instance-ids $(cat ids.txt)",
            "aws ec2 terminate-instances --region us-east-1 --instance-ids i-1 i-2",
            "for id in $IDS; do aws ec2 terminate-instances --instance-ids $id; done",
        ),
        safe=(
            "aws ec2 describe-instances --instance-ids i-0abc123",
            "aws ec2 terminate-instances --instance-ids i-0abc123 --dry-run",
            "aws ec2 stop-instances --instance-ids i-0abc123",
            "aws ec2 modify-instance-attribute --instance-id i-0abc --disable-api-termination",
        ),
    ),
    pattern(
        "aws-rds-delete-no-snapshot",
        "skip-final-snapshot | final snapshot | rds delete | deleted rds instance"
        " | delete-db-instance | deleted rds cluster",
        "shell",
        AWS + r"rds\s+delete-db-(?:instance|cluster)\b",
        r"--final-db-snapshot-identifier[=\s]|--no-skip-final-snapshot\b",
        hits=(
            "aws rds delete-db-instance --db-instance-identifier shop-prod --skip-final-snapshot",
            "aws rds delete-db-cluster --db-cluster-identifier ledger --skip-final-snapshot"
            " --delete-automated-backups",
            "aws --profile staging rds delete-db-instance --db-instance-identifier tmp"
            " --skip-final-snapshot",
        ),
        safe=(
            "aws rds delete-db-instance --db-instance-identifier shop-old"
            " --final-db-snapshot-identifier shop-old-final-2024",
            "aws rds describe-db-instances",
            "aws rds create-db-snapshot --db-instance-identifier shop"
            " --db-snapshot-identifier pre-upgrade",
            "aws rds delete-db-snapshot --db-snapshot-identifier tmp-snap",
        ),
    ),
    pattern(
        "aws-iam-access-key",
        "aws access key | iam access key | secret access key | long-lived credentials"
        " | static aws credentials | akia",
        "shell",
        AWS
        + r"iam\s+create-access-key\b|"
        + AWS
        + r"configure\s+set\s+(?:\S+\.)?aws_secret_access_key\s+"
        + LITERAL
        + r"|(?i:aws_secret_access_key)\s*=\s*(?![\"']?\$)[\"']?[A-Za-z0-9/+]{30,}"
        r"|\bAKIA[0-9A-Z]{16}\b",
        hits=(
            "aws iam create-access-key --user-name ci-deployer",
            "aws configure set aws_secret_access_key wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY",
            "export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE",
            "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY aws s3 ls",
        ),
        safe=(
            "aws sts get-caller-identity",
            "aws iam list-access-keys --user-name ci-deployer",
            "aws configure set region eu-west-1",
            'export AWS_SECRET_ACCESS_KEY="$CI_AWS_SECRET"',
            "aws sso login --profile prod",
        ),
    ),
    pattern(
        "aws-s3-public-acl",
        "public-read | public s3 bucket | public bucket acl | bucket made public"
        " | block public access | s3 object public"
        " | s3 publicly readable | allusers read | s3 objects public",
        "shell",
        AWS + r"(?:s3|s3api)\s" + S + r"*(?:--acl[=\s]+[\"']?public-read"
        r"|--grant-(?:read|full-control)[=\s]+[\"']?uri=\S*AllUsers"
        r"|delete-public-access-block\b|Block\w+=false|\"Block\w+\"\s*:\s*false)",
        hits=(
            "aws s3 cp report.pdf s3://acme-share/ --acl public-read",
            "aws s3 sync ./site s3://acme-site --acl public-read-write",
            "aws s3api put-object-acl --bucket acme --key a.txt"
            " --grant-read uri=http://acs.amazonaws.com/groups/global/AllUsers",
            "aws s3api delete-public-access-block --bucket acme-assets",
            "aws s3api put-public-access-block --bucket acme"
            " --public-access-block-configuration BlockPublicAcls=false,IgnorePublicAcls=false",
        ),
        safe=(
            "aws s3 cp report.pdf s3://acme-share/ --acl bucket-owner-full-control",
            "aws s3 cp report.pdf s3://acme-share/",
            "aws s3api put-public-access-block --bucket acme --public-access-block-configuration"
            " BlockPublicAcls=true,IgnorePublicAcls=true,BlockPublicPolicy=true",
            "aws s3 presign s3://acme-share/report.pdf --expires-in 3600",
        ),
    ),
    pattern(
        "aws-wrong-profile",
        "aws profile | wrong aws account | wrong aws profile | default aws profile"
        " | aws account mix up",
        "shell",
        AWS + r"(?:[\w-]+\s+(?:delete|terminate|put|update|modify|remove|create|attach|detach"
        r"|stop|reboot|revoke|authorize|deregister|purge)-[\w-]+|s3\s+(?:rm|rb|mv|sync)\b)",
        r"--profile[=\s]|\bAWS_PROFILE=|\baws-vault\s+exec\b|\bAWS_ACCESS_KEY_ID=",
        hits=(
            "aws s3 rm s3://acme-logs/2023/ --recursive",
            "aws ec2 terminate-instances --instance-ids i-0abc",
            "aws lambda update-function-code --function-name api --zip-file fileb://api.zip",
            "aws --region eu-west-1 dynamodb delete-table --table-name sessions",
        ),
        safe=(
            "aws --profile staging lambda update-function-code --function-name api"
            " --zip-file fileb://api.zip",
            "AWS_PROFILE=prod aws s3 sync ./dist s3://acme-site",
            "aws s3 ls",
            "aws sts get-caller-identity",
            "aws-vault exec prod -- aws ec2 stop-instances --instance-ids i-0abc",
        ),
    ),
    pattern(
        "aws-cfn-delete-stack",
        "cloudformation delete | cloudformation stack deleted | cdk destroy | sam delete"
        " | stack deletion protection",
        "shell",
        AWS + r"cloudformation\s+delete-stack\b|" + B + r"(?:cdk|sam)\s+(?:destroy|delete)\b",
        hits=(
            "aws cloudformation delete-stack --stack-name shop-prod",
            "npx cdk destroy --all --force",
            "cdk destroy ApiStack",
            "sam delete --stack-name api --no-prompts",
        ),
        safe=(
            "aws cloudformation describe-stacks --stack-name shop-prod",
            "npx cdk diff ApiStack",
            "cdk deploy ApiStack --require-approval broadening",
            "aws cloudformation update-termination-protection"
            " --enable-termination-protection --stack-name shop-prod",
        ),
    ),
    pattern(
        "aws-secret-force-delete",
        "force-delete-without-recovery | secret recovery window | secretsmanager delete"
        " | force deleted secret | deleted secret without recovery",
        "shell",
        AWS + r"secretsmanager\s+delete-secret\b" + S + r"*--force-delete-without-recovery\b",
        hits=(
            "aws secretsmanager delete-secret --secret-id prod/db --force-delete-without-recovery",
            "aws --profile prod secretsmanager delete-secret --force-delete-without-recovery"
            " --secret-id old/api",
            'aws secretsmanager delete-secret --secret-id "$ARN" --force-delete-without-recovery',
        ),
        safe=(
            "aws secretsmanager delete-secret --secret-id old/api --recovery-window-in-days 30",
            "aws secretsmanager get-secret-value --secret-id prod/db",
            "aws secretsmanager restore-secret --secret-id old/api",
        ),
    ),
    pattern(
        "aws-sg-open-world",
        "security group open | open to the world | ssh open to internet | cidr 0.0.0.0/0"
        " | ingress from anywhere",
        "shell",
        AWS + r"ec2\s+authorize-security-group-ingress\b" + S + r"*(?:0\.0\.0\.0/0|::/0)",
        r"--port[=\s]+(?:80|443)\b|FromPort\"?\s*[=:]\s*(?:80|443)\b",
        hits=(
            "aws ec2 authorize-security-group-ingress --group-id sg-0abc --protocol tcp --port 22"
            " --cidr 0.0.0.0/0",
            "aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol tcp --port 5432"
            " --cidr 0.0.0.0/0",
            "aws ec2 authorize-security-group-ingress --group-id sg-1 --ip-permissions"
            " IpProtocol=tcp,FromPort=3389,ToPort=3389,IpRanges=[{CidrIp=0.0.0.0/0}]",
            "aws ec2 authorize-security-group-ingress --group-id sg-1 --protocol -1"
            " --cidr 0.0.0.0/0",
        ),
        safe=(
            "aws ec2 authorize-security-group-ingress --group-id sg-0abc --protocol tcp --port 22"
            " --cidr 203.0.113.7/32",
            "aws ec2 authorize-security-group-ingress --group-id sg-0abc --protocol tcp"
            " --port 443 --cidr 0.0.0.0/0",
            "aws ec2 describe-security-groups --group-ids sg-0abc",
        ),
    ),
    # ---------------------------------------------------------------- gcloud
    pattern(
        "gcp-no-project",
        "wrong gcp project | wrong gcloud project | gcloud default project"
        " | gcloud without project | gcloud project flag",
        "shell",
        GCLOUD + r"(?!config\s|auth\s)(?:[\w-]+\s+){0,4}?(?:delete|create|deploy|update|patch"
        r"|resize|set-iam-policy|add-iam-policy-binding|remove-iam-policy-binding|stop|reset"
        r"|import|rm|mv|rsync)\b",
        r"--project[=\s]|\bCLOUDSDK_CORE_PROJECT=|config\s+set\s+(?:core/)?project\b",
        hits=(
            "gcloud run deploy api --image gcr.io/acme/api:1.4.2 --region europe-west1",
            "gcloud compute instances delete web-1 --zone us-central1-a",
            "gcloud sql instances patch shop-db --tier db-custom-2-7680",
            "gcloud beta functions deploy ingest --runtime python312",
        ),
        safe=(
            "gcloud run deploy api --image gcr.io/acme/api:1.4.2 --project acme-prod",
            "gcloud config set project acme-staging && gcloud run deploy api --source .",
            "gcloud compute instances list",
            "CLOUDSDK_CORE_PROJECT=acme-dev gcloud sql instances patch shop-db --tier db-f1-micro",
            "gcloud config configurations create staging",
        ),
    ),
    pattern(
        "gcp-delete-project",
        "gcloud projects delete | deleted gcp project | gcp project deletion"
        " | shut down gcp project",
        "shell",
        GCLOUD + r"projects\s+delete\b",
        hits=(
            "gcloud projects delete acme-sandbox",
            "gcloud projects delete acme-old --quiet",
            "gcloud alpha projects delete $PROJECT_ID",
        ),
        safe=(
            "gcloud projects list",
            "gcloud projects describe acme-prod",
            "gcloud projects undelete acme-sandbox",
        ),
    ),
    pattern(
        "gcp-delete-instance",
        "gcloud instances delete | deleted cloud sql instance | deleted gke cluster"
        " | deleted compute instance | gcp deletion protection",
        "shell",
        GCLOUD + r"(?:sql\s+(?:instances|databases)|compute\s+(?:instances|disks|snapshots)"
        r"|container\s+clusters|redis\s+instances|spanner\s+(?:instances|databases)"
        r"|bigtable\s+instances|alloydb\s+clusters|filestore\s+instances"
        r"|firestore\s+databases)\s+delete\b",
        hits=(
            "gcloud sql instances delete shop-db",
            "gcloud compute instances delete web-1 web-2 --zone us-central1-a --quiet",
            "gcloud container clusters delete prod-gke --region europe-west1",
            "gcloud --project acme compute disks delete data-1",
        ),
        safe=(
            "gcloud sql instances list",
            "gcloud compute instances stop web-1 --zone us-central1-a",
            "gcloud container clusters get-credentials prod-gke --region europe-west1",
            "gcloud sql instances patch shop-db --deletion-protection",
        ),
    ),
    pattern(
        "gcp-storage-rm-recursive",
        "gsutil rm | gsutil rm -r | gcloud storage rm | deleted gcs bucket objects"
        " | emptied gcs bucket"
        " | cloud storage recursive delete | gcs recursive delete | gcs bucket deleted",
        "shell",
        GSUTIL + S + r"*\s(?:rm\b" + S + r"*(?:\s-[a-zA-Z]*[rR][a-zA-Z]*\b|\s--recursive\b"
        r"|gs://\S*\*\*)|rb\b)|"
        + GCLOUD
        + r"storage\s+(?:rm\b"
        + S
        + r"*(?:\s-r\b|\s--recursive\b|gs://\S*\*\*)|buckets\s+delete\b)",
        hits=(
            "gsutil -m rm -r gs://acme-uploads/tmp",
            "gsutil rm -rf gs://acme-cache/*",
            "gcloud storage rm --recursive gs://acme-logs/2023",
            "gcloud storage rm gs://acme-build/**",
            "gsutil rb gs://acme-old",
        ),
        safe=(
            "gsutil ls gs://acme-uploads",
            "gsutil rm gs://acme-uploads/tmp/file.txt",
            "gcloud storage cp report.pdf gs://acme-share/",
            "gcloud storage ls --recursive gs://acme-logs",
        ),
    ),
    pattern(
        "gcp-storage-rsync-delete",
        "gsutil rsync -d | gsutil rsync delete | delete unmatched destination objects"
        " | gcloud storage rsync delete"
        " | rsync gcs | gcs bucket rsync | rsync bucket deletion",
        "shell",
        GSUTIL
        + S
        + r"*\srsync\b"
        + S
        + r"*\s-[a-zA-Z]*d[a-zA-Z]*\b|"
        + GCLOUD
        + r"storage\s+rsync\b"
        + S
        + r"*--delete-unmatched-destination-objects\b",
        r"gsutil\b" + S + r"*\srsync\b" + S + r"*\s-[a-zA-Z]*n[a-zA-Z]*\b|--dry-run\b",
        hits=(
            "gsutil -m rsync -r -d ./dist gs://acme-site",
            "gsutil rsync -rd gs://acme-prod gs://acme-backup",
            "gcloud storage rsync ./build gs://acme-web --recursive"
            " --delete-unmatched-destination-objects",
        ),
        safe=(
            "gsutil -m rsync -r ./dist gs://acme-site",
            "gsutil rsync -rdn gs://acme-prod gs://acme-backup",
            "gcloud storage rsync ./build gs://acme-web --recursive"
            " --delete-unmatched-destination-objects --dry-run",
            "gsutil cp -r ./dist gs://acme-site",
        ),
    ),
    pattern(
        "gcp-public-iam",
        "allUsers | allAuthenticatedUsers | public gcs bucket | made bucket public gcp"
        " | public access gcs",
        "shell",
        B
        + r"(?:gcloud|gsutil)\b"
        + S
        + r"*(?:\b(?:allUsers|allAuthenticatedUsers|AllUsers|AllAuthenticatedUsers)\b"
        r"|\s(?:def)?acl\s+set\s+public-read)",
        hits=(
            "gsutil iam ch allUsers:objectViewer gs://acme-share",
            "gcloud storage buckets add-iam-policy-binding gs://acme-share --member=allUsers"
            " --role=roles/storage.objectViewer",
            "gcloud functions add-iam-policy-binding ingest --member=allAuthenticatedUsers"
            " --role=roles/cloudfunctions.invoker",
            "gsutil acl ch -u AllUsers:R gs://acme-share/report.pdf",
            "gsutil defacl set public-read gs://acme-share",
        ),
        safe=(
            "gsutil iam ch user:ana@acme.dev:objectViewer gs://acme-share",
            "gcloud storage buckets add-iam-policy-binding gs://acme-share"
            " --member=serviceAccount:app@acme.iam.gserviceaccount.com"
            " --role=roles/storage.objectViewer",
            "gsutil signurl -d 1h signer.json gs://acme-share/report.pdf",
        ),
    ),
    pattern(
        "gcp-sa-key",
        "service account key | service account json key | gcp key file"
        " | workload identity federation | long-lived gcp key",
        "shell",
        GCLOUD + r"iam\s+service-accounts\s+keys\s+create\b",
        hits=(
            "gcloud iam service-accounts keys create key.json"
            " --iam-account=ci@acme.iam.gserviceaccount.com",
            "gcloud iam service-accounts keys create ./sa.json"
            " --iam-account deployer@acme-prod.iam.gserviceaccount.com",
            "gcloud --project acme iam service-accounts keys create /tmp/k.json"
            " --iam-account x@acme.iam.gserviceaccount.com",
        ),
        safe=(
            "gcloud iam service-accounts create deployer",
            "gcloud iam service-accounts keys list --iam-account=ci@acme.iam.gserviceaccount.com",
            "gcloud auth application-default login",
            "gcloud iam service-accounts keys delete 1a2b3c"
            " --iam-account=ci@acme.iam.gserviceaccount.com",
        ),
    ),
    # -------------------------------------------------------------------- az
    pattern(
        "az-group-delete",
        "az group delete | deleted resource group | resource group deletion"
        " | azure resource group deleted",
        "shell",
        AZ + r"group\s+delete\b",
        hits=(
            "az group delete --name rg-shop-prod --yes",
            "az group delete -n rg-tmp -y --no-wait",
            "az group delete --resource-group rg-staging",
        ),
        safe=(
            "az group list -o table",
            "az group show -n rg-shop-prod",
            "az group create -n rg-tmp -l westeurope",
            "az group lock create --lock-type CanNotDelete -n keep -g rg-shop-prod",
        ),
    ),
    pattern(
        "az-resource-delete",
        "az delete | deleted azure resource | az vm delete | az sql db delete"
        " | deleted storage account | keyvault purge",
        "shell",
        AZ + r"(?:vm|vmss|aks|webapp|functionapp|cosmosdb|redis|keyvault|storage\s+account"
        r"|sql\s+(?:db|server|mi)|(?:postgres|mysql)\s+(?:flexible-server|server))"
        r"\s+(?:delete|purge)\b",
        hits=(
            "az vm delete -g rg-shop -n web-1 --yes",
            "az sql db delete -g rg-shop -s shop-sql -n orders --yes",
            "az storage account delete -n acmeassets -g rg-shop -y",
            "az keyvault purge --name kv-shop-prod",
            "az postgres flexible-server delete -g rg -n shop-pg --yes",
        ),
        safe=(
            "az vm list -g rg-shop -o table",
            "az vm deallocate -g rg-shop -n web-1",
            "az sql db show -g rg-shop -s shop-sql -n orders",
            "az storage account show -n acmeassets",
        ),
    ),
    pattern(
        "az-no-subscription",
        "az subscription | wrong azure subscription | az account set | default azure subscription"
        " | wrong subscription az",
        "shell",
        AZ + r"(?!account\s|login\b|config\s)(?:[\w-]+\s+){0,4}?(?:create|delete|update|purge"
        r"|restart|stop|start|scale|deploy|swap|set)\b",
        r"--subscription[=\s]|\baccount\s+set\b",
        hits=(
            "az group create -n rg-tmp -l westeurope",
            "az webapp deploy -g rg-shop -n shop-web --src-path app.zip",
            "az aks scale -g rg-shop -n aks-prod --node-count 5",
            "az deployment group create -g rg-shop -f main.bicep",
        ),
        safe=(
            "az account set --subscription acme-staging && az group create -n rg-tmp -l westeurope",
            "az group create -n rg-tmp -l westeurope --subscription acme-dev",
            "az account show",
            "az vm list -o table",
        ),
    ),
    pattern(
        "az-storage-public",
        "blob public access | public container azure | anonymous blob access"
        " | public blob container | allow-blob-public-access",
        "shell",
        AZ
        + r"storage\s+(?:container\s+(?:create|set-permission)\b"
        + S
        + r"*--public-access[=\s]+[\"']?(?:blob|container)\b|account\s+(?:create|update)\b"
        + S
        + r"*--allow-blob-public-access(?:[=\s]+[\"']?true\b"
        r"|(?=\s+-|\s*$|\s*[;&|)]|\s*['\"]+(?:\s|$|[;&|)]))))",
        hits=(
            "az storage container create -n assets --account-name acmeassets --public-access blob",
            "az storage container set-permission -n share --public-access container"
            " --account-name acme",
            "az storage account update -n acmeassets -g rg --allow-blob-public-access true",
            "az storage account create -n acmeweb -g rg --allow-blob-public-access",
        ),
        safe=(
            "az storage container create -n assets --account-name acmeassets --public-access off",
            "az storage account update -n acmeassets -g rg --allow-blob-public-access false",
            "az storage blob upload -c assets -f logo.png -n logo.png --account-name acmeassets",
        ),
    ),
]
