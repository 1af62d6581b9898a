#!/usr/bin/env bash
# MCP servers at start-up (issue 14): the production window opened on a
# project, with no MCP server and with 5 stdio servers in the user's
# PILOT_HOME/mcp.json, alternating, BENCH_RUNS times (default 3), under one
# Xvfb. The servers are @modelcontextprotocol/server-everything from npm
# (installed into build/bench/npm), a real third-party server on node.
#
#   - startupMs Pilot reports (process start -> the window's first bound
#     call) and the wall time until it is logged: the servers must start in
#     the background, so these may not grow by more than 20 ms;
#   - the wall time until the 5th "mcp server ready" is logged;
#   - idle memory 5 s after launch (and at least 3 s after the servers were
#     ready): PSS of Pilot's own processes (pilot, WebKit) and, apart, of
#     the servers' processes (every other descendant).
#
# Writes the mcp section of docs/BENCHMARKS.md; raw runs go to
# build/bench/mcp-runs.tsv.
#
#   .ci/bench-mcp.sh [BINARY]     (make bench builds build/bin/pilot)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/bin/pilot}
runs=${BENCH_RUNS:-3}
servers=5
[[ -x "$bin" ]] || {
	echo "bench-mcp: $bin missing; run make build" >&2
	exit 1
}
# shellcheck source=.ci/bench-memory-lib.sh
source .ci/bench-memory-lib.sh # makes $tmp, removed on exit
mkdir -p build/bench

npm_dir=$PWD/build/bench/npm
everything=$npm_dir/node_modules/.bin/mcp-server-everything
if [[ ! -x $everything ]]; then
	echo "bench-mcp: installing @modelcontextprotocol/server-everything into $npm_dir"
	npm install --prefix "$npm_dir" --no-audit --no-fund --loglevel=error @modelcontextprotocol/server-everything >/dev/null
fi
everything_version=$(node -p "require('$npm_dir/node_modules/@modelcontextprotocol/server-everything/package.json').version")

project=$tmp/project
mkdir -p "$project"
echo "# bench" >"$project/README.md"
mkhome() { # mkhome DIR N: a PILOT_HOME with N servers in mcp.json
	mkdir -p "$1"
	node -e '
		const [dir, n, bin] = process.argv.slice(1);
		const servers = {};
		for (let i = 1; i <= Number(n); i++) servers["everything" + i] = { command: bin, args: ["stdio"] };
		require("fs").writeFileSync(dir + "/mcp.json", JSON.stringify({ mcpServers: servers }, null, 2));
	' "$1" "$2" "$everything"
}

now_ms() { echo $(($(date +%s%N) / 1000000)); }
ready_count() { local c; c=$(grep -c "\"msg\":\"mcp server ready\"" "$home/logs/pilot.log" 2>/dev/null) || true; echo "${c:-0}"; }

# mem_split PID -> "own_rss own_pss srv_rss srv_pss nsrv names": Pilot's own
# processes (the app and WebKit's) and the other descendants (the servers).
mem_split() {
	local own_r=0 own_s=0 srv_r=0 srv_s=0 n=0 names="" p r s comm
	for p in $(tree_pids "$1"); do
		read -r r s < <(awk '/^Rss:/ { r = $2 } /^Pss:/ { s = $2 } END { print r, s }' "/proc/$p/smaps_rollup" 2>/dev/null) || continue
		[[ -n "$r" ]] || continue
		comm=$(cat "/proc/$p/comm" 2>/dev/null)
		if [[ $p == "$1" || $comm == WebKit* ]]; then
			own_r=$((own_r + r)) own_s=$((own_s + s))
		else
			srv_r=$((srv_r + r)) srv_s=$((srv_s + s)) n=$((n + 1))
			names+="$comm "
		fi
	done
	echo "$own_r $own_s $srv_r $srv_s $n ${names% }"
}

tsv=build/bench/mcp-runs.tsv
printf 'variant\trun\tstartup_ms\tready_wall_ms\tservers_ready_ms\town_rss\town_pss\tsrv_rss\tsrv_pss\tnsrv\tprocesses\n' >"$tsv"

# one VARIANT N RUN: launch with N servers, measure, stop.
one() {
	local variant=$1 n=$2 run=$3
	home=$tmp/home-$variant-$run
	mkhome "$home" "$n"
	local start t_ready=-1 t_servers=-1
	start=$(now_ms)
	env PILOT_HOME="$home" PILOT_PROJECT="$project" setsid "$bin" >"$tmp/app.log" 2>&1 &
	app=$!
	pids+=($app)
	t0=$SECONDS
	local deadline=$((start + 90000))
	while :; do
		if ((t_ready < 0)) && grep -qs '"msg":"frontend ready"' "$home/logs/pilot.log"; then
			t_ready=$(($(now_ms) - start))
		fi
		if ((t_servers < 0)) && (($(ready_count) >= n)); then
			t_servers=$(($(now_ms) - start))
		fi
		((t_ready >= 0 && t_servers >= 0)) && break
		(($(now_ms) < deadline)) || fail "$variant run $run: not ready within 90 s (frontend ${t_ready} ms, $(ready_count) of $n servers)"
		kill -0 "$app" 2>/dev/null || fail "$variant run $run: pilot exited"
		sleep 0.01
	done
	local startup
	startup=$(sed -n 's/.*"msg":"frontend ready".*"startupMs":\([0-9]*\).*/\1/p' "$home/logs/pilot.log" | head -n1)
	idle_at 5
	local idle_ms=$((start + t_servers + 3000 - $(now_ms)))
	((idle_ms > 0)) && sleep "$(awk -v m="$idle_ms" 'BEGIN { printf "%.3f", m / 1000 }')"
	local m
	m=$(mem_split "$app")
	stop
	((n == 0)) && t_servers=-
	read -r own_r own_s srv_r srv_s nsrv names <<<"$m"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$variant" "$run" "$startup" "$t_ready" "$t_servers" \
		"$own_r" "$own_s" "$srv_r" "$srv_s" "$nsrv" "${names:-}" >>"$tsv"
	echo "bench-mcp: $variant run $run: startupMs $startup, frontend ready at $t_ready ms, servers ready at $t_servers ms," \
		"Pilot PSS $((own_s / 1024)) MiB, servers PSS $((srv_s / 1024)) MiB over $nsrv processes (${names:-none})"
}

start_xvfb
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
one none 0 0 # warm-up runs, not counted
one five $servers 0
for i in $(seq "$runs"); do
	one none 0 "$i"
	one five $servers "$i"
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

at() { awk -F'\t' -v v="$1" -v c="$2" 'NR > 1 && $1 == v && $2 != 0 && $c != "-" { print $c }' "$tsv" | median; }
# paired C: median over runs of (five - none) in column C, run by run
paired() {
	awk -F'\t' -v c="$1" 'NR > 1 && $2 != 0 { v[$1, $2] = $c } END { for (k in v) { split(k, p, SUBSEP); if (p[1] == "five" && (("none", p[2]) in v)) print v[k] - v["none", p[2]] } }' "$tsv" | sort -n |
		awk '{ a[NR] = $1 } END { m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; printf "%+d", m }'
}
delta() { awk -v a="$(at five "$1")" -v b="$(at none "$1")" 'BEGIN { printf "%+d", a - b }'; }
procs=$(awk -F'\t' 'NR > 1 && $1 == "five" && $2 != 0 { print $11; exit }' "$tsv" | tr ' ' '\n' | sort | uniq -c | awk '{ printf "%s%s×%s", sep, $1, $2; sep = ", " }')
cat <<EOF | .ci/bench-section.sh mcp
Measured $(date -u +%Y-%m-%d) at commit \`$(git rev-parse --short=12 HEAD)\` by \`make bench\`
(\`.ci/bench-mcp.sh\`): $(nproc) cores, production build under Xvfb, a project opened with
\`PILOT_PROJECT\`, \`@modelcontextprotocol/server-everything\` $everything_version (node $(node --version))
as each server. Median of $runs runs after one warm-up run of each; the two variants alternate.
Load average before/after: $load_before / $load_after.

| figure | no MCP server | 5 stdio servers | difference |
|---|---:|---:|---:|
| \`startupMs\` (process start → the window's first bound call) | $(at none 3) ms | $(at five 3) ms | $(delta 3) ms |
| \`startupMs\`, median of the differences run by run (the variants alternate) | | | $(paired 3) ms |
| launch → \`frontend ready\` logged (wall time) | $(at none 4) ms | $(at five 4) ms | $(delta 4) ms |
| the same, median of the differences run by run | | | $(paired 4) ms |
| launch → all 5 servers ready (logged) | – | $(at five 5) ms | |
| idle PSS of Pilot's processes (pilot + WebKit) | $(mib "$(at none 7)") MiB | $(mib "$(at five 7)") MiB | $(delta 7 | awk '{ printf "%+.0f", $1 / 1024 }') MiB |
| idle RSS of Pilot's processes | $(mib "$(at none 6)") MiB | $(mib "$(at five 6)") MiB | |
| idle PSS of the servers' processes, apart | – | $(mib "$(at five 9)") MiB | |
| idle RSS of the servers' processes | – | $(mib "$(at five 8)") MiB | |
| the servers' processes | – | ${procs:-none} | |

Raw runs: \`build/bench/mcp-runs.tsv\` (not committed).
EOF
