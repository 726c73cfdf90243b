#!/usr/bin/env bash
# Fetches the Kyverno policy library (kyverno/policies) at the pinned commit into an ignored folder
# of the repository (`make conformance-data`), for `make conformance-library`. Idempotent: when the
# folder already holds that commit it does nothing. It fetches just that commit (shallow) and falls
# back to fetching every branch when the server refuses a fetch by commit id.
#
# This is the whole library, without the tier index (index.json) of the project workspace's
# ../shared/conformance/kyverno, so VERDICT_CONFORMANCE_DIR cannot point at it for `make conformance`.
#
# Environment:
#   KYVERNO_POLICIES_URL     where to fetch from (default https://github.com/kyverno/policies.git);
#                            any URL or path git accepts, e.g. a local mirror
#   KYVERNO_POLICIES_COMMIT  the commit (default the pinned one below; a full 40-hex id)
#   KYVERNO_POLICIES_DIR     destination (default .conformance/kyverno-policies in the repository)
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

URL=${KYVERNO_POLICIES_URL:-https://github.com/kyverno/policies.git}
COMMIT=${KYVERNO_POLICIES_COMMIT:-b9c4317ce02256dc66118e08bb3e9345e7bfce5c}
DEST=${KYVERNO_POLICIES_DIR:-.conformance/kyverno-policies}

fail() {
  printf 'conformance-data: %s\n' "$*" >&2
  exit 1
}

[[ $COMMIT =~ ^[0-9a-f]{40}$ ]] || fail "KYVERNO_POLICIES_COMMIT must be a full 40-hex commit id, not '$COMMIT'"

# The commit the destination has checked out, or nothing when it is not a repository of its own.
checked_out() {
  [[ -e $1/.git ]] || return 0
  git -C "$1" rev-parse --verify --quiet HEAD 2>/dev/null || true
}

# Fetches COMMIT from URL into the repository $1 and checks it out (detached).
fetch_commit() {
  local repo=$1
  if git -C "$repo" fetch --quiet --depth 1 "$URL" "$COMMIT"; then
    :
  else
    echo "conformance-data: fetching only $COMMIT from $URL failed (a server may refuse fetches by commit id); fetching all branches instead"
    git -C "$repo" fetch --quiet "$URL" '+refs/heads/*:refs/remotes/origin/*' \
      || fail "could not fetch from $URL"
    git -C "$repo" cat-file -e "$COMMIT^{commit}" 2>/dev/null \
      || fail "$URL has no branch that holds commit $COMMIT"
  fi
  git -C "$repo" -c advice.detachedHead=false checkout --quiet --force --detach "$COMMIT"
  [[ $(git -C "$repo" rev-parse HEAD) == "$COMMIT" ]] || fail "checked out $(git -C "$repo" rev-parse HEAD), not $COMMIT"
}

current=$(checked_out "$DEST")
if [[ $current == "$COMMIT" ]]; then
  echo "conformance-data: $DEST already holds kyverno/policies at $COMMIT"
  if [[ -n $(git -C "$DEST" status --porcelain) ]]; then
    echo "conformance-data: note: $DEST has local changes (git -C $DEST status); they are left as they are"
  fi
  exit 0
fi

if [[ -n $current ]]; then
  # A folder this script made for another commit: move it to the pinned one.
  echo "conformance-data: moving $DEST from $current to $COMMIT (from $URL)"
  fetch_commit "$DEST"
else
  if [[ -e $DEST ]]; then
    fail "$DEST exists but is not a git checkout; remove it or set KYVERNO_POLICIES_DIR"
  fi
  # Fetch into a scratch folder beside the destination and rename it at the end, so an interrupted
  # run never leaves a half-filled destination behind.
  echo "conformance-data: fetching kyverno/policies $COMMIT from $URL into $DEST"
  mkdir -p "$(dirname "$DEST")"
  scratch="$DEST.partial.$$"
  trap 'rm -rf "$scratch"' EXIT
  git -c init.defaultBranch=main init --quiet "$scratch"
  fetch_commit "$scratch"
  mv "$scratch" "$DEST"
  trap - EXIT
fi

tests=$(find "$DEST" -path '*/.kyverno-test/kyverno-test.yaml' | wc -l)
echo "conformance-data: $DEST holds kyverno/policies at $COMMIT ($tests Kyverno CLI tests)"
