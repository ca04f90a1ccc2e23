#!/bin/sh
# bench/peers/run.sh [maps_dir] - `make bench-peers`: wayfinder's search side
# by side with the pathfinders Lua and C game developers use today (libtcod's
# A*, PathFinding.js's A* and JPS), same maps, same queries, same movement
# rule, same run; then the crowds (bench/peers/crowd.sh: wayfinder's units
# with avoidance beside the packaged crowd library, librecast-dev, which it
# installs as root or says it skipped). Installs what is missing, builds the harnesses into
# bench/peers/build/, runs them and prints bench/peers/report.lua's table.
# See docs/peers.md.
#
# Environment:
#   PEERS_MAPS    "name:subset ..." maps to run; subset = how many evenly
#                 spread queries PathFinding.js runs there (0 = all)
#   PEERS_WARMUP  untimed queries before each timed pass (default 10)
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
maps_arg=${1:-../shared/maps}
LUA=${LUA:-lua5.4}
CC=${CC:-cc}
LUA_INC=${LUA_INC:-/usr/include/lua5.4}
WARMUP=${PEERS_WARMUP:-10}
# The two maps made for this comparison run whole for every peer. The Moving
# AI maps run whole for the C and Lua peers; PathFinding.js needs 0.05-0.5 s
# a query on them, so it runs an evenly spread subset there.
DEFAULT_MAPS="clusters512:0 rooms16:0 arena:0 arena2:200 den011d:200 Berlin_0_256:200
AR0011SR:100 random512-10-0:100 32room_000:100"
MAP_LIST=${PEERS_MAPS:-$DEFAULT_MAPS}

if [ ! -d "$maps_arg" ]; then
    # the crowd comparison needs no maps: it runs anyway
    sh "$here/crowd.sh"
    echo ""
    echo "bench-peers: maps directory '$maps_arg' not found."
    echo "Skipped: every search measurement (wayfinder, libtcod, PathFinding.js);" \
         "only the crowds above ran."
    echo "Run it with the Moving AI maps folder:" \
         "make bench-peers MAPS=/path/to/maps  or  sh bench/peers/run.sh /path/to/maps"
    exit 0
fi
maps=$(cd "$maps_arg" && pwd)
build="$here/build"
mkdir -p "$build"
records="$build/records.tsv"
: > "$records"
started=$(date +%s)

say() { printf '%s\n' "$*"; }
run() { say "+ $*"; "$@"; }
skip() { printf 'S\t%s\t%s\t%s\n' "$1" "$2" "$3" >> "$records"; say "skipped $1: $3"; }

# ------------------------------------------------------------- install --
say "== installing what is missing"
apt_missing=""
[ -f /usr/include/libtcod/path.h ] || apt_missing="$apt_missing libtcod-dev"
command -v node >/dev/null 2>&1 || apt_missing="$apt_missing nodejs"
command -v npm >/dev/null 2>&1 || apt_missing="$apt_missing npm"
if [ -n "$apt_missing" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        say "+ apt-get update && apt-get install -y$apt_missing"
        if apt-get -o DPkg::Lock::Timeout=600 update -q >"$build/apt.log" 2>&1; then
            for p in $apt_missing; do
                DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
                    install -y -q "$p" >>"$build/apt.log" 2>&1 ||
                    say "apt-get install $p failed (log: $build/apt.log)"
            done
        else
            say "apt-get update failed (log: $build/apt.log)"
        fi
    else
        say "missing:$apt_missing"
        say "to install: sudo apt-get update && sudo apt-get install -y$apt_missing"
    fi
fi
if [ ! -f "$here/node_modules/pathfinding/package.json" ] && command -v npm >/dev/null 2>&1
then
    say "+ cd bench/peers && npm ci --no-audit --no-fund"
    (cd "$here" && npm ci --no-audit --no-fund >"$build/npm.log" 2>&1) ||
        say "npm ci failed (log: $build/npm.log)"
fi
[ -z "$apt_missing" ] && [ -f "$here/node_modules/pathfinding/package.json" ] &&
    say "nothing to install"

# --------------------------------------------------------------- build --
say "== building the harnesses (cc -O2)"
have_wf_c=0 have_tcod=0 have_lua=0 have_pf=0
if run "$CC" -O2 -std=c99 -Wall -Wextra -I"$root/src" -o "$build/wayfinder_bench" \
    "$here/wayfinder_bench.c" "$here/peer_common.c" "$root"/src/*.c -lm; then
    have_wf_c=1
else
    skip wayfinder-c "*" "the C harness did not build (no ratios without it)"
fi
if [ -f /usr/include/libtcod/path.h ]; then
    tcod_flags=$(pkg-config --cflags --libs libtcod 2>/dev/null || echo -ltcod)
    # shellcheck disable=SC2086
    if run "$CC" -O2 -o "$build/tcod_bench" "$here/tcod_bench.c" "$here/peer_common.c" \
        $tcod_flags -lm; then
        have_tcod=1
    else
        skip libtcod-astar "*" "tcod_bench.c did not build against the installed libtcod"
    fi
else
    skip libtcod-astar "*" "libtcod-dev is not installed (sudo apt-get install -y libtcod-dev)"
fi
if [ ! -f "$root/build/wayfinder/core.so" ]; then
    run make -s -C "$root" build >/dev/null
fi
if [ -f "$root/build/wayfinder/core.so" ] && command -v "$LUA" >/dev/null 2>&1 &&
    run "$CC" -O2 -std=c99 -Wall -Wextra -fPIC -shared -I"$LUA_INC" \
        -o "$build/peer_clock.so" "$here/peer_clock.c"; then
    have_lua=1
else
    skip wayfinder-lua "*" "needs $LUA, build/wayfinder/core.so (make build) and $LUA_INC"
fi
if ! command -v node >/dev/null 2>&1; then
    skip pathfinding.js "*" "node is not installed (sudo apt-get install -y nodejs npm)"
elif [ ! -f "$here/node_modules/pathfinding/package.json" ]; then
    skip pathfinding.js "*" "the npm package is not installed (cd bench/peers && npm ci)"
else
    have_pf=1
fi

# ----------------------------------------------------------------- run --
# Runs one harness, appends its records, and records a skip on failure.
# (sh has no locals: the h_ names keep clear of the caller's variables.)
harness() {
    h_peer=$1
    h_map=$2
    shift 2
    h_t0=$(date +%s)
    if "$@" >"$build/out.tsv" 2>"$build/err.txt"; then
        cat "$build/out.tsv" >> "$records"
        printf ' %s %ss' "$h_peer" "$(($(date +%s) - h_t0))"
    else
        printf '\n'
        skip "$h_peer" "$h_map" "harness failed: $(grep -m 1 . "$build/err.txt" | cut -c 1-200)"
    fi
}

say "== running (per-query times; progress in seconds per peer)"
for entry in $MAP_LIST; do
    name=${entry%%:*}
    subset=${entry#*:}
    [ "$subset" = "$entry" ] && subset=0
    map="$maps/$name.map"
    scen="$maps/$name.map.scen"
    if [ ! -f "$map" ] || [ ! -f "$scen" ]; then
        say "skipped map $name: $map or its .scen is missing"
        continue
    fi
    w=$(sed -n 's/^width \([0-9]*\).*/\1/p' "$map" | head -n 1)
    h=$(sed -n 's/^height \([0-9]*\).*/\1/p' "$map" | head -n 1)
    n=$(($(grep -c '[^[:space:]]' "$scen") - 1))
    printf 'M\t%s\t%s\t%s\t%s\t%s\n' "$name.map" "$w" "$h" "$n" "$subset" >> "$records"
    printf '%s:' "$name"
    [ $have_wf_c = 1 ] &&
        harness wayfinder-c "$name.map" "$build/wayfinder_bench" "$map" "$scen" 0 "$WARMUP"
    [ $have_lua = 1 ] &&
        harness wayfinder-lua "$name.map" env \
            LUA_PATH="$root/lua/?.lua;$root/lua/?/init.lua" \
            LUA_CPATH="$root/build/?.so;$build/?.so" \
            "$LUA" "$here/wayfinder_bench.lua" "$map" "$scen" 0 "$WARMUP"
    [ $have_tcod = 1 ] &&
        harness libtcod-astar "$name.map" "$build/tcod_bench" "$map" "$scen" 0 "$WARMUP"
    [ $have_pf = 1 ] &&
        harness pathfinding.js "$name.map" node "$here/pathfinding_bench.js" "$map" "$scen" \
            "$subset" "$WARMUP"
    printf '\n'
done

# -------------------------------------------------------------- report --
say ""
say "== wayfinder and peers, $(date -u '+%Y-%m-%d %H:%M UTC')"
say "machine: $(uname -srm), $(nproc 2>/dev/null || echo '?') cores," \
    "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)," \
    "load average now $(cut -d ' ' -f 1-3 /proc/loadavg 2>/dev/null)"
say "compiler: $("$CC" --version 2>/dev/null | head -n 1); lua: $("$LUA" -v 2>&1 | head -n 1)"
say "libtcod-dev $(dpkg-query -W -f='${Version}' libtcod-dev 2>/dev/null || echo '?');" \
    "node $(node --version 2>/dev/null || echo '?');" \
    "pathfinding $(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' \
        "$here/node_modules/pathfinding/package.json" 2>/dev/null | head -n 1)"
say "rule: 8 neighbours, steps 1 and sqrt 2, no corner cutting; optimal = within half a unit"
say "of the scenario's last printed digit (at least 1e-3), path re-walked cell by cell."
say "Times: each search call alone, wall clock CLOCK_MONOTONIC (C, Lua) or"
say "process.hrtime.bigint (node), with processor time beside it; $WARMUP untimed warm-up"
say "queries per pass. ratio = peer median / wayfinder JPS (C core) median; mean r. and"
say "cpu r. are the same from means and from processor-time medians. Absolute times move"
say "by up to ~40% between runs on a shared machine: compare within one run."
"$LUA" "$here/report.lua" "$records"
say ""
sh "$here/crowd.sh"
say ""
say "total $(($(date +%s) - started)) s; records in $records"
exit 0
