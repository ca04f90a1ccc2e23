#!/bin/sh
# Runs the busted specs once with the normal build and once with the
# sanitizer build, shows busted's output, and ends with one summary line
# "specs: N passed, M failed" over both runs. Exits non-zero on any failure.
# Then once on each other Lua version listed in VERSIONS (built into
# build/<version>/ by make versions), with the spec files not listed in
# tools/specs-not-portable.txt for that version.
# usage: tools/run-specs.sh LUA BUSTED ASAN_PRELOAD [VERSIONS]
set -u
lua=$1 busted=$2 preload=$3
versions=$(echo ${4:-})   # one line, single spaces
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
passed=0
failed=0

count() {
  # busted's closing line: "N successes / N failures / N errors / N pending"
  # (singular for 1: "1 success", "1 failure", "1 error")
  line=$(grep -E '[0-9]+ success(es)? / [0-9]+ failures? / [0-9]+ errors?' "$log" | tail -n 1)
  if [ -z "$line" ]; then
    failed=$((failed + 1))   # busted did not get to its summary
    return
  fi
  ok=$(echo "$line" | grep -oE '[0-9]+ success' | grep -oE '[0-9]+')
  bad=$(echo "$line" | grep -oE '[0-9]+ failure' | grep -oE '[0-9]+')
  err=$(echo "$line" | grep -oE '[0-9]+ error' | grep -oE '[0-9]+')
  passed=$((passed + ok))
  failed=$((failed + bad + err))
}

"$busted" --lua="$lua" -o utfTerminal > "$log" 2>&1 || status=1
cat "$log"
count

echo "== specs again under AddressSanitizer + UndefinedBehaviorSanitizer"
LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  WAYFINDER_CPATH="build/asan/?.so" "$busted" --lua="$lua" -o utfTerminal > "$log" 2>&1 || status=1
cat "$log"
count

for v in $versions; do
  files="" skipped=""
  for f in spec/*_spec.lua; do
    if grep -v '^#' tools/specs-not-portable.txt | grep -q "^$f .*\b$v\b"; then
      skipped="$skipped $f"
    else
      files="$files $f"
    fi
  done
  echo "== specs again on $v (build/$v); skipped on $v:${skipped:- none}"
  WAYFINDER_CPATH="build/$v/?.so" "$busted" --lua="$v" -o utfTerminal $files > "$log" 2>&1 || status=1
  cat "$log"
  count
done
for v in lua5.1 lua5.2 lua5.3 luajit; do
  case " $versions " in *" $v "*) ;; *) echo "== $v: skipped (not installed)";; esac
done

echo "specs: $passed passed, $failed failed"
[ "$failed" -eq 0 ] || status=1
exit $status
