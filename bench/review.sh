#!/usr/bin/env bash
# bench/review.sh [--auto|--corners] [--jobs N] VARIANT_DIR...: reviews every clip of each corpus
# variant (bench/corpora.sh makes them: VARIANT_DIR/clip-NN/{clip.mp4,truth.jsonl,...}),
# then scores the whole variant at once with `cueref eval` (clips joined by
# merge_clips.py, so medians are over every event, not an average of clip figures).
#
#   default    the true camera (each clip's calib.json)
#   --corners  only the four true corners (--corners): camera pose from the homography
#   --auto     the table found automatically by review (no calibration given)
#
# REVIEW_ARGS (environment) adds options to every review, e.g. REVIEW_ARGS="--track-delay 4";
# REVIEW_TAG names the run (review-<mode><tag>/, eval-<mode><tag>.json) so runs can sit side by side.
#
# The operator's input lines of each clip's truth (calls, racks) are given with --inputs,
# as a scoring app would log them; everything else comes from the video.
# Prints the eval table per variant and writes VARIANT_DIR/eval-<mode>.json.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cueref=${CUEREF:-$here/../build/app/cueref}
mode=calib
jobs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --auto) mode=auto; shift ;;
    --corners) mode=corners; shift ;;
    --jobs) jobs=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || { echo "usage: bench/review.sh [--auto|--corners] [--jobs N] VARIANT_DIR..." >&2; exit 2; }
[ -x "$cueref" ] || { echo "review.sh: build cueref first (make build), or set CUEREF" >&2; exit 1; }

review_clip() {
  local clip=$1 game extra=()
  game=$(head -1 "$clip/truth.jsonl" | sed -n 's/.*"game": *"\([^"]*\)".*/\1/p')
  [ "$mode" = calib ] && extra=(--calib "$clip/calib.json")
  # shellcheck disable=SC2206
  [ -n "${REVIEW_ARGS:-}" ] && extra+=($REVIEW_ARGS)
  [ "$mode" = corners ] && extra=(--corners "$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['corners_px']; print(';'.join('%.3f,%.3f' % (x, y) for x, y in c))" "$clip/calib.json")")
  # the truth's input lines are the operator's (calls, racks): given as a scorer would log them
  "$cueref" review "$clip/clip.mp4" --game "${game:-none}" "${extra[@]}" --inputs "$clip/truth.jsonl" --positions -q \
    --emit-times --out "$clip/review-$mode$tag" 2>"$clip/review-$mode$tag.log" ||
    echo "review failed: $clip (see $clip/review-$mode$tag.log)" >&2
}
export -f review_clip
tag=${REVIEW_TAG:-}
export cueref mode tag REVIEW_ARGS

for variant in "$@"; do
  clips=("$variant"/clip-*)
  start=$SECONDS
  printf '%s\n' "${clips[@]}" | xargs -P "$jobs" -I{} bash -c 'review_clip {}'
  ok=()
  for c in "${clips[@]}"; do [ -s "$c/review-$mode$tag/events.jsonl" ] && ok+=("$c"); done
  echo "== $variant: ${#ok[@]} of ${#clips[@]} clips reviewed ($mode) in $((SECONDS - start)) s"
  [ ${#ok[@]} -gt 0 ] || continue
  REVIEW_SUBDIR=review-$mode$tag python3 "$here/merge_clips.py" "$variant/merged-$mode$tag" "${ok[@]}"
  "$cueref" eval --truth "$variant/merged-$mode$tag/truth.jsonl" --events "$variant/merged-$mode$tag/events.jsonl" \
    --positions "$variant/merged-$mode$tag/positions.csv" >"$variant/eval-$mode$tag.json"
  echo "== latency (bench/latency.py: seconds from the truth's moment to the frame that wrote the line)"
  python3 "$here/latency.py" "review-$mode$tag" "${ok[@]}"
done
