#!/usr/bin/env python3
"""bench/first_contact_timing.py SUBDIR CLIP_DIR...: how well review times each shot's
first contact, against the timing sigma its doubt is reckoned from.

Each CLIP_DIR holds truth.jsonl, positions.csv (cueref sim) and SUBDIR/events.jsonl
(cueref review). For every shot, the truth's first cue-ball collision is matched to the
review's collision of the same pair nearest in time (within 0.1 s). The error is the
review's time less the truth's. The cue ball's speed is the truth's, from its positions
in the two frames before the contact (contacts under 50 mm/s are left out). The
reconstruction reckons a first contact's timing sigma as 2 x 1.5 mm over that speed (at
least 0.3 ms; first_contact_doubt() in vision/cr_recon.c) and calls two contacts closer
than three of them a doubt. Prints, per call: how many contacts, the absolute error
(median, 95th percentile, max, ms) and the error in those sigmas (median, 95th, 99th
percentile, max): a sigma that describes the errors has its 95th percentile near 2."""
import bisect
import csv
import json
import sys

from latency import pct


def clip_errors(clip, sub):
    truth = [json.loads(line) for line in open(clip + '/truth.jsonl')]
    fps = next(e['fps'] for e in truth if e['type'] == 'session')
    cand = []
    for line in open(clip + '/' + sub + '/events.jsonl'):
        if '"collision"' in line:
            cand.append(json.loads(line))
    cue = {}
    with open(clip + '/positions.csv') as f:
        for r in csv.DictReader(f):
            if r['id'] == '0':
                cue[float(r['t'])] = (float(r['x']), float(r['y']))
    ts = sorted(cue)
    out, shots = [], set()
    for e in truth:
        if e['type'] != 'collision' or 0 not in (e['a'], e['b']) or e['shot'] in shots:
            continue
        shots.add(e['shot'])
        ob = e['b'] if e['a'] == 0 else e['a']
        near = [c for c in cand if {c['a'], c['b']} == {0, ob} and abs(c['t'] - e['t']) < 0.1]
        i = bisect.bisect_left(ts, e['t']) - 1
        if not near or i < 1:
            continue
        (x1, y1), (x0, y0) = cue[ts[i]], cue[ts[i - 1]]
        v = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 * fps
        if v < 50.0:
            continue
        c = min(near, key=lambda c: abs(c['t'] - e['t']))
        out.append((c['t'] - e['t'], max(0.3e-3, 2.0 * 1.5 / v)))
    return out


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    errs = []
    for clip in sys.argv[2:]:
        errs += clip_errors(clip, sys.argv[1])
    ms = [abs(e) * 1e3 for e, _ in errs]
    z = [abs(e) / s for e, s in errs]
    print('first contacts %d: |error| median %.2f ms, p95 %.2f ms, max %.2f ms; in timing sigmas median %.2f, '
          'p95 %.2f, p99 %.2f, max %.2f' % (len(errs), pct(ms, 0.5), pct(ms, 0.95), max(ms, default=float('nan')),
                                           pct(z, 0.5), pct(z, 0.95), pct(z, 0.99), max(z, default=float('nan'))))


if __name__ == '__main__':
    main()
