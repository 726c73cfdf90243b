# Every target goes through the project's own Node 24 (node_modules/.bin/node), never the system Node.
SHELL := /bin/bash
export PATH := $(CURDIR)/node_modules/.bin:$(PATH)
CONFORMANCE_DIR ?= ../shared/conformance/kyverno/policies

.PHONY: install build typecheck lint unit conformance test bench run clean kind-e2e

install: node_modules/.install-stamp

node_modules/.install-stamp: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

build: install
	tsc -p tsconfig.build.json
	@printf '{"commit":"%s"}\n' "$$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)" > dist/build-info.json

typecheck: install
	tsc -p tsconfig.json --noEmit

lint: install
	eslint .

unit: build
	vitest run

# The Kyverno library lives in the workspace beside the repository; a clone on its own says it skips the run.
conformance: build
	@if [ ! -d "$(CONFORMANCE_DIR)" ]; then echo "conformance skipped: $(CONFORMANCE_DIR) not found (it comes with the project workspace, ../shared beside the repository)"; exit 0; fi; \
	bin/verdict test $(CONFORMANCE_DIR) --tier A \
		--known-differences test/conformance/known-differences.yaml \
		--recorded-pass-count test/conformance/recorded-pass-count.txt

test: typecheck lint unit conformance

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
