#!/bin/sh
# The browser tests drive Debian's Chromium (playwright-core brings no browser of its own and none can be
# downloaded here), so `npm test` installs it when it is missing and stops loudly when that fails.
set -eu
export DEBIAN_FRONTEND=noninteractive
CHROMIUM=/usr/bin/chromium
[ -x "$CHROMIUM" ] && exit 0
echo "ensure-chromium: $CHROMIUM is missing, installing Debian's chromium" >&2
if ! apt-get install -y --no-install-recommends chromium; then
  # A fresh machine has no package lists yet; fetch them once and try again.
  apt-get update && apt-get install -y --no-install-recommends chromium || {
    echo "ensure-chromium: FAILED to install chromium; the browser tests cannot run" >&2
    exit 1
  }
fi
[ -x "$CHROMIUM" ] || { echo "ensure-chromium: FAILED: $CHROMIUM still missing after install" >&2; exit 1; }
