#!/bin/sh
# Allocation-failure sweep: runs tools/failalloc/scenario.lua once to count
# the C core's allocations, then once per allocation with that one failing
# (tools/failalloc/shim.c, preloaded). Fails on a crash (a signal, or an
# exit status other than 0 and 1) or a step that raised something other
# than an out-of-memory error.
# usage: tools/failalloc/run.sh LUA CPATH [CC]
#   CPATH  the build to load, e.g. 'build/?.so' or 'build/coverage/?.so'
set -u
lua=$1 cpath=$2 cc=${3:-cc}
out=build/failalloc
mkdir -p "$out"
$cc -std=c99 -O2 -Wall -Wextra -Werror -fPIC -shared -o "$out/shim.so" \
  tools/failalloc/shim.c -ldl || exit 1
run() {
  FAILALLOC_AT=$1 LD_PRELOAD="$(pwd)/$out/shim.so" WAYFINDER_CPATH="$cpath" \
    "$lua" tools/failalloc/scenario.lua
}
n=$(FAILALLOC_COUNT=1 run 0 2>&1 >/dev/null | sed -n 's/^failalloc: \([0-9]*\) allocations$/\1/p')
if [ -z "$n" ] || [ "$n" -eq 0 ]; then
  echo "failalloc: the scenario made no allocation of the core (is $cpath built?)"; exit 1
fi
status=0 bad=0 k=1
: > "$out/log"
while [ "$k" -le "$n" ]; do
  run "$k" >> "$out/log" 2>&1
  rc=$?
  if [ "$rc" -ne 0 ]; then
    bad=$((bad + 1)); status=1
    echo "failalloc: allocation $k of $n failing: exit $rc" | tee -a "$out/log"
  fi
  k=$((k + 1))
done
echo "failalloc: $n allocations of the core failed one at a time, $bad bad outcomes (log $out/log)"
exit $status
