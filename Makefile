# Every target goes through the project's own Node 24 (node_modules/.bin/node), never the system Node.
SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(PATH)
# The tiered Kyverno conformance data (index.json, policies/...): VERDICT_CONFORMANCE_DIR, relative to
# the repository root, by default the project workspace's ../shared/conformance/kyverno.
REPO_ROOT := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
VERDICT_CONFORMANCE_DIR ?= ../shared/conformance/kyverno
ifeq ($(strip $(VERDICT_CONFORMANCE_DIR)),)
override VERDICT_CONFORMANCE_DIR := ../shared/conformance/kyverno
endif
# The tiers of the conformance data Verdict judges: CEL (A), patterns (B),
# Pod Security subrules (B-PSS), deny/foreach/JMESPath (C) and cluster data mocked by the tests (D).
CONFORMANCE_TIERS ?= A B B-PSS C D
CONFORMANCE_ROOT := $(if $(filter /%,$(VERDICT_CONFORMANCE_DIR)),$(VERDICT_CONFORMANCE_DIR),$(REPO_ROOT)/$(VERDICT_CONFORMANCE_DIR))
CONFORMANCE_DIR := $(CONFORMANCE_ROOT)/policies
# The whole library (no tier index) that `make conformance-data` fetches at the pinned commit.
# KYVERNO_POLICIES_URL overrides where from (e.g. a local mirror); see scripts/conformance-data.sh.
KYVERNO_POLICIES_DIR ?= .conformance/kyverno-policies
export KYVERNO_POLICIES_DIR

.PHONY: install build typecheck lint unit conformance conformance-data conformance-library test bench run clean kind-e2e

install: node_modules/.install-stamp

node_modules/.install-stamp: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

build: install
	tsc -p tsconfig.build.json
	node scripts/build-console.mjs
	@printf '{"commit":"%s"}\n' "$$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)" > dist/build-info.json

# tsc and eslint keep what they found under node_modules/.cache (keyed by file contents), so a later
# run re-checks only what changed; a fresh clone has no cache and checks everything.
TSC_CACHE := node_modules/.cache/tsc
typecheck: install
	tsc -p tsconfig.json --noEmit --incremental --tsBuildInfoFile $(TSC_CACHE)/main.tsbuildinfo
	tsc -p console/tsconfig.json --incremental --tsBuildInfoFile $(TSC_CACHE)/console.tsbuildinfo
	tsc -p test/console/tsconfig.json --incremental --tsBuildInfoFile $(TSC_CACHE)/console-tests.tsbuildinfo

lint: install
	eslint --cache --cache-strategy content --cache-location node_modules/.cache/eslint/ .

define run-unit
vitest run
endef

unit: build
	$(run-unit)

# The tiered Kyverno library comes from VERDICT_CONFORMANCE_DIR; without its index.json the run is
# skipped with one line saying how to get the data.
define run-conformance
@if [ ! -f "$(CONFORMANCE_ROOT)/index.json" ]; then echo "conformance skipped: no Kyverno conformance data (index.json) in VERDICT_CONFORMANCE_DIR=$(VERDICT_CONFORMANCE_DIR); set VERDICT_CONFORMANCE_DIR to the tiered data (the project workspace's ../shared/conformance/kyverno), or measure the whole untiered library with 'make conformance-data conformance-library'"; exit 0; fi; \
bin/verdict test $(CONFORMANCE_DIR) $(CONFORMANCE_TIERS:%=--tier %) \
	--known-differences test/conformance/known-differences.yaml \
	--recorded-pass-count test/conformance/recorded-pass-count.txt
endef

conformance: build
	$(run-conformance)

# typecheck, lint and build need nothing of each other: they run two at a time (each target's
# output kept together), then the tests run on that build.
test: install
	$(MAKE) --no-print-directory -j2 --output-sync=target typecheck lint build
	$(run-unit)
	$(run-conformance)

# Fetches kyverno/policies at the pinned commit into $(KYVERNO_POLICIES_DIR) (ignored by git);
# does nothing when it is already there.
conformance-data:
	scripts/conformance-data.sh

# Runs `verdict test` over the whole fetched library (every test; it has no index.json, so no tiers),
# keeps the full report beside it and prints the summary table and closing line. A measurement, not
# a gate: exit 1 (pairs that differ from Kyverno) does not fail the build, in effect `|| true`; any
# other failure (bad input, a crash) still does.
conformance-library: build
	@if [ ! -d "$(KYVERNO_POLICIES_DIR)" ]; then echo "conformance-library: no $(KYVERNO_POLICIES_DIR); run 'make conformance-data' first" >&2; exit 1; fi
	@report="$(KYVERNO_POLICIES_DIR)-report.txt"; status=0; \
	bin/verdict test $(KYVERNO_POLICIES_DIR) > "$$report" 2>&1 || status=$$?; \
	if [ $$status -gt 1 ]; then cat "$$report"; echo "conformance-library: verdict test failed (exit $$status)" >&2; exit $$status; fi; \
	echo "conformance-library: verdict test $(KYVERNO_POLICIES_DIR) (whole library, measurement only; every test in $$report)"; \
	sed -n '/^$$/,$$p' "$$report" | sed 1d

bench: build
	npm run bench

run: build
	bin/verdict serve

clean:
	rm -rf dist node_modules

# Builds the image, installs the chart into a throwaway kind cluster and checks a privileged Pod is
# denied and a normal one admitted (needs docker and kind; see scripts/kind-e2e.sh).
kind-e2e: install
	scripts/kind-e2e.sh
