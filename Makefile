# Pilot — build, run and test.
#
#   make run     install what is missing, build, open the window
#   make test    every check CI runs, in order, with a summary table
#
# `make help` lists the other targets. Everything Go that compiles the main
# package needs frontend/dist first (main.go embeds it), so those targets
# depend on `frontend`.

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

# Go from the official tarball is not always on PATH (CI, sudo).
export PATH := $(PATH):/usr/local/go/bin
export CGO_ENABLED := 1

TAGS       := webkit2_41,sqlite_fts5
WAILS      := go tool wails
WAILSFLAGS := $(if $(CI),-nocolour)
# Version: a v* tag when there is one, else the productVersion of wails.json + -dev.
VERSION    ?= $(or $(patsubst v%,%,$(shell git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null)),$(shell sed -n 's/.*"productVersion": *"\([^"]*\)".*/\1/p' wails.json)-dev)
COMMIT     ?= $(or $(shell git rev-parse --short=12 HEAD 2>/dev/null),unknown)
LDFLAGS    := -X pilot/backend/version.Version=$(VERSION) -X pilot/backend/version.Commit=$(COMMIT)
NPM_CI     := npm ci --no-audit --no-fund $(if $(CI),--loglevel=error --progress=false)
LOCKSTAMP  := frontend/node_modules/.package-lock.json
# The wails CLI ends every command with a sponsorship banner; the terminal
# stays quiet unless something is wrong.
QUIET_WAILS := sed -u -e '/consider sponsoring the project/d' -e '/github.com\/sponsors\/leaanthony/d'
# The language servers the tests drive (backend/lsp): gopls built by the Go
# toolchain at a pinned version (v0.24 needs a newer Go), and
# typescript-language-server from frontend/package.json (pinned there, with
# the frontend's typescript), both in LSP_BIN, which go test, e2e and bench
# put first on PATH. Without them the tests that need one skip (fail under CI).
LSP_BIN       := $(CURDIR)/.cache/bin
GOPLS_VERSION := v0.23.0
LSP_PATH      := PATH="$(LSP_BIN):$$PATH"

.PHONY: help deps deps-run deps-test deps-bench node-modules language-servers frontend \
        run build package packages mac build-arm64 package-arm64 deps-arm64 test-arm64 windows dev bindings clean \
        test check-gofmt vet vet-platforms staticcheck deadcode boundaries docs-check tidy-check bindings-check go-test conformance tsc vitest e2e smoke desktop test-windows \
        bench

help:
	@echo "make run        install missing packages, build, open the window"
	@echo "make test       all checks (gofmt, vet, staticcheck, deadcode, boundaries, docs, tidy, bindings, go test -race, MCP conformance, tsc, vitest, e2e, smoke, desktop)"
	@echo "make build      production binary build/bin/pilot (wails build)"
	@echo "make package    .deb, .rpm and .tar.gz of it in build/bin/package (nfpm)"
	@echo "make packages   the same for amd64 and arm64 (arm64 cross-compiled)"
	@echo "make mac        on a Mac: Pilot.app and the tests that run there (docs/MACOS.md)"
	@echo "make windows    pilot.exe and its NSIS installer in build/bin (mingw-w64, docs/WINDOWS.md)"
	@echo "make dev        wails dev: live-reloading window + Vite"
	@echo "make bench      benchmarks; results go to docs/BENCHMARKS.md"
	@echo "make bindings   regenerate frontend/wailsjs and frontend/src/lib/*.gen.ts from Go"
	@echo "make deps       install every system and npm package (run, test and bench)"
	@echo "make frontend   build frontend/dist (main.go embeds it)"
	@echo "make clean      remove build outputs"
	@echo "single test steps: check-gofmt vet vet-platforms staticcheck deadcode boundaries docs-check tidy-check bindings-check go-test test-arm64 conformance tsc vitest e2e smoke desktop test-windows"

# --- dependencies -----------------------------------------------------------

# The diff renderers the review is measured against (Monaco, diff2html),
# with their own package.json and lock, out of the app's bundle.
PEERS_DIR   := frontend/bench/diffpeers
PEERS_STAMP := $(PEERS_DIR)/node_modules/.package-lock.json
$(PEERS_STAMP): $(PEERS_DIR)/package-lock.json $(PEERS_DIR)/package.json
	cd $(PEERS_DIR) && $(NPM_CI)
	touch $@

deps: node-modules language-servers $(PEERS_STAMP)
	@.ci/deps.sh bench
deps-run:
	@.ci/deps.sh run
deps-test: language-servers
	@.ci/deps.sh test
deps-bench: language-servers $(PEERS_STAMP)
	@.ci/deps.sh bench

# gopls is built once per pinned version (the stamp names it); the
# typescript-language-server link points into node_modules.
language-servers: $(LSP_BIN)/.gopls-$(GOPLS_VERSION) $(LSP_BIN)/typescript-language-server
$(LSP_BIN)/.gopls-$(GOPLS_VERSION):
	@mkdir -p $(LSP_BIN)
	GOBIN=$(LSP_BIN) go install golang.org/x/tools/gopls@$(GOPLS_VERSION)
	@touch $@
$(LSP_BIN)/typescript-language-server: | $(LOCKSTAMP)
	@mkdir -p $(LSP_BIN)
	ln -sf ../../frontend/node_modules/.bin/typescript-language-server $@

# npm ci only when node_modules is missing or older than the lock file.
node-modules: $(LOCKSTAMP)
$(LOCKSTAMP): frontend/package-lock.json frontend/package.json
	cd frontend && $(NPM_CI)
	touch $@

# Rebuilt only when a source is newer than frontend/dist/index.html.
FRONTEND_SRC := $(shell find frontend/src frontend/wailsjs frontend/public -type f 2>/dev/null) \
                frontend/index.html frontend/vite.config.ts frontend/tsconfig.json frontend/package.json
frontend: frontend/dist/index.html
# Only Vite here: type checking is its own step (make tsc), so a type error
# does not hide the results of the Go checks.
frontend/dist/index.html: $(LOCKSTAMP) $(FRONTEND_SRC)
	cd frontend && npx vite build --logLevel warn
	touch $@

# --- build and run ----------------------------------------------------------

# -s: the frontend was just built; -skipbindings: bindings are committed
# (`make bindings`); -m/-nosyncgomod: a build never edits go.mod. wails build
# still rewrites frontend/wailsjs/runtime (same content, other file modes),
# so the committed bindings are put back as they were afterwards.
# wails_build: $(1) the environment of the build, $(2) more flags. The
# wails CLI is run as the binary `go tool -n wails` names, so that a cross
# compiler in CC is not used to build the CLI itself.
define wails_build
	@tmp=$$(mktemp -d); cp -a frontend/wailsjs "$$tmp/"; \
	restore() { rm -rf frontend/wailsjs; cp -a "$$tmp/wailsjs" frontend/wailsjs; rm -rf "$$tmp"; }; \
	wails=$$(go tool -n wails); \
	echo '$(WAILS) build $(WAILSFLAGS) -s -skipbindings -m -nosyncgomod -ldflags "$(LDFLAGS)" $(2)'; \
	if ! $(1) $$wails build $(WAILSFLAGS) -s -skipbindings -m -nosyncgomod -ldflags "$(LDFLAGS)" $(2) 2>&1 | $(QUIET_WAILS); then restore; exit 1; fi; \
	restore
endef
build: deps-run frontend
	$(call wails_build,,)
	@./build/bin/pilot version

# The Linux packages of the production binary: a .deb and a .rpm (nfpm,
# build/linux/nfpm.yaml) and a .tar.gz of the same files laid out for
# `tar -C ~/.local --strip-components=1 -xzf`. The version is the one
# `pilot version` prints (VERSION above, given to the binary with -ldflags).
# build/linux/nfpm.yaml names this folder too (the icons).
PKG_DIR := build/bin/package
# linux_packages: $(1) the architecture (nfpm's and the tarball's name),
# $(2) the binary. The icons are made once per folder.
define linux_packages
	@mkdir -p $(PKG_DIR); [[ -d $(PKG_DIR)/icons ]] || go run ./backend/packaging/cmd/iconset -src build/appicon.png -out $(PKG_DIR)/icons
	@for p in deb rpm; do \
		PILOT_VERSION=$(VERSION) PILOT_ARCH=$(1) PILOT_BIN=$(2) go tool nfpm package --config build/linux/nfpm.yaml --packager $$p --target $(PKG_DIR)/ | sed 's/^using /package: /'; \
	done
	@name=pilot-$(VERSION)-linux-$(1); t=$(PKG_DIR)/$$name; mkdir -p $$t/bin $$t/share/applications $$t/share/doc/pilot; \
	install -m 0755 $(2) $$t/bin/pilot; \
	install -m 0644 build/linux/pilot.desktop $$t/share/applications/pilot.desktop; \
	install -m 0644 LICENSE $$t/share/doc/pilot/LICENSE; \
	cp -r $(PKG_DIR)/icons $$t/share/icons; \
	tar -C $(PKG_DIR) --owner=0 --group=0 -czf $(PKG_DIR)/$$name.tar.gz $$name; \
	rm -rf $$t
	@cd $(PKG_DIR) && for f in *_$(1).deb *.$(if $(filter arm64,$(1)),aarch64,x86_64).rpm *-linux-$(1).tar.gz; do printf 'package: %s (%s bytes)\n' "$$f" "$$(stat -c %s "$$f")"; done
endef
package: build
	@rm -rf $(PKG_DIR)
	$(call linux_packages,amd64,build/bin/pilot)

# Linux arm64: the desktop binary cross-compiled (aarch64-linux-gnu-gcc)
# against a Debian arm64 tree of GTK and WebKitGTK (.ci/arm64-sysroot.sh,
# kept in .cache/), run once under qemu-user (pilot version), then the
# same three packages. Cold, the tree takes about 6 minutes and the build
# about 11 on this 2-core machine (SQLite's C for arm64 is most of it):
# too long for make test, so `make packages` alone builds it. The arm64
# Go tests run in make test (test-arm64).
ARM64_ROOT := $(CURDIR)/.cache/arm64-sysroot
ARM64_ENV  := CGO_ENABLED=1 CC="aarch64-linux-gnu-gcc --sysroot=$(ARM64_ROOT)" \
              PKG_CONFIG_SYSROOT_DIR=$(ARM64_ROOT) PKG_CONFIG_LIBDIR=$(ARM64_ROOT)/usr/lib/aarch64-linux-gnu/pkgconfig:$(ARM64_ROOT)/usr/share/pkgconfig \
              CGO_LDFLAGS="-Wl,-rpath-link,$(ARM64_ROOT)/usr/lib/aarch64-linux-gnu -Wl,-rpath-link,$(ARM64_ROOT)/lib/aarch64-linux-gnu"
deps-arm64:
	@.ci/deps.sh arm64
build-arm64: deps-arm64 frontend
	@.ci/arm64-sysroot.sh $(ARM64_ROOT)
	$(call wails_build,$(ARM64_ENV),-platform linux/arm64 -o pilot-linux-arm64)
	@if command -v qemu-aarch64 >/dev/null; then qemu-aarch64 -L $(ARM64_ROOT) build/bin/pilot-linux-arm64 version; \
	else echo "build-arm64: qemu-user is not installed, so the arm64 binary was not run (apt-get install qemu-user)"; fi
package-arm64: build-arm64
	$(call linux_packages,arm64,build/bin/pilot-linux-arm64)

# Every Linux package: amd64 (make package) and arm64.
packages: package package-arm64

# macOS, on a Mac only (docs/MACOS.md): the .app, its `version`, and the
# tests of the packages that run there. Elsewhere it says so and stops.
MAC_TESTS := sandbox store ledger projectroot flock trustfile secret
mac:
	@[[ "$$(uname -s)" == Darwin ]] || { echo "make mac needs a Mac (macOS 13+, Xcode's command line tools, Go, Node.js): see docs/MACOS.md; here make vet-platforms type-checks darwin/arm64"; exit 1; }
	@$(MAKE) node-modules frontend
	$(call wails_build,,-platform darwin/arm64)
	./build/bin/Pilot.app/Contents/MacOS/pilot version
	go test -race -tags $(TAGS) $(addprefix ./backend/,$(MAC_TESTS))

# Windows: pilot.exe and its 64-bit NSIS installer in build/bin, cross-built
# with mingw-w64 (cgo: go-sqlite3 with FTS5) and the pinned Wails CLI. The
# CLI binary is taken from `go tool -n wails` (built for this machine):
# `go tool wails` with CC set to mingw would build the CLI itself for
# Windows. docs/WINDOWS.md.
WIN_ENV := CC=x86_64-w64-mingw32-gcc CGO_ENABLED=1
windows: frontend
	@.ci/windows/packages.sh
	@tmp=$$(mktemp -d); cp -a frontend/wailsjs "$$tmp/"; \
	restore() { rm -rf frontend/wailsjs; cp -a "$$tmp/wailsjs" frontend/wailsjs; rm -rf "$$tmp" build/windows/installer/tmp; git checkout -q -- build/windows/installer/wails_tools.nsh 2>/dev/null || true; }; \
	wails=$$(go tool -n wails); \
	if ! $(WIN_ENV) $$wails build $(WAILSFLAGS) -platform windows/amd64 -nsis -s -skipbindings -m -nosyncgomod -o pilot.exe -ldflags "$(LDFLAGS)" 2>&1 | $(QUIET_WAILS); then restore; exit 1; fi; \
	restore
	@ls -l build/bin/pilot.exe build/bin/Pilot-amd64-installer.exe | awk '{print "windows: " $$NF " (" $$5 " bytes)"}'

# WebKit's JavaScriptCore prints one harmless line at start (it takes
# SIGUSR1, for which the Go runtime always has a handler, for its garbage
# collector); it is dropped here, everything else on stderr passes.
run: build
	./build/bin/pilot 2> >(sed -u '/^Overriding existing handler for signal 10\. Set JSC_SIGNAL_FOR_GC/d' >&2)

dev: deps-run node-modules
	$(WAILS) dev -m -nosyncgomod -ldflags "$(LDFLAGS)" 2>&1 | $(QUIET_WAILS)

# Generation runs the app's main(): give it a throw-away PILOT_HOME.
# Wails writes the bound methods and their models (frontend/wailsjs);
# wiregen writes, in frontend/src/lib, the wire contract (wire.gen.ts:
# every payload, enum and event of backend/wire) and the window's calls
# (backend.gen.ts: the interface of the methods App binds;
# wailsBound.gen.ts: them over Wails' bindings).
WIREGEN := go run ./backend/internal/wiregen
bindings: frontend
	home=$$(mktemp -d); PILOT_HOME=$$home $(WAILS) generate module $(WAILSFLAGS) -tags $(TAGS) 2>&1 | $(QUIET_WAILS); rm -rf "$$home"
	$(WIREGEN)

clean:
	rm -rf build/bin build/e2e-artifacts build/bench frontend/dist frontend/package.json.md5

# --- test -------------------------------------------------------------------

# The steps, in order, with a summary table; stops at the first failure.
test:
	@.ci/test.sh

check-gofmt:
	@out=$$(find . \( -path ./frontend/node_modules -o -path ./.git -o -path ./build \) -prune -o -name '*.go' -print | xargs gofmt -l); \
	if [[ -n "$$out" ]]; then echo "gofmt: these files need gofmt -w:"; echo "$$out"; exit 1; fi

vet: frontend
	go vet -tags $(TAGS) ./...

# The four targets Pilot builds for, type-checked (go vet, tests included)
# from here: linux/amd64, linux/arm64, darwin/arm64 and windows/amd64. cgo
# is off (no cross C compiler or SDK is needed): the C parts (SQLite, GTK,
# WebKit) are Linux amd64's `vet` above and `make packages`' business. A
# store without cgo refuses at Open; its test runs here too. Each target
# is tried, and the failing ones are named at the end.
PLATFORMS := linux/amd64 linux/arm64 darwin/arm64 windows/amd64
vet-platforms: frontend
	@failed=(); for t in $(PLATFORMS); do \
		echo "vet-platforms: $$t"; \
		GOOS=$${t%/*} GOARCH=$${t#*/} CGO_ENABLED=0 go vet -tags $(TAGS) ./... || failed+=("$$t"); \
	done; \
	CGO_ENABLED=0 go test -count=1 -run TestOpenWithoutCgo ./backend/store || failed+=("store without cgo"); \
	if (($${#failed[@]})); then echo "vet-platforms: failed for $${failed[*]}: build that target (GOOS=... GOARCH=... CGO_ENABLED=0 go vet ./...) and fix what it names"; exit 1; fi; \
	echo "vet-platforms: $(PLATFORMS) type-check"

# Both linters are go.mod tools (go get -tool), so everyone runs the same
# version. staticcheck.conf says which of its default checks is off, and why.
staticcheck: frontend
	go tool staticcheck -tags $(TAGS) ./...

# Functions the pilot binary can never call. Code that only a test calls
# counts as dead (no -test): it ships without a caller. One report is not
# true and is dropped, matched on its file and name: pilotFocusChanged and
# pilotIdle are //exports that GTK's focus and idle callbacks call from C,
# and a Go call graph cannot see callers in C.
DEADCODE_FROM_C := ^backend/wailsbridge/(focus_linux\.go:[0-9]+:[0-9]+: unreachable func: pilotFocusChanged|idle_linux\.go:[0-9]+:[0-9]+: unreachable func: pilotIdle)$$
# The macOS sandbox's profile generator (backend/sandbox/seatbelt.go) is
# called by the darwin build alone (session_darwin.go); it is compiled on
# Linux too so that its golden tests run here.
DEADCODE_DARWIN := ^backend/sandbox/seatbelt\.go:[0-9]+:[0-9]+: unreachable func: [A-Za-z.]+$$
deadcode: frontend
	@all=$$(go tool deadcode -tags $(TAGS) .) || { echo "deadcode: the run failed"; exit 1; }; \
	out=$$(grep -Ev '$(DEADCODE_FROM_C)|$(DEADCODE_DARWIN)' <<<"$$all" || true); \
	if [[ -n "$$out" ]]; then echo "$$out"; echo "deadcode: the functions above have no caller in the pilot binary: remove them"; exit 1; fi; \
	echo "deadcode: every function has a caller"

# Which package may import which (backend/internal/archtest), and the
# frontend's import graph: no circle, no import up a layer
# (frontend/scripts/imports.mjs).
boundaries: node-modules
	go test -tags $(TAGS) -count=1 ./backend/internal/archtest
	node --test frontend/scripts/imports.test.mjs frontend/scripts/firstscreen.test.mjs

# docs/CLI.md against the code: flags, environment variables and tools
# (backend/internal/docstest), the window's test ids (testids.test.mjs).
docs-check: node-modules
	go test -tags $(TAGS) -count=1 ./backend/internal/docstest
	node --test frontend/scripts/testids.test.mjs

tidy-check:
	@go mod tidy -diff || { echo "go.mod/go.sum are not tidy: run 'go mod tidy' and commit the result"; exit 1; }

# Regenerates the bindings, compares them with the work tree, and always puts
# the work tree back as it was (mtimes too, so the frontend is not rebuilt);
# wiregen -check regenerates its files in memory and fails naming the one
# that differs (backend/internal/wiregen's TestStaleBoundAPIFailsCheck runs
# it on a scratch copy with a method added to App).
bindings-check: frontend
	@tmp=$$(mktemp -d); \
	cp -a frontend/wailsjs "$$tmp/before"; \
	restore() { rm -rf frontend/wailsjs; cp -a "$$tmp/before" frontend/wailsjs; }; \
	trap 'rm -rf "$$tmp"' EXIT; \
	if ! PILOT_HOME="$$tmp/home" $(WAILS) generate module $(WAILSFLAGS) -tags $(TAGS) >"$$tmp/log" 2>&1; then \
		cat "$$tmp/log"; restore; echo "bindings: wails generate module failed"; exit 1; \
	fi; \
	if ! diff -ruN "$$tmp/before" frontend/wailsjs >"$$tmp/diff"; then \
		head -n 80 "$$tmp/diff"; restore; \
		echo "frontend/wailsjs is stale: run 'make bindings' and commit the result"; exit 1; \
	fi; \
	restore; \
	$(WIREGEN) -check; \
	echo "bindings are up to date"

# -timeout 25m: a package's tests may take longer than go test's 10-minute
# default on a loaded 2-core machine (the ledger's 100 kills of a -race
# child and the cli's escape corpus did, at a load of 12 to 16); a test that
# hangs still fails, later.
go-test: frontend
	$(LSP_PATH) go test -race -timeout 25m -tags $(TAGS) ./...

# The Go tests of a subset of packages built for linux/arm64 and run under
# qemu-user (no arm64 machine needed). cgo is off, so no cross compiler is
# needed: the packages below need neither SQLite nor GTK, and none starts
# its own test binary again (qemu-user runs only the first). Chosen for
# what differs by CPU: system calls (projectroot's directory reading,
# hostexec, the proxy's sockets, secret and trust files' modes, hooks
# running programs), then cheap pure logic. Measured on this machine: 28 s
# with a warm build cache. Grow the list; a package that cannot join says
# why here.
#   store, ledger, agent, service, cli: SQLite (cgo) and they start their
#     own test binary again (kill tests);
#   sandbox, tools, mcp, lsp, doctor: start their own test binary again;
#   git: passes, but takes 7 minutes under qemu (425 s measured).
ARM64_TESTS := projectroot hostexec netproxy secret trustfile hooks diff permission settingsrules childenv paths
test-arm64:
	@command -v qemu-aarch64 >/dev/null || { echo "test-arm64: qemu-user is not installed: run make deps-test (or apt-get install qemu-user)"; exit 1; }
	GOARCH=arm64 CGO_ENABLED=0 go test -count=1 -exec qemu-aarch64 -tags $(TAGS) $(addprefix ./backend/,$(ARM64_TESTS))

# The official MCP conformance suite (@modelcontextprotocol/conformance,
# pinned with the Node.js it needs in .ci/conformance/package.json, apart
# from the frontend's packages): its client scenarios against the real
# binary, driven by .ci/conformance/pilot-client.sh; fails when the result
# differs from .ci/conformance/expected-pass.txt (docs/MCP.md, "Conformance").
CONF_DIR   := .ci/conformance
CONF_STAMP := $(CONF_DIR)/node_modules/.package-lock.json
$(CONF_STAMP): $(CONF_DIR)/package-lock.json $(CONF_DIR)/package.json
	cd $(CONF_DIR) && $(NPM_CI)
	touch $@
conformance: frontend $(CONF_STAMP)
	go build -tags $(TAGS) -o build/conformance/pilot .
	go build -o build/conformance/fakellm ./backend/internal/fakellm/cmd/fakellm
	PILOT_BIN=$(CURDIR)/build/conformance/pilot FAKELLM_BIN=$(CURDIR)/build/conformance/fakellm $(CONF_DIR)/run.sh

tsc: node-modules
	cd frontend && npx tsc --noEmit

vitest: node-modules
	cd frontend && npx vitest run

# End-to-end: dev binary under Xvfb + Playwright (playwright-core, /usr/bin/chromium).
e2e: deps-test frontend
	$(LSP_PATH) node frontend/e2e/run.mjs --no-frontend-build

# Production smoke test: the real binary opens a non-blank window.
smoke: deps-test build
	frontend/e2e/smoke-prod.sh
	frontend/e2e/screens-prod.sh

# The packages, installed (dpkg -i, then removed) and run as a desktop app:
# pilot DIR, one window, notifications on a private D-Bus session bus.
desktop: deps-test package
	frontend/e2e/desktop-prod.sh

# Windows under Wine (docs/WINDOWS.md): the Go tests of the packages below
# run as Windows test binaries under wine64, then the real pilot.exe and
# its installer (.ci/windows/smoke.sh). .ci/windows/prefix.sh installs
# mingw-w64, wine64 and nsis and prepares the prefix with its workarounds.
# Warm: 2 min 10 s idle before the smoke test's MCP server, command and
# console steps; 7 min 46 s with them at load 15-28 (about 3 min idle is a
# guess; docs/WINDOWS.md has the figures).
# The list only grows. Left out for now, each failing under Wine on 033db48:
#   childenv, config, hooks, hostexec, settingsjson, store: the
#     tests write Unix paths ("/proj", "PATH=.:/usr/bin") as absolute ones;
#   ledger, projectroot, tools: links and Unix modes in the fixtures, roots
#     left open at cleanup, and Wine 8's "Invalid function" for a removal
#     through an os.Root (their tests of issue 41's bugs are below);
#   memory, skills: links and Unix file modes in the tests;
#   agent, service, cli, lsp: need bash (Git Bash) and the language servers;
#   sandbox, netproxy's pod tests: Linux only (no sandbox on Windows).
# In the list, mcp skips on Windows its two tests that need sh or /proc.
WIN_TEST_PKGS := approval commands customagent diff flock frontmatter gate llm logging mcp modelfacts \
                 namesort ownerfile paths permission procgroup rules settingsrules todo trustfile
# Single tests of packages left out above (PKG=REGEX): the fixed Windows bugs.
WIN_TEST_ONLY := ledger=^(TestSyncStoredObjects|TestReplaceWhileRead|TestRevertFile|TestRevertUnderLaterChange)$$ projectroot=^(TestFileOnWay|TestResolveAbsolute)$$ tools=^TestWriteFile$$
test-windows: frontend
	@source .ci/windows/prefix.sh; \
	t0=$$SECONDS; .ci/windows/gotest.sh $(patsubst %,'%',$(addprefix ./backend/,$(WIN_TEST_PKGS) $(WIN_TEST_ONLY))); echo "test-windows: Go tests under Wine in $$((SECONDS - t0))s"; \
	t0=$$SECONDS; $(MAKE) windows; .ci/windows/smoke.sh; echo "test-windows: pilot.exe and installer under Wine in $$((SECONDS - t0))s"

# --- benchmarks -------------------------------------------------------------
# Each area adds its command here; results are written into docs/BENCHMARKS.md.

bench: deps-bench build
	.ci/bench-startup.sh
	.ci/bench-memory.sh
	.ci/bench-mcp.sh
	.ci/bench-go.sh llm ./backend/llm
	go run ./backend/tools/cmd/toolbench -runs 5 | .ci/bench-section.sh tools
	.ci/bench-root.sh | .ci/bench-section.sh root
	.ci/bench-go.sh files ./backend/service 'ListDir|FindFiles'
	.ci/bench-go.sh store ./backend/store . 2s
	.ci/bench-go.sh agent ./backend/agent 'ToolRoundTrip|StreamEvents'
	.ci/bench-go.sh review ./backend/agent BigEdit 5x
	.ci/bench-go.sh ledger ./backend/ledger . 5x
	.ci/bench-go.sh gate ./backend/gate
	PILOT_BENCH_BIG=1 .ci/bench-go.sh worktree ./backend/service WorktreeSession 5x
	PILOT_BENCH_BIG=1 .ci/bench-go.sh branch ./backend/service GetBranch200 5x
	.ci/bench-go.sh sandbox ./backend/sandbox . 50x
	.ci/bench-go.sh proxy ./backend/netproxy Download
	.ci/bench-go.sh skills ./backend/skills SkillsPrompt 20x
	$(LSP_PATH) .ci/bench-go.sh lsp ./backend/lsp AfterChange 20x
	node frontend/e2e/bench-stream.mjs --no-frontend-build --runs 3 | .ci/bench-section.sh stream
	node frontend/e2e/bench-stream.mjs --no-frontend-build --no-go-build --runs 3 --delay-ms 1 | .ci/bench-section.sh stream-paced
	node frontend/e2e/bench-scale.mjs --no-frontend-build --no-go-build --runs 3 | .ci/bench-section.sh scale
	node frontend/bench/diffpeers/run.mjs --no-frontend-build --no-go-build --runs 3 | .ci/bench-section.sh diffpeers
	node frontend/bench/jobs/run.mjs --no-frontend-build --no-go-build --runs 3 | .ci/bench-section.sh jobs
	node frontend/bench/branch/run.mjs --no-frontend-build --no-go-build --big --runs 3 | .ci/bench-section.sh branch-window
	node frontend/bench/inbox/run.mjs --no-frontend-build --no-go-build --runs 3 | .ci/bench-section.sh inbox
