"""Known mistakes in Terraform and nginx configuration: what tfsec, checkov and trivy flag
in HCL (public buckets, open security groups, unencrypted or unprotected databases,
hardcoded secrets, wildcard IAM, unpinned modules) and what gixy and the TLS guides flag
in nginx."""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern

_WORLD = r"\"(?:0\.0\.0\.0/0|::/0)\""
# SSH, RDP, all ports, and the databases' and caches' ports (never meant for the world).
_ADMIN_PORT = (
    r"(?:\b(?:from_port|to_port)\s*=\s*\"?(?:22|3389|0|5432|3306|1433|1521|6379|27017|9200"
    r"|11211|5984|9042)\b|\b(?:ip_)?protocol\s*=\s*"
    r"\"(?:-1|all)\")"
)
_INGRESS = (
    r"(?:\bingress\s*\{|\"aws_vpc_security_group_ingress_rule\"\s+\"[\w-]+\"\s*\{"
    r"|\"aws_security_group_rule\"\s+\"[\w-]+\"\s*\{(?=[^}]*\btype\s*=\s*\"ingress\"))"
)
_ENCRYPTION_OFF = (
    r"\b(?:encrypted|storage_encrypted|encryption_enabled|enable_encryption"
    r"|at_rest_encryption_enabled|transit_encryption_enabled|kms_encrypted|encrypt_at_rest"
    r"|server_side_encryption_enabled)\s*=\s*false\b"
)
_SECRET_KEY = (
    r"\w*(?:password|passwd|secret|secret_key|access_key|api_key|apikey|token|private_key"
    r"|client_secret|auth_token)"
)
_GIT_UNPINNED = (
    r"\bsource\s*=\s*\"(?:git::|git@|github\.com/|bitbucket\.org/|git\+)(?:[^\"?]*"
    r"|[^\"]*\?ref=(?:main|master|develop|dev|trunk|HEAD))\""
)

PATTERNS: list[Pattern] = [
    # --- Terraform ----------------------------------------------------------------------
    pattern(
        "tf-hcl-public-bucket",
        "public bucket | public-read acl | bucket made public | public read bucket"
        " | allusers bucket | world readable bucket",
        "terraform",
        r"\bacl\s*=\s*\"(?:public-read|public-read-write|authenticated-read)\""
        r"|\bcontainer_access_type\s*=\s*\"(?:blob|container)\""
        r"|\ballow_nested_items_to_be_public\s*=\s*true\b"
        r"|\"google_storage_bucket\w*\"[\s\S]*?\bmembers?\s*=\s*\[?\s*\"all(?:Authenticated)?Users\"",
        hits=(
            'resource "aws_s3_bucket_acl" "site" {\n  bucket = aws_s3_bucket.site.id\n'
            '  acl    = "public-read"\n}',
            'acl = "public-read-write"',
            'resource "azurerm_storage_container" "c" {\n  container_access_type = "blob"\n}',
            'resource "google_storage_bucket_iam_member" "pub" {\n  role = "roles/storage.'
            'objectViewer"\n  member = "allUsers"\n}',
        ),
        safe=(
            'acl = "private"',
            'container_access_type = "private"',
            'resource "google_cloud_run_service_iam_member" "inv" {\n  member = "allUsers"\n}',
        ),
    ),
    pattern(
        "tf-hcl-public-access-block-off",
        "block public access | public access block | block_public_acls | restrict public"
        " buckets | public access block disabled",
        "terraform",
        r"\b(?:block_public_acls|block_public_policy|ignore_public_acls|restrict_public_buckets)"
        r"\s*=\s*false\b",
        hits=(
            'resource "aws_s3_bucket_public_access_block" "b" {\n  block_public_acls = false\n}',
            "block_public_policy     = false",
            "restrict_public_buckets = false\nignore_public_acls = true",
        ),
        safe=(
            "block_public_acls       = true\nblock_public_policy     = true",
            "ignore_public_acls = true",
            'acl = "private"',
        ),
    ),
    pattern(
        "tf-hcl-sg-open-admin-port",
        "security group 0.0.0.0/0 | ssh open to the world | security group open to internet |"
        " port 22 open | rdp open | ingress 0.0.0.0/0 | open security group | firewall open ssh",
        "terraform",
        _INGRESS
        + r"(?![^}]*\bprotocol\s*=\s*\"icmp\")(?=[^}]*?"
        + _ADMIN_PORT
        + r")(?=[^}]*?"
        + _WORLD
        + r")"
        r"|\"google_compute_firewall\"[\s\S]*?(?:ports\s*=\s*\[[^\]]*\"(?:22|3389)\"[\s\S]*?"
        r"source_ranges\s*=\s*\[[^\]]*\"0\.0\.0\.0/0\"|source_ranges\s*=\s*\[[^\]]*"
        r"\"0\.0\.0\.0/0\"[\s\S]*?ports\s*=\s*\[[^\]]*\"(?:22|3389)\")"
        r"|(?:\bsecurity_rule|\"azurerm_network_security_rule\"\s+\"[\w-]+\")\s*\{(?=[^}]*access\s*=\s*\"Allow\")(?=[^}]*direction\s*=\s*\"Inbound\")"
        r"(?=[^}]*destination_port_ranges?\s*=\s*\[?\s*\"(?:22|3389|\*)\")[^}]*"
        r"source_address_prefix\s*=\s*\"(?:\*|Internet|0\.0\.0\.0/0|Any)\"",
        hits=(
            'ingress {\n  from_port   = 22\n  to_port     = 22\n  protocol    = "tcp"\n'
            '  cidr_blocks = ["0.0.0.0/0"]\n}',
            'resource "aws_security_group_rule" "rdp" {\n  type = "ingress"\n'
            '  cidr_blocks = ["0.0.0.0/0"]\n  from_port = 3389\n  to_port = 3389\n}',
            'ingress {\n  protocol = "-1"\n  from_port = 0\n  to_port = 0\n'
            '  ipv6_cidr_blocks = ["::/0"]\n}',
            'resource "aws_vpc_security_group_ingress_rule" "ssh" {\n  cidr_ipv4 = '
            '"0.0.0.0/0"\n  from_port = 22\n  ip_protocol = "tcp"\n  to_port = 22\n}',
            'resource "google_compute_firewall" "ssh" {\n  allow {\n    protocol = "tcp"\n'
            '    ports = ["22"]\n  }\n  source_ranges = ["0.0.0.0/0"]\n}',
            'ingress {\n  from_port = 5432\n  to_port = 5432\n  protocol = "tcp"\n'
            '  cidr_blocks = ["0.0.0.0/0"]\n}',
        ),
        safe=(
            'ingress {\n  from_port = 443\n  to_port = 443\n  protocol = "tcp"\n'
            '  cidr_blocks = ["0.0.0.0/0"]\n}',
            'egress {\n  from_port = 0\n  to_port = 0\n  protocol = "-1"\n'
            '  cidr_blocks = ["0.0.0.0/0"]\n}',
            'ingress {\n  from_port = 22\n  to_port = 22\n  protocol = "tcp"\n'
            '  cidr_blocks = ["10.0.0.0/8"]\n}',
            'resource "aws_security_group_rule" "out" {\n  type = "egress"\n'
            '  from_port = 0\n  cidr_blocks = ["0.0.0.0/0"]\n}',
        ),
    ),
    pattern(
        "tf-hcl-unencrypted-storage",
        "unencrypted storage | encryption at rest | storage_encrypted | unencrypted volume"
        " | unencrypted database | encrypted false | not encrypted at rest",
        "terraform",
        _ENCRYPTION_OFF + r"|resource\s+\"aws_(?:db_instance|rds_cluster|ebs_volume"
        r"|efs_file_system|redshift_cluster|docdb_cluster|neptune_cluster)\"",
        r"\A(?![\s\S]*" + _ENCRYPTION_OFF + r")[\s\S]*\b(?:storage_)?encrypted\s*=\s*(?:true\b"
        r"|var\.)",
        hits=(
            'resource "aws_db_instance" "main" {\n  engine = "postgres"\n'
            '  instance_class = "db.t3.micro"\n}',
            'resource "aws_ebs_volume" "data" {\n  size = 100\n  encrypted = false\n}',
            "storage_encrypted = false",
            "at_rest_encryption_enabled = false",
        ),
        safe=(
            'resource "aws_db_instance" "main" {\n  engine = "postgres"\n'
            "  storage_encrypted = true\n}",
            'resource "aws_ebs_volume" "data" {\n  size = 100\n  encrypted = true\n'
            "  kms_key_id = aws_kms_key.ebs.arn\n}",
            'resource "aws_s3_bucket" "logs" {\n  bucket = "acme-logs"\n}',
        ),
    ),
    pattern(
        "tf-hcl-hardcoded-secret",
        "hardcoded password terraform | secret in terraform | password in tfvars"
        " | password in terraform state | plaintext password tf"
        " | hardcoded credentials terraform | hardcoded password tf | password in main.tf"
        " | master password hardcoded | random_password | secret tf file"
        " | credentials terraform provider | access keys terraform",
        "terraform",
        r"(?i)^" + _SECRET_KEY + r"\s*=\s*\"(?!\$\{|\s*\")[^\"$]{3,}\""
        r"|\bvariable\s+\"" + _SECRET_KEY + r"\"\s*\{[^}]*?\bdefault\s*=\s*\"(?!\$\{)[^\"$]{3,}\"",
        hits=(
            'resource "aws_db_instance" "db" {\n  username = "admin"\n'
            '  password = "SuperSecret123!"\n}',
            'provider "aws" {\n  access_key = "AKIAIOSFODNN7EXAMPLE"\n'
            '  secret_key = "wJalrXUtnFEMI/K7MDENG"\n}',
            'variable "db_password" {\n  type = string\n  default = "changeme123"\n}',
            'master_password = "hunter22"',
        ),
        safe=(
            "password = random_password.db.result",
            "password = var.db_password",
            'variable "db_password" {\n  type = string\n  sensitive = true\n}',
            'secret_name = "prod/db"',
            "manage_master_user_password = true",
        ),
    ),
    pattern(
        "tf-hcl-unpinned-source",
        "unpinned terraform module | terraform module version | pin module version terraform"
        " | module source ref | provider version constraint | unpinned provider"
        " | version pin terraform | module without version | module source version"
        " | pin module version | module ref main | pin provider version",
        "terraform",
        _GIT_UNPINNED + r"|\bmodule\s+\"[\w-]+\"\s*\{[^}]*?^source\s*=\s*\"(?![./])"
        r"(?:[\w.-]+/)?[\w-]+/[\w-]+/[\w-]+\"\s*$|\brequired_providers\s*\{[^}]*?^source\s*="
        r"\s*\"(?:[\w.-]+/)?[\w-]+/[\w-]+\"\s*$",
        r"\A(?![\s\S]*" + _GIT_UNPINNED + r")[\s\S]*^version\s*=",
        hits=(
            'module "vpc" {\n  source = "git::https://github.com/acme/terraform-vpc.git"\n}',
            'module "vpc" {\n  source = "terraform-aws-modules/vpc/aws"\n  cidr = var.cidr\n}',
            'module "db" {\n  source = "git@github.com:acme/tf-db.git?ref=main"\n}',
            'required_providers {\n  aws = {\n    source = "hashicorp/aws"\n  }\n}',
        ),
        safe=(
            'module "vpc" {\n  source = "git::https://github.com/acme/terraform-vpc.git?ref='
            'v3.2.1"\n}',
            'module "vpc" {\n  source  = "terraform-aws-modules/vpc/aws"\n  version = "5.8.1"\n}',
            'module "net" {\n  source = "./modules/network"\n}',
            'resource "aws_s3_object" "app" {\n  source = "dist/app"\n}',
            'required_providers {\n  aws = {\n    source  = "hashicorp/aws"\n'
            '    version = "~> 5.40"\n  }\n}',
        ),
    ),
    pattern(
        "tf-hcl-db-deletion-protection",
        "deletion protection | deletion_protection | skip final snapshot | final snapshot"
        " | database deleted by terraform | prevent_destroy",
        "terraform",
        r"\bdeletion_protection(?:_enabled)?\s*=\s*false\b|\bskip_final_snapshot\s*=\s*true\b"
        r"|\bprevent_destroy\s*=\s*false\b",
        hits=(
            'resource "aws_db_instance" "main" {\n  skip_final_snapshot = true\n}',
            "deletion_protection = false",
            "lifecycle {\n  prevent_destroy = false\n}",
        ),
        safe=(
            "deletion_protection = true\nskip_final_snapshot = false\n"
            'final_snapshot_identifier = "main-final"',
            "lifecycle {\n  prevent_destroy = true\n}",
            "backup_retention_period = 7",
        ),
    ),
    pattern(
        "tf-hcl-publicly-accessible",
        "publicly accessible | publicly_accessible | database exposed to internet | public"
        " database | public network access",
        "terraform",
        r"\bpublicly_accessible\s*=\s*true\b|\bpublic_network_access_enabled\s*=\s*true\b"
        r"|\bauthorized_networks\s*\{[^}]*\bvalue\s*=\s*\"0\.0\.0\.0/0\""
        # (a firewall rule from 0.0.0.0 to 255.255.255.255: every address)
        r"|\bstart_ip_address\s*=\s*\"0\.0\.0\.0\"(?=[^}]*\bend_ip_address\s*=\s*\"255\.255\.255\.255\")",
        hits=(
            'resource "aws_db_instance" "main" {\n  publicly_accessible = true\n}',
            "public_network_access_enabled = true",
            'ip_configuration {\n  authorized_networks {\n    name = "all"\n'
            '    value = "0.0.0.0/0"\n  }\n}',
        ),
        safe=(
            "publicly_accessible = false",
            "public_network_access_enabled = false",
            'authorized_networks {\n  value = "203.0.113.0/24"\n}',
        ),
    ),
    pattern(
        "tf-hcl-iam-wildcard",
        "iam wildcard | wildcard action | action star | iam admin policy"
        " | overly permissive iam | least privilege iam | iam policy star | scope iam actions"
        " | iam too broad | iam overly broad | iam broad permissions | iam full access"
        " | iam star action",
        "terraform json yaml",
        r"(?i)[\"']?\bactions?[\"']?\s*[:=]\s*(?:\[|\n-)?\s*[\"']\*[\"']|[\"']?\bactions?[\"']?\s*[:=]\s*"
        r"\[?[^\]\n]*[\"'][\w-]+:\*[\"'][\s\S]{0,300}?[\"']?\bresources?[\"']?\s*[:=]\s*\[?\s*"
        r"[\"']\*[\"']",
        # (a policy that only denies: a guard such as "deny everything without MFA")
        r"(?i)\A(?![\s\S]*\beffect[\"']?\s*[:=]\s*[\"']?allow)[\s\S]*\beffect[\"']?\s*[:=]\s*"
        r"[\"']?deny\b",
        hits=(
            'statement {\n  actions   = ["*"]\n  resources = ["*"]\n}',
            '{"Effect": "Allow", "Action": "*", "Resource": "*"}',
            'Statement = [{\n  Effect = "Allow"\n  Action = ["s3:*"]\n  Resource = "*"\n}]',
            "Statement:\n  - Effect: Allow\n    Action: '*'\n    Resource: '*'",
            '- Effect: Allow\nAction:\n- "*"\nResource: arn:aws:s3:::acme/*',
        ),
        safe=(
            'statement {\n  actions   = ["s3:GetObject"]\n'
            '  resources = ["${aws_s3_bucket.site.arn}/*"]\n}',
            '{"Effect": "Allow", "Action": ["ec2:DescribeInstances"], "Resource": "*"}',
            'Action = ["s3:*"]\nResource = [aws_s3_bucket.logs.arn]',
            '{"Effect": "Deny", "Action": "*", "Resource": "*",'
            ' "Condition": {"Bool": {"aws:SecureTransport": "false"}}}',
        ),
    ),
    pattern(
        "tf-hcl-principal-wildcard",
        "principal star | principal wildcard | anyone can assume | public bucket policy"
        " | principal asterisk | resource policy open | principal anyone | any principal"
        " | any aws principal | principals condition | bucket policy anyone"
        " | wildcard principals",
        "terraform json yaml",
        r"(?i)[\"']?\bPrincipal[\"']?\s*[:=]\s*(?:[\"']\*[\"']|\{\s*[\"']?AWS[\"']?\s*[:=]\s*\[?\s*"
        r"[\"']\*[\"']|\n[\"']?AWS[\"']?\s*:\s*(?:\n-)?\s*[\"']\*[\"'])"
        r"|\bprincipals\s*\{[^}]*\bidentifiers\s*=\s*\[\s*\"\*\"",
        r"(?i)[\"']?\bCondition[\"']?\s*[:=]|\bcondition\s*\{",
        hits=(
            '{"Effect": "Allow", "Principal": "*", "Action": "s3:GetObject"}',
            'principals {\n  type        = "AWS"\n  identifiers = ["*"]\n}',
            'Principal = { AWS = "*" }',
            "Principal:\n  AWS:\n    - '*'\nAction: sqs:SendMessage",
        ),
        safe=(
            'principals {\n  type = "Service"\n  identifiers = ["lambda.amazonaws.com"]\n}',
            'principals {\n  type = "AWS"\n  identifiers = ["*"]\n}\ncondition {\n'
            '  test = "StringEquals"\n  variable = "aws:PrincipalOrgID"\n}',
            '{"Principal": {"AWS": "arn:aws:iam::123456789012:root"}}',
        ),
    ),
    pattern(
        "tf-hcl-force-destroy",
        "force_destroy | force destroy | bucket deleted with objects | destroyed bucket contents",
        "terraform",
        r"\bforce_destroy\s*=\s*\"?true\b",
        hits=(
            'resource "aws_s3_bucket" "logs" {\n  bucket = "acme-logs"\n  force_destroy = true\n}',
            "force_destroy=true",
            'resource "google_storage_bucket" "b" {\n  force_destroy = true\n}',
            'force_destroy = "true"',
        ),
        safe=(
            "force_destroy = false",
            'resource "aws_s3_bucket" "logs" {\n  bucket = "acme-logs"\n}',
            "force_delete = false",
        ),
    ),
    # --- nginx --------------------------------------------------------------------------
    pattern(
        "nginx-autoindex",
        "autoindex | directory listing | directory index exposed | listing enabled nginx",
        "ini role:infrastructure",
        r"(?:^|[\s{;])autoindex\s+on\s*;",
        hits=(
            "location /files/ {\n  root /srv;\n  autoindex on;\n}",
            "autoindex on;",
            "location /downloads { autoindex on; }",
        ),
        safe=(
            "autoindex off;",
            "location /files/ {\n  root /srv;\n  index index.html;\n}",
            "autoindex_exact_size off;",
        ),
    ),
    pattern(
        "nginx-server-tokens",
        "nginx version disclosed | version header exposed | server version leak"
        " | server_tokens off | server_tokens nginx | nginx version header | hide nginx version"
        " | version in server header | nginx version leaked | server header version",
        "ini role:infrastructure",
        r"(?:^|[\s{;])server_tokens\s+(?:on|build)\s*;|^http\s*\{",
        r"\A(?![\s\S]*server_tokens\s+(?:on|build)\s*;)[\s\S]*server_tokens\s+off\s*;",
        hits=(
            "http {\n  sendfile on;\n  include mime.types;\n}",
            "server_tokens on;",
            "http {\n  server_tokens off;\n}\nserver {\n  server_tokens on;\n}",
            "server_tokens build;",
        ),
        safe=(
            "http {\n  server_tokens off;\n  sendfile on;\n}",
            "server {\n  listen 443 ssl;\n}",
            "location / {\n  proxy_pass http://api;\n}",
        ),
    ),
    pattern(
        "nginx-weak-tls",
        "ssl_protocols | tlsv1 | tls 1.0 | tls 1.1 | weak tls | old tls versions | sslv3",
        "ini role:infrastructure",
        r"(?:^|[\s{;])(?:(?:proxy|grpc|uwsgi)_)?ssl_protocols\b[^;\n]*"
        r"\b(?:SSLv2|SSLv3|TLSv1(?!\.[23])(?:\.1)?)\b",
        hits=(
            "ssl_protocols TLSv1 TLSv1.1 TLSv1.2;",
            "server {\n  ssl_protocols TLSv1.1 TLSv1.2 TLSv1.3;\n}",
            "ssl_protocols SSLv3 TLSv1;",
            "proxy_ssl_protocols TLSv1 TLSv1.2;",
        ),
        safe=(
            "ssl_protocols TLSv1.2 TLSv1.3;",
            "ssl_protocols TLSv1.3;",
            "ssl_prefer_server_ciphers off;",
        ),
    ),
    pattern(
        "nginx-alias-traversal",
        "alias traversal | off-by-slash | alias path traversal | location alias trailing slash"
        " | alias without trailing slash",
        "ini role:infrastructure",
        r"(?:^|[\s{;])location\s+(?:\^~\s+)?/[\w./-]*[\w.-]\s*(?=\{)[^}]*?(?:^|[\s{;])alias\s+"
        r"[^;\n]*/\s*;",
        hits=(
            "location /static {\n  alias /var/www/static/;\n}",
            "location /media { alias /srv/app/media/; }",
            "location ^~ /assets {\n  expires 30d;\n  alias /opt/site/assets/;\n}",
            "location /img{alias /var/www/images/;}",
        ),
        safe=(
            "location /static/ {\n  alias /var/www/static/;\n}",
            "location /static {\n  root /var/www;\n}",
            "location /media {\n  alias /srv/app/media;\n}",
        ),
    ),
]
