#!/bin/sh
# Loads one of the project's browser pages in headless Chromium (installed
# when missing and run as root) and checks what the page reports: its
# <div id="status"> must say data-status="ok" and data-drawn >= 10, its
# <ul id="errors"> must be empty, the console must show no error, and the
# screenshot written to SHOT must be at least 20 000 bytes. With SCENE,
# the status must also say data-scene="SCENE"; with MIN_FRAMES, the page
# must hold at least that many frames and have drawn every one
# (data-frames, data-frames-drawn).
#   sh tools/page-check.sh NAME URL SHOT [SCENE [MIN_FRAMES]]
# With --picture, only takes a WIDTHxHEIGHT screenshot of URL into OUT:
#   sh tools/page-check.sh --picture URL OUT WIDTH,HEIGHT
# Used by tools/route-tester/check.sh and tools/unit-player/check.sh.
set -eu

PICTURE="" SIZE=""
if [ "$1" = "--picture" ]; then
  PICTURE=1 NAME=picture URL=$2 SHOT=$3 SIZE=$4 SCENE="" MIN_FRAMES=""
else
  NAME=$1 URL=$2 SHOT=$3 SCENE=${4:-} MIN_FRAMES=${5:-}
fi

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
mkdir -p "$(dirname "$SHOT")"

run() {
  # each run gets a fresh profile
  prof=$(mktemp -d "$TMP/profile.XXXXXX")
  chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run \
    --user-data-dir="$prof" --allow-file-access-from-files \
    --enable-logging=stderr --v=0 --virtual-time-budget=10000 "$@"
}

if [ -n "$PICTURE" ]; then
  mkdir -p "$(dirname "$SHOT")"
  run --window-size="$SIZE" --hide-scrollbars --screenshot="$TMP/pic.png" "$URL" \
    >"$TMP/pic.out" 2>"$TMP/pic.log" || {
    echo "chromium failed:" >&2; cat "$TMP/pic.log" >&2; exit 1; }
  cp "$TMP/pic.png" "$SHOT"
  echo "picture $SHOT ($(wc -c <"$SHOT") bytes)"
  exit 0
fi

run --dump-dom "$URL" >"$TMP/dom.html" 2>"$TMP/dom.log" || {
  echo "chromium failed:" >&2; cat "$TMP/dom.log" >&2; exit 1; }
run --window-size=1280,900 --screenshot="$TMP/shot.png" "$URL" \
  >"$TMP/shot.out" 2>"$TMP/shot.log" || {
  echo "chromium failed:" >&2; cat "$TMP/shot.log" >&2; exit 1; }
cp "$TMP/shot.png" "$SHOT"

fail=0
status=$(grep -o '<div id="status"[^>]*>' "$TMP/dom.html" || true)
echo "page status: $status"
case "$status" in
  *'data-status="ok"'*) ;;
  *) echo "the page did not report ok" >&2; fail=1 ;;
esac
attr() { printf '%s' "$status" | sed -n "s/.* $1=\"\\([0-9]*\\)\".*/\\1/p"; }
drawn=$(attr data-drawn)
if [ -z "$drawn" ] || [ "$drawn" -lt 10 ]; then
  echo "the page drew too little (${drawn:-nothing})" >&2
  fail=1
fi
if [ -n "$SCENE" ]; then
  case "$status" in
    *"data-scene=\"$SCENE\""*) ;;
    *) echo "the page did not load the scene $SCENE" >&2; fail=1 ;;
  esac
fi
frames=$(attr data-frames)
framesdrawn=$(attr data-frames-drawn)
if [ -n "$MIN_FRAMES" ]; then
  if [ -z "$frames" ] || [ "$frames" -lt "$MIN_FRAMES" ] || [ "${framesdrawn:-0}" != "$frames" ]; then
    echo "the page drew ${framesdrawn:-no} frames of ${frames:-none} (at least $MIN_FRAMES expected)" >&2
    fail=1
  fi
fi
errors=$(sed -n 's/.*<ul id="errors">\(.*\)<\/ul>.*/\1/p' "$TMP/dom.html")
if [ -n "$errors" ]; then
  echo "the page reported errors: $errors" >&2
  fail=1
fi
if grep -E 'Uncaught|CONSOLE.*[Ee]rror' "$TMP/dom.log" "$TMP/shot.log" >&2; then
  echo "console errors (above)" >&2
  fail=1
fi
size=$(wc -c <"$SHOT")
if [ "$size" -lt 20000 ]; then
  echo "screenshot $SHOT is too small ($size bytes)" >&2
  fail=1
fi
[ "$fail" = 0 ] || exit 1
echo "$NAME ok: ${framesdrawn:+$framesdrawn frames drawn, }$drawn shapes drawn, screenshot $SHOT ($size bytes)"
