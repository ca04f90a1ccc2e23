#!/bin/sh
# Loads one of the project's browser pages in headless Chromium (installed
# when missing and run as root) and checks what the page reports: its
# <div id="status"> must say data-status="ok" and data-drawn >= 10, its
# <ul id="errors"> must be empty, the console must show no error, and the
# screenshot written to SHOT must be at least 20 000 bytes.
#   sh tools/page-check.sh NAME URL SHOT
# Used by tools/route-tester/check.sh and tools/unit-player/check.sh.
set -eu

NAME=$1 URL=$2 SHOT=$3

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
drawn=$(printf '%s' "$status" | sed -n 's/.*data-drawn="\([0-9]*\)".*/\1/p')
if [ -z "$drawn" ] || [ "$drawn" -lt 10 ]; then
  echo "the page drew too little (${drawn:-nothing})" >&2
  fail=1
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
echo "$NAME ok: $drawn shapes drawn, screenshot $SHOT ($size bytes)"
