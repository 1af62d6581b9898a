#!/usr/bin/env bash
# $BROWSER for pilot-client.sh: the suite's authorization server approves
# at once, answering the authorization page with a redirect to the
# redirect URI (pilot's loopback listener); this follows that one redirect
# there, as a browser would. Anything else (an error page) fails.
set -euo pipefail
location=$(curl -sS -o /dev/null -w '%{redirect_url}' "$1")
[[ -n $location ]] || { echo "browser.sh: the authorization page did not redirect" >&2; exit 1; }
curl -sS -o /dev/null "$location"
