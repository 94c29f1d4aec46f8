#!/usr/bin/env python3
"""Writes the bundled example event streams (SPEC §3) for `cueref judge` and
`cueref demo`: a 9-ball match of two racks and an 8-ball rack, as a camera
would report them (lag, breaks, calls, fouls). Run it from this folder; the
output is deterministic."""
import json

L, W, R = 2540.0, 1270.0, 28.575


class Stream:
    def __init__(self, game, source):
        self.lines = [dict(type="session", version=1, source=source, fps=60, width=1920, height=1080,
                           table=dict(length_mm=L, width_mm=W), game=game, rules="wpa2008")]
        self.t = 2.0
        self.shot = 0
        self.pos = {}

    def add(self, **ev):
        self.lines.append(ev)

    def rack(self, slots):
        self.pos = {0: (500.0, 600.0)}
        self.pos.update(slots)

    def balls(self):
        return [dict(id=i, x=round(x, 2), y=round(y, 2)) for i, (x, y) in sorted(self.pos.items())]

    def shot_(self, first=None, cushions=(), pockets=(), moves=None, calls=None, cue=None, off=(), inputs=(),
              moving=(), extra=()):
        """One shot: calls/inputs before it, then stroke, first contact,
        cushions [(ball, rail)], pockets [(ball, pocket)], final moves."""
        if cue:
            self.pos[0] = cue
            self.add(type="placed", t=round(self.t - 2.0, 3), ball=0, x=cue[0], y=cue[1])
        if calls:
            self.add(type="input", t=round(self.t - 1.5, 3), shot=None, kind="call", ball=calls[0], pocket=calls[1])
        for kind, body in inputs:
            self.add(type="input", t=round(self.t - 1.0, 3), shot=None, kind=kind, **body)
        t = self.t
        stroke = dict(type="stroke", t=t, shot=self.shot, balls=self.balls(), moving=list(moving))
        self.add(**stroke)
        tt = t + 0.35
        if first is not None:
            fx, fy = self.pos[first]
            self.add(type="collision", t=round(tt, 4), shot=self.shot, a=0, b=first, x=round(fx - R, 2), y=fy)
            tt += 0.25
        for b, ev in extra:
            ev = dict(ev)
            ev.update(t=round(tt, 4), shot=self.shot)
            self.add(**ev)
            tt += 0.1
        for b, rail in cushions:
            x, y = self.pos.get(b, (1000, 600))
            cx = {"head": R, "foot": L - R}.get(rail, x)
            cy = {"left": R, "right": W - R}.get(rail, y)
            self.add(type="cushion", t=round(tt, 4), shot=self.shot, ball=b, rail=rail, x=round(cx, 2), y=round(cy, 2))
            tt += 0.3
        for b, pocket in pockets:
            self.add(type="pocket", t=round(tt, 4), shot=self.shot, ball=b, pocket=pocket)
            self.pos.pop(b, None)
            tt += 0.2
        for b in off:
            self.add(type="off_table", t=round(tt, 4), shot=self.shot, ball=b)
            self.pos.pop(b, None)
            tt += 0.2
        for b, p in (moves or {}).items():
            self.pos[b] = p
        tt += 1.5
        self.add(type="rest", t=round(tt, 4), shot=self.shot, balls=self.balls())
        self.shot += 1
        self.t = round(tt + 12.0, 3)

    def write(self, path):
        with open(path, "w") as f:
            for ev in self.lines:
                f.write(json.dumps(ev, separators=(",", ":")) + "\n")


def rack9():
    fs = 3 * L / 4
    dx = 3 ** 0.5 * R
    rows = [[1], [2, 3], [4, 9, 5], [6, 7], [8]]
    out = {}
    for r, row in enumerate(rows):
        n = len(row)
        for k, b in enumerate(row):
            out[b] = (fs + r * dx, W / 2 + (2 * k - n + 1) * R)
    return out


def rack15():
    fs = 3 * L / 4
    dx = 3 ** 0.5 * R
    rows = [[1], [9, 2], [10, 8, 3], [11, 4, 12, 5], [6, 13, 14, 7, 15]]
    out = {}
    for r, row in enumerate(rows):
        n = len(row)
        for k, b in enumerate(row):
            out[b] = (fs + r * dx, W / 2 + (2 * k - n + 1) * R)
    return out


def nine_ball():
    s = Stream("9ball", "examples: 9-ball match, two racks")
    # The lag: player 1 lags the cue ball, player 2 the 9.
    s.add(type="input", t=0.5, kind="lag", balls=[0, 9])
    s.add(type="stroke", t=1.0, shot=0, ball=0, balls=[dict(id=0, x=300, y=320), dict(id=9, x=300, y=950)], moving=[])
    s.add(type="stroke", t=1.08, shot=0, ball=9, balls=[dict(id=0, x=310, y=320), dict(id=9, x=300, y=950)], moving=[])
    s.add(type="cushion", t=2.9, shot=0, ball=0, rail="foot", x=L - R, y=330)
    s.add(type="cushion", t=2.95, shot=0, ball=9, rail="foot", x=L - R, y=940)
    s.add(type="rest", t=7.5, shot=0, balls=[dict(id=0, x=71.3, y=338), dict(id=9, x=122.8, y=931)])
    s.shot = 1
    s.t = 20.0
    # Rack 1, player 1 breaks: legal, the 4 goes in.
    s.rack(rack9())
    s.shot_(first=1, cushions=[(6, "foot"), (8, "right"), (2, "left"), (7, "foot")], pockets=[(4, "foot-left")],
            moves={0: (1400, 640), 1: (1700, 300), 2: (1600, 80), 3: (2300, 1000), 5: (1200, 1150), 6: (2400, 500),
                   7: (2350, 900), 8: (900, 1180), 9: (2000, 700)})
    # Player 1: push-out after the break.
    s.shot_(first=None, inputs=[("push_out", {})], moves={0: (1000, 800)})
    # Player 2 plays from the push-out: the 1 into the side.
    s.shot_(first=1, pockets=[(1, "side-left")], moves={0: (1500, 500)})
    # Player 2: the 2 along the rail into the corner.
    s.shot_(first=2, pockets=[(2, "foot-left")], moves={0: (1900, 400)})
    # Player 2 misses the 3: rail, no pocket. Player 1 to shoot.
    s.shot_(first=3, cushions=[(3, "right")], moves={0: (2000, 900), 3: (2250, 1100)})
    # Player 1 hits the 5 first: wrong ball first. Ball in hand for player 2.
    s.shot_(first=5, cushions=[(5, "right")], moves={0: (1300, 1000), 5: (1250, 1230)})
    # Player 2 places the cue ball, pockets the 3, then scratches on the 5.
    s.shot_(first=3, pockets=[(3, "foot-right")], cue=(2100, 900), moves={0: (2200, 950)})
    s.shot_(first=5, pockets=[(5, "side-right"), (0, "side-right")], moves={})
    # Player 1, ball in hand: the 6, then the 7 with no rail (a foul).
    s.shot_(first=6, pockets=[(6, "foot-left")], cue=(2000, 600), moves={0: (2100, 700)})
    s.shot_(first=7, moves={0: (2200, 800), 7: (2300, 880)})
    # Player 2: 7, then a 7-9 combination wins the rack.
    s.shot_(first=7, pockets=[(7, "foot-right")], cue=(2100, 700), moves={0: (2150, 800)})
    s.shot_(first=8, extra=[(8, dict(type="collision", a=8, b=9, x=2000, y=730))], pockets=[(9, "foot-right")],
            moves={0: (1000, 700)})
    # Rack 2, player 2 breaks (alternate break): the 9 on the break wins.
    s.t += 30
    s.rack(rack9())
    s.shot_(first=1, cushions=[(3, "foot"), (5, "left")], pockets=[(9, "foot-left"), (6, "side-right")],
            moves={0: (1300, 600)})
    s.write("match-9ball.jsonl")


def eight_ball():
    s = Stream("8ball", "examples: 8-ball rack with calls")
    s.rack(rack15())
    # Player 1 breaks: the 3 and the 11 go in; the table stays open.
    s.shot_(first=1, cushions=[(6, "foot"), (7, "right"), (13, "left")], pockets=[(3, "foot-left"), (11, "side-right")],
            moves={0: (1200, 600), 1: (1500, 300), 2: (1800, 900), 4: (2200, 200), 5: (1100, 1000), 6: (2450, 400),
                   7: (2300, 1200), 8: (2000, 640), 9: (700, 300), 10: (900, 950), 12: (1650, 150),
                   13: (2100, 80), 14: (1400, 1100), 15: (2350, 800)})
    # Player 1 calls the 2 in the foot-right: made, takes the solids.
    s.shot_(first=2, pockets=[(2, "foot-right")], calls=(2, "foot-right"), moves={0: (1700, 850)})
    # Player 1 calls the 4, misses (rail). Player 2 to shoot.
    s.shot_(first=4, cushions=[(4, "left")], calls=(4, "foot-left"), moves={0: (1900, 400), 4: (2250, 150)})
    # Player 2 (stripes) hits the 5 first: foul, ball in hand to player 1.
    s.shot_(first=5, cushions=[(5, "right")], calls=(12, "side-left"), moves={0: (1000, 900), 5: (1000, 1200)})
    # Player 1 with ball in hand: runs 1, 4, 5, 6, 7.
    s.shot_(first=1, pockets=[(1, "side-left")], calls=(1, "side-left"), cue=(1400, 500), moves={0: (1600, 400)})
    s.shot_(first=4, pockets=[(4, "foot-left")], calls=(4, "foot-left"), moves={0: (1900, 500)})
    s.shot_(first=5, pockets=[(5, "side-right")], calls=(5, "side-right"), moves={0: (1300, 900)})
    s.shot_(first=6, pockets=[(6, "foot-left")], calls=(6, "foot-left"), moves={0: (2100, 700)})
    s.shot_(first=7, pockets=[(7, "foot-right")], calls=(7, "foot-right"), moves={0: (1900, 1000)})
    # Player 1 calls the 8 in the side, and it goes in the corner: loss of the rack.
    s.shot_(first=8, pockets=[(8, "foot-left")], calls=(8, "side-left"), moves={0: (1700, 700)})
    s.write("match-8ball.jsonl")


if __name__ == "__main__":
    nine_ball()
    eight_ball()
