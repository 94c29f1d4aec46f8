#!/usr/bin/env bash
# bench/corpora.sh [--quick] [OUT]: generates the fixed-seed simulated corpora that
# accuracy is measured on. Each clip is `cueref sim --random 20 --vary` with its own
# seed (camera tilt 0-8 deg, off-centre, lens distortion, cloth colour, light and
# noise drawn from the seed); games alternate 9-ball and 8-ball. The cue stick and
# the shooter's arm are in every shot. Same seeds, same truth and positions. The same
# code has given different review results on two machines (a ball of the cloth's colour
# found on one, lost on the other: the video files or the processing differ, not found
# out which), so compare codes on the same files, in the same runs. Files made before the
# simulator set up a new rack after a won game (it teleported the balls) differ from the
# re-rack on; remake those.
#
#   variant    size       fps  clips x shots
#   1080p60    1920x1080   60   15 x 20
#   720p30     1280x720    30   15 x 20
#   1080p120   1920x1080  120   15 x 20
#   4k30       3840x2160   30    5 x 20
#
# --quick makes one clip of 3 shots per variant (a smoke test of the pipeline).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cueref=${CUEREF:-$here/../build/app/cueref}
quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi
out=${1:-$here/out/corpora}
[ -x "$cueref" ] || { echo "corpora.sh: build cueref first (make build), or set CUEREF" >&2; exit 1; }

variants=(
  "1080p60 1920x1080 60 15 1000"
  "720p30 1280x720 30 15 2000"
  "1080p120 1920x1080 120 15 3000"
  "4k30 3840x2160 30 5 4000"
)
for v in "${variants[@]}"; do
  read -r name size fps clips base <<<"$v"
  shots=20
  if [ "$quick" = 1 ]; then clips=1; shots=3; fi
  for ((i = 0; i < clips; i++)); do
    seed=$((base + i))
    game=9ball; if ((i % 2)); then game=8ball; fi
    dir=$out/$name/clip-$(printf %02d "$i")
    if [ -s "$dir/truth.jsonl" ] && [ -s "$dir/clip.mp4" ]; then continue; fi
    "$cueref" sim --random "$shots" --seed "$seed" --game "$game" --vary --size "$size" --fps "$fps" -o "$dir"
  done
done
echo "corpora in $out"
