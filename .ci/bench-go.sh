#!/usr/bin/env bash
# Runs a package's Go benchmarks and writes them as a table into its section
# of docs/BENCHMARKS.md:
#
#   .ci/bench-go.sh AREA PACKAGE [BENCH_REGEXP] [BENCHTIME]
#
# Every metric a benchmark reports (ns/op, MB/s, events/s, custom ones)
# becomes a column entry, with the median over BENCH_COUNT runs (default 3).
set -euo pipefail
cd "$(dirname "$0")/.."
area=${1:?usage: .ci/bench-go.sh AREA PACKAGE [REGEXP] [BENCHTIME]}
pkg=${2:?usage: .ci/bench-go.sh AREA PACKAGE [REGEXP] [BENCHTIME]}
regexp=${3:-.}
benchtime=${4:-1s}
count=${BENCH_COUNT:-3}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "bench: go test -bench '$regexp' -count $count $pkg"
go test -tags "${TAGS:-webkit2_41,sqlite_fts5}" -run '^$' -bench "$regexp" -benchtime "$benchtime" -count "$count" "$pkg" | tee "$out"
{
	echo "Measured $(date -u +%Y-%m-%d) at commit \`$(git rev-parse --short=12 HEAD)\` by \`make bench\` (\`.ci/bench-go.sh $area $pkg\`):"
	echo "$(nproc) cores ($(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)), $(go env GOVERSION), load average $(cut -d' ' -f1-3 /proc/loadavg)."
	echo "Median of $count runs of \`go test -bench\` (-benchtime $benchtime)."
	echo
	echo "| benchmark | median |"
	echo "|---|---|"
	awk '
		/^Benchmark/ {
			name = $1; sub(/-[0-9]+$/, "", name); sub(/^Benchmark/, "", name)
			if (!(name in seen)) { seen[name] = 1; order[++n] = name }
			for (i = 3; i + 1 <= NF; i += 2) {
				key = name SUBSEP $(i + 1)
				if (!(key in cnt)) { units[name] = units[name] SUBSEP $(i + 1) }
				vals[key, ++cnt[key]] = $i
			}
		}
		END {
			for (k = 1; k <= n; k++) {
				name = order[k]; line = ""
				m = split(substr(units[name], 2), us, SUBSEP)
				for (j = 1; j <= m; j++) {
					key = name SUBSEP us[j]; c = cnt[key]
					for (a = 1; a <= c; a++) v[a] = vals[key, a] + 0
					for (a = 1; a <= c; a++) for (b = a + 1; b <= c; b++) if (v[b] < v[a]) { t = v[a]; v[a] = v[b]; v[b] = t }
					med = (c % 2) ? v[(c + 1) / 2] : (v[c / 2] + v[c / 2 + 1]) / 2
					unit = us[j]
					if (unit == "ns/op" && med >= 1e6) { med /= 1e6; unit = "ms/op" }
					else if (unit == "ns/op" && med >= 1e3) { med /= 1e3; unit = "µs/op" }
					f = (med >= 1000) ? "%.0f %s" : "%.3g %s"
					line = line (line == "" ? "" : ", ") sprintf(f, med, unit)
				}
				printf "| %s | %s |\n", name, line
			}
		}' "$out"
} | .ci/bench-section.sh "$area"
