"""Known mistakes of the aws command line: recursive s3 deletes, sync --delete, terminated
instances, RDS without a final snapshot, long-lived keys, public ACLs, the wrong profile,
stacks and secrets deleted, security groups open to the world.

gcloud, gsutil and az are in ``shell_ops_gcp_azure``; terraform is in ``shell_ops_tf``.
"""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern
from xdb.engine.known.shell_ops import B, S

# aws, gcloud and az with their global options (--profile p, --region r) before the service.
AWS = B + r"aws(?:\s+--?\w[\w-]*(?:[=\s]+(?!-)[^\s;&|]+)?)*?\s+"
GCLOUD = B + r"gcloud(?:\s+--?\w[\w-]*(?:[=\s]+(?!-)[^\s;&|]+)?)*?\s+(?:(?:alpha|beta)\s+)?"
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
        AWS
        + r"cloudformation\s+delete-stack\b|"
        + B
        + r"(?:(?:cdk|sam)\s+(?:destroy|delete)|(?:sls|serverless)\s+remove)\b",
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
]
