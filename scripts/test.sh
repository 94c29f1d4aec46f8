#!/usr/bin/env bash
# Sets up a fresh Debian 12 machine (as root) and runs every test: the normal
# build and the AddressSanitizer/UBSan build. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
make test
