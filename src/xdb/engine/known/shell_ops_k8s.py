"""Known mistakes of kubectl (and oc) command lines: namespaces, CRDs, volumes and
everything deleted, deletes without a dry run, the wrong context or namespace, live
edits, scaling to zero, restarting every deployment, drains that stall or force, replace
--force, force-deleted pods, secrets typed as literals, exec into production.
"""

from __future__ import annotations

from xdb.engine.known.pattern import Pattern, pattern
from xdb.engine.known.shell_ops import PROD, B, S

# kubectl (or oc) with its global options (-n ns, --context x, --kubeconfig=f) before the
# verb; the verb follows.
KUBECTL = B + r"(?:kubectl|oc)(?:\s+-\S+(?:\s+(?!-)[^\s;&|]+)?)*?\s+"
DRY_RUN = r"--dry-run\b(?!=none)"
# The verbs that change a cluster.
CHANGES = (
    r"(?:apply|create|delete|replace|patch|scale|rollout\s+(?:restart|undo)|edit"
    r"|set\s+\w+|label|annotate|autoscale|expose)\b"
)

PATTERNS: list[Pattern] = [
    pattern(
        "k8s-cli-delete-namespace",
        "delete namespace | kubectl delete ns | namespace deletion | oc delete project"
        " | namespace deleted everything",
        "shell",
        KUBECTL + r"delete\b" + S + r"*?\s(?:ns|namespaces?|projects?)(?:/|\s|$)",
        DRY_RUN,
        hits=(
            "kubectl delete namespace shop",
            "kubectl delete ns payments-staging --wait=false",
            "kubectl --context prod delete namespace/monitoring",
            "oc delete project legacy-api",
        ),
        safe=(
            "kubectl get ns",
            "kubectl create namespace shop",
            "kubectl delete pod api-7d9f -n shop",
            "kubectl delete pod api-7d9f --namespace shop",
            "kubectl delete namespace shop --dry-run=server",
        ),
    ),
    pattern(
        "k8s-cli-delete-all",
        "kubectl delete all | kubectl delete --all | deleted all pods | delete all resources"
        " namespace | all namespaces deleted",
        "shell",
        KUBECTL + r"delete\b" + S + r"*\s(?:--all(?:-namespaces)?|-A)(?=[\s=;&|)'\"]|$)",
        DRY_RUN,
        hits=(
            "kubectl delete pods --all -n shop",
            "kubectl delete all --all",
            "kubectl delete pvc --all -A",
            "kubectl delete deploy -l tier=web --all-namespaces",
        ),
        safe=(
            "kubectl delete pod api-7d9f -n shop",
            "kubectl get all -n shop",
            "kubectl delete pods --all -n shop --dry-run=client",
            "kubectl get pods -A",
        ),
    ),
    pattern(
        "k8s-cli-delete-no-dry-run",
        "kubectl delete dry run | dry run before delete | delete without dry run"
        " | kubectl dry-run first",
        "shell",
        KUBECTL + r"delete\b",
        DRY_RUN,
        hits=(
            "kubectl delete deploy api -n shop",
            "kubectl delete -f k8s/old-worker.yaml",
            "kubectl -n shop delete svc cart",
            "kubectl get pods -o name | xargs kubectl delete",
        ),
        safe=(
            "kubectl delete deploy api -n shop --dry-run=server",
            "kubectl delete -f k8s/old-worker.yaml --dry-run=client -o name",
            "kubectl diff -f k8s/",
            "kubectl get deploy -n shop",
        ),
    ),
    pattern(
        "k8s-cli-wrong-context",
        "kubectl context | kube context | kubeconfig context | wrong cluster context"
        " | wrong kubernetes cluster | wrong k8s cluster | kubectl wrong cluster",
        "shell",
        KUBECTL + r"(?:" + CHANGES + r"|drain|cordon|uncordon|taint)\b",
        r"--context[=\s]|--kubeconfig[=\s]|\bKUBECONFIG=|config\s+use-context\b|\bkubectx\s",
        hits=(
            "kubectl apply -f k8s/",
            "kubectl -n shop scale deploy api --replicas=3",
            "kubectl rollout restart deploy/api -n shop",
            "kubectl delete -f k8s/old.yaml",
        ),
        safe=(
            "kubectl --context staging apply -f k8s/",
            "KUBECONFIG=~/.kube/prod.yaml kubectl apply -f k8s/",
            "kubectl get pods -n shop",
            "kubectl config use-context staging && kubectl apply -f k8s/",
        ),
    ),
    pattern(
        "k8s-cli-no-namespace",
        "kubectl wrong namespace | kubectl default namespace | forgot namespace kubectl"
        " | kubectl namespace flag | deployed default namespace | deployed to the wrong namespace"
        " | namespace forgot -n",
        "shell",
        KUBECTL + r"(?:" + CHANGES + r"|exec|port-forward)\b",
        r"\s(?:-n|--namespace)(?:[=\s]|(?=\w))|\s(?:-A|--all-namespaces)\b"
        r"|\s(?:ns|namespaces?)(?:/|\s)",
        hits=(
            "kubectl apply -f k8s/deployment.yaml",
            "kubectl scale deploy api --replicas=2",
            "kubectl --context prod delete pod api-7d9f",
            "kubectl create secret generic db --from-file=password=./pw.txt",
        ),
        safe=(
            "kubectl apply -f k8s/ -n shop",
            "kubectl -n shop scale deploy api --replicas=2",
            "kubectl apply --namespace=payments -f k8s/",
            "kubectl create namespace shop",
        ),
    ),
    pattern(
        "k8s-cli-edit-live",
        "kubectl edit | edited live | live edit cluster | kubectl set image"
        " | configuration drift cluster | drift from git",
        "shell",
        KUBECTL + r"(?:edit|patch|set\s+(?:image|env|resources))\b",
        hits=(
            "kubectl -n shop patch svc cart --type=json --patch-file=nodeport.json",
            "kubectl edit deploy api -n shop",
            "kubectl -n shop edit configmap app-config",
            "kubectl set image deploy/api api=acme/api:1.5.0 -n shop",
            "KUBE_EDITOR=nano kubectl edit svc cart",
        ),
        safe=(
            "kubectl apply -f k8s/deploy.yaml -n shop",
            "kubectl get deploy api -o yaml",
            "kubectl diff -f k8s/",
            "kubectl rollout status deploy/api -n shop",
        ),
    ),
    pattern(
        "k8s-cli-scale-zero",
        "scaled to zero | scale to 0 | replicas=0 | replicas 0 | scale down to zero",
        "shell",
        KUBECTL + r"scale\b" + S + r"*\s--replicas(?:=|\s+)0(?![\d.])",
        hits=(
            "kubectl scale deploy api --replicas=0 -n shop",
            "kubectl -n payments scale statefulset ledger --replicas 0",
            "kubectl scale --replicas=0 deployment/worker",
            "oc scale dc/web --replicas=0",
        ),
        safe=(
            "kubectl scale deploy api --replicas=3 -n shop",
            "kubectl scale deploy api --replicas=10",
            "kubectl get hpa -n shop",
            "kubectl autoscale deploy api --min=2 --max=10",
        ),
    ),
    pattern(
        "k8s-cli-rollout-restart-all",
        "rollout restart all | restarted all deployments | restart every deployment"
        " | rollout restart namespace",
        "shell",
        KUBECTL + r"rollout\s+restart(?:\s+-\S+(?:[=\s]+(?!-)[^\s;&|]+)?)*?\s+"
        r"(?:deploy(?:ments?)?|statefulsets?|sts|daemonsets?|ds)"
        r"(?:\s+(?:(?:-n|--namespace|--context|--kubeconfig|--cluster)(?:=|\s+)[^\s;&|]+"
        r"|--all\b|-A\b))*\s*(?=$|[;&|)]|['\"]+(?:\s|$|[;&|)]))",
        hits=(
            "kubectl rollout restart deployment -n shop",
            "kubectl rollout restart deploy",
            "kubectl -n payments rollout restart statefulset && echo restarted",
            "kubectl rollout restart -n shop deployments --context prod",
        ),
        safe=(
            "kubectl rollout restart deploy/api -n shop",
            "kubectl rollout restart deployment api -n shop",
            "kubectl rollout restart deploy -l app=cart -n shop",
            "kubectl rollout status deploy/api",
        ),
    ),
    pattern(
        "k8s-cli-drain-no-ignore-daemonsets",
        "ignore-daemonsets | drain daemonset | drain node daemonsets | node drain stuck"
        " | drain hung daemonset",
        "shell",
        KUBECTL + r"drain\b",
        r"--ignore-daemonsets\b(?!=false)|" + DRY_RUN,
        hits=(
            "kubectl drain node-7",
            "kubectl drain ip-10-0-1-12.ec2.internal --delete-emptydir-data",
            "kubectl --context prod drain gke-pool-1-abc --timeout=5m",
            "for n in $(kubectl get nodes -o name); do kubectl drain $n; done",
        ),
        safe=(
            "kubectl drain node-7 --ignore-daemonsets --delete-emptydir-data",
            "kubectl cordon node-7",
            "kubectl uncordon node-7",
            "kubectl drain node-7 --ignore-daemonsets --dry-run=server",
        ),
    ),
    pattern(
        "k8s-cli-drain-force",
        "drain force | drain --force | disable eviction | pod disruption budget | bypassed pdb"
        " | drain grace period 0",
        "shell",
        KUBECTL
        + r"drain\b"
        + S
        + r"*\s(?:--force(?![\w-])(?!=false)|--disable-eviction\b(?!=false)"
        r"|--grace-period[=\s]+0\b)",
        hits=(
            "kubectl drain node-7 --ignore-daemonsets --force",
            "kubectl drain node-7 --disable-eviction --ignore-daemonsets",
            "kubectl drain worker-3 --grace-period=0 --ignore-daemonsets",
            "kubectl drain --force worker-3",
        ),
        safe=(
            "kubectl drain node-7 --ignore-daemonsets --delete-emptydir-data",
            "kubectl cordon node-7",
            "kubectl drain node-7 --ignore-daemonsets --timeout=10m",
            "kubectl delete pod api-1 --force",
        ),
    ),
    pattern(
        "k8s-cli-replace-force",
        "kubectl replace | replace --force | kubectl apply --force | recreated resource downtime"
        " | deleted and recreated deployment",
        "shell",
        KUBECTL + r"(?:replace|apply)\b" + S + r"*\s--force(?![\w-])(?!=false)",
        hits=(
            "kubectl replace --force -f k8s/job.yaml",
            "kubectl apply -f k8s/deploy.yaml --force",
            "kubectl -n shop replace -f svc.yaml --force --grace-period=0",
            "oc replace --force -f route.yaml",
        ),
        safe=(
            "kubectl replace -f k8s/configmap.yaml",
            "kubectl apply -f k8s/ --server-side --force-conflicts",
            "kubectl apply -f k8s/ -n shop",
            "kubectl diff -f k8s/",
        ),
    ),
    pattern(
        "k8s-cli-force-delete-pod",
        "force delete pod | grace-period=0 | grace period 0 | pod stuck terminating"
        " | force deleted statefulset pod",
        "shell",
        KUBECTL + r"delete\b" + S + r"*\s(?:--grace-period[=\s]+0\b|--force(?![\w-])(?!=false))",
        hits=(
            "kubectl delete pod db-0 --grace-period=0 --force",
            "kubectl delete pods api-7d9f -n shop --force",
            "kubectl -n kafka delete pod broker-2 --grace-period 0",
            "kubectl delete --force pod/worker-1",
        ),
        safe=(
            "kubectl delete pod api-7d9f -n shop",
            "kubectl delete pod api-7d9f --grace-period=30",
            "kubectl get pod db-0 -o yaml",
            "kubectl drain node-1 --ignore-daemonsets",
        ),
    ),
    pattern(
        "k8s-cli-secret-literal",
        "from-literal secret | kubectl create secret | secret shell history | secret literal"
        " | secret from file kubectl"
        " | docker-registry secret | registry secret password | secret value from file",
        "shell",
        KUBECTL
        + r"create\s+secret\b"
        + S
        + r"*\s--(?:from-literal[=\s]+[\"']?[\w.-]+=|docker-password[=\s]+)(?![\"']?\$)",
        hits=(
            "kubectl create secret generic db --from-literal=password=hunter2 -n shop",
            "kubectl -n shop create secret generic api-keys --from-literal 'STRIPE_KEY=sk_live_1'",
            "kubectl create secret docker-registry regcred --docker-server=ghcr.io"
            " --docker-username=bot --docker-password=ghp_abc123",
            "oc create secret generic x --from-literal=token=abc",
        ),
        safe=(
            "kubectl create secret generic db --from-file=password=./secrets/db-password.txt",
            "kubectl create secret generic app --from-env-file=.env.prod",
            'kubectl create secret generic db --from-literal=password="$DB_PASSWORD"',
            "kubectl get secret db -n shop",
        ),
    ),
    pattern(
        "k8s-cli-delete-pvc",
        "delete pvc | persistent volume claim deleted | deleted persistent volume"
        " | lost volume data pvc | pvc deletion",
        "shell",
        KUBECTL
        + r"delete\b"
        + S
        + r"*?\s(?:pvc|pv|persistentvolumeclaims?|persistentvolumes?)(?=[/\s,]|$)",
        DRY_RUN,
        hits=(
            "kubectl delete pvc data-postgres-0 -n db",
            "kubectl -n kafka delete pvc --all",
            "kubectl delete pv pvc-3f2a9c",
            "kubectl delete persistentvolumeclaim/redis-data",
        ),
        safe=(
            "kubectl get pvc -n db",
            "kubectl describe pv pvc-3f2a9c",
            "kubectl delete pod postgres-0 -n db",
            "kubectl delete pvc data-postgres-0 --dry-run=client",
        ),
    ),
    pattern(
        "k8s-cli-delete-crd",
        "delete crd | custom resource definition deleted | crd deletion"
        " | deleted custom resources | crd removed",
        "shell",
        KUBECTL
        + r"delete\b"
        + S
        + r"*?\s(?:crds?|customresourcedefinitions?(?:\.apiextensions\.k8s\.io)?)(?=[/\s,]|$)"
        + r"|\sget\s+(?:crds?|customresourcedefinitions?)\b(?:[^\n;&|]*\|){1,3}\s*xargs\b[^\n;&|]*"
        + r"\s(?:kubectl|oc)\s+delete\b|"
        + KUBECTL
        + r"delete\b"
        + S
        + r"*?\s(?:-f|--filename)[=\s]+['\"]?[^\s;&|'\"]*\bcrds?\b",
        DRY_RUN,
        hits=(
            "kubectl get crds -o name | grep cattle.io | xargs -n1 kubectl delete",
            "kubectl delete crd certificates.cert-manager.io",
            "kubectl delete customresourcedefinition/kafkatopics.kafka.strimzi.io",
            "kubectl delete crds -l app.kubernetes.io/name=prometheus-operator",
        ),
        safe=(
            "kubectl get crd",
            "kubectl apply -f crds/",
            "kubectl delete certificate api-tls -n shop",
            "kubectl explain crd",
        ),
    ),
    pattern(
        "k8s-cli-exec-prod",
        "exec into production pod | exec into prod pod | kubectl exec production"
        " | shell into production pod | hotfix inside pod"
        " | kubectl cp | hotfix prod pod | patch production pods | patched prod pod",
        "shell",
        B
        + r"(?:kubectl|oc)\s(?="
        + S
        + r"*"
        + PROD
        + r")(?=(?:"
        + S
        + r"*?\s)?(?:exec|cp|debug|attach)\s)",
        hits=(
            "kubectl exec -it api-7d9f -n prod -- bash",
            "kubectl --context production exec -it deploy/api -- sh",
            "kubectl cp ./fix.py shop-prod/api-7d9f:/app/fix.py",
            "kubectl debug -it node/prod-node-1 --image=busybox",
        ),
        safe=(
            "kubectl exec -it api-7d9f -n staging -- bash",
            "kubectl logs deploy/api -n prod",
            "kubectl exec -it products-7d9f -n shop -- sh",
            "kubectl get pods -n production",
        ),
    ),
]
