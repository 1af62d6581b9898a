#!/usr/bin/env bash
# Memory of the production window (issue 7): RSS and PSS summed over the app
# and its WebKit processes (/proc/PID/smaps_rollup, as .ci/bench-startup.sh
# sums them), all under one Xvfb in one run:
#
#   1. idle, 5 s after launch with a fresh PILOT_HOME, BENCH_RUNS times
#      (default 3), alternating: the empty `wails init -t react-ts` app that
#      .ci/bench-startup.sh builds into build/bench/baseline, and Pilot with
#      each PILOT_WEBVIEW_GPU (never, the default; ondemand; always)
#   2. a project holding a 2,000-message session and a short one (made by
#      .ci/bench-memory-data.mjs, loaded with `pilot sessions import`): idle,
#      the long session opened, then BENCH_SWITCHES times (default 10) the
#      short one opened and the long one again, read after each switch
#   3. 200 reviewed diffs: five prompts to the fake LLM server, each answered
#      by 40 patch_file calls, every one approved with "Approve all"
#
# The window is driven with xdotool; positions are window coordinates of
# the 1280x820 window main.go opens (the layout is fixed at that size; see
# frontend/e2e/screens-prod.sh). Writes the memory section of
# docs/BENCHMARKS.md, the raw samples to build/bench/memory-runs.tsv and a
# screenshot of the opened long session to build/e2e-artifacts/.
#
#   .ci/bench-memory.sh [BINARY]     (make bench builds build/bin/pilot)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/bin/pilot}
baseline=build/bench/baseline/build/bin/baseline
runs=${BENCH_RUNS:-3}
switches=${BENCH_SWITCHES:-10}
batches=5 per=40
[[ -x "$bin" ]] || {
	echo "bench-memory: $bin missing; run make build" >&2
	exit 1
}
[[ "$(basename "$bin")" == pilot ]] || {
	echo "bench-memory: the binary must be named pilot (its window is found by that name)" >&2
	exit 1
}
# shellcheck source=.ci/bench-memory-lib.sh
source .ci/bench-memory-lib.sh # makes $tmp, removed on exit
mkdir -p build/bench build/e2e-artifacts
tsv=build/bench/memory-runs.tsv
printf 'phase\tstep\trun\trss_kb\tpss_kb\tweb_pss_kb\tgo_pss_kb\n' >"$tsv"
# sample PHASE STEP RUN: the app's memory now, into the raw samples.
sample() {
	local m
	m=$(mem "$app")
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${m// /$'\t'}" >>"$tsv"
	echo "bench-memory: $1 $2 run $3: $(awk '{ printf "RSS %.0f MiB, PSS %.0f MiB (web %.0f, go %.0f)", $1 / 1024, $2 / 1024, $3 / 1024, $4 / 1024 }' <<<"$m")"
}

node .ci/bench-memory-data.mjs "$tmp" 2000 "$batches" "$per"
go build -o "$tmp/fakellm" ./backend/internal/fakellm/cmd/fakellm
start_xvfb
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# --- 1. idle against the baseline ---------------------------------------------
have_baseline=1
[[ -x $baseline ]] || {
	have_baseline=0
	echo "bench-memory: $baseline missing (.ci/bench-startup.sh builds it); no baseline column" >&2
}
for r in $(seq "$runs"); do
	if ((have_baseline)); then
		home=$tmp/home-idle-$r-baseline
		launch "$baseline"
		idle_at 5
		sample idle baseline "$r"
		stop
	fi
	for gpu in never ondemand always; do
		home=$tmp/home-idle-$r-$gpu
		launch "$bin" PILOT_WEBVIEW_GPU=$gpu
		idle_at 5
		sample idle "pilot-$gpu" "$r"
		stop
	done
done

# --- 2. a 2,000-message session, opened and switched away from and back -----
home=$tmp/home-sessions project=$tmp/project
mkdir -p "$home" "$project"
PILOT_HOME=$home "$bin" sessions import "$tmp/long.json" --project "$project" >/dev/null
PILOT_HOME=$home "$bin" sessions import "$tmp/short.json" --project "$project" >/dev/null
# A key (never used: nothing is sent) so the window shows chats, not onboarding.
launch "$bin" PILOT_PROJECT="$project" ANTHROPIC_API_KEY=sk-ant-bench
# The sidebar lists the long session first, the short one under it.
long_y=277 short_y=325
idle_at 5
sample sessions idle 1
click 129 $long_y
sleep 6
sample sessions opened 1
import -window "$wid" build/e2e-artifacts/bench-long-session.png 2>/dev/null || true
for i in $(seq "$switches"); do
	click 129 $short_y
	sleep 2
	click 129 $long_y
	sleep 4
	sample sessions "switch-$i" 1
done
stop

# --- 3. 200 reviewed diffs ------------------------------------------------------
home=$tmp/home-diffs project=$tmp/diffs
mkdir -p "$home" "$project"
cp "$tmp/target.txt" "$project/"
setsid "$tmp/fakellm" -script "$tmp/diffs.json" -addr 127.0.0.1:0 >"$tmp/fake.log" 2>&1 &
pids+=($!)
until_ok 30 grep -q '^listening on ' "$tmp/fake.log"
llm=$(sed -n 's/^listening on //p' "$tmp/fake.log" | head -n1)
launch "$bin" PILOT_PROJECT="$project" ANTHROPIC_API_KEY=sk-ant-bench ANTHROPIC_BASE_URL="$llm"
idle_at 5
sample diffs 0 1
served() { local n; n=$(requests "$llm") && ((n >= $1)); }
for b in $(seq 0 $((batches - 1))); do
	click 491 736 # the prompt box
	xdotool type --delay 5 "Change the next $per lines of target.txt"
	xdotool key Return
	for j in $(seq "$per"); do
		n=$((b * (per + 1) + j)) # this model call proposes the change
		until_ok 60 served "$n"
		deadline=$((SECONDS + 60))
		# "Approve all" at the top of the review panel, until the tool
		# result reaches the model (the next call).
		until served $((n + 1)); do
			((SECONDS < deadline)) || fail "change $((b * per + j)) was not approved"
			click 877 175
			sleep 0.3
		done
	done
	sleep 3
	sample diffs $(((b + 1) * per)) 1
done
applied=$(grep -c ': new$' "$project/target.txt" || true)
((applied == batches * per)) || fail "target.txt holds $applied of $((batches * per)) approved changes"
stop
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# --- the section --------------------------------------------------------------
# at PHASE STEP COLUMN -> median over runs (KiB)
at() { awk -F'\t' -v ph="$1" -v st="$2" -v c="$3" 'NR > 1 && $1 == ph && $2 == st { print $c }' "$tsv" | median; }
row() { echo "| $1 | $(mib "$(at "$2" "$3" 4)") MiB | $(mib "$(at "$2" "$3" 5)") MiB | $(mib "$(at "$2" "$3" 6)") MiB | $(mib "$(at "$2" "$3" 7)") MiB |$4"; }
ratio() { ((have_baseline)) && awk -v a="$(at idle "$1" 5)" -v b="$(at idle baseline 5)" 'BEGIN { printf " %.2f×", a / b }'; }
growth() { awk -v a="$(at sessions "$1" 5)" -v b="$(at sessions "$2" 5)" 'BEGIN { printf "%+.0f", (b - a) / 1024 }'; }
# halves COLUMN -> the median (KiB) over the first half of the switches, over the second
halves() {
	local h=$((switches / 2))
	local range
	for range in "1 $h" "$((h + 1)) $switches"; do
		awk -F'\t' -v r="$range" -v c="$1" 'BEGIN { split(r, b, " ") }
			NR > 1 && $1 == "sessions" && $2 ~ /^switch-/ && substr($2, 8) + 0 >= b[1] && substr($2, 8) + 0 <= b[2] { print $c }' "$tsv" | median
	done | xargs
}
commit=$(git rev-parse --short=12 HEAD)
dirty=$(git diff --quiet HEAD -- . 2>/dev/null || echo " (work tree had uncommitted changes)")
{
	echo "Measured $(date -u +%Y-%m-%d) at commit \`$commit\`$dirty by \`make bench\`"
	echo "(\`.ci/bench-memory.sh\`): $(nproc) cores, WebKitGTK $(dpkg-query -W -f='${Version}' libwebkit2gtk-4.1-0 2>/dev/null || echo unknown), Xvfb, no window manager."
	echo "Idle figures are medians of $runs runs (the apps alternate); the rest is one run. Load average"
	echo "before/after: $load_before / $load_after."
	echo
	echo "| figure | RSS | PSS | of which WebKitWebProcess | of which the Go process | PSS vs baseline |"
	echo "|---|---:|---:|---:|---:|---:|"
	if ((have_baseline)); then row "idle: empty \`wails init -t react-ts\` app (baseline)" idle baseline " 1.00× |"; fi
	row "idle: Pilot, first run (onboarding), \`PILOT_WEBVIEW_GPU=never\` (default)" idle pilot-never "$(ratio pilot-never) |"
	row "idle: the same with \`PILOT_WEBVIEW_GPU=ondemand\`" idle pilot-ondemand "$(ratio pilot-ondemand) |"
	row "idle: the same with \`PILOT_WEBVIEW_GPU=always\`" idle pilot-always "$(ratio pilot-always) |"
	row "a project with a 2,000-message session: idle" sessions idle " |"
	row "— the 2,000-message session opened" sessions opened " |"
	row "— after switching to a short session and back once" sessions switch-1 " |"
	row "— after switching to a short session and back $switches times" sessions "switch-$switches" " |"
	row "200 diffs: idle before" diffs 0 " |"
	for k in $(seq 2 2 "$batches"); do row "— after $((k * per)) diffs reviewed and approved" diffs $((k * per)) " |"; done
	((batches % 2 == 0)) || row "— after $((batches * per)) diffs reviewed and approved" diffs $((batches * per)) " |"
	echo
	echo "Switching: PSS $(growth opened switch-1) MiB from the opened session to the first switch back,"
	read -r rss1 rss2 <<<"$(halves 4)"
	read -r pss1 pss2 <<<"$(halves 5)"
	echo "$(growth switch-1 "switch-$switches") MiB from the first to switch $switches. Median RSS / PSS of switches 1-$((switches / 2)):"
	echo "$(mib "$rss1") / $(mib "$pss1") MiB; of switches $((switches / 2 + 1))-$switches: $(mib "$rss2") / $(mib "$pss2") MiB. Single samples swing with"
	echo "the JavaScript heap's collections, and PSS also with other processes mapping the same libraries"
	echo "(RSS does not), so judge growth by RSS."
	echo
	echo "Raw samples: \`build/bench/memory-runs.tsv\` (not committed)."
} | .ci/bench-section.sh memory
sed -n '/bench:memory:begin/,/bench:memory:end/p' docs/BENCHMARKS.md
