#!/usr/bin/env bash
# Make Debian's chromium available for the browser tests (playwright drives /usr/bin/chromium;
# `playwright install` cannot download browsers on these machines).
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
    exit 0
fi
echo "minesolver: installing Debian's chromium for the browser tests" >&2
if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
elif command -v sudo >/dev/null 2>&1; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
    echo "minesolver: cannot install chromium (not root, no sudo); browser tests will be skipped" >&2
fi
