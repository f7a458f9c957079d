#!/usr/bin/env bash
# Headless Chromium for the suite's browser tests (the report and docs pages laid out at
# laptop and phone widths): Debian's package `chromium` at /usr/bin/chromium. `make test`
# and .ci/run call this; it installs the package as root or through sudo, and otherwise
# says in one line what to run.
set -euo pipefail

chromium=${ZSIM_CHROMIUM:-/usr/bin/chromium}     # another path only for the script's own test
if [ -x "$chromium" ]; then
    exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo=(sudo -n)
else
    echo "make test needs headless Chromium at $chromium: run 'sudo apt-get install chromium' once, then make test again" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "make test needs headless Chromium at $chromium, and this system has no apt-get: install Chromium there by hand" >&2
    exit 1
fi
apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get)
echo "installing Debian's chromium for the browser tests (once)" >&2
"${apt[@]}" update -qq
"${apt[@]}" install -y -qq --no-install-recommends chromium >/dev/null
