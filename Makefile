# Strata — the two commands a newcomer runs are `make report` and `make test`.
# Both install what they need first (Debian packages via apt-get, as root or with sudo).

SWIFT ?= swift
DEB_PACKAGES := libsqlite3-dev liblmdb-dev libxml2-dev libxml2-utils lmdb-utils sqlite3 pkg-config postgresql libpq-dev
REPORT_DIR := reports
RECORDS ?= 100000
# The long reliability runs (`make torture`, `make fuzz`): BACKEND=… (default: every file backend),
# how many trials, which seed.
TRIALS ?= 1000
SEED ?= 1
RELIABILITY_BACKENDS = $(if $(filter command line environment,$(origin BACKEND)),$(BACKEND),sqlite lmdb json csv xml)

.PHONY: postgres-up postgres-down deps build release soak model-bench peers test consumer docs examples report report-screenshot instructions perfcheck convert-pairs difftest model-difftest mutants rule-sites torture fuzz powerloss clean

## deps: install the Debian packages the build needs, if any is missing.
deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi; \
		echo "Installing Debian packages:$$missing"; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@command -v $(SWIFT) >/dev/null || { echo "Swift is not on PATH (expected /opt/swift/usr/bin)."; exit 1; }

## build: debug build of everything.
build: deps
	$(SWIFT) build

## release: optimized build of the strata tool (benchmarks need it).
release: deps
	$(SWIFT) build -c release --product strata

## test: build and run every test (core, the suite on every built-in backend, model layer, short torture and fuzz runs).
## First the consumer check up to where SwiftPM refuses unsafe flags (the package graph, no compiling).
test: deps
	SWIFT=$(SWIFT) bash Tests/Consumer/run.sh plan
	$(SWIFT) build --build-tests
	bash Tests/Postgres/cluster.sh run -- $(SWIFT) test --skip-build

## soak: the multi-process PostgreSQL runs at the issue's full size, which `make test` runs smaller
## (docs/testing.md): 4 processes × SOAK_SAVES saves on one store (and 4 in network namespaces), and
## SOAK_KILLS kills in one-record updates with history (4 × 2,000 saves alone took 640 s of a loaded 2-core machine).
SOAK_SAVES ?= 2000
SOAK_KILLS ?= 100
soak: deps
	$(SWIFT) build --build-tests
	bash Tests/Postgres/cluster.sh run -- env STRATA_PG_WORKER_SAVES=$(SOAK_SAVES) STRATA_PG_KILLS=$(SOAK_KILLS) \
		$(SWIFT) test --skip-build --filter 'PostgresConcurrencyTests|PostgresNetworkNamespaceTests|PostgresHistoryKillTests'

## postgres-up / postgres-down: the private PostgreSQL server the tests use (Tests/Postgres/cluster.sh),
## for manual use, in POSTGRES_DIR; up prints its settings (`eval "$$(make -s postgres-up)"` exports them).
POSTGRES_DIR ?= /tmp/strata-postgres-manual
postgres-up: deps
	@bash Tests/Postgres/cluster.sh start $(POSTGRES_DIR) && bash Tests/Postgres/cluster.sh env $(POSTGRES_DIR)
postgres-down:
	@bash Tests/Postgres/cluster.sh stop $(POSTGRES_DIR)

## docs: the reference (DocC) of Strata, StrataModel and StrataConformance as one static site in DOCS_DIR
## (serve DOCS_DIR over HTTP to browse it). Fails on a broken symbol link or any other DocC warning, except
## a function parameter without its own doc line (the source's doc comments, not the catalog's links).
## Standard output and standard error are kept apart while it runs, so that a progress line never splits a warning.
DOCS_DIR ?= .build/docs
docs: deps
	@start=$$(date +%s); log=$$(mktemp); \
	$(SWIFT) package --allow-writing-to-directory $(DOCS_DIR) generate-documentation \
		--target Strata --target StrataModel --target StrataConformance \
		--enable-experimental-combined-documentation --transform-for-static-hosting \
		--output-path $(DOCS_DIR) > $$log 2> $$log.err; status=$$?; cat $$log.err >> $$log; rm -f $$log.err; \
	problems=$$(grep -E '^(warning|error):' $$log | grep -v "^warning: Parameter '.*' is missing documentation"); \
	if [ $$status -ne 0 ] || [ -n "$$problems" ]; then cat $$log; echo "docs FAILED:"; echo "$$problems"; rm -f $$log; exit 1; fi; \
	rm -f $$log; echo "docs: $(DOCS_DIR)/index.html and documentation/ ($$(( $$(date +%s) - start )) s)"

## consumer: build and run Tests/Consumer, a package that depends on Strata by version (from:) through the
## file:// URL of a tagged temporary copy of this working tree, uses every library product and saves and
## fetches a record on every built-in backend (compiles everything again, swift-syntax included).
consumer: deps
	SWIFT=$(SWIFT) bash Tests/Consumer/run.sh run

## model-bench: optimized build of strata-model-bench (the workload through the model layer, docs/benchmarks.md);
## kept apart from `release` because the model layer's macros compile swift-syntax in release.
model-bench: deps
	$(SWIFT) build -c release --product strata-model-bench

## peers: the standard workload on SQLite through Strata's model layer, GRDB 7.10's records (hand-written
## and Codable) and raw C, in one process run (Benchmarks/Peers, a package of its own so that Strata's
## users never resolve GRDB; it compiles swift-syntax and GRDB in release: 15-50 minutes the first time).
## Writes $(REPORT_DIR)/peers.json, which `make report` shows as a section (docs/benchmarks.md, "Peers").
PEERS_RECORDS ?= 100000
PEERS_RUNS ?= 3
peers: deps
	cd Benchmarks/Peers && $(SWIFT) build -c release --product StrataPeers
	mkdir -p $(REPORT_DIR)
	Benchmarks/Peers/.build/release/StrataPeers --records $(PEERS_RECORDS) --runs $(PEERS_RUNS) --out $(REPORT_DIR)/peers.json

## examples: every example (docs/examples.md) with `swift run` on every built-in backend, each in a fresh
## folder; fails if any backend's output differs from the memory backend's. Not part of test (the Notes
## example imports its full 10,000 notes here). EXAMPLES=… and EXAMPLE_BACKENDS=… pick a subset.
## PostgreSQL (EXAMPLE_BACKENDS' `postgres`) runs in one private cluster (Tests/Postgres/cluster.sh),
## stopped at the end whatever happened; only the examples in EXAMPLES_ON_POSTGRES run there. The
## run's folder is opened to traversal (711): as root the server runs as its own account, which must
## reach the cluster's folder inside it.
EXAMPLES ?= trips books notes pixar migrations history
EXAMPLE_BACKENDS ?= memory sqlite json csv lmdb xml postgres
EXAMPLES_ON_POSTGRES ?= trips books pixar migrations history
# example:backend pairs not run, each reported as skipped (none today).
EXAMPLE_SKIPS ?=
examples: deps
	@for e in $(EXAMPLES); do $(SWIFT) build -q --product $$e || exit 1; done
	@dir=$$(mktemp -d /tmp/strata-examples.XXXXXX); status=0; \
	case " $(EXAMPLE_BACKENDS) " in *" postgres "*) \
		chmod 711 $$dir; \
		trap 'bash Tests/Postgres/cluster.sh stop '$$dir'/pg > /dev/null 2>&1' EXIT; \
		bash Tests/Postgres/cluster.sh start $$dir/pg > $$dir/pg.log 2>&1 || { echo "FAIL the PostgreSQL cluster did not start"; cat $$dir/pg.log; exit 1; }; \
		. $$dir/pg/env;; esac; \
	for e in $(EXAMPLES); do \
		for b in $(EXAMPLE_BACKENDS); do \
			case " $(EXAMPLE_SKIPS) " in *" $$e:$$b "*) printf "skip %-5s on %-6s (EXAMPLE_SKIPS)\n" $$e $$b; continue;; esac; \
			if [ $$b = postgres ]; then case " $(EXAMPLES_ON_POSTGRES) " in *" $$e "*) ;; *) continue;; esac; fi; \
			start=$$(date +%s%N); \
			if ! $(SWIFT) run -q --skip-build $$e --backend $$b --path $$dir/$$e-$$b > $$dir/$$e-$$b.out 2>&1; then \
				echo "FAIL $$e on $$b: exited with an error"; tail -5 $$dir/$$e-$$b.out; status=1; continue; fi; \
			ms=$$(( ($$(date +%s%N) - start) / 1000000 )); secs=$$((ms / 1000)).$$((ms % 1000 / 100)); lines=$$(wc -l < $$dir/$$e-$$b.out); \
			if [ $$b = memory ]; then printf "ok   %-5s on %-6s %4s lines  %6s s  (reference)\n" $$e $$b $$lines $$secs; \
			elif cmp -s $$dir/$$e-memory.out $$dir/$$e-$$b.out; then printf "ok   %-5s on %-6s %4s lines  %6s s  same as memory\n" $$e $$b $$lines $$secs; \
			else echo "FAIL $$e on $$b: output differs from memory"; diff $$dir/$$e-memory.out $$dir/$$e-$$b.out | head -20; status=1; fi; \
		done; \
	done; \
	echo "outputs in $$dir"; exit $$status

## report: the backend comparison (docs/report.md): conformance and the standard workload on every built-in
## backend, each in its own child process, written to reports/report.json, report.md and index.html,
## with the peers section when $(REPORT_DIR)/peers.json exists (make peers).
## Timing of the defaults on a 2-core machine: docs/report.md ("make report").
REPORT_RECORDS ?= 100000
REPORT_SIZES ?= 1000,10000,100000
report: release
	bash Tests/Postgres/cluster.sh run -- .build/release/strata report --records $(REPORT_RECORDS) --sizes $(REPORT_SIZES) --out $(REPORT_DIR) $(if $(wildcard $(REPORT_DIR)/peers.json),--peers $(REPORT_DIR)/peers.json)

## report-screenshot: make report, then a PNG of the page from headless Chromium (installed if missing).
report-screenshot: report
	@command -v chromium >/dev/null || { if [ "$$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi; \
		$$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends chromium; }
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,5200 \
		--screenshot=$(CURDIR)/$(REPORT_DIR)/index.png file://$(CURDIR)/$(REPORT_DIR)/index.html 2>/dev/null
	@echo "$(REPORT_DIR)/index.png"

## instructions: callgrind instruction counts of one workload step, backend and raw engine, in one go.
##   make instructions BACKEND=sqlite STEP=fetch-by-id RECORDS=100000
## valgrind 3.19 cannot read the toolchain's DWARF 5, so it measures a copy without debug info.
BACKEND ?= sqlite
STEP ?= fetch-by-id
instructions: release
	@command -v valgrind >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind; }
	@cp .build/release/strata .build/strata-nodebug && strip --strip-debug .build/strata-nodebug
	@count() { valgrind --tool=callgrind --callgrind-out-file=/dev/null --collect-atstart=no --toggle-collect=strata_measure \
		.build/strata-nodebug bench --backend $(BACKEND) --records $(RECORDS) --step $(STEP) "$$@" 2>&1 | sed -n 's/.*Collected : //p'; }; \
	both=$$(count --baseline); raw=$$(count --baseline --baseline-only); backend=$$((both - raw)); \
	echo "$(BACKEND) $(STEP) N=$(RECORDS): backend $$backend instructions, raw engine $$raw"; \
	awk -v b=$$backend -v r=$$raw 'BEGIN { if (b > 0) printf "speed relative to the raw engine (instructions): %.2f\n", r / b }'

## perfcheck: callgrind instruction counts of every standard workload step of every built-in backend at
## N = PERFCHECK_RECORDS, each against its limit in Benchmarks/Thresholds/<backend>-<step>.txt; fails when a
## step costs more than its limit + PERFCHECK_TOLERANCE percent. Not part of test: about 4 minutes on
## 2 cores plus the release build (docs/benchmarks.md, "make perfcheck"). PERFCHECK_RECORD=1 writes the
## measured counts as the new limits, for the commit that earns them.
PERFCHECK_RECORDS ?= 10000
PERFCHECK_TOLERANCE ?= 3
PERFCHECK_BACKENDS ?= sqlite lmdb json csv xml memory
perfcheck: release
	@command -v valgrind >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind; }
	@cp .build/release/strata .build/strata-nodebug && strip --strip-debug .build/strata-nodebug
	@Benchmarks/perfcheck.sh .build/strata-nodebug $(PERFCHECK_RECORDS) $(PERFCHECK_TOLERANCE) $(if $(PERFCHECK_RECORD),record) $(PERFCHECK_BACKENDS)

## convert-pairs: every pair of built-in backends with files or a server (PostgreSQL on a private cluster)
## converts a random store written with CONVERT_RECORDS records (10,480: 10,011 left after the deletes) with
## `strata convert` (--verify on), and the dumps of both sides are byte-identical (Tests/Convert/pairs.sh,
## docs/convert.md; about 15 minutes under load, builds apart). Not part of test: 30 converts of 10,000 records and their
## dumps take minutes, a server's pairs the longest; `make test` converts 800.
## Then the memory backend's pairs (a store in one process: ConvertMemoryPairsTests, the in-process API)
## at CONVERT_MEMORY_RECORDS (10,000; `make test` runs them at 2,000), memory into every other backend and back.
CONVERT_RECORDS ?= 10480
CONVERT_MEMORY_RECORDS ?= 10000
convert-pairs: release
	bash Tests/Postgres/cluster.sh run -- bash Tests/Convert/pairs.sh .build/release/strata $(CONVERT_RECORDS) $(SEED)
	$(SWIFT) build --build-tests
	bash Tests/Postgres/cluster.sh run -- env STRATA_CONVERT_MEMORY_RECORDS=$(CONVERT_MEMORY_RECORDS) $(SWIFT) test --skip-build --filter ConvertMemoryPairsTests

## difftest: seeded random operations in lockstep on every built-in backend (SEEDS seeds of OPS operations),
## PostgreSQL included, on a private server started for the run (Tests/Postgres/cluster.sh);
## DURABILITY=processCrash runs SQLite and LMDB without an fsync per save (the same saves and answers,
## several times faster on a slow disk; docs/conformance.md).
SEEDS ?= 1000
OPS ?= 200
DURABILITY ?= powerLoss
difftest: release
	bash Tests/Postgres/cluster.sh run -- .build/release/strata difftest --seeds $(SEEDS) --operations $(OPS) --durability $(DURABILITY)

## model-difftest: the model layer against an oracle (Tests/StrataModelTests/PredicateOracleTests.swift):
## PREDICATES random #Predicates, as many sorts with windows and as many predicates over unsaved changes per
## built-in backend, each fetch compared with Foundation's Predicate.evaluate and Swift's sort of the same
## objects (make test runs 300 of each). Time: docs/models.md, "The predicate oracle".
PREDICATES ?= 10000
ORACLE_SEED ?= 1
model-difftest: deps
	$(SWIFT) build --build-tests
	STRATA_ORACLE_CASES=$(PREDICATES) STRATA_ORACLE_SEED=$(ORACLE_SEED) $(SWIFT) test --skip-build --filter PredicateOracleTests

## mutants: the mutation catalogue (Conformance/Mutants/catalogue.py) against the suite, in a scratch
## copy with its own incremental build folder (.build-mutants); ONLY=id,id runs some. Not part of test.
## Each verdict is appended to Conformance/Mutants/ledger.tsv with the commit it ran on; PENDING=1 runs
## only the mutants without a verdict for their current entry, LIMIT=N at most N of them, so the
## catalogue completes over several sessions (`python3 Conformance/Mutants/run.py --list` shows where).
mutants: deps
	python3 Conformance/Mutants/run.py $(if $(ONLY),--only $(ONLY)) $(if $(PENDING),--pending) $(if $(LIMIT),--limit $(LIMIT))

## rule-sites: each StrataError code's construction sites in Sources/ and Backends/ (PostgreSQL apart) and every
## message written at two or more sites; fails on a repeated message not explained in
## Conformance/RuleSites/allowed-repeats.txt (docs/architecture.md, "Every rule's message once"). SITES=1 lists every site.
rule-sites:
	python3 Conformance/RuleSites/rule-sites.py $(if $(SITES),--sites)

## torture: kill -9 a writer TRIALS times inside small and large saves on each BACKEND (docs/reliability.md).
torture: release
	@status=0; for b in $(RELIABILITY_BACKENDS); do .build/release/strata torture --backend $$b --trials $(TRIALS) --seed $(SEED) || status=1; echo; done; exit $$status

## fuzz: open TRIALS damaged copies of a sample store on each BACKEND (docs/reliability.md).
fuzz: release
	@status=0; for b in $(RELIABILITY_BACKENDS); do .build/release/strata fuzz --backend $$b --trials $(TRIALS) --seed $(SEED) || status=1; echo; done; exit $$status

## powerloss: record a writer under the LD_PRELOAD recorder and open TRIALS disk states a power loss could
## leave, on each BACKEND (docs/reliability.md, "strata powerloss"); needs a C compiler (cc).
POWERLOSS_SAVES ?= 30
powerloss: release
	@status=0; for b in $(RELIABILITY_BACKENDS); do .build/release/strata powerloss --backend $$b --trials $(TRIALS) --seed $(SEED) --saves $(POWERLOSS_SAVES) --large-every 5 || status=1; echo; done; exit $$status

clean:
	rm -rf .build .build-mutants $(REPORT_DIR)
