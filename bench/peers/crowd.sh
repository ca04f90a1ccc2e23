#!/bin/sh
# bench/peers/crowd.sh - the crowd part of `make bench-peers`: wayfinder's
# units with avoidance = "velocity" and "orca" and the navigation library's crowd
# (librecast-dev: its mesh builder and crowd with the default obstacle
# avoidance) on the same scenarios, side by side in one run. crowd.lua
# writes the scenarios and runs wayfinder; detour_crowd.cpp reads them.
# Installs librecast-dev when run as root, else says it skipped that peer.
# See docs/peers.md ("Crowds").
#
# Environment:
#   PEERS_CROWD   scenario names to run (default: all of crowd.lua's)
#   PEERS_CROWD_MODES  wayfinder's avoidance modes (default "velocity orca")
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
LUA=${LUA:-lua5.4}
CC=${CC:-cc}
CXX=${CXX:-g++}
LUA_INC=${LUA_INC:-/usr/include/lua5.4}
build="$here/build/crowd"
mkdir -p "$build"
records="$build/records.tsv"
: > "$records"
rm -f "$build"/*.crowd
say() { printf '%s\n' "$*"; }

say "== crowds: wayfinder units (avoidance = velocity, orca) and the packaged crowd"
have_detour=0
if [ ! -f /usr/include/recastnavigation/DetourCrowd.h ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        say "+ apt-get update && apt-get install -y librecast-dev"
        { apt-get -o DPkg::Lock::Timeout=600 update -q &&
          DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
              install -y -q librecast-dev; } >"$build/apt.log" 2>&1 ||
            say "installing librecast-dev failed (log: $build/apt.log)"
    fi
fi
if [ -f /usr/include/recastnavigation/DetourCrowd.h ]; then
    say "+ $CXX -O2 -o $build/detour_crowd detour_crowd.cpp -lDetourCrowd -lDetour -lRecast"
    if "$CXX" -O2 -std=c++11 -Wall -Wextra -o "$build/detour_crowd" "$here/detour_crowd.cpp" \
        -lDetourCrowd -lDetour -lRecast -lm; then
        have_detour=1
    else
        say "SKIPPED the crowd peer: detour_crowd.cpp did not build against librecast-dev"
    fi
else
    say "SKIPPED the crowd peer: librecast-dev is not installed (run as root, or"
    say "  sudo apt-get update && sudo apt-get install -y librecast-dev); wayfinder's half runs alone"
fi
[ -f "$root/build/wayfinder/core.so" ] || make -s -C "$root" build >/dev/null
[ -f "$here/build/peer_clock.so" ] ||
    "$CC" -O2 -fPIC -shared -I"$LUA_INC" -o "$here/build/peer_clock.so" "$here/peer_clock.c" ||
    say "(no peer_clock: wayfinder's times are processor time)"

# shellcheck disable=SC2086
if ! LUA_PATH="$root/lua/?.lua;$root/lua/?/init.lua;$root/spec/?.lua" LUA_CPATH="$root/build/?.so;$here/build/?.so" \
    "$LUA" "$here/crowd.lua" "$build" ${PEERS_CROWD:-} >>"$records" 2>"$build/err.txt"; then
    say "wayfinder's crowd run failed: $(grep -m 1 . "$build/err.txt" | cut -c 1-200)"
fi
if [ $have_detour = 1 ]; then
    for f in "$build"/*.crowd; do
        [ -f "$f" ] || continue
        "$build/detour_crowd" "$f" >>"$records" 2>>"$build/err.txt" ||
            say "detour_crowd failed on $f: $(tail -n 1 "$build/err.txt")"
    done
fi
say ""
say "== crowds side by side, $(date -u '+%Y-%m-%d %H:%M UTC'); librecast-dev" \
    "$(dpkg-query -W -f='${Version}' librecast-dev 2>/dev/null || echo 'not installed')"
say "radius 0.4, speed 0.25 navcell a tick (2.5 a second, tick 0.1 s) for both."
say "arrived: wayfinder's 'arrived' event (on the goal exactly); the crowd: first tick"
say "within one radius of the goal. t50/t90/tall: tick by which half, 90 %, all arrived"
say "(- = not within the bound). gap: least centre distance minus both radii over every"
say "pair and tick (negative = overlap); ovl: pair-ticks overlapping (circles, both peers)."
say "ms/t/a: milliseconds of the tick call per tick per agent (wall clock)."
"$LUA" "$here/crowd_report.lua" "$records"
[ $have_detour = 1 ] || say "(SKIPPED: no detour-crowd rows, the crowd library is missing; see above)"
