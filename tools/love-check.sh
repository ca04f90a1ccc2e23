#!/bin/sh
# Runs the LÖVE example (examples/love) headless under a virtual X server
# with its scripted keys and clicks (WAYFINDER_LOVE_SCRIPT), and checks that
# it ran without a Lua error, ticked, and drew both scenes: each screenshot
# must exist and hold many colours (a uniform or failed frame has one or
# two). Screenshots go to OUT (house.png, rts.png).
# usage: tools/love-check.sh OUT
set -u
out=$1
mkdir -p "$out"
rm -f "$out/house.png" "$out/rts.png"
log="$out/love.log"
WAYFINDER_LOVE_SCRIPT=$(cd "$out" && pwd) timeout 120 \
  xvfb-run -a -s "-screen 0 1024x700x24" love examples/love > "$log" 2>&1
rc=$?
cat "$log"
fail() { echo "love-check: FAILED: $1 (log $log)"; exit 1; }
[ $rc -eq 0 ] || fail "love exited with status $rc"
grep -q "LUA ERROR" "$log" && fail "a Lua error"
for shot in house rts; do
  [ -s "$out/$shot.png" ] || fail "no $shot.png"
  n=$(sed -n "s/^screenshot $shot.png: [0-9x]*, \([0-9]*\) colours.*/\1/p" "$log")
  [ -n "$n" ] && [ "$n" -ge 20 ] || fail "$shot.png has ${n:-no} colours: the scene was not drawn"
done
t=$(sed -n 's/^ticks \([0-9]*\),.*/\1/p' "$log")
[ -n "$t" ] && [ "$t" -ge 100 ] || fail "only ${t:-no} ticks"
moving=$(sed -n 's/.*units moving \([0-9]*\).*/\1/p' "$log")
[ -n "$moving" ] && [ "$moving" -ge 1 ] || fail "no unit got a path from the clicks"
echo "love-check: ran $t ticks without a Lua error, drew both scenes, $moving units moving"
