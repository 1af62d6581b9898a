#!/usr/bin/env bash
# Replaces one area's section of docs/BENCHMARKS.md with standard input:
#
#   some-benchmark | .ci/bench-section.sh AREA
#
# The section lies between <!-- bench:AREA:begin --> and
# <!-- bench:AREA:end -->; everything else in the file is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
area=${1:?usage: .ci/bench-section.sh AREA < section.md}
doc=docs/BENCHMARKS.md
grep -q "<!-- bench:$area:begin -->" "$doc" || {
	echo "bench: $doc has no <!-- bench:$area:begin --> marker" >&2
	exit 1
}
body=$(mktemp)
trap 'rm -f "$body" "$body.new"' EXIT
cat >"$body"
awk -v f="$body" -v b="<!-- bench:$area:begin -->" -v e="<!-- bench:$area:end -->" '
	$0 == b { print; while ((getline l < f) > 0) print l; skip = 1; next }
	$0 == e { skip = 0 }
	!skip' "$doc" >"$body.new"
mv "$body.new" "$doc"
echo "bench: updated the $area section of $doc"
