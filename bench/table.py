#!/usr/bin/env python3
"""bench/table.py LABEL:EVAL_JSON:REVIEW_LOG...: the README's review table, one column per
corpus variant, from what `bench/review.sh` leaves: VARIANT_DIR/eval-<mode><tag>.json and
the text it printed (saved to REVIEW_LOG; its latency table is read from there). Prints
the markdown table on stdout. Example:

  bash bench/review.sh --jobs 2 DIR720 > r720.log
  python3 bench/table.py 720p30:DIR720/eval-calib.json:r720.log
"""
import json
import re
import sys

LATENCY_LINE = re.compile(r'^(\S+(?: \(doubtful\))?)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)(?:\s+(?:\d+/\d+|-))?$')


def ratio(x):
    return '-' if x is None else '%.3f' % x


def latency(log):
    """{event: (n, median, p95, max)} from review.sh's latency table."""
    out = {}
    with open(log) as f:
        for line in f:
            m = LATENCY_LINE.match(line.strip())
            if m:
                out[m.group(1)] = (int(m.group(2)), float(m.group(3)), float(m.group(4)), float(m.group(5)))
    return out


def strokes(d, lat):
    s = d['types']['stroke']
    return '%d of %d, %d false (timing median %.1f ms, max %.0f ms)' % (
        s['tp'], s['truth'], s['fp'], s['timing_ms']['median'], s['timing_ms']['max'])


def first_contact(d, lat):
    f = d['first_contact']
    cc = f['close_calls']
    return '%d of %d (%s; close calls 2–30 ms apart %d of %d)' % (
        f['correct'], f['shots'], ratio(f['accuracy']), cc['correct'], cc['shots'])


def contacts(kind):
    def cell(d, lat):
        o = d['types'][kind]['outside_break']
        return 'P %s, R %s (%d missed of %d, %d of them timed off; %d false), timing median %.1f ms' % (
            ratio(o['precision']), ratio(o['recall']), o['fn'], o['truth'], o['timed_off'], o['fp'],
            o['timing_ms']['median'])
    return cell


def pockets(d, lat):
    p = d['types']['pocket']
    s = d['pockets_by_shot']
    return '%d of %d within 0.25 s, %d false; in their shot at any time %d of %d, %d false' % (
        p['tp'], p['truth'], p['fp'], s['found'], s['truth'], s['false'])


def fouls(d, lat):
    f = d['types']['foul']
    return 'P %s, R %s (%d of %d, %d false)' % (ratio(f['precision']), ratio(f['recall']), f['tp'], f['truth'], f['fp'])


def rulings(d, lat):
    r = d['rulings']
    return "%d of %d (%s); each shot's own outcome %d of %d" % (
        r['agree'], r['compared'], ratio(r['share']), r['outcome'], r['compared'])


def rests(d, lat):
    r = d['types']['rest']
    return '%d of %d, %d false' % (r['tp'], r['truth'], r['fp'])


def positions(kind):
    def cell(d, lat):
        p = d['positions'][kind]
        return 'median %.1f mm, p95 %.1f mm; %s' % (
            p['error_mm']['median'], p['error_mm']['p95'], ratio(p['detection_recall']))
    return cell


def precision(d, lat):
    return ratio(d['positions']['detection_precision'])


def held(d, lat):
    p = d['positions']
    return '%d ball-frames, %d of them where their ball is' % (p['candidate_held'], p['held_near_truth'])


def identity(d, lat):
    p = d['positions']
    return '%s / %s' % (ratio(p['resting']['identity_accuracy']), ratio(p['moving']['identity_accuracy']))


def swaps(d, lat):
    p = d['positions']
    if 'swaps' not in p:
        return '-'
    return '%d (%d frames); %d ball-frames named for another ball' % (p['swaps'], p['swap_frames'], p['misnamed'])


def weak_balls(d, lat):
    out = []
    for b in d['positions']['by_ball']:
        if b['truth_visible'] > 0 and (b['detection_recall'] < 0.99 or b['identity_accuracy'] < 0.99):
            out.append('the %d: recall %s (resting %s), identity %s' % (
                b['id'], ratio(b['detection_recall']), ratio(b['resting_recall']), ratio(b['identity_accuracy'])))
    return '; '.join(out) or 'none'


def placed(d, lat):
    p = d['types']['placed']
    return '%d of %d, %d false' % (p['tp'], p['truth'], p['fp'])


def rest_latency(d, lat):
    return '%.2f / %.2f s' % lat['rest'][1:3] if 'rest' in lat else '-'


def foul_latency(d, lat):
    out = []
    for k in ('foul:cue_ball_scratch', 'foul:wrong_ball_first'):
        if k in lat:
            out.append('%s %.2f / %.2f s (%d)' % (k.split(':')[1], lat[k][1], lat[k][2], lat[k][0]))
    return '; '.join(out) or '-'


# name, cell, the issues' bar
ROWS = [
    ('strokes found', strokes, ''),
    ('first contact right', first_contact, '≥ 98 % at 30 fps, ≥ 99.5 % at 60'),
    ('collisions outside break clusters', contacts('collision'), '≥ 0.99; ≤ 2 ms at 60 fps'),
    ('cushions outside break clusters', contacts('cushion'), '≥ 0.99'),
    ('pockets (right ball and pocket)', pockets, '100 %'),
    ('fouls (all codes)', fouls, '≥ 0.99'),
    ('rulings agree with the truth', rulings, '≥ 99 %'),
    ("`rest` within 0.25 s of the truth's", rests, ''),
    ('resting balls: position error, recall', positions('resting'), '0.7 / 1.5 mm; 99.9 %'),
    ('moving balls: position error, recall', positions('moving'), '2 mm median; 99 %'),
    ('detection precision (share of the balls seen that are near a ball)', precision,
     '≥ 99.9 % resting, 99 % moving; no phantom tracks'),
    ('balls held hidden where last seen (not counted as seen)', held, ''),
    ('identity (resting / moving ball frames)', identity, '≥ 99.5 % resting'),
    ("identity swaps: two balls each named for the other (eval's `swaps`)", swaps, 'none in collisions'),
    ("the balls under 0.99 in recall or identity (eval's `by_ball`)", weak_balls, ''),
    ('the cue ball put down by hand (`placed`)', placed, ''),
    ('latency: `rest` after the last ball stops (median / p95)', rest_latency, '≤ 0.3 s'),
    ('latency: a certain foul, median / p95 (count)', foul_latency, '≤ 2 frames'),
]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    cols = []
    for arg in sys.argv[1:]:
        label, ev, log = arg.rsplit(':', 2)
        with open(ev) as f:
            cols.append((label, json.load(f), latency(log)))
    print('| | ' + ' | '.join(c[0] for c in cols) + ' | bar (issues) |')
    print('|---|' + '---|' * (len(cols) + 1))
    for name, cell, bar in ROWS:
        print('| %s | %s | %s |' % (name, ' | '.join(cell(d, lat) for _, d, lat in cols), bar))


if __name__ == '__main__':
    main()
