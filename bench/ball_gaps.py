#!/usr/bin/env python3
"""bench/ball_gaps.py BALL CLIP_DIR...: where a review lost a moving ball.

For each clip (a `cueref sim` folder reviewed with --positions, its review in
CLIP_DIR/$REVIEW_SUBDIR, default review-calib as bench/review.sh names it), the
frames in which ball BALL is visible and moving by the truth's positions.csv (it
moved over 0.5 mm since the frame before) and the review's balls line holds no
ball, of any number, within 40 mm of it; and the runs of such frames over 0.3 s
(a ball of the cloth's colour lost for seconds shows there, where eval's recall
over the whole film barely moves). Prints one line per clip:

  CLIP moving N missed M runs>0.3s [(t0, t1), ...]
"""
import csv
import json
import math
import os
import sys


def truth_track(clip, ball):
    """time (ms, rounded) -> (x, y, visible) of the ball in the truth"""
    out = {}
    with open(os.path.join(clip, "positions.csv")) as f:
        rows = csv.reader(f)
        next(rows)
        for _, t, i, x, y, vis in rows:
            if int(i) == ball:
                out[round(float(t), 3)] = (float(x), float(y), vis == "1")
    return out


def gaps(clip, ball, sub):
    tr = truth_track(clip, ball)
    times = sorted(tr)
    moving = {}
    for a, b in zip(times, times[1:]):
        moving[b] = math.hypot(tr[b][0] - tr[a][0], tr[b][1] - tr[a][1]) > 0.5
    n = missed = 0
    runs = []
    with open(os.path.join(clip, sub, "events.jsonl")) as f:
        for line in f:
            e = json.loads(line)
            if e.get("type") != "balls":
                continue
            t = round(e["t"], 3)
            if t not in tr or not tr[t][2] or not moving.get(t):
                continue
            x, y, _ = tr[t]
            n += 1
            if any(math.hypot(b["x"] - x, b["y"] - y) < 40.0 for b in e["balls"]):
                continue
            missed += 1
            if runs and t - runs[-1][1] < 0.1:
                runs[-1][1] = t
            else:
                runs.append([t, t])
    return n, missed, [(round(a, 2), round(b, 2)) for a, b in runs if b - a > 0.3]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    ball = int(sys.argv[1])
    sub = os.environ.get("REVIEW_SUBDIR", "review-calib")
    for clip in sys.argv[2:]:
        n, missed, runs = gaps(clip, ball, sub)
        print("%s moving %d missed %d runs>0.3s %s" % (os.path.basename(clip.rstrip("/")), n, missed, runs))


if __name__ == "__main__":
    main()
