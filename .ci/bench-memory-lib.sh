# Helpers of .ci/bench-memory.sh and .ci/bench-mcp.sh (sourced): a
# temporary folder $tmp removed on exit, an Xvfb, apps launched in their
# own process group, memory summed over a process tree, the window driven
# with xdotool and the fake LLM server's request count. The tree and
# smaps_rollup sums are those of .ci/bench-startup.sh.

tmp=$(mktemp -d)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill -TERM -- "-$p" 2>/dev/null || true; done
	sleep 0.5
	for p in "${pids[@]}"; do kill -KILL -- "-$p" 2>/dev/null || true; done
	rm -rf "$tmp"
}

trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

fail() {
	echo "bench-memory: $*" >&2
	tail -n 20 "$tmp/app.log" >&2 2>/dev/null || true
	import -window root build/e2e-artifacts/bench-memory-failure.png 2>/dev/null || true
	exit 1
}

# until_ok SECONDS CMD...: retry CMD until it succeeds.
until_ok() {
	local deadline=$((SECONDS + $1))
	shift
	until "$@"; do
		((SECONDS < deadline)) || fail "timed out waiting for: $*"
		sleep 0.2
	done
}

start_xvfb() {
	[[ -d /tmp/.X11-unix ]] || mkdir -m 1777 /tmp/.X11-unix
	setsid Xvfb -displayfd 3 -screen 0 1400x900x24 -nolisten tcp -noreset 3>"$tmp/display" >/dev/null 2>&1 &
	pids+=($!)
	until_ok 10 test -s "$tmp/display"
	export DISPLAY=":$(head -n1 "$tmp/display")" NO_AT_BRIDGE=1
}

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

# mem PID -> "rss_kb pss_kb web_pss_kb go_pss_kb" over the process tree
# (web: WebKitWebProcess; go: the app itself).
mem() {
	local rss=0 pss=0 web=0 own=0 p r s
	for p in $(tree_pids "$1"); do
		read -r r s < <(awk '/^Rss:/ { r = $2 } /^Pss:/ { s = $2 } END { print r, s }' "/proc/$p/smaps_rollup" 2>/dev/null) || continue
		[[ -n "$r" ]] || continue
		rss=$((rss + r)) pss=$((pss + s))
		[[ $(cat "/proc/$p/comm" 2>/dev/null) == WebKitWebProces ]] && web=$((web + s))
		[[ $p == "$1" ]] && own=$s
	done
	echo "$rss $pss $web $own"
}

# launch BIN [VAR=VALUE...]: starts the app with a fresh environment of
# its own (PILOT_HOME=$home unless given), sets app to its pid and wid to
# its window, and waits until its window is mapped and, for Pilot, the
# page made its first bound call. t0 is the launch time in seconds.
launch() {
	local bin=$1 name
	shift
	name=$(basename "$bin")
	t0=$SECONDS
	env PILOT_HOME="$home" "$@" setsid "$bin" >"$tmp/app.log" 2>&1 &
	app=$!
	pids+=($app)
	if [[ $name == pilot ]]; then
		until_ok 60 grep -qs '"msg":"frontend ready"' "$home/logs/pilot.log"
	fi
	local title=Pilot
	[[ $name == pilot ]] || title=$name
	until_ok 60 xdotool search --onlyvisible --name "^$title\$" >/dev/null
	wid=$(xdotool search --onlyvisible --name "^$title\$" | head -n1)
}

stop() {
	kill -TERM -- "-$app" 2>/dev/null || true
	local _
	for _ in $(seq 50); do kill -0 -- "-$app" 2>/dev/null || break; sleep 0.1; done
	kill -KILL -- "-$app" 2>/dev/null || true
	local keep=() p
	for p in "${pids[@]}"; do [[ $p == "$app" ]] || keep+=("$p"); done
	pids=("${keep[@]}")
}

# idle_at S: sleeps until S seconds after the launch.
idle_at() {
	local left=$((t0 + $1 - SECONDS))
	((left > 0)) && sleep "$left"
	return 0
}

# Move first and let WebKit see the pointer there, then press.
click() {
	xdotool mousemove --window "$wid" "$1" "$2"
	sleep 0.2
	xdotool click 1
	sleep 0.2
}

# requests URL -> how many model calls the fake server answered (its log
# also has the model-list asks, which are not answers)
requests() {
	curl -fsS "$1/_fakellm/requests" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log((JSON.parse(s) || []).filter((r)=>r.format==="anthropic"||r.format==="openai").length))'
}

median() { sort -n | awk '{ a[NR] = $1 } END { if (NR == 0) { print "-" } else if (NR % 2) { print a[(NR + 1) / 2] } else { print int((a[NR / 2] + a[NR / 2 + 1]) / 2) } }'; }
mib() { awk -v k="$1" 'BEGIN { if (k == "-" || k == "") print "-"; else printf "%.0f", k / 1024 }'; }
