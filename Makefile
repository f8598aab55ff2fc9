# The two commands a newcomer needs are `make run` and `make test`; everything else is a helper.
SHELL := /bin/bash
NPM ?= npm
PORT ?= 8080

# The README's configuration table is generated from runtime/settings.ts; a test keeps it in step.
config-doc: install
	npx tsx runtime/render-settings.ts README.md

# The route handlers' and the web screen's API types (api/contract/route-types.generated.ts,
# web/src/api-types.generated.ts) are generated from the OpenAPI document the route schemas
# make; a test fails while a committed file is stale.
api-types: install
	$(NPM) run --silent api-types

.PHONY: up down config-doc api-types data run test test-security typecheck lint unit build bench bench-check bench-baseline soak chaos calibrate test-long replay clean install system-deps key web-build screenshots import-history backtest

# Install only when the manifest or lockfile changed since the last install. Not `npm ci`:
# chdb lists per-platform binaries as optional dependencies, some of which the registry does
# not serve, so no lockfile can name them all and `npm ci` refuses it; `npm install` still
# installs the locked versions.
node_modules/.install-stamp: package.json package-lock.json
	$(NPM) install --no-audit --no-fund
	@touch $@

install: node_modules/.install-stamp

# Debian packages the test suite uses when present: redis-server for the shared rate-limit
# path, kcat for librdkafka's mock Kafka cluster, chromium for the web screen's browser tests,
# docker-compose to validate docker-compose.yml. Installed with apt-get when missing and
# possible; tests that need them say why they skip otherwise. The README lists the same four.
SYSTEM_PACKAGES := redis-server kcat docker-compose chromium
system-deps:
	@missing=""; for p in $(SYSTEM_PACKAGES); do command -v $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$$missing >/dev/null; \
	  else echo "note: missing$$missing and cannot apt-get install them; the tests that need them will skip"; fi; \
	fi

# The web screen (web/, Vite + Preact) into dist/web, which the API serves at /. Not committed.
# Rebuilt only when a file under web/ changed since the last build.
web-build: dist/web/index.html
dist/web/index.html: node_modules/.install-stamp $(shell find web -type f 2>/dev/null)
	$(NPM) run --silent web:build

# The TypeScript build into dist/, run only when a source or compiler setting is newer than the
# last build's stamp: a start with nothing changed skips tsc (whose own up-to-date check still
# reads every file, seconds of CPU). tsc is incremental (dist/.tsbuildinfo), so a change
# recompiles only what it touches.
BUILD_STAMP := dist/.build-stamp
$(BUILD_STAMP): node_modules/.install-stamp tsconfig.json tsconfig.build.json $(shell find schemas pipeline api runtime bench -type f ! -name '*.test.ts' 2>/dev/null)
	$(NPM) run --silent build
	@touch $@

build: install web-build $(BUILD_STAMP)

# A 64 MB young generation: the pipeline's scavenges copy the growing board's rows again and
# again with V8's default; the engines bench measures both (docs/performance-pipeline.md).
NODE_RUN := node --max-semi-space-size=64
run: build
	PORT=$(PORT) $(NODE_RUN) dist/runtime/main.js

typecheck: install
	$(NPM) run --silent typecheck

# Lint includes the formatter's check; `make format` rewrites the tree the way it expects.
lint: install
	$(NPM) run --silent lint

format: install
	$(NPM) run --silent format

unit: install system-deps web-build
	$(NPM) test

test: typecheck lint unit

# The attacks of test/security/ alone (open redirect, metrics exposure, headers, tier isolation,
# CSRF and session fixation, key ids of other accounts, path traversal); `make test` runs them too.
test-security: install web-build
	$(NPM) run --silent test -- test/security/

# Replays of whole real recordings and multi-process Kafka runs (listed in vitest.config.ts):
# minutes each, so they sit outside the everyday suite. CI runs this target after `make test`.
test-long: install system-deps web-build
	$(NPM) run --silent test:long

# SECTION=word runs only the sections whose title contains it (e.g. `make bench SECTION=shedding`).
# The million-price sections hold two tier views of a 1M board: more than Node's default heap.
# The servers the bench starts in process run with the runtime's own flags (NODE_RUN).
# The Kafka section needs kcat and the Redis figure redis-server: on a fresh machine they were
# missing and those figures were silently skipped, so the bench installs them as the tests do.
BENCH_NODE := $(NODE_RUN) --max-old-space-size=8192
bench: build system-deps
	$(BENCH_NODE) dist/bench/main.js $(SECTION)

# The one-process runtime for an hour under steady load (simulator at 2,000 ticks/s, 500 SSE and
# WebSocket subscribers, REST and MCP load), read every 10 s; writes docs/soak/soak-<n>min.csv and
# .svg and fails on memory or descriptor growth after the warm-up, or a subscriber out of step with
# /odds (bench/soak.ts, docs/soak.md). SOAK_MINUTES=n (fractional too) runs n minutes; 5 is the CI
# length (.ci/run), too short to judge memory: the board's key tables settle about 22 minutes in.
SOAK_MINUTES ?= 60
soak: build
	SOAK_MINUTES=$(SOAK_MINUTES) node dist/bench/soak.js

# Two pipeline and two API processes on librdkafka's mock cluster, the simulator's ticks fed in,
# stream clients and delta pollers moving between the API replicas, REST load; a random process
# killed with SIGKILL and restarted every CHAOS_KILL_EVERY_SECONDS (30); at the end every tick stored
# once, every mirror equal to /odds on both replicas, no 5xx but 503 with Retry-After, and a summary
# table (bench/chaos.ts, docs/chaos.md). CHAOS_SECONDS bounds the run (300). Needs kcat and python3.
CHAOS_SECONDS ?= 300
CHAOS_KILL_EVERY_SECONDS ?= 30
chaos: install
	CHAOS_SECONDS=$(CHAOS_SECONDS) CHAOS_KILL_EVERY_SECONDS=$(CHAOS_KILL_EVERY_SECONDS) npx tsx bench/chaos.ts

# Runs the read-side sections (or SECTION=word) and fails when a figure's ratio to its same-run
# baseline regressed beyond the tolerance stored in bench/baseline.json (bench/check.ts).
BENCH_RESULTS := dist/bench-results.json
bench-check: build
	@rm -f $(BENCH_RESULTS)
	BENCH_JSON=$(BENCH_RESULTS) $(BENCH_NODE) dist/bench/main.js $(or $(SECTION),reads)
	node dist/bench/check.js $(BENCH_RESULTS) bench/baseline.json

# The simulator's market beside the real recordings (arbitrage, hold, +EV, stale share, how fast
# soft books follow a sharp move), pre-match and live apart, each judged against the 2x target
# (bench/calibrate.ts, docs/simulator.md), tick by tick and seen through snapshots spaced like the recordings.
# Several minutes on a quiet machine (two 720-minute sampled runs); MINUTES=n simulates the tick-by-tick run longer. Then the
# confidence score against the recorded closes (bench/confidence-calibration.ts, docs/opportunities.md).
calibrate: install
	npx tsx bench/calibrate.ts $(MINUTES)
	npx tsx bench/confidence-calibration.ts

# Stores a run's ratios as the new baseline (quiet machine, after a deliberate change).
bench-baseline: build
	@rm -f $(BENCH_RESULTS)
	BENCH_JSON=$(BENCH_RESULTS) $(BENCH_NODE) dist/bench/main.js $(or $(SECTION),reads)
	node dist/bench/check.js $(BENCH_RESULTS) bench/baseline.json --write

# The real recordings (football-data.co.uk, Betfair streams) into data/recordings/ (git-ignored),
# each checked against its SHA-256; fails naming the URL of a download that did not work. The
# Odds API recordings have no single public file: it says so (scripts/recordings/catalogue.ts).
data: install
	npx tsx scripts/data.ts

replay: build
	@test -n "$(FILE)" || { echo "usage: make replay FILE=path.jsonl[.gz] [SPEED=60|max]"; exit 2; }
	FEED=replay REPLAY_FILE="$(FILE)" REPLAY_SPEED="$(or $(SPEED),max)" PORT=$(PORT) $(NODE_RUN) dist/runtime/main.js

# A history file (opening and closing prices per book, results) into the store's history_*
# tables (docs/analysts.md); importing it again replaces its rows. Unreadable cells are listed by
# line and column. On the embedded store (DATA_DIR) the service must be stopped; CLICKHOUSE_URL works too.
import-history: install
	@test -n "$(FILE)" -a -n "$(FORMAT)" || { echo "usage: make import-history FILE=path.csv FORMAT=football-data"; exit 2; }
	@npx tsx runtime/history-command.ts import --file "$(FILE)" --format "$(FORMAT)"

# The imported history (or FILE= read directly) through the +EV engine: bets found at the opening
# prices, graded on the close and the result, per de-vig method and EV threshold (docs/analysts.md).
backtest: install
	@npx tsx runtime/history-command.ts backtest $(if $(FILE),--file "$(FILE)") $(if $(FORMAT),--format "$(FORMAT)") $(if $(REFERENCE),--reference "$(REFERENCE)") $(if $(THRESHOLDS),--thresholds "$(THRESHOLDS)") $(if $(MARKETS),--markets "$(MARKETS)")

# An account and an API key straight in the key store, without the API; prints the secret once.
key: build
	@test -n "$(TIER)" -a -n "$(NAME)" || { echo 'usage: make key TIER=free|hobby|pro|sharp|enterprise NAME="who it is for" [ACCOUNT=acct_...] [RPM=n]'; exit 2; }
	@node dist/runtime/key-command.js --tier "$(TIER)" --name "$(NAME)" $(if $(ACCOUNT),--account "$(ACCOUNT)") $(if $(RPM),--rpm "$(RPM)")

# Each screen at desktop and phone width, in Debian's Chromium, into docs/screenshots/.
screenshots: install system-deps web-build
	npx tsx test/screenshots.ts docs/screenshots

clean:
	rm -rf dist

# Production on one Docker host (docker-compose.yml). .env keeps the generated secrets: API keys
# and the alert secrets' seal key shared by every API replica, the ClickHouse passwords of the
# platform and of the analyst user.
.env:
	@umask 077; { \
	  echo "API_KEYS=pro:pro_$$(openssl rand -hex 12),enterprise:ent_$$(openssl rand -hex 12)"; \
	  echo "ALERT_SECRET_KEY=$$(openssl rand -hex 32)"; \
	  echo "CLICKHOUSE_PASSWORD=$$(openssl rand -hex 16)"; \
	  echo "ANALYST_PASSWORD=$$(openssl rand -hex 16)"; } > .env
	@echo "wrote .env (API keys and passwords): keep it private"

up: .env
	docker compose up -d --build --wait
	@grep ^API_KEYS .env

down:
	docker compose down
