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
rounds=${BENCH_ROOT_ROUNDS:-15}
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
		"$tmp/$v.test" -test.run '^$' -test.bench 'Root(ReadFile|Grep)$' -test.benchtime 500ms -test.cpu 1 |
			awk -v v="$v" '/^BenchmarkRoot/ { sub(/-[0-9]+$/, "", $1); print v, $1, $3 }' >>"$tmp/results"
	done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
fastest() { sort -n | head -1; }
echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores, $(go env GOVERSION), load average $load_before before and $load_after after"
echo "(other work was running on the machine). $rounds rounds, each running the old and the new"
echo "benchmark one after the other (0.5 s each, GOMAXPROCS=1: grep's parallel walk on 2 shared"
echo "cores measures the neighbours more than the code). Project: 1,500 files of 8 KB in 3 levels of"
echo "folders; read_file reads one of them, grep searches all for a rare word. On a loaded machine"
echo "the fastest round is the steadiest figure (load only ever adds time); the median is shown too."
echo
echo "| benchmark | before os.Root ($base): fastest / median | through os.Root: fastest / median | ratio of the fastest | ratio of the medians |"
echo "|---|---:|---:|---:|---:|"
for b in BenchmarkRootReadFile BenchmarkRootGrep; do
	col() { awk -v v="$1" -v b="$b" '$1 == v && $2 == b { print $3 }' "$tmp/results"; }
	awk -v b="$b" -v of="$(col base | fastest)" -v om="$(col base | median)" \
		-v nf="$(col head | fastest)" -v nm="$(col head | median)" 'BEGIN {
		name = (b ~ /ReadFile/) ? "read_file" : "grep"
		printf "| %s | %.1f / %.1f µs | %.1f / %.1f µs | %.3fx | %.3fx |\n", name, of / 1000, om / 1000, nf / 1000, nm / 1000, nf / of, nm / om }'
done
