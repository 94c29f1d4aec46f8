#!/usr/bin/env bash
# bench/recon.sh [OUT]: event reconstruction alone on the README's fixed sets (truth
# positions with tracker-like noise, no video): four sets of 100 shots (seeds 32, 31,
# 34, 33 at 30, 60, 60, 120 fps) and three held out (37, 36, 38 at 30, 60, 120 fps).
# Prints one line per set: first contact, collisions and cushions outside break
# clusters (precision / recall, timing median, and how many of the misses were found but
# timed outside the one-frame window), pockets, rulings. RECON_BENCH and
# CUEREF choose the binaries (default: the build/ ones).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cueref=${CUEREF:-$here/../build/app/cueref}
rb=${RECON_BENCH:-$here/../build/recon_bench}
out=${1:-$here/out/recon}
[ -x "$cueref" ] && [ -x "$rb" ] || { echo "recon.sh: build first (make build), or set CUEREF and RECON_BENCH" >&2; exit 1; }
sets=(
  "s32 --seed 32 --fps 30 --game 8ball"
  "s31 --seed 31 --fps 60"
  "s34 --seed 34 --fps 60 --game 8ball"
  "s33 --seed 33 --fps 120"
  "h37 --seed 37 --fps 30"
  "h36 --seed 36 --fps 60"
  "h38 --seed 38 --fps 120"
)
for spec in "${sets[@]}"; do
  read -r name args <<<"$spec"
  d=$out/$name
  # shellcheck disable=SC2086
  [ -s "$d/truth.jsonl" ] || "$cueref" sim --random 100 --no-video $args -o "$d" >/dev/null
  "$rb" "$d" -o "$d/events.jsonl" >/dev/null
  "$cueref" eval --json-only --truth "$d/truth.jsonl" --events "$d/events.jsonl" >"$d/eval.json"
  python3 - "$d/eval.json" "$name" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["types"]
def pr(k):
    o = t[k]["outside_break"]
    return "%s P %.3f R %.3f %.1f ms (%d timed off)" % (k, o["precision"], o["recall"], o["timing_ms"]["median"] or 0,
                                                         o["timed_off"])
p = t["pocket"]
print("%s: first contact %d/%d, %s, %s, pockets %d/%d (%d false), rulings %d/%d" % (
    sys.argv[2], d["first_contact"]["correct"], d["first_contact"]["shots"], pr("collision"), pr("cushion"),
    p["tp"], p["truth"], p["fp"], d["rulings"]["agree"], d["rulings"]["compared"]))
PY
done
