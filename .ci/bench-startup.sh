#!/usr/bin/env bash
# Startup benchmark (issue 2): the production build against an empty
# `wails init -t react-ts` app built the same way.
#
# For each app, BENCH_RUNS runs (default 7) after one warm-up run, under one
# Xvfb, the two apps alternating:
#   - launch -> window mapped (xdotool search --onlyvisible), both apps
#   - launch -> the first bound call, both apps ("frontend ready" in
#     $PILOT_HOME/logs/pilot.log; the empty app, given one call once React has
#     rendered, prints its own), and startupMs (start of main -> that call)
#   - idle memory BENCH_IDLE_S (default 5) s after launch (and at least 3 s
#     after the window was mapped): sum of Rss and of
#     Pss (/proc/PID/smaps_rollup) over the app and every descendant
#     (WebKitWebProcess, WebKitNetworkProcess)
#   - the CPU time the process tree had used by each of those points (user +
#     system, from /proc/PID/stat): on a machine busy with other work the
#     wall times stretch, the CPU an app needs to get there much less so
# Medians, each with Pilot / empty app and the target of issue 24, go into
# docs/BENCHMARKS.md between the startup markers; raw runs into
# build/bench/startup-runs.tsv.
#
#   .ci/bench-startup.sh            (make bench builds build/bin/pilot first)
#   BENCH_RUNS=3 BENCH_PILOT=/tmp/pilot-old .ci/bench-startup.sh   (another build)
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

runs=${BENCH_RUNS:-7}
idle_s=${BENCH_IDLE_S:-5}
work=$repo/build/bench
baseline_dir=$work/baseline
pilot_bin=${BENCH_PILOT:-$repo/build/bin/pilot}
doc=$repo/docs/BENCHMARKS.md
mkdir -p "$work"

[[ -x "$pilot_bin" ]] || {
	echo "bench: $pilot_bin missing; run make build" >&2
	exit 1
}

# --- the baseline app (never committed: build/bench is ignored) -------------
# One addition to the template: its page makes one bound call once React
# has rendered (as Pilot's FrontendReady), and the Go side prints the time
# from the start of main to it, the figure Pilot reports as startupMs.
baseline_bin=$baseline_dir/build/bin/baseline
if [[ ! -x "$baseline_bin" || ! -f "$baseline_dir/.first-call" ]]; then
	echo "bench: generating the baseline app (wails init -t react-ts, plus one first call)"
	rm -rf "$baseline_dir"
	# Run from the repo so `go tool wails` is the CLI pinned in go.mod.
	go tool wails init -n baseline -t react-ts -d "$baseline_dir" >"$work/baseline-init.log" 2>&1 ||
		{ cat "$work/baseline-init.log"; exit 1; }
	cat >"$baseline_dir/firstcall.go" <<'GO'
package main

import (
	"fmt"
	"os"
	"sync"
	"time"
)

var (
	started   = time.Now()
	firstCall sync.Once
)

// Ready is the page's first bound call (bench-startup.sh).
func (a *App) Ready() {
	firstCall.Do(func() {
		fmt.Fprintf(os.Stderr, "bench: first bound call after %d ms\n", time.Since(started).Milliseconds())
	})
}
GO
	sed -i 's|^import {Greet} from "../wailsjs/go/main/App";|import {Greet, Ready} from "../wailsjs/go/main/App";|; s|^import {useState} from .react.;|import {useEffect, useState} from "react";|; s|^    const \[name, setName\] = useState(.*);|&\n    useEffect(() => { Ready(); }, []);|' "$baseline_dir/frontend/src/App.tsx"
	grep -q 'Ready();' "$baseline_dir/frontend/src/App.tsx" || { echo "bench: could not add the first call to the baseline's App.tsx" >&2; exit 1; }
	touch "$baseline_dir/.first-call"
	wails_bin=$(go tool -n wails)
	(
		cd "$baseline_dir"
		go mod tidy
		"$wails_bin" build -tags webkit2_41 -nocolour
	) >"$work/baseline-build.log" 2>&1 || { tail -n 40 "$work/baseline-build.log"; exit 1; }
fi

# --- Xvfb ---------------------------------------------------------------------
tmp=$(mktemp -d)
xvfb_pid="" app_pid=""
cleanup() {
	for p in $app_pid $xvfb_pid; do kill -KILL -- "-$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
[[ -d /tmp/.X11-unix ]] || mkdir -m 1777 /tmp/.X11-unix
setsid Xvfb -displayfd 3 -screen 0 1400x900x24 -nolisten tcp -noreset 3>"$tmp/display" >/dev/null 2>&1 &
xvfb_pid=$!
disown "$xvfb_pid"
for _ in $(seq 100); do [[ -s "$tmp/display" ]] && break; sleep 0.1; done
export DISPLAY=":$(head -n1 "$tmp/display")"
export NO_AT_BRIDGE=1

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# pid and all its descendants
tree_pids() {
	ps -e -o pid=,ppid= | awk -v root="$1" '
		{ parent[$1] = $2 }
		END {
			for (p in parent) {
				q = p
				while (q != "" && q != 0 && q != 1) {
					if (q == root) { print p; break }
					q = parent[q]
				}
			}
		}'
}

# CPU time (user + system, ms) a process tree has used so far
tree_cpu() {
	local t=0 p f
	for p in $(tree_pids "$1"); do
		f=$(cat "/proc/$p/stat" 2>/dev/null) || continue
		f=${f##*) } # after "pid (comm) ": field 3 on
		read -r -a a <<<"$f"
		t=$((t + a[11] + a[12])) # utime, stime (fields 14 and 15)
	done
	echo $((t * 1000 / $(getconf CLK_TCK)))
}

# "rss_kb pss_kb nprocs names" over a process tree
tree_mem() {
	local rss=0 pss=0 n=0 names="" p r s
	for p in $(tree_pids "$1"); do
		[[ -r /proc/$p/smaps_rollup ]] || continue
		r=$(awk '/^Rss:/ {print $2}' "/proc/$p/smaps_rollup")
		s=$(awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup")
		[[ -n "$r" ]] || continue
		rss=$((rss + r)) pss=$((pss + s)) n=$((n + 1))
		names+="$(cat "/proc/$p/comm" 2>/dev/null)=$s+"
	done
	echo "$rss $pss $n ${names%+}"
}

# "bin_kb anon_kb libs_kb": the PSS of process $1 split by what its pages
# hold: its own executable file (code and read-only data, clean pages the
# kernel can drop and re-read), anonymous memory (the Go heap and stacks,
# C malloc of GTK, WebKit's UI side and SQLite) and shared libraries.
split_mem() {
	awk -v exe="$(readlink "/proc/$1/exe")" '
		/^[0-9a-f]+-[0-9a-f]+ / { name = $6; kind = (name == exe) ? "bin" : (name == "" || name == "[heap]" || name ~ /^\[stack/) ? "anon" : (name ~ /\.so/) ? "libs" : "other"; next }
		/^Pss:/ { t[kind] += $2 }
		END { printf "%d %d %d\n", t["bin"], t["anon"], t["libs"] }' "/proc/$1/smaps"
}

# first_call NAME HOME: the app's page has made its first bound call
first_call() {
	if [[ $1 == pilot ]]; then
		grep -q '"msg":"frontend ready"' "$2/logs/pilot.log" 2>/dev/null
	else
		grep -q '^bench: first bound call' "$tmp/$1.log" 2>/dev/null
	fi
}

# one_run NAME BIN TITLE -> sets result="window_ms ready_ms startup_ms cpu_window_ms cpu_ready_ms cpu_idle_ms bin_kb anon_kb libs_kb rss_kb pss_kb nprocs names"
# (runs in this shell, not a subshell, so the EXIT trap sees app_pid).
one_run() {
	local name=$1 bin=$2 title=$3 home="$tmp/home-$RANDOM$RANDOM"
	mkdir -p "$home"
	local t0 t_window=-1 t_ready=-1 startup=-1 c_window=-1 c_ready=-1 c_idle
	t0=$(now_ms)
	PILOT_HOME="$home" setsid "$bin" >"$tmp/$name.log" 2>&1 &
	app_pid=$!
	disown "$app_pid"
	local deadline=$((t0 + 60000))
	while :; do
		if [[ $t_window -lt 0 ]] && xdotool search --onlyvisible --name "^${title}\$" >/dev/null 2>&1; then
			t_window=$(($(now_ms) - t0))
			c_window=$(tree_cpu "$app_pid")
		fi
		if [[ $t_ready -lt 0 ]] && first_call "$name" "$home"; then
			t_ready=$(($(now_ms) - t0))
			c_ready=$(tree_cpu "$app_pid")
		fi
		if [[ $t_window -ge 0 && $t_ready -ge 0 ]]; then break; fi
		if (($(now_ms) > deadline)) || ! kill -0 "$app_pid" 2>/dev/null; then
			echo "bench: $name did not start:" >&2
			tail -n 20 "$tmp/$name.log" >&2
			return 1
		fi
		sleep 0.01
	done
	if [[ $name == pilot ]]; then
		startup=$(sed -n 's/.*"msg":"frontend ready".*"startupMs":\([0-9]*\).*/\1/p' "$home/logs/pilot.log" | head -n1)
	else
		startup=$(sed -n 's/^bench: first bound call after \([0-9]*\) ms$/\1/p' "$tmp/$name.log" | head -n1)
	fi
	# Idle point: idle_s after launch, and at least 3 s after the window was
	# mapped (on a loaded machine the page may still be loading at idle_s).
	local idle_at=$((t0 + idle_s * 1000)) after_window=$((t0 + t_window + 3000))
	((after_window > idle_at)) && idle_at=$after_window
	local wait_ms=$((idle_at - $(now_ms)))
	((wait_ms > 0)) && sleep "$(awk -v m="$wait_ms" 'BEGIN { printf "%.3f", m / 1000 }')"
	local mem
	c_idle=$(tree_cpu "$app_pid")
	mem="$(split_mem "$app_pid") $(tree_mem "$app_pid")"
	kill -TERM -- "-$app_pid" 2>/dev/null || true
	for _ in $(seq 50); do kill -0 -- "-$app_pid" 2>/dev/null || break; sleep 0.1; done
	kill -KILL -- "-$app_pid" 2>/dev/null || true
	app_pid=""
	result="$t_window $t_ready $startup $c_window $c_ready $c_idle $mem"
}

median() { sort -n | awk '{ a[NR] = $1 } END { if (NR == 0) { print "-" } else if (NR % 2) { print a[(NR + 1) / 2] } else { print (a[NR / 2] + a[NR / 2 + 1]) / 2 } }'; }

runs_tsv=$work/startup-runs.tsv
printf 'app\trun\twindow_ms\tready_ms\tstartup_ms\tbin_kb\tanon_kb\tlibs_kb\trss_kb\tpss_kb\tnprocs\tprocesses\tcpu_window_ms\tcpu_ready_ms\tcpu_idle_ms\tload1\n' >"$runs_tsv"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
result=""
one_run pilot "$pilot_bin" Pilot # warm-up runs, not counted
one_run baseline "$baseline_bin" baseline
for i in $(seq "$runs"); do
	for app in pilot baseline; do
		if [[ $app == pilot ]]; then one_run pilot "$pilot_bin" Pilot; else one_run baseline "$baseline_bin" baseline; fi
		read -r w rd st cw cr ci bin anon libs rss pss n names <<<"$result"
		load1=$(cut -d' ' -f1 /proc/loadavg)
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$app" "$i" "$w" "$rd" "$st" "$bin" "$anon" "$libs" "$rss" "$pss" "$n" "$names" "$cw" "$cr" "$ci" "$load1" >>"$runs_tsv"
		echo "bench: $app run $i (load $load1): window ${w} ms (CPU ${cw} ms), ready ${rd} ms (CPU ${cr} ms), startupMs ${st}, CPU at idle ${ci} ms, Go process PSS: executable $((bin / 1024)), anonymous $((anon / 1024)), libraries $((libs / 1024)) MiB; RSS $((rss / 1024)) MiB, PSS $((pss / 1024)) MiB over $n processes ($names)"
	done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

col() { awk -F'\t' -v app="$1" -v c="$2" 'NR > 1 && $1 == app { print $c }' "$runs_tsv" | median; }
mib() { awk -v k="$1" 'BEGIN { if (k == "-") print "-"; else printf "%.0f", k / 1024 }'; }
procs() { awk -F'\t' -v app="$1" 'NR > 1 && $1 == app { print $12; exit }' "$runs_tsv" | tr '+' '\n' | sed 's/=.*//' | sort | uniq -c | awk '{ printf "%s%s×%s", sep, $1, $2; sep = ", " }'; }
# median PSS of the processes whose comm starts with $2 (summed within a run)
pss_of() {
	awk -F'\t' -v app="$1" -v pre="$2" 'NR > 1 && $1 == app {
		n = split($12, ps, "+"); t = 0
		for (i = 1; i <= n; i++) { split(ps[i], kv, "="); if (index(kv[1], pre) == 1) t += kv[2] }
		print t }' "$runs_tsv" | median
}

# Pilot / empty app, and whether a figure meets its target
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b <= 0) print "-"; else printf "%.2fx", a / b }'; }
verdict() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { if (a == "-" || b == "-" || b <= 0) print "-"; else print (a / b <= t ? "met" : "not met") }'; }
below() { awk -v a="$1" -v t="$2" 'BEGIN { if (a == "-" || a < 0) print "-"; else print (a <= t ? "met" : "not met") }'; }

commit=$(git rev-parse --short=12 HEAD)
dirty=$(git diff --quiet HEAD -- . 2>/dev/null || echo " (work tree had uncommitted changes)")
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
webkit=$(dpkg-query -W -f='${Version}' libwebkit2gtk-4.1-0 2>/dev/null || echo unknown)
size_p=$(du -m "$pilot_bin" | cut -f1)
size_b=$(du -m "$baseline_bin" | cut -f1)

section=$work/startup.md
cat >"$section" <<EOF
Measured $(date -u +%Y-%m-%d) at commit \`$commit\`$dirty by \`make bench\`
(\`.ci/bench-startup.sh\`): $(nproc) cores ($cpu), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo),
$(go version | cut -d' ' -f3), WebKitGTK $webkit, Xvfb, no window manager. Median of $runs runs after one
warm-up run; the two apps alternate. Load average before/after: $load_before / $load_after
(other work on the machine stretches wall times, much less the CPU times; per-run load in the raw runs).

| figure | Pilot (\`build/bin/pilot\`) | empty \`wails init -t react-ts\` | Pilot / empty | target (issue 24) |
|---|---:|---:|---:|---|
| idle RSS, sum over the process tree, ${idle_s} s after launch | $(mib "$(col pilot 9)") MiB | $(mib "$(col baseline 9)") MiB | $(ratio "$(col pilot 9)" "$(col baseline 9)") | |
| idle PSS, same processes | $(mib "$(col pilot 10)") MiB | $(mib "$(col baseline 10)") MiB | $(ratio "$(col pilot 10)" "$(col baseline 10)") | ≤ 1.05x: $(verdict "$(col pilot 10)" "$(col baseline 10)" 1.05) |
| — of which the Go process | $(mib "$(pss_of pilot pilot)") MiB | $(mib "$(pss_of baseline baseline)") MiB | $(ratio "$(pss_of pilot pilot)" "$(pss_of baseline baseline)") | |
| —— its executable's pages (code, read-only data) | $(mib "$(col pilot 6)") MiB | $(mib "$(col baseline 6)") MiB | | |
| —— its anonymous memory (Go heap and stacks, C malloc) | $(mib "$(col pilot 7)") MiB | $(mib "$(col baseline 7)") MiB | | |
| —— its shared libraries | $(mib "$(col pilot 8)") MiB | $(mib "$(col baseline 8)") MiB | | |
| — of which WebKitWebProcess | $(mib "$(pss_of pilot WebKitWebProces)") MiB | $(mib "$(pss_of baseline WebKitWebProces)") MiB | $(ratio "$(pss_of pilot WebKitWebProces)" "$(pss_of baseline WebKitWebProces)") | |
| — of which WebKitNetworkProcess | $(mib "$(pss_of pilot WebKitNetworkPr)") MiB | $(mib "$(pss_of baseline WebKitNetworkPr)") MiB | | |
| processes counted | $(procs pilot) | $(procs baseline) | | |
| launch → window mapped | $(col pilot 3) ms | $(col baseline 3) ms | $(ratio "$(col pilot 3)" "$(col baseline 3)") | ≤ 1.05x: $(verdict "$(col pilot 3)" "$(col baseline 3)" 1.05) |
| — CPU time the process tree used by then | $(col pilot 13) ms | $(col baseline 13) ms | $(ratio "$(col pilot 13)" "$(col baseline 13)") | |
| launch → first bound call (Pilot's \`frontend ready\` in its log), wall time | $(col pilot 4) ms | $(col baseline 4) ms | $(ratio "$(col pilot 4)" "$(col baseline 4)") | |
| — CPU time the process tree used by then | $(col pilot 14) ms | $(col baseline 14) ms | $(ratio "$(col pilot 14)" "$(col baseline 14)") | |
| \`startupMs\`: start of \`main\` → first bound call (the empty app: the same, measured the same way) | $(col pilot 5) ms | $(col baseline 5) ms | $(ratio "$(col pilot 5)" "$(col baseline 5)") | ≤ 200 ms: $(below "$(col pilot 5)" 200) |
| CPU time the process tree used by the idle point | $(col pilot 15) ms | $(col baseline 15) ms | $(ratio "$(col pilot 15)" "$(col baseline 15)") | |
| binary size | ${size_p} MiB | ${size_b} MiB | | |

Raw runs: \`build/bench/startup-runs.tsv\` (not committed).
EOF

# Replace the section between the markers in docs/BENCHMARKS.md.
if [[ -f "$doc" ]] && grep -q '<!-- bench:startup:begin -->' "$doc"; then
	awk -v f="$section" '
		/<!-- bench:startup:begin -->/ { print; while ((getline l < f) > 0) print l; skip = 1; next }
		/<!-- bench:startup:end -->/ { skip = 0 }
		!skip { print }' "$doc" >"$tmp/doc" && cat "$tmp/doc" >"$doc"
	echo "bench: updated the startup section of docs/BENCHMARKS.md"
else
	echo "bench: docs/BENCHMARKS.md has no startup markers; the section is in $section"
fi
cat "$section"
