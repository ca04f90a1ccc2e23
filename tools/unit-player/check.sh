#!/bin/sh
# Checks the unit player in headless Chromium, scene by scene (units,
# crowd, formation): tools/unit-player/record.lua writes each recording,
# the page loads it, draws every frame once and one tick on screen, and
# reports no error; a screenshot of each is written. With a third
# argument, also takes the pictures of the crowd and formation scenes for
# the docs (DIR/crowd.png, DIR/formation.png).
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

if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    echo "installing chromium"
    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
  else
    echo "chromium is missing; run: sudo apt-get install -y chromium" >&2
    exit 1
  fi
fi

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT INT TERM
mkdir -p "$(dirname "$REC")" "$(dirname "$SHOT")"

run() {
  # each run gets a fresh profile
  prof=$(mktemp -d "$TMP/profile.XXXXXX")
  chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run \
    --user-data-dir="$prof" --allow-file-access-from-files \
    --enable-logging=stderr --v=0 --virtual-time-budget=10000 "$@"
}

# the page's URL for recording $1, scene $2, more parameters $3
url() {
  case "$1" in
    /*) src="file://$1" ;;
    *) src="../../$1" ;;
  esac
  echo "file://$ROOT/tools/unit-player/index.html?scene=$2&rec=$src$3"
}

fail=0
# check_scene SCENE RECORDING SCREENSHOT
check_scene() {
  scene=$1 rec=$2 shot=$3
  lua5.4 tools/unit-player/record.lua --scene="$scene" "$rec"
  u=$(url "$rec" "$scene" "")
  run --dump-dom "$u" >"$TMP/dom.html" 2>"$TMP/dom.log" || {
    echo "chromium failed:" >&2; cat "$TMP/dom.log" >&2; exit 1; }
  run --window-size=1280,960 --screenshot="$TMP/shot.png" "$u" \
    >"$TMP/shot.out" 2>"$TMP/shot.log" || {
    echo "chromium failed:" >&2; cat "$TMP/shot.log" >&2; exit 1; }
  cp "$TMP/shot.png" "$shot"

  bad=0
  status=$(grep -o '<div id="status"[^>]*>' "$TMP/dom.html" || true)
  echo "$scene: page status: $status"
  case "$status" in
    *'data-status="ok"'*) ;;
    *) echo "$scene: the page did not report ok" >&2; bad=1 ;;
  esac
  case "$status" in
    *"data-scene=\"$scene\""*) ;;
    *) echo "$scene: the page did not load the scene $scene" >&2; bad=1 ;;
  esac
  attr() { printf '%s' "$status" | sed -n "s/.* $1=\"\\([0-9]*\\)\".*/\\1/p"; }
  drawn=$(attr data-drawn)
  frames=$(attr data-frames)
  framesdrawn=$(attr data-frames-drawn)
  if [ -z "$drawn" ] || [ "$drawn" -lt 10 ]; then
    echo "$scene: the page drew too little (${drawn:-nothing})" >&2
    bad=1
  fi
  # the recordings hold at least 160 ticks; every frame must have drawn
  if [ -z "$frames" ] || [ "$frames" -lt 161 ] || [ "${framesdrawn:-0}" != "$frames" ]; then
    echo "$scene: the page drew ${framesdrawn:-no} frames of ${frames:-none}" >&2
    bad=1
  fi
  errors=$(sed -n 's/.*<ul id="errors">\(.*\)<\/ul>.*/\1/p' "$TMP/dom.html")
  if [ -n "$errors" ]; then
    echo "$scene: the page reported errors: $errors" >&2
    bad=1
  fi
  if grep -E 'Uncaught|CONSOLE.*[Ee]rror' "$TMP/dom.log" "$TMP/shot.log" >&2; then
    echo "$scene: console errors (above)" >&2
    bad=1
  fi
  size=$(wc -c <"$shot")
  if [ "$size" -lt 20000 ]; then
    echo "$scene: screenshot $shot is too small ($size bytes)" >&2
    bad=1
  fi
  if [ "$bad" = 0 ]; then
    echo "$scene: ok, $framesdrawn frames drawn, $drawn shapes in the tick shown, screenshot $shot ($size bytes)"
  else
    fail=1
  fi
}

# picture SCENE RECORDING OUT PARAMETERS: the page in picture mode
picture() {
  run --window-size=880,630 --hide-scrollbars --screenshot="$TMP/pic.png" \
    "$(url "$2" "$1" "&picture=1$4")" >"$TMP/pic.out" 2>"$TMP/pic.log" || {
    echo "chromium failed:" >&2; cat "$TMP/pic.log" >&2; exit 1; }
  cp "$TMP/pic.png" "$3"
  echo "picture $3 ($(wc -c <"$3") bytes)"
}

base=${REC%.js} shotbase=${SHOT%.png}
check_scene units "$REC" "$SHOT"
check_scene crowd "$base-crowd.js" "$shotbase-crowd.png"
check_scene formation "$base-formation.js" "$shotbase-formation.png"
[ "$fail" = 0 ] || exit 1
if [ -n "$PICTURES" ]; then
  mkdir -p "$PICTURES"
  picture crowd "$base-crowd.js" "$PICTURES/crowd.png" "&cell=18&tick=88&trail=88"
  picture formation "$base-formation.js" "$PICTURES/formation.png" "&cell=18&tick=310&trail=0&ghosts=30"
fi
echo "unit player ok: units, crowd and formation"
