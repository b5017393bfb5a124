"""Known mistakes of terraform / OpenTofu / terragrunt command lines: destroy,
-auto-approve, apply without a saved plan, state surgery, -target, taint and -replace,
lock overrides, init -upgrade, the wrong workspace, secrets typed into -var.
"""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern
from xdb.engine.known.shell_ops import B, S

# terraform (tofu, terragrunt) with its global options (-chdir=dir) before the subcommand.
TF = B + r"(?:terraform|tofu|terragrunt)(?:\s+-\S+)*\s+(?:run-all\s+)?"
# A value that is not a variable's expansion: a literal typed on the command line.
LITERAL = r"(?![\"']?\$)[\"']?[^\s\"'$]"

PATTERNS: list[Pattern] = [
    pattern(
        "tf-destroy",
        "terraform destroy | destroyed infrastructure | tofu destroy | ran terraform destroy"
        " | apply -destroy",
        "shell",
        TF + r"(?:destroy(?![\w.-])|apply\b" + S + r"*\s--?destroy\b)",
        hits=(
            "terraform destroy",
            "terraform -chdir=infra/prod destroy -auto-approve",
            "cd envs/staging && terraform apply -destroy -var-file=staging.tfvars",
            "terragrunt run-all destroy",
        ),
        safe=(
            "terraform plan -destroy -out=destroy.tfplan",
            "terraform apply destroy.tfplan",
            "terraform state list",
            "terraform plan -out=tfplan",
        ),
    ),
    pattern(
        "tf-auto-approve",
        "auto-approve | auto approve | terraform approve | skipped plan review"
        " | applied without approval",
        "shell",
        TF + r"(?:apply|destroy)\b" + S + r"*\s--?auto-approve\b(?!=false)",
        hits=(
            "terraform apply -auto-approve",
            "terraform -chdir=infra apply --auto-approve -var-file=prod.tfvars",
            "tofu destroy -auto-approve",
            "cd infra && terraform apply -input=false -auto-approve",
        ),
        safe=(
            "terraform apply tfplan",
            "terraform apply -auto-approve=false",
            "terraform plan -out=tfplan",
            "terraform apply",
        ),
    ),
    pattern(
        "tf-apply-without-plan",
        "apply without plan | saved plan | terraform plan first | unreviewed terraform plan"
        " | apply saved plan file",
        "shell",
        TF
        + r"apply(?:\s+--?(?:var-file|var|target|replace|parallelism|lock-timeout|state-out|state"
        r"|backup)\s+(?!-)(?:'[^'\n]*'|\"[^\"\n]*\"|[^\s;&|]+)|\s+-[^\s;&|]+)*"
        r"\s*(?=$|[;&|)]|['\"]+(?:\s|$|[;&|)]))",
        r"\splan\b" + S + r"*\s--?out[=\s]",
        hits=(
            "terraform apply",
            "terraform -chdir=infra apply -var-file=prod.tfvars",
            "cd envs/prod && terraform apply -auto-approve && echo ok",
            "tofu apply -input=false",
        ),
        safe=(
            "terraform apply tfplan",
            "terraform plan -out=tfplan && terraform apply tfplan",
            'terraform apply -input=false "$PLAN_FILE"',
            "terraform plan -var-file=prod.tfvars",
        ),
    ),
    pattern(
        "tf-state-rm",
        "terraform state rm | state rm | state mv | removed from terraform state"
        " | terraform state push | state surgery",
        "shell",
        TF + r"state\s+(?:rm|mv|push|replace-provider)\b",
        r"\s--?dry-run\b",
        hits=(
            "terraform state rm aws_s3_bucket.assets",
            "terraform state mv module.old.aws_db_instance.main module.db.aws_db_instance.main",
            "terraform state push -force backup.tfstate",
            "cd infra && tofu state rm 'module.vpc'",
        ),
        safe=(
            "terraform state list",
            "terraform state show aws_s3_bucket.assets",
            "terraform state pull > backup.tfstate",
            "terraform state rm -dry-run aws_s3_bucket.assets",
        ),
    ),
    pattern(
        "tf-target",
        "terraform target | targeted apply | partial apply | resource targeting terraform"
        " | target flag terraform",
        "shell",
        TF + r"(?:apply|destroy)\b" + S + r"*\s--?target[=\s]",
        hits=(
            "terraform apply -target=module.db",
            "terraform apply -auto-approve -target aws_instance.web",
            "terraform destroy -target=aws_s3_bucket.tmp",
            "tofu apply -target='module.api[\"eu\"]'",
        ),
        safe=(
            "terraform plan -target=module.db",
            "terraform apply tfplan",
            "terraform apply",
            "terraform plan -out=tfplan",
        ),
    ),
    pattern(
        "tf-taint",
        "terraform taint | tainted resource | forced replacement | terraform -replace"
        " | resource recreated terraform"
        " | replace destroyed | plan the replacement | apply -replace",
        "shell",
        TF + r"(?:taint\b|apply\b" + S + r"*\s--?replace[=\s])",
        hits=(
            "terraform taint aws_instance.web",
            "terraform apply -replace=aws_db_instance.main",
            "terraform apply -replace aws_instance.web -auto-approve",
            "tofu taint 'module.db.aws_db_instance.this'",
        ),
        safe=(
            "terraform untaint aws_instance.web",
            "terraform plan -replace=aws_instance.web",
            "terraform state show aws_instance.web",
            "terraform apply tfplan",
        ),
    ),
    pattern(
        "tf-lock",
        "force unlock | force-unlock | terraform state lock | lock=false | state locking disabled"
        " | terraform lock",
        "shell",
        TF + r"(?:force-unlock\b|(?:plan|apply|destroy|import|refresh|state\s+\w+|taint|untaint)"
        r"\b" + S + r"*\s--?lock=false\b)",
        hits=(
            "terraform force-unlock 6f1c2d7e-1b2a-4c3d-9e8f-0a1b2c3d4e5f",
            "terraform force-unlock -force 6f1c2d7e",
            "terraform apply -lock=false tfplan",
            "tofu plan -lock=false",
        ),
        safe=(
            "terraform plan -lock-timeout=5m",
            "terraform apply -lock=true tfplan",
            "terraform state list",
            "terraform providers lock -platform=linux_amd64",
        ),
    ),
    pattern(
        "tf-init-upgrade",
        "init -upgrade | terraform init upgrade | provider upgrade | upgraded providers"
        " | terraform lock hcl | dependency lock file",
        "shell",
        TF + r"init\b" + S + r"*\s--?upgrade\b(?!=false)",
        hits=(
            "terraform init -upgrade",
            "terraform -chdir=infra init -upgrade -input=false",
            "tofu init -reconfigure -upgrade",
            "cd envs/prod && terraform init -upgrade=true",
        ),
        safe=(
            "terraform init",
            "terraform init -input=false -lockfile=readonly",
            "terraform providers lock -platform=linux_amd64",
            "terraform init -upgrade=false",
        ),
    ),
    pattern(
        "tf-wrong-workspace",
        "terraform workspace | wrong terraform workspace | default workspace terraform"
        " | workspace select | tofu workspace",
        "shell",
        TF + r"(?:apply|destroy|import|taint|state\s+(?:rm|mv|push))\b",
        r"workspace\s+(?:select|new|show)\b|\bTF_WORKSPACE=",
        hits=(
            "terraform state mv aws_s3_bucket.a aws_s3_bucket.b",
            "terraform apply tfplan",
            "terraform apply -var-file=prod.tfvars",
            "terraform destroy -target=aws_instance.tmp",
            "terraform import aws_s3_bucket.logs acme-logs",
        ),
        safe=(
            "terraform workspace select prod && terraform apply -var-file=prod.tfvars",
            "TF_WORKSPACE=staging terraform apply tfplan",
            "terraform workspace list",
            "terraform plan -out=tfplan",
        ),
    ),
    pattern(
        "tf-var-secret",
        "terraform var password | terraform secret command line | secret -var terraform"
        " | tf var secret | password in tfvars",
        "shell",
        r"(?i)"
        + TF
        + r"(?:plan|apply|destroy|import|refresh)\b"
        + S
        + r"*\s--?var[=\s]+[\"']?\w*?(?:password|passwd|secret|token|api_?key|private_?key)\w*"
        r"\s*=\s*" + LITERAL,
        hits=(
            "terraform apply -var 'db_password=hunter2'",
            "terraform plan -var=api_token=abc123 -out=tfplan",
            'tofu apply -var "admin_password=Sup3rS3cret!"',
            "terraform apply -auto-approve -var=stripe_secret_key=sk_live_123",
        ),
        safe=(
            'terraform apply -var "db_password=$DB_PASSWORD"',
            'TF_VAR_db_password="$DB_PASSWORD" terraform apply',
            "terraform plan -var 'instance_count=3'",
            "terraform apply -var-file=secrets.auto.tfvars",
        ),
    ),
]
