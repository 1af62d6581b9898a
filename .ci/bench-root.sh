#!/usr/bin/env bash
# read_file and grep through os.Root (HEAD) against the code before it
# (648267e, a component walk and open by absolute path), in the same run:
# both test binaries are built from the same benchmark file
# (backend/tools/rootbench_test.go, copied into a temporary worktree of the
# old commit) and run in alternation; the medians and their ratio are
# printed as a markdown section.
#
#   .ci/bench-root.sh | .ci/bench-section.sh root
set -euo pipefail
cd "$(dirname "$0")/.."
base=${BENCH_ROOT_BASE:-648267e}
rounds=${BENCH_ROOT_ROUNDS:-8}
tags="webkit2_41,sqlite_fts5"
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/base" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git worktree add --detach "$tmp/base" "$base" >/dev/null 2>&1
cp backend/tools/rootbench_test.go "$tmp/base/backend/tools/"
go test -c -tags "$tags" -o "$tmp/head.test" ./backend/tools
(cd "$tmp/base" && go test -c -tags "$tags" -o "$tmp/base.test" ./backend/tools)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
for _ in $(seq "$rounds"); do
	for v in base head; do
		"$tmp/$v.test" -test.run '^$' -test.bench 'Root(ReadFile|Grep)$' -test.benchtime 1s |
			awk -v v="$v" '/^BenchmarkRoot/ { sub(/-[0-9]+$/, "", $1); print v, $1, $3 }' >>"$tmp/results"
	done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores, $(go env GOVERSION), load average $load_before before and $load_after after"
echo "(other work was running on the machine). $rounds rounds, each running the old and the new"
echo "benchmark one after the other (1 s each); medians of the rounds. Project: 1,500 files of 8 KB"
echo "in 3 levels of folders; read_file reads one of them, grep searches all for a rare word."
echo
echo "| benchmark | before os.Root ($base) | through os.Root | ratio |"
echo "|---|---:|---:|---:|"
for b in BenchmarkRootReadFile BenchmarkRootGrep; do
	old=$(awk -v b="$b" '$1 == "base" && $2 == b { print $3 }' "$tmp/results" | median)
	new=$(awk -v b="$b" '$1 == "head" && $2 == b { print $3 }' "$tmp/results" | median)
	awk -v b="$b" -v o="$old" -v n="$new" 'BEGIN {
		name = (b ~ /ReadFile/) ? "read_file" : "grep"
		printf "| %s | %.1f µs | %.1f µs | %.3fx |\n", name, o / 1000, n / 1000, n / o }'
done
