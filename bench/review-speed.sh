#!/usr/bin/env bash
# bench/review-speed.sh CLIP_DIR [CLIP_DIR...]: how fast `cueref review --positions`
# runs on one core (taskset -c 0) against a decode-only GStreamer pipeline of the same
# file (filesrc ! qtdemux ! h264parse ! avdec_h264 max-threads=1 ! fakesink), timed in
# the same run on the same core, plus peak memory (GNU time, when installed). Each
# CLIP_DIR is a `cueref sim` folder (clip.mp4, calib.json).
#
# Environment:
#   CUEREF       the cueref to time (default: this tree's build/app/cueref)
#   CUEREF_BASE  a second cueref (say, a build of the code before a change), timed in the
#                same rounds right after the first: the two see the same machine
#   ROUNDS       rounds per clip (default 1); with more than one, each clip ends with the
#                median of each ratio over its rounds (a shared machine's noise is large)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cueref=${CUEREF:-$here/../build/app/cueref}
base=${CUEREF_BASE:-}
rounds=${ROUNDS:-1}
core="taskset -c 0"
command -v taskset >/dev/null || core=""
gtime=""
[ -x /usr/bin/time ] && gtime="/usr/bin/time -f %M -o"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# review_time BIN VIDEO CALIB: runs one review; prints its seconds and its peak memory in MB
# (n/a without GNU time)
review_time() {
  local t0 t1 mem=n/a
  rm -f "$tmp/mem"
  t0=$(date +%s.%N)
  if [ -n "$gtime" ]; then
    $core $gtime "$tmp/mem" "$1" review "$2" --calib "$3" --positions -q --out "$tmp/r"
  else
    $core "$1" review "$2" --calib "$3" --positions -q --out "$tmp/r"
  fi
  t1=$(date +%s.%N)
  [ -s "$tmp/mem" ] && mem=$(( $(tail -1 "$tmp/mem") / 1024 ))
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }') $mem"
}

for clip in "$@"; do
  video=$clip/clip.mp4
  : > "$tmp/ratios"
  for r in $(seq "$rounds"); do
    t0=$(date +%s.%N)
    $core gst-launch-1.0 -q filesrc location="$video" ! qtdemux ! h264parse ! avdec_h264 max-threads=1 ! \
      fakesink sync=false
    t1=$(date +%s.%N)
    read -r rev mem <<<"$(review_time "$cueref" "$video" "$clip/calib.json")"
    frames=$(grep -c '"type":"balls"' "$tmp/r/events.jsonl" || true)
    fps=$(head -1 "$tmp/r/events.jsonl" | sed -n 's/.*"fps":\([0-9.]*\).*/\1/p')
    brev=""
    bmem=""
    [ -n "$base" ] && read -r brev bmem <<<"$(review_time "$base" "$video" "$clip/calib.json")"
    awk -v a="$t0" -v b="$t1" -v rev="$rev" -v brev="$brev" -v n="$frames" -v fps="$fps" -v clip="$clip" \
      -v mem="$mem" -v bmem="$bmem" -v r="$r" -v rounds="$rounds" -v out="$tmp/ratios" 'BEGIN {
      dec = b - a; media = n / fps;
      if (r == 1)
        printf "%s: %d frames (%.1f s at %g fps)\n", clip, n, media, fps;
      if (rounds > 1)
        printf "  round %d:\n", r;
      printf "  decode only %.2f s (%.1fx real time); review %.2f s (%.1fx real time); review / decode = %.2f; peak memory %s%s\n",
        dec, media / dec, rev, media / rev, rev / dec, mem, mem == "n/a" ? "" : " MB";
      if (brev != "")
        printf "  base: review %.2f s (%.1fx real time); review / decode = %.2f; peak memory %s%s\n",
          brev, media / brev, brev / dec, bmem, bmem == "n/a" ? "" : " MB";
      printf "%.4f %s\n", rev / dec, brev != "" ? sprintf("%.4f", brev / dec) : "-" >> out;
    }'
  done
  if [ "$rounds" -gt 1 ]; then
    awk -v base="$base" '
      function median(x, n,   i, j, t) {
        for (i = 2; i <= n; i++)
          for (j = i; j > 1 && x[j - 1] > x[j]; j--)
            { t = x[j]; x[j] = x[j - 1]; x[j - 1] = t }
        return (n % 2) ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2;
      }
      { a[NR] = $1; b[NR] = $2 }
      END {
        printf "  median review / decode over %d rounds: %.2f", NR, median(a, NR);
        if (base != "")
          printf "; base %.2f", median(b, NR);
        printf "\n";
      }' "$tmp/ratios"
  fi
done
