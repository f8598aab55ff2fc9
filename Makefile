# The two commands a newcomer needs are `make run` and `make test`; everything else is a helper.
SHELL := /bin/bash
NPM ?= npm
PORT ?= 8080

.PHONY: run test typecheck lint unit build bench replay clean install

# npm ci only when the lockfile changed since the last install.
node_modules/.install-stamp: package.json package-lock.json
	$(NPM) ci --no-audit --no-fund
	@touch $@

install: node_modules/.install-stamp

build: install
	$(NPM) run --silent build

run: build
	PORT=$(PORT) node dist/api/main.js

typecheck: install
	$(NPM) run --silent typecheck

lint: install
	$(NPM) run --silent lint

unit: install
	$(NPM) test

test: typecheck lint unit

bench: build
	node dist/bench/main.js

replay: build
	@test -n "$(FILE)" || { echo "usage: make replay FILE=path.jsonl[.gz] [SPEED=60|max]"; exit 2; }
	FEED=replay REPLAY_FILE="$(FILE)" REPLAY_SPEED="$(or $(SPEED),max)" PORT=$(PORT) node dist/api/main.js

clean:
	rm -rf dist
