#!/usr/bin/env bash
# Prepares what `make test-windows` runs under Wine (docs/WINDOWS.md):
#   - the Debian packages (.ci/windows/packages.sh);
#   - a 64-bit Wine prefix in .cache/wine, as Windows 10 (made once, ~25 s;
#     kept);
#   - bcryptprimitives.dll with ProcessPrng (.ci/windows/bcryptprimitives.c)
#     in its system32, which Wine 8 lacks and every Go >= 1.22 program needs;
#   - a wineserver started persistent (-p), so each program does not pay a
#     server start and the prefix's update check;
#   - the os.RemoveAll overlay for the test binaries (.ci/windows/overlay.sh).
# Source it: it exports WINEPREFIX, WINE, WINESERVER, WINEDLLOVERRIDES,
# WINEDEBUG and GO_OVERLAY.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

"$here/.ci/windows/packages.sh"

export WINE=/usr/lib/wine/wine64 WINESERVER=/usr/lib/wine/wineserver64
export WINEPREFIX=$here/.cache/wine WINEDEBUG=-all WINEARCH=win64
export WINEDLLOVERRIDES="bcryptprimitives=n,b;mscoree,mshtml="
if [[ ! -f $WINEPREFIX/system.reg ]]; then
	echo "test-windows: making the Wine prefix $WINEPREFIX (once)"
	# Wine makes the prefix's folder but not its parent (a fresh
	# checkout has no .cache), and then fails with nothing printed.
	mkdir -p "$(dirname "$WINEPREFIX")"
	"$WINE" wineboot -i >/dev/null 2>&1
	# Wine 8 makes a Windows 7 prefix; Wails' installer wants Windows 10.
	"$WINE" winecfg /v win10 >/dev/null 2>&1
	"$WINESERVER" -w
fi
dll=$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll
if [[ ! -f $dll || $here/.ci/windows/bcryptprimitives.c -nt $dll ]]; then
	x86_64-w64-mingw32-gcc -O2 -shared -o "$dll" "$here/.ci/windows/bcryptprimitives.c" -ladvapi32 -Wl,--kill-at
fi
# Persistent until killed (docs/WINDOWS.md): started in its own session so
# it outlives this shell; a second -p finds it running and does nothing.
setsid "$WINESERVER" -p >/dev/null 2>&1 </dev/null &
GO_OVERLAY=$("$here/.ci/windows/overlay.sh" "$here/.cache/wine-overlay")
export GO_OVERLAY
