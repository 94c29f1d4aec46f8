#!/usr/bin/env python3
"""bench/lean.py SIM_DIR EVENTS_JSONL: where review measures balls near a cushion.

SIM_DIR holds a film's positions.csv and calib.json (cueref sim); EVENTS_JSONL is
its review with --positions (a `balls` line per frame). Each reported ball (not
hidden) is matched to the nearest true ball within 15 mm in the same frame; its
error along the normal of the true ball's nearest cushion nose (+ toward the
cushion) is binned by the true gap between ball and nose, resting and moving
apart (moving: the true centre moved over 0.05 mm since the frame before).
Prints the median and mean per bin. A lean toward the cushion puts slow cushion
contacts early (README, "Changes since 6b0cb19")."""
import collections
import csv
import json
import math
import statistics
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.splitlines()[0])
    sim, events = sys.argv[1], sys.argv[2]
    calib = json.load(open(sim + "/calib.json"))
    length, width = calib["table"]["length_mm"], calib["table"]["width_mm"]
    r = calib.get("ball_diameter_mm", 57.15) / 2
    truth = collections.defaultdict(dict)
    for row in csv.DictReader(open(sim + "/positions.csv")):
        if row["visible"] == "1":
            truth[round(float(row["t"]), 4)][int(row["id"])] = (float(row["x"]), float(row["y"]))
    bins = [0, 1, 2, 4, 8, 16, 40, 100, 1e9]
    acc = collections.defaultdict(list)
    prev = {}
    for line in open(events):
        e = json.loads(line)
        if e.get("type") != "balls":
            continue
        tb = truth.get(round(e["t"], 4))
        if not tb:
            continue
        for b in e["balls"]:
            if b.get("hidden"):
                continue
            best, bd = None, 15.0
            for i, (x, y) in tb.items():
                d = math.hypot(b["x"] - x, b["y"] - y)
                if d < bd:
                    best, bd = i, d
            if best is None:
                continue
            x, y = tb[best]
            gap, nrm = min([(x - r, (-1, 0)), (length - r - x, (1, 0)), (y - r, (0, -1)), (width - r - y, (0, 1))])
            err = (b["x"] - x) * nrm[0] + (b["y"] - y) * nrm[1]
            p = prev.get(best)
            moving = p is not None and math.hypot(x - p[0], y - p[1]) > 0.05
            k = next(i for i in range(len(bins) - 1) if bins[i] <= gap < bins[i + 1]) if gap >= 0 else 0
            acc[(moving, k)].append(err)
        prev.update(tb)
    for moving in (False, True):
        print("moving" if moving else "resting")
        for k in range(len(bins) - 1):
            v = acc.get((moving, k))
            if v and len(v) >= 5:
                print("  gap %5g-%-5g mm  n %6d  toward the cushion: median %+.3f mm, mean %+.3f" %
                      (bins[k], bins[k + 1], len(v), statistics.median(v), statistics.mean(v)))


if __name__ == "__main__":
    main()
