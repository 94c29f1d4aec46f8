#!/usr/bin/env bash
# bench/review-speed.sh CLIP_DIR [CLIP_DIR...]: how fast `cueref review --positions`
# runs on one core (taskset -c 0) against a decode-only GStreamer pipeline of the same
# file (filesrc ! qtdemux ! h264parse ! avdec_h264 max-threads=1 ! fakesink), timed in
# the same run on the same core, plus peak memory (GNU time, when installed). Each
# CLIP_DIR is a `cueref sim` folder (clip.mp4, calib.json).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cueref=${CUEREF:-$here/../build/app/cueref}
core="taskset -c 0"
command -v taskset >/dev/null || core=""
gtime=""
[ -x /usr/bin/time ] && gtime="/usr/bin/time -f %M -o"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for clip in "$@"; do
  video=$clip/clip.mp4
  t0=$(date +%s.%N)
  $core gst-launch-1.0 -q filesrc location="$video" ! qtdemux ! h264parse ! avdec_h264 max-threads=1 ! \
    fakesink sync=false
  t1=$(date +%s.%N)
  if [ -n "$gtime" ]; then
    $core $gtime "$tmp/mem" "$cueref" review "$video" --calib "$clip/calib.json" --positions -q --out "$tmp/r"
  else
    $core "$cueref" review "$video" --calib "$clip/calib.json" --positions -q --out "$tmp/r"
  fi
  t2=$(date +%s.%N)
  mem=n/a
  [ -s "$tmp/mem" ] && mem="$(( $(tail -1 "$tmp/mem") / 1024 )) MB"
  frames=$(grep -c '"type":"balls"' "$tmp/r/events.jsonl" || true)
  fps=$(head -1 "$tmp/r/events.jsonl" | sed -n 's/.*"fps":\([0-9.]*\).*/\1/p')
  awk -v a="$t0" -v b="$t1" -v c="$t2" -v n="$frames" -v fps="$fps" -v clip="$clip" -v mem="$mem" 'BEGIN {
    dec = b - a; rev = c - b; media = n / fps;
    printf "%s: %d frames (%.1f s at %g fps)\n", clip, n, media, fps;
    printf "  decode only %.2f s (%.1fx real time); review %.2f s (%.1fx real time); review / decode = %.2f; peak memory %s\n",
      dec, media / dec, rev, media / rev, rev / dec, mem;
  }'
done
