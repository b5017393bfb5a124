"""Known mistakes of the gcloud, gsutil and az command lines: no --project, projects and
instances deleted, recursive removals, rsync -d, allUsers, service account keys; resource
groups and resources deleted, no --subscription, public blob access (aws is in
``shell_ops_cloud``)."""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern
from xdb.engine.known.shell_ops import B, S
from xdb.engine.known.shell_ops_cloud import AZ, GCLOUD, GSUTIL

PATTERNS: list[Pattern] = [
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
        "az delete | az vm delete | az sql db delete | deleted storage account | keyvault purge",
        "shell",
        AZ + r"(?:vm|vmss|aks|webapp|functionapp|cosmosdb|redis|keyvault|storage\s+account"
        r"|resource|disk|sql\s+(?:db|server|mi)|(?:postgres|mysql)\s+(?:flexible-server|server))"
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
        r"|restart|stop|start|scale|deploy|swap|set|config-zip|upload|upload-batch|restore|import)\b",
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
