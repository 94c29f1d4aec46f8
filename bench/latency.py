#!/usr/bin/env python3
"""bench/latency.py SUBDIR CLIP_DIR...: how late review writes its calls.

Each CLIP_DIR holds truth.jsonl and SUBDIR/emitted.csv (cueref review
--emit-times: per event line, its time and the media time of the frame
whose processing wrote it). Every candidate event is matched to the truth
event of the same type (fouls: same code) nearest in time, within 0.25 s;
its latency is emitted_at - the truth's time (for rest: when the last ball
truly stopped). A foul line whose confidence (in SUBDIR/events.jsonl) is
below 1 is counted apart, as "CODE (doubtful)": the rules engine judges an
unsure first contact at the shot's end by design, so only the others are
the certain fouls whose latency the issues bound. Prints median / p95 / max
per type, in seconds of media time, so on a live camera the same figures
are seconds of wall time, and how many came within two frame periods of the
truth's moment (the frame rate from each clip's truth session line)."""
import csv
import json
import sys


def pct(v, q):
    v = sorted(v)
    if not v:
        return float('nan')
    k = min(len(v) - 1, max(0, int(round(q * (len(v) - 1)))))
    return v[k]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sub, clips = sys.argv[1], sys.argv[2:]
    lat = {}
    frames = {}
    for c in clips:
        truth = {}
        fps = None
        for line in open(c + '/truth.jsonl'):
            e = json.loads(line)
            if e.get('type') == 'session':
                fps = e.get('fps')
            key = e['type'] + (':' + e['code'] if e['type'] == 'foul' else '')
            if 't' in e and e['t'] is not None:
                truth.setdefault(key, []).append(e['t'])
        doubtful = []
        for line in open(c + '/' + sub + '/events.jsonl'):
            e = json.loads(line)
            if e.get('type') == 'foul' and e.get('confidence', 1.0) < 1.0:
                doubtful.append((e['code'], e['t']))
        for r in csv.DictReader(open(c + '/' + sub + '/emitted.csv')):
            key = r['type'] + (':' + r['code'] if r['type'] == 'foul' else '')
            if r['type'] == 'foul' and any(code == r['code'] and abs(t - float(r['t'])) < 1e-4
                                           for code, t in doubtful):
                key += ' (doubtful)'
            t = float(r['t'])
            cands = truth.get(key.replace(' (doubtful)', ''), [])
            if not cands:
                continue
            best = min(cands, key=lambda x: abs(x - t))
            if abs(best - t) > 0.25:
                continue
            lat.setdefault(key, []).append(float(r['emitted_at']) - best)
            if fps:
                frames.setdefault(key, []).append((float(r['emitted_at']) - best) * fps)
    print('%-34s %6s %8s %8s %8s %10s' % ('event', 'n', 'median', 'p95', 'max', '<=2 frames'))
    for k in sorted(lat):
        v = lat[k]
        f = frames.get(k, [])
        within = '%d/%d' % (sum(1 for x in f if x <= 2.0 + 1e-6), len(f)) if f else '-'
        print('%-34s %6d %8.3f %8.3f %8.3f %10s' % (k, len(v), pct(v, 0.5), pct(v, 0.95), max(v), within))


if __name__ == '__main__':
    main()
