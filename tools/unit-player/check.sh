#!/bin/sh
# Checks the unit player in headless Chromium, scene by scene (units,
# crowd, formation): tools/unit-player/record.lua writes each recording,
# the page loads it, draws every frame once and one tick on screen, and
# reports no error; a screenshot of each is written (the checks are
# tools/page-check.sh's). With a third argument, also takes the pictures
# of the crowd and formation scenes for the docs (DIR/crowd.png,
# DIR/formation.png).
#   sh tools/unit-player/check.sh [recording.js] [screenshot.png] [DIR]
# Run from the repository root after `make build` (make check-unit-player,
# make docs-unit-pictures). The crowd and formation recordings and
# screenshots are named after the first two: build/unit-recording-crowd.js,
# build/unit-player-crowd.png, ...
set -eu

REC=${1:-build/unit-recording.js}
SHOT=${2:-build/unit-player.png}
PICTURES=${3:-}
ROOT=$(pwd)
mkdir -p "$(dirname "$REC")" "$(dirname "$SHOT")"

# the page's URL for recording $1, scene $2, more parameters $3
url() {
  case "$1" in
    /*) src="file://$1" ;;
    *) src="../../$1" ;;
  esac
  echo "file://$ROOT/tools/unit-player/index.html?scene=$2&rec=$src$3"
}

fail=0
# check_scene SCENE RECORDING SCREENSHOT: every recording holds at least
# 160 ticks (161 frames), and every frame must have drawn
check_scene() {
  lua5.4 tools/unit-player/record.lua --scene="$1" "$2"
  sh tools/page-check.sh "$1" "$(url "$2" "$1" "")" "$3" "$1" 161 || fail=1
}

base=${REC%.js} shotbase=${SHOT%.png}
check_scene units "$REC" "$SHOT"
check_scene crowd "$base-crowd.js" "$shotbase-crowd.png"
check_scene formation "$base-formation.js" "$shotbase-formation.png"
[ "$fail" = 0 ] || exit 1
if [ -n "$PICTURES" ]; then
  mkdir -p "$PICTURES"
  sh tools/page-check.sh --picture "$(url "$base-crowd.js" crowd "&picture=1&cell=18&tick=88&trail=88")" \
    "$PICTURES/crowd.png" 880,630
  sh tools/page-check.sh --picture \
    "$(url "$base-formation.js" formation "&picture=1&cell=18&tick=310&trail=0&ghosts=30")" \
    "$PICTURES/formation.png" 880,630
fi
echo "unit player ok: units, crowd and formation"
