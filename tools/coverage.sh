#!/bin/sh
# Line and branch coverage of the C sources (src/, binding included) from
# the spec suite, a report under build/coverage/html, and a gate: fails when
# branch coverage falls below the floor in tools/coverage-floor.
# The C core's own tests (spec/c/core_test.c and args_test.c, built with coverage into the
# same directory) and the allocation-failure sweep (tools/failalloc/) add
# their counts to the specs'.
# usage: tools/coverage.sh LUA BUSTED [CC]
set -u
lua=$1 busted=$2 cc=${3:-cc}
dir=build/coverage
floor=$(cat tools/coverage-floor)
find "$dir" -name '*.gcda' -delete
echo "== specs with the coverage build"
WAYFINDER_CPATH="$dir/?.so" "$busted" --lua="$lua" -o TAP > "$dir/specs.log" 2>&1
echo "coverage: specs $(grep -c '^ok ' "$dir/specs.log") ok, $(grep -c '^not ok ' "$dir/specs.log") not ok (they are judged by make test's own runs)"
echo "== the C core's own tests and the allocation-failure sweep with the coverage build"
for t in core_test args_test; do
  $cc -std=c99 -O0 -g --coverage -Isrc -o "$dir/$t" "spec/c/$t.c" src/*.c -lm \
    && (cd "$dir" && "./$t" | tail -n 1) || exit 1
done
sh tools/failalloc/run.sh "$lua" "$dir/?.so" "$cc" || exit 1
lcov --quiet --capture --rc lcov_branch_coverage=1 -d "$dir" -b . -o "$dir/all.info" \
  2> "$dir/lcov.log" || { cat "$dir/lcov.log"; exit 1; }
lcov --quiet --rc lcov_branch_coverage=1 --extract "$dir/all.info" "$(pwd)/src/*" \
  -o "$dir/src.info" 2>> "$dir/lcov.log" || { cat "$dir/lcov.log"; exit 1; }
genhtml --quiet --branch-coverage -o "$dir/html" "$dir/src.info" >> "$dir/lcov.log" 2>&1
summary=$(lcov --rc lcov_branch_coverage=1 --summary "$dir/src.info" 2>&1)
echo "$summary" | grep -E 'lines|branches' | sed 's/^ */coverage: /'
branches=$(echo "$summary" | sed -n 's/.*branches\.*: \([0-9.]*\)%.*/\1/p')
echo "coverage: report in $dir/html/index.html; branch floor $floor%"
if awk -v b="$branches" -v f="$floor" 'BEGIN { exit !(b + 0 < f + 0) }'; then
  echo "coverage: branch coverage $branches% is below the floor $floor%"
  exit 1
fi
