#!/usr/bin/env bash
# bench/speed.sh: how fast `cueref sim` films a 10 s 1080p60 clip on one core,
# as a ratio to the clip's duration and to an encode-only GStreamer baseline
# (videotestsrc -> x264enc -> mp4mux of the same frame count, size and
# encoder settings) timed in the same run on the same core.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cueref=${CUEREF:-$here/../build/app/cueref}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
core="taskset -c 0"
command -v taskset >/dev/null || core=""

t0=$(date +%s.%N)
$core "$cueref" sim "$here/speed-10s.json" -o "$tmp/sim" >"$tmp/sim.log"
t1=$(date +%s.%N)
frames=$(awk -F, 'NR > 1 { f[$1] = 1 } END { print length(f) }' "$tmp/sim/positions.csv")
t2=$(date +%s.%N)
$core gst-launch-1.0 -q videotestsrc num-buffers="$frames" pattern=smpte ! \
  video/x-raw,width=1920,height=1080,framerate=60/1 ! videoconvert ! \
  x264enc speed-preset=veryfast pass=qual quantizer=20 threads=1 ! mp4mux ! filesink location="$tmp/base.mp4"
t3=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v n="$frames" 'BEGIN {
  sim = b - a; base = d - c; dur = n / 60.0;
  printf "frames %d (%.2f s of 1080p60)\n", n, dur;
  printf "cueref sim: %.1f s = %.2f x real time, %.1f ms/frame\n", sim, sim / dur, 1000 * sim / n;
  printf "encode-only baseline: %.1f s; sim / baseline = %.2f\n", base, sim / base;
}'
