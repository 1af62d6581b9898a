#!/usr/bin/env bash
# `make test`: runs the checks in order, stops at the first failure, and
# always ends with a summary table (step, status, seconds).
#
# Each step is a make target that can also be run alone (`make vet`).
# KEEP_GOING=1 runs every step even after a failure (for a local overview).
set -uo pipefail
cd "$(dirname "$0")/.."

steps=(
	"deps:deps-test node-modules"
	"frontend build:frontend"
	"gofmt -l:check-gofmt"
	"go vet:vet"
	"vet 4 platforms:vet-platforms"
	"staticcheck:staticcheck"
	"deadcode:deadcode"
	"import boundaries:boundaries"
	"docs/CLI.md true:docs-check"
	"go mod tidy:tidy-check"
	"bindings fresh:bindings-check"
	"go test -race:go-test"
	"go test arm64 (qemu):test-arm64"
	"MCP conformance:conformance"
	"tsc --noEmit:tsc"
	"vitest:vitest"
	"e2e (dev + Playwright):e2e"
	"smoke (production):smoke"
	"packages + desktop:desktop"
	"Windows under Wine:test-windows"
)

names=() statuses=() secs=()
failed=""
failures=()
start_all=$(date +%s)

for entry in "${steps[@]}"; do
	name=${entry%%:*}
	targets=${entry#*:}
	names+=("$name")
	if [[ -n "$failed" ]]; then
		statuses+=("skipped")
		secs+=("-")
		continue
	fi
	printf '\n==> %s (make %s)\n' "$name" "$targets"
	t0=$(date +%s)
	# shellcheck disable=SC2086
	if make --no-print-directory $targets; then
		statuses+=("ok")
	else
		statuses+=("FAILED")
		failures+=("$name")
		[[ -n "${KEEP_GOING:-}" ]] || failed=$name
	fi
	secs+=("$(($(date +%s) - t0))")
done

total=$(($(date +%s) - start_all))
printf '\n%-26s %-8s %8s\n' "step" "status" "seconds"
printf '%-26s %-8s %8s\n' "--------------------------" "--------" "--------"
for i in "${!names[@]}"; do
	printf '%-26s %-8s %8s\n' "${names[$i]}" "${statuses[$i]}" "${secs[$i]}"
done
printf '%-26s %-8s %8s\n' "total" "" "$total"

if ((${#failures[@]})); then
	echo "make test: FAILED at step '${failures[0]}'$( ((${#failures[@]} > 1)) && printf ' (failed: %s)' "$(IFS=,; echo "${failures[*]}")")"
	exit 1
fi
echo "make test: all ${#names[@]} steps ok in ${total}s"
