#!/bin/sh
# Runs every fuzzer for a bounded time and fails on any crash, sanitizer
# report, leak, hang or bad outcome (see docs/reliability.md).
# usage: tools/fuzz.sh SECONDS CALLS LUA "ASAN_PRELOAD" [SEEDS]
#   SECONDS  run time of each libFuzzer target (build/fuzz/*_fuzz)
#   CALLS    calls of the Lua API fuzzer and inputs of the file fuzzer
#   SEEDS    seeds of the Lua fuzzers, default "1 2 3"
# WAYFINDER_FUZZ_NO_WORLD=1 in the environment leaves the house world out
# of the Lua fuzzers; make fuzz and make fuzz-short keep it in.
set -u
secs=$1 calls=$2 lua=$3 preload=$4 seeds=${5:-1 2 3}
root=$(pwd)
out=build/fuzz
status=0
mkdir -p "$out/corpus/map" "$out/corpus/ops" "$out/artifacts" "$out/tmp"

# seeds: the maps the specs use (first byte 0: Moving AI, 1: ASCII rows)
for f in spec/data/maps/*.map; do
  { printf '\000'; cat "$f"; } > "$out/corpus/map/$(basename "$f")"
done
printf '\001....\n.@@.\n....\n' > "$out/corpus/map/ascii"
printf '\024\024\001\002\001\000\001\003\005\001\002\003\004\005\006\007' > "$out/corpus/ops/seed"

for t in map ops; do
  echo "== fuzz: $t (${secs}s)"
  if ! "$out/${t}_fuzz" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 \
       -max_len=70000 -print_final_stats=1 -artifact_prefix="$out/artifacts/$t-" \
       "$out/corpus/$t" > "$out/$t.log" 2>&1; then
    tail -n 40 "$out/$t.log"
    echo "fuzz: $t FAILED (input saved under $out/artifacts/)"
    status=1
  else
    grep -E 'stat::number_of_executed_units|stat::average_exec_per_sec' "$out/$t.log" \
      | sed "s/^/fuzz: $t /"
  fi
done

# the Lua side, against the sanitizer build; a hang is a failure
run_lua() {
  name=$1; shift
  echo "== fuzz: $name"
  (cd "$out/tmp" && LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 WAYFINDER_ROOT="$root" \
    LUA_PATH="$root/lua/?.lua;$root/lua/?/init.lua" LUA_CPATH="$root/build/asan/?.so" \
    timeout $((secs * 4 + 60)) "$lua" "$@") > "$out/$name.log" 2>&1
  rc=$?
  tail -n 1 "$out/$name.log"
  if [ $rc -ne 0 ]; then
    grep -av '^api fuzz\|^file fuzz' "$out/$name.log" | head -n 40
    [ $rc -eq 124 ] && echo "fuzz: $name HUNG (killed after $((secs * 4 + 60))s)"
    echo "fuzz: $name FAILED (log: $out/$name.log)"
    status=1
  fi
}
for seed in $seeds; do
  run_lua "api-$seed" "$root/tools/fuzz/api.lua" "$calls" "$seed"
  run_lua "files-$seed" "$root/tools/fuzz/files.lua" "$calls" "$seed"
done
[ $status -eq 0 ] && echo "fuzz: no crash, leak, hang or bad outcome"
exit $status
