#!/usr/bin/env bash
# `make test` three times in a row under load, as a new user would run it on
# a new machine (issue 24: "a suite that never flakes").
#
# For each run: a fresh clone of the commit checked out here (HEAD; changes
# not committed are not tested) in a temp folder, then `make test` there
# with CI=true and no stdin, while one busy loop (`yes > /dev/null`) keeps a
# core busy for the whole time. It stops at the first failed run and ends
# with a summary: each run's result and seconds, the commit, the machine's
# cores and its load average. Exit status 0 only when every run passed.
#
#   .ci/test-under-load.sh
#
# Environment:
#   LOAD_RUNS=3         runs in a row
#   LOAD_BUSY=1         busy loops beside the runs
#   LOAD_TARGETS=test   the make targets each run makes; a shortened check
#                       of this script, e.g. LOAD_TARGETS="check-gofmt vet"
#   LOAD_KEEP=1         keep the clones (a failed run's clone is always kept,
#                       with its build/e2e-artifacts)
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

runs=${LOAD_RUNS:-3}
busy=${LOAD_BUSY:-1}
targets=${LOAD_TARGETS:-test}
commit=$(git rev-parse HEAD) || exit 1
if [[ -n "$(git status --porcelain --untracked-files=no)" ]]; then
	echo "test-under-load: the work tree has changes that are not committed; only commit ${commit:0:12} is tested"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/pilot-load-XXXXXX")
busy_pids=()
stop_busy() {
	for p in "${busy_pids[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
	busy_pids=()
}
keep_work=${LOAD_KEEP:-}
cleanup() {
	stop_busy
	if [[ -z "$keep_work" ]]; then rm -rf "$work"; else echo "test-under-load: clones kept in $work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
load_start=$(loadavg)

for ((i = 0; i < busy; i++)); do
	yes >/dev/null &
	busy_pids+=($!)
done
echo "test-under-load: commit ${commit:0:12}, ${runs} run(s) of 'make ${targets}', ${busy} busy loop(s) (yes > /dev/null, pid ${busy_pids[*]}), $(nproc) cores, load average ${load_start}"

results=() secs=() loads=()
failed=0
t_all=$(date +%s)
for ((n = 1; n <= runs; n++)); do
	dir=$work/run$n
	printf '\n==> run %d of %d: clone of %s in %s\n' "$n" "$runs" "${commit:0:12}" "$dir"
	t0=$(date +%s)
	if ! { git clone --quiet --no-checkout "$repo" "$dir" && git -C "$dir" checkout --quiet --detach "$commit"; }; then
		echo "test-under-load: could not clone $repo at $commit"
		results+=("CLONE FAILED") secs+=("$(($(date +%s) - t0))") loads+=("$(loadavg)")
		failed=$n
		break
	fi
	# shellcheck disable=SC2086
	(cd "$dir" && CI=true make --no-print-directory $targets </dev/null)
	rc=$?
	secs+=("$(($(date +%s) - t0))")
	loads+=("$(loadavg)")
	if ((rc == 0)); then
		results+=("passed")
		[[ -n "$keep_work" ]] || rm -rf "$dir"
	else
		results+=("FAILED (exit $rc)")
		failed=$n
		keep_work=1
		break
	fi
done
stop_busy

printf '\n%-6s %-18s %8s   %s\n' "run" "result" "seconds" "load average after (1, 5, 15 min)"
printf '%-6s %-18s %8s   %s\n' "------" "------------------" "--------" "----------------------------------"
for i in "${!results[@]}"; do
	printf '%-6s %-18s %8s   %s\n' "$((i + 1))" "${results[$i]}" "${secs[$i]}" "${loads[$i]}"
done
for ((n = ${#results[@]} + 1; n <= runs; n++)); do
	printf '%-6s %-18s %8s\n' "$n" "not run" "-"
done
echo "commit ${commit:0:12}; 'make ${targets}' with CI=true, no stdin; ${busy} busy loop(s); $(nproc) cores; load average ${load_start} before, $(loadavg) after; $(($(date +%s) - t_all)) s in all"
if ((failed)); then
	echo "test-under-load: run $failed of $runs failed; its clone (output, build/e2e-artifacts) is kept in $work/run$failed"
	exit 1
fi
echo "test-under-load: all $runs runs passed"
