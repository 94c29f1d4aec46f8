#!/usr/bin/env python3
"""bench/merge_clips.py OUT_DIR CLIP_DIR...: joins the truth and review output of several
simulated clips into one truth.jsonl, events.jsonl and positions.csv, each clip shifted in
time (10000 s apart) and in shot and frame numbers, so that one `cueref eval` run gives
exact figures over the whole corpus (medians included) instead of an average of averages.

Each CLIP_DIR holds truth.jsonl and positions.csv (cueref sim) and REVIEW/events.jsonl,
where REVIEW is the environment variable REVIEW_SUBDIR (default: review)."""
import json
import os
import sys

SHIFT_S = 10000.0
SHIFT_SHOT = 100000
SHIFT_FRAME = 10000000


def shifted(path, k, out, keep_session):
    with open(path) as f:
        for n, line in enumerate(f):
            line = line.strip()
            if not line:
                continue
            ev = json.loads(line)
            if ev.get("type") == "session":
                if keep_session:
                    out.write(json.dumps(ev) + "\n")
                continue
            if isinstance(ev.get("t"), (int, float)):
                ev["t"] = ev["t"] + k * SHIFT_S
            if isinstance(ev.get("shot"), int):
                ev["shot"] = ev["shot"] + k * SHIFT_SHOT
            out.write(json.dumps(ev) + "\n")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out_dir, clips = sys.argv[1], sys.argv[2:]
    sub = os.environ.get("REVIEW_SUBDIR", "review")
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "truth.jsonl"), "w") as t, \
            open(os.path.join(out_dir, "events.jsonl"), "w") as e, \
            open(os.path.join(out_dir, "positions.csv"), "w") as p:
        p.write("frame,t,id,x,y,visible\n")
        for k, clip in enumerate(clips):
            shifted(os.path.join(clip, "truth.jsonl"), k, t, k == 0)
            shifted(os.path.join(clip, sub, "events.jsonl"), k, e, k == 0)
            with open(os.path.join(clip, "positions.csv")) as f:
                next(f)
                for line in f:
                    fr, tt, rest = line.split(",", 2)
                    p.write("%d,%.6f,%s" % (int(fr) + k * SHIFT_FRAME, float(tt) + k * SHIFT_S, rest))


if __name__ == "__main__":
    main()
