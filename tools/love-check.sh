#!/bin/sh
# Runs the LÖVE example (examples/love) headless under a virtual X server
# with its scripted keys and clicks (WAYFINDER_LOVE_SCRIPT), and checks that
# it ran without a Lua error, ticked, and drew the three scenes: each
# screenshot must exist and hold many colours (a uniform or failed frame
# has one or two), the RTS squads got paths from the clicks, and the units
# scene drew its units' paths, the vertex pathfinder's edges and a vertex
# path. Screenshots go to OUT (house.png, rts.png, units.png).
# usage: tools/love-check.sh OUT
set -u
out=$1
mkdir -p "$out"
rm -f "$out/house.png" "$out/rts.png" "$out/units.png"
log="$out/love.log"
WAYFINDER_LOVE_SCRIPT=$(cd "$out" && pwd) timeout 300 \
  xvfb-run -a -s "-screen 0 1024x700x24" love examples/love > "$log" 2>&1
rc=$?
cat "$log"
fail() { echo "love-check: FAILED: $1 (log $log)"; exit 1; }
[ $rc -eq 0 ] || fail "love exited with status $rc"
grep -q "LUA ERROR" "$log" && fail "a Lua error"
for shot in house rts units; do
  [ -s "$out/$shot.png" ] || fail "no $shot.png"
  n=$(sed -n "s/^screenshot $shot.png: [0-9x]*, \([0-9]*\) colours.*/\1/p" "$log")
  [ -n "$n" ] && [ "$n" -ge 20 ] || fail "$shot.png has ${n:-no} colours: the scene was not drawn"
done
t=$(sed -n 's/^ticks \([0-9]*\),.*/\1/p' "$log")
[ -n "$t" ] && [ "$t" -ge 100 ] || fail "only ${t:-no} ticks"
moving=$(sed -n 's/.*units moving \([0-9]*\).*/\1/p' "$log")
[ -n "$moving" ] && [ "$moving" -ge 1 ] || fail "no unit got a path from the clicks"
# the units scene's line: "units scene: N units, N orders, N moving, N waiting,
# N arrived, N paths drawn, N vertex edges drawn, N vertex paths drawn, ..."
line=$(grep "^units scene: " "$log")
[ -n "$line" ] || fail "no units scene summary"
field() { echo "$line" | sed -n "s/.* \([0-9][0-9]*\) $1.*/\1/p"; }
for what in "orders" "paths drawn" "vertex edges drawn" "vertex paths drawn"; do
  n=$(field "$what")
  [ -n "$n" ] && [ "$n" -ge 1 ] || fail "the units scene shows ${n:-no} $what"
done
upaths=$(field "paths drawn")
uedges=$(field "vertex edges drawn")
echo "love-check: ran $t ticks without a Lua error, drew the three scenes, $moving squad units" \
  "moving; units scene: $upaths paths and $uedges vertex edges drawn"
