#!/usr/bin/env bash
# Install everything cueref needs to build and test, from Debian 12 packages.
# Idempotent; runs as root on a fresh machine (or via sudo). Skips apt when all
# packages are already present, so repeated runs are fast and need no network.
set -euo pipefail

PKGS=(
  # toolchain
  build-essential cmake pkg-config git ca-certificates
  # JSON and MQTT
  libjansson-dev libmosquitto-dev mosquitto mosquitto-clients
  # tests
  libcunit1-dev
  # vision: OpenCV 4 (used only through vision/cr_cv.h)
  libopencv-dev
  # capture: GStreamer 1.22 and plugins, V4L2
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-tools
  gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad
  gstreamer1.0-plugins-ugly gstreamer1.0-libav libv4l-dev
)

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "install-deps: need root to install: ${missing[*]}" >&2; exit 1
  fi
fi

echo "install-deps: installing ${#missing[@]} packages: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done" >&2
