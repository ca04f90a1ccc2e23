#!/bin/sh
# Checks the route tester in headless Chromium: the page loads a sample
# route file, draws it, reports no error, and a screenshot is written
# (the checks are tools/page-check.sh's).
#   sh tools/route-tester/check.sh [route file] [screenshot.png]
# Run from the repository root (make check-route-tester does).
set -eu

ROUTE=${1:-spec/data/routes/sample.route.json}
SHOT=${2:-build/route-tester.png}

[ -f "$ROUTE" ] || { echo "no route file $ROUTE" >&2; exit 1; }
exec sh tools/page-check.sh "route tester" \
  "file://$(pwd)/tools/route-tester/index.html?route=../../$ROUTE" "$SHOT"
