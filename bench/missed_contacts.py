#!/usr/bin/env python3
"""bench/missed_contacts.py EVAL_JSON CLIP_DIR...: the collisions outside break clusters
that `cueref eval` counts as missed, each with how its two balls moved by the truth's
positions: speed into and out of the contact and how far each went in the 0.8 s after.

EVAL_JSON is `cueref eval` output over clips joined by bench/merge_clips.py, and the
CLIP_DIRs are those clips in the same order (clip k's times are shifted by k * 10000 s).
A struck ball that moved a millimetre or two in all is within the detector's noise; one
that rolled off at a few centimetres a second is a push a review should see."""
import bisect
import collections
import csv
import json
import math
import sys

from merge_clips import SHIFT_S


def tracks(clip):
    """ball id -> [(t, x, y)] from a clip's truth positions.csv, in time order"""
    out = collections.defaultdict(list)
    with open(clip + "/positions.csv") as f:
        rows = csv.reader(f)
        next(rows)
        for _, t, i, x, y, _ in rows:
            out[int(i)].append((float(t), float(x), float(y)))
    return out


def around(track, t):
    """the two samples either side of t"""
    ts = [s[0] for s in track]
    k = min(max(bisect.bisect_left(ts, t), 1), len(ts) - 1)
    return track[k - 1], track[k]


def speed(track, t):
    a, b = around(track, t)
    return math.hypot(b[1] - a[1], b[2] - a[2]) / (b[0] - a[0])


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    ev = json.load(open(sys.argv[1]))
    clips = sys.argv[2:]
    cache = {}
    for u in ev.get("unmatched", []):
        if u["type"] != "collision" or not u["missed"] or u["in_break"]:
            continue
        k = int(u["t"] // SHIFT_S)
        if k >= len(clips):
            continue
        if k not in cache:
            cache[k] = tracks(clips[k])
        t = u["t"] - k * SHIFT_S
        parts = []
        for b in (u["a"], u["b"]):
            tr = cache[k].get(b)
            if not tr:
                parts.append("%d: no positions" % b)
                continue
            p0 = around(tr, t)[0]
            p1 = around(tr, t + 0.8)[0]
            parts.append("%d: in %.0f, out %.0f mm/s, moved %.1f mm in 0.8 s" %
                         (b, speed(tr, t - 0.04), speed(tr, t + 0.07), math.hypot(p1[1] - p0[1], p1[2] - p0[2])))
        near = ("the pair's nearest found %+.1f ms off" % u["nearest_ms"]
                if u.get("nearest_ms") is not None else "the pair not found near it")
        print("%s %.3f s %d-%d (%s) | %s" % (clips[k], t, u["a"], u["b"], near, " | ".join(parts)))


if __name__ == "__main__":
    main()
