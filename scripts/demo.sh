#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (as root), builds cueref and runs its demo.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
make build >/dev/null
./build/app/cueref demo
