#!/bin/sh
# Checks the unit player in headless Chromium: a recording is written by
# tools/unit-player/record.lua, the page loads it, draws a tick, reports no
# error, and a screenshot is written (the checks are tools/page-check.sh's).
#   sh tools/unit-player/check.sh [recording.js] [screenshot.png]
# Run from the repository root after `make build` (make check-unit-player).
set -eu

REC=${1:-build/unit-recording.js}
SHOT=${2:-build/unit-player.png}

mkdir -p "$(dirname "$REC")"
lua5.4 tools/unit-player/record.lua "$REC"
case "$REC" in
  /*) SRC="file://$REC" ;;
  *) SRC="../../$REC" ;;
esac
exec sh tools/page-check.sh "unit player" \
  "file://$(pwd)/tools/unit-player/index.html?rec=$SRC" "$SHOT"
