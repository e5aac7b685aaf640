#!/usr/bin/env python3
"""Ray-traced bowling shots with known truth, for measuring Reelwork's bowling analysis on footage it
did not make itself (issue 31).

Shares nothing with Fixtures/BowlingScenes (the project's Swift rasteriser): POV-Ray traces a lane of
39 boards (tones drawn per board, grain, oil that reflects), its markings (foul line, dots, arrows,
range finders), gutters, the next lanes, kickbacks, the pin deck with ten lathe-turned pins, the
masking unit and the lights over the lanes, seen by a phone held behind the approach (height,
offset, zoom, roll and a slight shake drawn from the seed). A ball of a drawn colour (solid or
swirled, with or without finger holes, with a PAP-style marker that circles its spin axis) rolls a
scripted path: straight, hook (skid, breakpoint, hook into the pins) or backup, at 13–22 mph,
slowing down the lane; a bowler walks the approach, swings the ball and releases it, in most shots.

    bowling_scene.py --seed N --out DIR [--width W --height H --fps F] [--no-render]

writes DIR/scene.pov, DIR/frames/*.png, DIR/clip.mp4 (H.264 or HEVC, 4:2:0, the phone's exposure,
white balance, noise and quality drawn from the seed), DIR/options.json (what a user gives: the hand,
the ball's and marker's colours picked from the clip, the lane's edges at the foul line and at the
head pin clicked from the first frame) and DIR/truth.json.

World units are feet; POV-Ray's axes (left-handed): x right as seen from behind the bowler, y up,
z down the lane. The foul line is z = 0, the head pin z = 60, the lane's centre x = 0.

Truth per shot, by DOMAIN's definitions applied to the placed path (sampled every millisecond):
launch speed (least-squares slope of distance over time, 0–15 ft), impact speed (45–60 ft), boards
at the foul line, the arrows (15 ft) and the pins (60 ft), pocket offset, entry angle (least-squares
slope of board over distance, 50–60 ft), the breakpoint (the point farthest toward the outside gutter
with the ball coming back at least a board after it; none for straight and backup balls), strike
probability (seed 000's form), rev rate (the ball's spin about its axis).
"""
import argparse
import colorsys
import glob
import json
import math
import os
import random
import shutil
import subprocess
import sys
import time

from povray_common import Camera, add, mul, norm, phone_encode, pv, run_povray, srgb, sub, widen_to_fit

LANE_W = 41.5 / 12          # 39 boards
GUTTER_W = 9.25 / 12
CAPPING_W = 0.35
LANE_END = 62.86            # the pin deck ends 2 ft 10 3/16 in past the head pin
PINS_FT = 60.0
BOARD_FT = LANE_W / 39
BLUR_COPIES = 5
MPH = 5280 / 3600           # ft/s per mph


def board_x(board):
    """x of a (continuous) board: the right edge (as seen from behind) is board 0.5."""
    return LANE_W / 2 - (board - 0.5) * BOARD_FT


def pocket(hand):
    return 17.5 if hand == "right" else 22.5


# ---------------------------------------------------------------------------------------------
# The ball's path on the lane: board as a function of distance, distance as a function of time.

def lane_path(rng, kind, hand):
    """board(d) for 0 ≤ d ≤ 63 ft, as a right-hander's boards mirrored for a left-hander, and what
    was drawn. Hook: a skid out to the breakpoint and a hook back, each a power of the distance
    from the breakpoint, so the path is smooth there. Backup: the same shape turned the other way
    (it drifts in, then fades toward the outside). Straight: a line to the pins."""
    mirror = (lambda b: b) if hand == "right" else (lambda b: 40.0 - b)
    if kind == "straight":
        b0, p = rng.uniform(9, 26), rng.uniform(13.5, 22)
        shape = lambda d: b0 + (p - b0) * d / PINS_FT
        drawn = {"foulBoard": b0, "pinsBoard": p}
    else:
        D = rng.uniform(30, 48)
        q = rng.uniform(1.7, 2.4)
        if kind == "hook":
            bb = rng.uniform(3, 14)
            b0 = bb + rng.uniform(0.5, 9)
            # The pocket board drawn so the entry angle stays a hook's (about 2–8°).
            slope = math.tan(math.radians(rng.uniform(2.5, 7.5))) / (41.5 / 39 / 12)
            p = min(24.0, bb + slope * (PINS_FT - D) / q)
            s = 1.0
        else:
            bb = rng.uniform(17, 27)
            b0 = bb - rng.uniform(0.5, 6)
            p = bb - rng.uniform(2, 7)
            s = -1.0
        k1 = (b0 - bb) / D ** 2
        k2 = (p - bb) / (PINS_FT - D) ** q
        def shape(d, bb=bb, D=D, q=q, k1=k1, k2=k2):
            if d < D:
                return bb + k1 * (d - D) ** 2
            return bb + k2 * (d - D) ** q
        drawn = {"foulBoard": b0, "turnBoard": bb, "turnDistance": D, "hookPower": q, "pinsBoard": p, "sense": s}
    return (lambda d: mirror(shape(max(0.0, d)))), {k: round(v, 3) for k, v in drawn.items()}


class Roll:
    """The ball's run down the lane: d(t) = d0 + v0·t − a·t²/2 from the release until it drops into
    the pit, board(d) from lane_path (before the foul line the release's line continues)."""

    def __init__(self, board_at, d0, v0, v_pins):
        self.board_at, self.d0, self.v0 = board_at, d0, v0
        self.a = (v0 ** 2 - v_pins ** 2) / (2 * (PINS_FT - d0))

    def distance(self, t):
        t = min(t, self.v0 / self.a) if self.a > 0 else t
        return self.d0 + self.v0 * t - self.a * t * t / 2

    def time_at(self, d):
        # d0 + v0 t − a t²/2 = d, the earlier root.
        disc = self.v0 ** 2 - 2 * self.a * (d - self.d0)
        return (self.v0 - math.sqrt(max(0.0, disc))) / self.a if self.a > 0 else (d - self.d0) / self.v0

    def board(self, d):
        if d >= 0:
            return self.board_at(d)
        # Behind the foul line the ball keeps the line it is released on.
        slope = (self.board_at(1.0) - self.board_at(0.0))
        return self.board_at(0.0) + slope * d


def lsq_slope(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx


def truth_metrics(roll, hand, rev_rpm):
    """DOMAIN's metrics of the placed path, sampled every millisecond of its run to the pins."""
    t_pins = roll.time_at(PINS_FT)
    samples = []
    t = 0.0
    while t <= t_pins + 1e-9:
        d = roll.distance(t)
        samples.append((t, d, roll.board(d)))
        t += 0.001
    launch = [(t, d) for t, d, _ in samples if 0 <= d <= 15]
    impact = [(t, d) for t, d, _ in samples if 45 <= d <= 60]
    entry = [(d, b) for _, d, b in samples if 50 <= d <= 60]
    mph = 3600 / 5280
    slope = lsq_slope([d for d, _ in entry], [b for _, b in entry])
    angle = math.degrees(math.atan(abs(slope) * 41.5 / 39 / 12))
    pins_board = roll.board(PINS_FT)
    # Breakpoint: farthest toward the outside gutter (smallest board for a right-hander), inside
    # the run, with the ball back at least one board after it.
    sign = -1.0 if hand == "right" else 1.0
    run = [(d, b) for _, d, b in samples if 0 <= d <= PINS_FT]
    i = max(range(len(run)), key=lambda k: sign * run[k][1])
    breakpoint = None
    if 0 < i < len(run) - 1:
        came_back = max(sign * (run[i][1] - b) for _, b in run[i:])
        if came_back >= 1.0:
            breakpoint = run[i]
    off = abs(pins_board - pocket(hand))
    strike = min(1.0, max(0.0, 1 - 0.5 * (abs(angle - 6) / 10) ** 2 - 0.5 * (off / 5) ** 2))
    r = lambda v, k=3: None if v is None else round(v, k)
    return {
        "launchSpeed": r(lsq_slope(*zip(*launch)) * mph), "impactSpeed": r(lsq_slope(*zip(*impact)) * mph),
        "foulLineBoard": r(roll.board(0.0)), "arrowBoard": r(roll.board(15.0)),
        "breakpointBoard": r(breakpoint[1] if breakpoint else None), "breakpointDistance": r(breakpoint[0] if breakpoint else None),
        "pocketBoard": r(pins_board), "pocketOffset": r(off), "entryAngle": r(angle), "strikeProbability": r(strike),
        "revRate": r(rev_rpm, 1),
    }


def hermite(p0, v0, p1, v1, T):
    def at(t):
        s = t / T
        h00, h10, h01, h11 = 2 * s**3 - 3 * s**2 + 1, s**3 - 2 * s**2 + s, -2 * s**3 + 3 * s**2, s**3 - s**2
        return tuple(h00 * p0[i] + h10 * T * v0[i] + h01 * p1[i] + h11 * T * v1[i] for i in range(3))
    return at


class Shot:
    """Where the ball's centre and the bowler are at any time of the clip."""

    def __init__(self, rng, hand, kind, radius, with_bowler):
        self.hand, self.kind, self.radius, self.with_bowler = hand, kind, radius, with_bowler
        board_at, self.drawn = lane_path(rng, kind, hand)
        v0 = rng.uniform(13, 22) * MPH
        v_pins = v0 * rng.uniform(0.80, 0.93)
        d0 = rng.uniform(-0.4, 0.6)  # where the ball meets the lane
        self.roll = Roll(board_at, d0, v0, v_pins)
        self.release = rng.uniform(0.75, 1.0) if with_bowler else rng.uniform(0.2, 0.4)
        self.pit = self.release + self.roll.time_at(LANE_END + 0.5)
        self.pins_time = self.release + self.roll.time_at(PINS_FT)
        self.duration = self.pit + rng.uniform(0.2, 0.4)
        side = 1.0 if hand == "right" else -1.0
        release_x = board_x(self.roll.board(d0))
        # The bowler's body is beside the ball (to its left for a right-hander), sliding to a stop
        # just behind the foul line as the ball leaves the hand.
        self.body_x = release_x - side * rng.uniform(0.55, 0.8)
        self.body_z1 = min(-0.6, d0 - 0.9)
        self.body_z0 = self.body_z1 - rng.uniform(6, 9)
        self.swing = rng.uniform(0.55, 0.7)  # backswing to release, seconds
        self.linger = rng.uniform(0.2, 0.5)  # follow-through held before stepping aside
        v = (0.0, 0.0, v0)
        low = (release_x, radius, d0)
        top = (release_x, rng.uniform(3.8, 4.8), self.body_z1 - 1.6)
        self.down = hermite(top, (0.0, 0.0, 0.0), low, v, self.swing)
        self.side = side

    def body_z(self, t):
        """Feet position along the approach: a walk that slows into the slide, then still."""
        s = min(1.0, max(0.0, t / self.release))
        return self.body_z0 + (self.body_z1 - self.body_z0) * (1 - (1 - s) ** 1.6)

    def held(self, t):
        """The ball in the hand before the downswing: in front of the chest, then swung back."""
        z = self.body_z(t)
        start_swing = self.release - self.swing - 0.35
        chest = (self.body_x + self.side * 0.45, 3.6, z + 0.6)
        if t <= start_swing:
            return chest
        s = min(1.0, (t - start_swing) / 0.35)
        top = self.down(0.0)
        return tuple(chest[i] + (top[i] - chest[i]) * (0.5 - 0.5 * math.cos(math.pi * s)) for i in range(3))

    def ball(self, t):
        """The ball's centre at clip time t (None once it is in the pit)."""
        if t >= self.pit:
            return None
        if t < self.release:
            if not self.with_bowler:
                d = self.roll.d0 + self.roll.v0 * (t - self.release)
                return (board_x(self.roll.board(d)), self.radius, d)
            if t < self.release - self.swing:
                return self.held(t)
            return self.down(t - (self.release - self.swing))
        d = self.roll.distance(t - self.release)
        y = self.radius
        if d > LANE_END:
            y -= 4 * (d - LANE_END) ** 2 + 0.5 * (d - LANE_END)  # drops off the deck into the pit
        return (board_x(self.roll.board(d)), y, d)

    def contact(self, t):
        """The point under the ball on the lane (what the analysis maps), while it rolls."""
        if t < self.release or t >= self.pit:
            return None
        d = self.roll.distance(t - self.release)
        return (board_x(self.roll.board(d)), 0.0, d)


# ---------------------------------------------------------------------------------------------
# Camera: a phone behind the approach, framing the lane from the foul line to the pins.

def camera_for(rng, width, height, release_x, side):
    """side: +1 when the ball is released right of the bowler (a right-hander)."""
    back = rng.uniform(12, 20)
    up = rng.uniform(4.0, 6.5)
    # Whoever films stands behind the ball's side of the bowler, or the bowler's legs and body
    # hide the ball for most of its first 15 ft.
    offset = max(-2.5, min(2.5, release_x + side * rng.uniform(0.0, 2.0)))
    location = (offset, up, -back)
    look_z = rng.uniform(25, 40)
    # Aim between the foul line and the pins' tops (angles from the camera), then widen the view
    # until the foul line's ends and the pin deck fit with a margin.
    a_foul = math.atan2(up, back)
    a_pins = math.atan2(up - 1.3, back + LANE_END)
    a_mid = (a_foul + a_pins) / 2 + math.radians(rng.uniform(-1.5, 1.5))
    target = (rng.uniform(-0.4, 0.4), up - math.tan(a_mid) * (back + look_z), look_z)
    roll = rng.uniform(-3, 3)
    keys = [(-LANE_W / 2 - GUTTER_W, 0.0, 0.0), (LANE_W / 2 + GUTTER_W, 0.0, 0.0), (-LANE_W / 2, 0.0, -1.0), (LANE_W / 2, 0.0, -1.0),
            (-LANE_W / 2, 1.4, LANE_END), (LANE_W / 2, 1.4, LANE_END)]
    hfov = widen_to_fit(location, target, roll, 20.0, width, height, keys, (0.05, 0.95, 0.05, 0.95), step=1.04, tries=60)
    # A phone is not always zoomed to the lane: up to about 65° across.
    hfov = min(68.0, hfov * (1 + rng.choice([0.0, 0.0, rng.uniform(0.05, 0.45)])))
    return location, target, roll, hfov


def shaken_cameras(rng, base, frames, width, height):
    """One camera per frame: held by hand, a slow sway of a few hundredths of a degree and
    a few tenths of an inch (a tripod: none)."""
    location, target, roll, hfov = base
    amp = rng.choice([0.0, 0.0, rng.uniform(0.01, 0.05)])  # degrees
    phases = [rng.uniform(0, 2 * math.pi) for _ in range(6)]
    freqs = [rng.uniform(0.3, 1.5) for _ in range(6)]
    dist = math.dist(location, target)
    cams = []
    for f in range(frames):
        t = f / 30.0
        w = [math.sin(2 * math.pi * freqs[k] * t + phases[k]) for k in range(6)]
        yaw, pitch = math.radians(amp * w[0]), math.radians(amp * w[1])
        tgt = add(target, (dist * math.tan(yaw), dist * math.tan(pitch), 0.0))
        loc = add(location, mul((w[3], w[4], w[5]), amp * 0.3))
        cams.append(Camera(loc, tgt, roll + amp * w[2], hfov, width, height))
    return cams, amp


# ---------------------------------------------------------------------------------------------
# The scene.

WOODS = [  # (light board, dark board): maple, pine, honey, pale synthetic, dark stain
    ((0.86, 0.70, 0.48), (0.74, 0.55, 0.34)), ((0.90, 0.78, 0.58), (0.80, 0.64, 0.42)),
    ((0.78, 0.56, 0.32), (0.64, 0.42, 0.22)), ((0.92, 0.86, 0.74), (0.82, 0.74, 0.60)),
    ((0.62, 0.44, 0.28), (0.50, 0.34, 0.20)),
]
BALLS = [  # sRGB, not too close to the wood's hue (a ball the lane's colour cannot be tracked by colour)
    (0.10, 0.25, 0.80), (0.05, 0.12, 0.50), (0.45, 0.12, 0.65), (0.75, 0.08, 0.12), (0.10, 0.55, 0.25),
    (0.05, 0.55, 0.60), (0.85, 0.20, 0.55), (0.30, 0.10, 0.45), (0.15, 0.40, 0.85), (0.60, 0.05, 0.30),
]
MARKERS = [(0.95, 0.85, 0.10), (0.10, 0.85, 0.20), (0.95, 0.45, 0.05), (0.10, 0.80, 0.95), (0.95, 0.15, 0.85)]


def hue(rgb):
    return colorsys.rgb_to_hsv(*rgb)[0] * 360


def hue_gap(a, b):
    d = abs(a - b) % 360
    return min(d, 360 - d)


def lane_texture(rng, wood, grain=True):
    light, dark = wood
    entries = []
    for i in range(39):
        m = rng.random()
        c = tuple(light[k] + (dark[k] - light[k]) * m for k in range(3))
        entries.append("[%.5f %s] [%.5f %s]" % (i / 39, srgb(c), (i + 1) / 39, srgb(c)))
    oil = rng.uniform(0.02, 0.14) if grain else 0.0
    # The grain layer and the oil's reflection only on the lane filmed: they cost a third of the
    # render, and the next lanes are only background.
    layer = ("texture { pigment { granite scale <0.04,1,2.5> color_map { [0 srgbt <0.35,0.22,0.1,0.8>] [0.5 srgbt <1,1,1,1>] [1 srgbt <1,1,1,1>] } } }\n"
             if grain else "")
    return ("texture { pigment { gradient x color_map { %s } scale <%.5f,1,1> translate <%.5f,0,0> }"
            " finish { specular 0.35 roughness 0.015 reflection %.3f diffuse 0.75 } }\n%s"
            % (" ".join(entries), LANE_W, -LANE_W / 2, oil, layer)), oil


def lane_pov(rng, wood, x0):
    """One lane centred at x0 (the next lanes: without markings, grain or oil)."""
    tex, _ = lane_texture(rng, wood, grain=x0 == 0.0)
    return "box { <%.4f,-0.05,0>, <%.4f,0,%.3f> %s }\n" % (x0 - LANE_W / 2, x0 + LANE_W / 2, LANE_END, tex)


def markings_pov(rng):
    L = []
    ink = rng.choice([(0.08, 0.06, 0.05), (0.45, 0.10, 0.08), (0.05, 0.08, 0.35)])
    # The foul line: a dark band across the lane, 3/8 in.
    L.append("box { <%.4f,0,-0.016>, <%.4f,0.002,0.016> pigment { srgb 0.05 } }\n" % (-LANE_W / 2 - GUTTER_W, LANE_W / 2 + GUTTER_W))
    # Guide dots at 7 ft on boards 3, 5, 8, 11, 14 from each edge.
    for b in (3, 5, 8, 11, 14, 26, 29, 32, 35, 37):
        L.append("cylinder { <%.4f,0,7>, <%.4f,0.002,7>, 0.03 pigment { %s } }\n" % (board_x(b), board_x(b), srgb(ink)))
    # Arrows on boards 5…35, the middle one farthest out (about 12–16 ft, as on a real lane; the
    # analysis takes the arrows' distance as 15 ft, DOMAIN).
    for b in (5, 10, 15, 20, 25, 30, 35):
        tip = 16.0 - abs(b - 20) / 5 * 1.0
        x = board_x(b)
        L.append("prism { linear_sweep linear_spline 0, 0.002, 4, <%.4f,%.3f>, <%.4f,%.3f>, <%.4f,%.3f>, <%.4f,%.3f> pigment { %s } }\n"
                 % (x - BOARD_FT * 0.45, tip - 0.9, x + BOARD_FT * 0.45, tip - 0.9, x, tip, x - BOARD_FT * 0.45, tip - 0.9, srgb(ink)))
    # Range finders: two-board lines at 34–40 ft on boards 10 and 30.
    for b in (10, 30):
        L.append("box { <%.4f,0,34>, <%.4f,0.002,40> pigment { %s } }\n" % (board_x(b) - BOARD_FT * 0.25, board_x(b) + BOARD_FT * 0.25, srgb(ink)))
    # Approach dots at 12 and 15 ft behind the foul line.
    for z in (-12, -15):
        for b in (3, 5, 8, 11, 14, 20, 26, 29, 32, 35, 37):
            L.append("cylinder { <%.4f,0,%d>, <%.4f,0.002,%d>, 0.04 pigment { %s } }\n" % (board_x(b), z, board_x(b), z, srgb(ink)))
    return "".join(L)


PIN_PROFILE = [(0.0, 0.0), (0.084, 0.0), (0.15, 0.12), (0.199, 0.375), (0.175, 0.6), (0.105, 0.78), (0.075, 0.875),
               (0.092, 1.0), (0.105, 1.1), (0.085, 1.2), (0.03, 1.245), (0.0, 1.25)]


def pin_spots():
    spots = []
    for row in range(4):
        for j in range(row + 1):
            spots.append(((j - row / 2) * 1.0, PINS_FT + row * 0.866))
    return spots


def pin_motion(rng, shot, frames, fps):
    """Per frame and pin: (tilt °, heading °, dx, dz). Pins near the ball's line go down as it
    arrives; the rest follow a little later in most shots, or stand (a ball far off the pocket)."""
    spots = pin_spots()
    x_at = lambda d: board_x(shot.roll.board(d))
    off = abs(shot.roll.board(PINS_FT) - pocket(shot.hand))
    plan = []
    for (px, pz) in spots:
        arrive = shot.release + shot.roll.time_at(min(pz, LANE_END))
        near = abs(x_at(pz) - px) < 0.65
        if near:
            plan.append((arrive, rng.uniform(0, 360), rng.uniform(0.6, 1.6)))
        elif rng.random() < (0.85 if off < 3 else 0.4):
            plan.append((arrive + rng.uniform(0.08, 0.45), rng.uniform(0, 360), rng.uniform(0.4, 1.8)))
        else:
            plan.append(None)
    out = []
    for f in range(frames):
        t = f / fps
        row = []
        for p in plan:
            if p is None or t < p[0]:
                row.append((0.0, 0.0, 0.0, 0.0))
                continue
            s = min(1.0, (t - p[0]) / 0.25)
            h = math.radians(p[1])
            slide = p[2] * min(1.0, (t - p[0]) / 0.5)
            row.append((85 * s, p[1], slide * math.sin(h), abs(slide * math.cos(h)) + 0.3 * s))
        out.append(row)
    return out


def bowler_pov(rng, shot, fps, frames, data):
    """A bowler built of cylinders and spheres: walks the approach, the arm follows the ball until
    the release, then a follow-through; stays at the line."""
    skin = rng.choice([(0.95, 0.8, 0.65), (0.75, 0.55, 0.4), (0.45, 0.3, 0.2), (0.3, 0.2, 0.15)])
    shirt = rng.choice([(0.1, 0.2, 0.7), (0.9, 0.9, 0.9), (0.1, 0.1, 0.1), (0.7, 0.1, 0.1), (0.2, 0.6, 0.3), (0.95, 0.8, 0.2), (0.5, 0.5, 0.55)])
    pants = rng.choice([(0.1, 0.1, 0.12), (0.2, 0.22, 0.35), (0.5, 0.45, 0.4), (0.08, 0.08, 0.08)])
    for f in range(frames):
        t = f / fps
        z = shot.body_z(t)
        hand = shot.ball(t) if t < shot.release else None
        if hand is None:
            follow = min(1.0, (t - shot.release) / 0.3) if t >= shot.release else 0.0
            hand = (shot.body_x + shot.side * 0.5, 1.0 + 4.2 * follow, z + 0.8 + 0.6 * follow)
        # Step phase for the legs while walking.
        walk = math.sin(2 * math.pi * 1.8 * t) * (0.7 if t < shot.release or t > shot.release + shot.linger else 0.0)
        lean = 0.5 if t >= shot.release - 0.3 else 0.15
        # After the follow-through the bowler steps off to the non-ball side, as many do to
        # watch the ball; a bowler who stayed would hide the far lane from most phones.
        aside = min(1.0, max(0.0, (t - shot.release - shot.linger) / 0.9))
        shift = -shot.side * 2.6 * (aside * aside * (3 - 2 * aside))
        data[f].append("#declare Bow = array[7] {%.3f, %.3f, %.3f, %.3f, %.3f, %.3f, %.3f};\n" % (z, walk, lean, hand[0] + shift, hand[1], hand[2], shift))
    return """#declare BX = %.3f;
#declare BS = %.2f;
#declare P = <BX + Bow[6], 0, Bow[0]>;
union {
  cylinder { P + <-0.25,0,Bow[1]*0.9>, P + <-0.2,2.9,Bow[2]*0.3>, 0.2 pigment { %s } }
  cylinder { P + <0.25,0,-Bow[1]*0.9+Bow[2]*-1.2>, P + <0.2,2.9,Bow[2]*0.3>, 0.2 pigment { %s } }
  cylinder { P + <0,2.8,Bow[2]*0.3>, P + <0,4.9,Bow[2]*1.4>, 0.5 pigment { %s } }
  sphere { P + <0,5.5,Bow[2]*1.7>, 0.38 pigment { %s } }
  cylinder { P + <BS*0.55,4.7,Bow[2]*1.3>, <Bow[3],Bow[4]+0.25,Bow[5]>, 0.12 pigment { %s } }
  cylinder { P + <-BS*0.55,4.7,Bow[2]*1.3>, P + <-BS*1.3,3.6,Bow[2]*1.3+0.6>, 0.12 pigment { %s } }
}
""" % (shot.body_x, shot.side, srgb(pants), srgb(pants), srgb(shirt), srgb(skin), srgb(skin), srgb(skin))


def lighting(rng):
    dim = rng.random() < 0.3
    k = rng.uniform(0.35, 0.65) if dim else rng.uniform(0.8, 1.25)
    cast = (rng.uniform(-0.15, 0.15), rng.uniform(-0.08, 0.08))  # warm/cool, green/magenta
    colour = lambda s: (s * k * (1 + cast[0]), s * k * (1 + cast[1]), s * k * (1 - cast[0]))
    lamps = []
    # Rows of fittings over the lanes, some brighter than others (uneven): one over the settees
    # behind the approach (it lights the side of the ball the camera sees), the rest down the lane.
    # The fittings behind the approach run across many lanes: one each side, so no side of the
    # ball is left to the ambient light alone.
    for z in (-18.0, 15.0, 38.0, 55.0):
        if rng.random() < 0.4 or z != 38.0:
            xs = (rng.uniform(-7, -2), rng.uniform(2, 7)) if z < 0 else (rng.uniform(-4, 4),)
            for x in xs:
                lamps.append(((x, rng.uniform(8.5, 10.5), z + rng.uniform(-3, 3)),
                              colour(rng.uniform(0.3, 0.5) if z < 0 else rng.uniform(0.25, 0.55))))
    # A bowling centre's light-coloured walls and many fittings: much of the light is diffuse.
    a = rng.uniform(0.35, 0.6) * k
    return {"lamps": lamps, "ambient": (a, a, a), "dim": dim, "cast": [round(c, 3) for c in cast], "level": round(k, 3)}


def ball_pov(rng, radius, colour, marker, holes, swirl):
    """The ball at the origin, its marker cap at +z (turned by the caller onto the spin axis's
    circle); finger holes as dark dents."""
    cap = lambda centre, r, pig: ("intersection { sphere { %s, %.4f } sphere { 0, %.5f } pigment { %s } }"
                                  % (pv(centre), r, radius * 1.003, pig))
    body = "pigment { %s }" % srgb(colour)
    if swirl:
        second = tuple(min(1.0, c * 1.6 + 0.08) for c in colour)
        body = "pigment { marble turbulence 1.2 scale 0.15 color_map { [0 %s] [0.6 %s] [1 %s] } }" % (srgb(colour), srgb(colour), srgb(second))
    parts = ["sphere { 0, %.5f %s finish { specular 0.6 roughness 0.01 reflection 0.04 } }" % (radius, body)]
    parts.append(cap((0.0, 0.0, radius), 0.2 * radius, srgb(marker)))
    if holes:
        for (a, b) in ((0.0, 0.0), (0.35, 0.12), (0.35, -0.12)):
            c = (radius * math.sin(a + 1.6) * math.cos(b), radius * math.sin(b), radius * math.cos(a + 1.6))
            parts.append("sphere { %s, %.4f pigment { srgb 0.03 } }" % (pv(c), 0.09 * radius))
    return "union {\n  " + "\n  ".join(parts) + "\n}\n"


def spin_frame(camera_location, ball_at, rng):
    """The spin axis (unit vector) and the marker's start: the axis mostly along the ball's travel
    (axis rotation 65–90°) and tilted up to 15°, so the marker, 40–60° from the pole that faces
    the camera, circles the ball's centre as the camera sees it."""
    rot = math.radians(rng.uniform(65, 90))
    tilt = math.radians(rng.uniform(0, 15))
    lateral = rng.choice([-1, 1])
    axis = norm((lateral * math.cos(rot) * math.cos(tilt), math.sin(tilt), -math.sin(rot) * math.cos(tilt)))
    # The pole facing the camera (from the ball near the foul line).
    to_cam = norm(sub(camera_location, ball_at))
    if sum(a * b for a, b in zip(axis, to_cam)) < 0:
        axis = mul(axis, -1)
    polar = rng.uniform(40, 60)
    return axis, polar


def scene_pov(rng, shot, cams, fps, frames, light, look, pins, data_dir):
    """The scene, and per frame the declarations that change (for data_dir/NNNNN.inc)."""
    data = [[] for _ in range(frames)]
    L = []
    w = L.append
    w("// bowling shot, written by tools/povray/bowling_scene.py\n#version 3.7;\n#include \"transforms.inc\"\n")
    w("global_settings { assumed_gamma 1.0 ambient_light srgb <%.3f,%.3f,%.3f> max_trace_level 3 }\n" % light["ambient"])
    # Light bounced off walls and ceilings (no radiosity: its cost), as a fill every surface gets.
    w("#default { finish { ambient 0.25 diffuse 0.7 } }\n")
    # What changes from frame to frame is in OUT/data/NNNNN.inc, so each frame parses only its own.
    w("#include concat(\"%s/\", str(frame_number, -5, 0), \".inc\")\n" % data_dir)
    for f, c in enumerate(cams):
        data[f].append("#declare Cam = array[4] {%s, %s, %s, %s};\n" % (pv(c.location), pv(mul(c.f, c.dlen)), pv(mul(c.r, c.aspect)), pv(c.u)))
    w("camera { perspective location Cam[0] direction Cam[1] right Cam[2] up Cam[3] }\n")
    for (pos, colour) in light["lamps"]:
        w("light_source { %s %s fade_distance 14 fade_power 1 }\n" % (pv(pos), srgb(colour)))
    wood = look["wood"]
    # The lane, its neighbours, the approach (one wood, lighter), gutters, cappings, kickbacks.
    w(lane_pov(rng, wood, 0.0))
    pitch = LANE_W + 2 * GUTTER_W + CAPPING_W
    for k in (-2, -1, 1, 2):
        w(lane_pov(rng, wood, k * pitch))
    approach = tuple(min(1.0, c * 1.08) for c in wood[0])
    w("box { <%.3f,-0.05,-22>, <%.3f,0,0> pigment { %s } finish { specular 0.2 roughness 0.03 } }\n" % (-3 * pitch, 3 * pitch, srgb(approach)))
    gutter = look["gutter"]
    for k in range(-2, 3):
        cx = k * pitch
        for s in (-1, 1):
            g0 = cx + s * LANE_W / 2
            g1 = cx + s * (LANE_W / 2 + GUTTER_W)
            w("difference { box { <%.4f,-0.3,0>, <%.4f,0,%.3f> } cylinder { <%.4f,0.05,-1>, <%.4f,0.05,%.3f>, %.4f }"
              " pigment { %s } finish { specular 0.3 metallic } }\n"
              % (min(g0, g1), max(g0, g1), LANE_END, (g0 + g1) / 2, (g0 + g1) / 2, LANE_END + 1, GUTTER_W / 2 + 0.02, srgb(gutter)))
        cap_x = cx + LANE_W / 2 + GUTTER_W
        w("box { <%.4f,-0.05,0>, <%.4f,0.06,%.3f> pigment { %s } }\n" % (cap_x, cap_x + CAPPING_W, LANE_END, srgb(look["capping"])))
    for s in (-1, 1):
        kx = s * (LANE_W / 2 + GUTTER_W)
        w("box { <%.4f,0,%.2f>, <%.4f,2.2,%.2f> pigment { %s } }\n" % (kx, PINS_FT - 1, kx + s * 0.25, LANE_END + 2, srgb(look["kickback"])))
    w(markings_pov(rng))
    # The pit, the masking unit over it, the ceiling and the far wall.
    w("box { <-30,-3,%.3f>, <30,0,%.3f> pigment { srgb 0.02 } }\n" % (LANE_END, LANE_END + 4))
    w("box { <-30,2.6,%.3f>, <30,9,%.3f> pigment { %s } finish { diffuse 0.9 } }\n" % (LANE_END + 0.2, LANE_END + 0.6, srgb(look["masking"])))
    w("box { <-30,0,%.3f>, <30,2.6,%.3f> pigment { srgb 0.03 } }\n" % (LANE_END + 2.5, LANE_END + 3))
    w("plane { y, 11 pigment { srgb %.2f } }\n" % rng.uniform(0.05, 0.25))
    w("plane { z, -30 pigment { srgb 0.3 } }\n")
    # Pins: lathe-turned, white with two red neck stripes; per frame, tipped and slid by the ball.
    prof = ", ".join("<%.3f,%.3f>" % p for p in PIN_PROFILE)
    w("#declare Pin = lathe { linear_spline %d, %s pigment { gradient y color_map { [0 srgb 0.93] [0.68 srgb 0.93] [0.68 srgb <0.8,0.05,0.05>]"
      " [0.71 srgb <0.8,0.05,0.05>] [0.71 srgb 0.93] [0.74 srgb 0.93] [0.74 srgb <0.8,0.05,0.05>] [0.77 srgb <0.8,0.05,0.05>] [0.77 srgb 0.93] [1 srgb 0.93] }"
      " scale 1.25 } finish { specular 0.5 roughness 0.02 } }\n" % (len(PIN_PROFILE), prof))
    for f, row in enumerate(pins):
        data[f].append("#declare PinMove = array[10][4] {%s};\n" % ", ".join("{%.1f,%.1f,%.3f,%.3f}" % m for m in row))
    for i, (px, pz) in enumerate(pin_spots()):
        m = "PinMove[%d]" % i
        w("object { Pin rotate <%s[0],0,0> rotate <0,%s[1],0> translate <%.3f + %s[2], 0, %.3f + %s[3]> }\n" % (m, m, px, m, pz, m))
    # The ball: spun about its axis, smeared over the exposure when motion blur is on.
    w("#declare Ball = %s" % look["ballPov"])
    blur = look["blurCopies"]
    for f in range(frames):
        t = f / fps
        subs = []
        for k in range(blur):
            tk = t + (look["shutter"] / fps * (k / (blur - 1) - 0.5) if blur > 1 else 0.0)
            p = shot.ball(tk)
            angle = 360.0 * look["revRate"] / 60.0 * tk
            subs.append((p if p else (0.0, -100.0, 0.0), angle))
        data[f].append("#declare BallAt = array[%d][2] {%s};\n" % (blur, ", ".join("{%s, <%.2f,0,0>}" % (pv(p), a) for p, a in subs)))
    ax = look["axis"]
    # The marker starts on the circle `polar` degrees from the axis's pole.
    w("#declare Axis = %s;\n#declare Polar = %.2f;\n" % (pv(ax), look["polar"]))
    w("#declare Orient = transform { Reorient_Trans(z, vaxis_rotate(Axis, vnormalize(vcross(Axis, y)), Polar)) };\n")
    if blur == 1:
        w("object { Ball transform Orient Axis_Rotate_Trans(Axis, BallAt[0][1].x) translate BallAt[0][0] }\n")
    else:
        w("#for (K, 0, %d)\n  object { Ball transform Orient Axis_Rotate_Trans(Axis, BallAt[K][1].x) translate BallAt[K][0] no_shadow }\n#end\n" % (blur - 1))
        w("sphere { BallAt[%d][0], %.4f no_image pigment { rgb 0 } }\n" % (blur // 2, 0.9 * shot.radius))
    if shot.with_bowler:
        w(bowler_pov(rng, shot, fps, frames, data))
    return "".join(L), ["".join(d) for d in data]


def build(seed, data_dir, width=None, height=None, fps=None):
    rng = random.Random(seed)
    if width is None:
        # Ray tracing costs by the pixel: 720p most (the phone), smaller sizes too.
        width, height = rng.choice([(640, 360), (640, 360), (854, 480), (960, 540), (1280, 720)])
    if fps is None:
        fps = rng.choice([24, 25, 30, 30, 30, 60] if width < 854 else [24, 30, 30, 30])
    hand = "right" if rng.random() < 0.75 else "left"
    kind = rng.choices(["hook", "straight", "backup"], [6, 3, 1])[0]
    radius = rng.uniform(4.2, 4.3) / 12  # regulation: 8.5 in across at most, a little less allowed
    with_bowler = rng.random() < 0.7
    shot = Shot(rng, hand, kind, radius, with_bowler)
    frames = int(math.ceil(shot.duration * fps))
    base = camera_for(rng, width, height, board_x(shot.roll.board(shot.roll.d0)), shot.side)
    cams, shake = shaken_cameras(rng, base, frames, width, height)
    light = lighting(rng)
    colour = rng.choice(BALLS)
    marker = rng.choice([m for m in MARKERS if hue_gap(hue(m), hue(colour)) > 60])
    axis, polar = spin_frame(cams[0].location, shot.ball(shot.release), rng)
    rev = rng.uniform(230, 480)
    holes, swirl = rng.random() < 0.5, rng.random() < 0.35
    blur = rng.choice([1, 1, BLUR_COPIES])
    look = {"wood": rng.choice(WOODS), "gutter": rng.choice([(0.15, 0.15, 0.17), (0.55, 0.55, 0.6), (0.1, 0.1, 0.3)]),
            "capping": rng.choice([(0.1, 0.1, 0.12), (0.6, 0.6, 0.62), (0.7, 0.1, 0.1)]),
            "kickback": rng.choice([(0.1, 0.1, 0.12), (0.15, 0.2, 0.5), (0.5, 0.1, 0.1)]),
            "masking": rng.choice([(0.1, 0.15, 0.5), (0.6, 0.1, 0.4), (0.05, 0.05, 0.06), (0.2, 0.5, 0.6)]),
            "ballPov": ball_pov(rng, radius, colour, marker, holes, swirl), "blurCopies": blur,
            "shutter": rng.uniform(0.3, 0.7), "revRate": rev, "axis": axis, "polar": polar}
    pins = pin_motion(rng, shot, frames, fps)
    pov, data = scene_pov(rng, shot, cams, fps, frames, light, look, pins, data_dir)
    truth_shot = truth_metrics(shot.roll, hand, rev)
    truth_shot.update({"kind": kind, "releaseTime": round(shot.release, 3), "pinsTime": round(shot.pins_time, 3),
                       "pitTime": round(shot.pit, 3), "releaseDistanceFt": round(shot.roll.d0, 3), "path": shot.drawn})
    # Where the contact point is in the image at each frame (for the pictures and for looking at
    # what the analysis saw), with that frame's (shaken) camera.
    pts = []
    for f in range(frames):
        c = shot.contact(f / fps)
        q = cams[f].project(c) if c else None
        if q:
            pts.append([round(f / fps, 3), round(q[0], 1), round(q[1], 1), round(c[2], 2)])
    truth_shot["pathPx"] = pts
    # The lane's edges as a person clicks them on the first frame: at the foul line and at the
    # head pin's line (the lane points calibration).
    cam0 = cams[0]
    click = lambda board, d: [round(v, 1) for v in cam0.project((board_x(board), 0.0, d))]
    lane_points = {"foulLineLeft": click(39.5, 0.0), "foulLineRight": click(0.5, 0.0),
                   "farLeft": click(39.5, PINS_FT), "farRight": click(0.5, PINS_FT), "farDistanceFt": PINS_FT}
    encode = {"codec": rng.choice(["libx264", "libx264", "libx265"]), "crf": rng.randint(18, 28),
              "noise": rng.choice([0, 0, 2, 4, 7]), "exposure": round(rng.uniform(0.33, 0.5), 3)}
    meta = {"generator": "tools/povray/bowling_scene.py", "seed": seed, "width": width, "height": height, "fps": fps,
            "frames": frames, "seconds": round(frames / fps, 3), "hand": hand, "bowler": with_bowler,
            "camera": cam0.as_json(), "shakeDeg": round(shake, 3), "light": {k: v for k, v in light.items() if k != "lamps"},
            "lampCount": len(light["lamps"]), "ball": {"radiusIn": round(radius * 12, 3), "colour": colour, "marker": marker,
                                                     "holes": holes, "swirl": swirl, "blurCopies": blur,
                                                     "axis": [round(a, 3) for a in axis], "markerPolarDeg": round(polar, 1)},
            "lanePoints": lane_points, "encode": encode, "shots": [truth_shot]}
    return pov, data, meta, shot, cams


# ---------------------------------------------------------------------------------------------
# Encoding like a phone, and the options a user gives.

def frame_rgb(path, frame, width, height, source_fps=None):
    """Frame `frame` of a clip (or a PNG when source_fps is None) as rgb24 bytes."""
    if source_fps is None:
        cmd = ["ffmpeg", "-nostdin", "-loglevel", "error", "-i", path]
    else:
        cmd = ["ffmpeg", "-nostdin", "-loglevel", "error", "-i", path, "-vf", "select=eq(n\\,%d)" % frame, "-frames:v", "1"]
    p = subprocess.run(cmd + ["-f", "rawvideo", "-pix_fmt", "rgb24", "-"], capture_output=True, check=True)
    return p.stdout


def disc_hsv(rgb, width, height, cx, cy, r):
    """The median colour (as the analysis's HSV: hue 0–360, s and v 0–100) of the pixels within r
    of (cx, cy), the hue's median taken around the circle's mean so a red does not split."""
    pix = []
    for y in range(max(0, int(cy - r)), min(height, int(cy + r) + 2)):
        for x in range(max(0, int(cx - r)), min(width, int(cx + r) + 2)):
            if (x - cx) ** 2 + (y - cy) ** 2 <= r * r:
                k = 3 * (y * width + x)
                pix.append(colorsys.rgb_to_hsv(rgb[k] / 255, rgb[k + 1] / 255, rgb[k + 2] / 255))
    if not pix:
        return None
    sx = sum(math.cos(2 * math.pi * h) * s for h, s, _ in pix)
    sy = sum(math.sin(2 * math.pi * h) * s for h, s, _ in pix)
    centre = math.degrees(math.atan2(sy, sx)) % 360
    rel = sorted(((h * 360 - centre + 180) % 360) - 180 for h, _, _ in pix)
    med = lambda v: sorted(v)[len(v) // 2]
    return {"h": round((centre + rel[len(rel) // 2]) % 360, 1), "s": round(100 * med([s for _, s, _ in pix]), 1),
            "v": round(100 * med([v for _, _, v in pix]), 1)}


def pick_colours(out, meta, shot, cams):
    """The ball's and the marker's colours as a person picks them from the clip: the ball's median
    colour over most of its disc at the nearest of a few spots 2–20 ft down the lane where it shows
    its own hue (not hidden by the bowler), the marker's where it is brightest. From the decoded
    frames, so exposure, white balance and compression are in it."""
    fps, width, height = meta["fps"], meta["width"], meta["height"]
    clip = os.path.join(out, "clip.mp4")
    ball_hue, marker_hue = hue(meta["ball"]["colour"]), hue(meta["ball"]["marker"])
    best_ball, best_marker = None, None
    for d in (2.0, 4.0, 6.0, 9.0, 12.0, 16.0, 20.0):
        if d < shot.roll.d0 + 1:
            continue
        f = int(round((shot.release + shot.roll.time_at(d)) * fps))
        cam, t = cams[f], f / fps
        rgb = frame_rgb(clip, f, width, height, fps)
        centre = shot.ball(t)
        c = cam.project(centre)
        edge = cam.project(add(centre, mul(cam.r, shot.radius)))
        r = math.hypot(edge[0] - c[0], edge[1] - c[1])
        if r < 3:
            continue
        ball = disc_hsv(rgb, width, height, c[0], c[1], 0.7 * r)
        if ball and hue_gap(ball["h"], ball_hue) < 30 and best_ball is None:
            best_ball = (None, ball, d)
        # The marker: the most saturated patch of its hue inside the ball.
        spot = None
        for dy in range(-int(r), int(r) + 1):
            for dx in range(-int(r), int(r) + 1):
                x, y = int(c[0] + dx), int(c[1] + dy)
                if dx * dx + dy * dy > (0.85 * r) ** 2 or not (0 <= x < width and 0 <= y < height):
                    continue
                k = 3 * (y * width + x)
                h, sat, v = colorsys.rgb_to_hsv(rgb[k] / 255, rgb[k + 1] / 255, rgb[k + 2] / 255)
                if hue_gap(h * 360, marker_hue) < 30 and (spot is None or sat * v > spot[0]):
                    spot = (sat * v, x, y)
        if spot:
            marker = disc_hsv(rgb, width, height, spot[1], spot[2], max(1.0, 0.12 * r))
            if marker and (best_marker is None or marker["s"] * marker["v"] > best_marker[0]):
                best_marker = (marker["s"] * marker["v"], marker, d)
    meta["colourPick"] = {"ballAtFt": best_ball and best_ball[2], "markerAtFt": best_marker and best_marker[2]}
    return (best_ball[1] if best_ball else None), (best_marker[1] if best_marker else None)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--width", type=int)
    ap.add_argument("--height", type=int)
    ap.add_argument("--fps", type=int)
    ap.add_argument("--antialias", type=float, help="POV-Ray +A threshold (default: none; the phone's encoder softens edges anyway)")
    ap.add_argument("--frames", help="render only FIRST-LAST (to look at a scene)")
    ap.add_argument("--no-render", action="store_true", help="write scene.pov and truth.json only")
    ap.add_argument("--encode-only", action="store_true", help="encode the frames already in OUT/frames again, and pick the colours")
    args = ap.parse_args()
    if (args.width is None) != (args.height is None):
        sys.exit("bowling_scene.py: give --width and --height together")

    os.makedirs(args.out, exist_ok=True)
    data_dir = os.path.abspath(os.path.join(args.out, "data"))
    pov, data, meta, shot, cams = build(args.seed, data_dir, args.width, args.height, args.fps)
    pov_path = os.path.join(args.out, "scene.pov")
    with open(pov_path, "w") as f:
        f.write(pov)
    shutil.rmtree(data_dir, ignore_errors=True)
    os.makedirs(data_dir)
    for i, text in enumerate(data):
        with open(os.path.join(data_dir, "%05d.inc" % i), "w") as f:
            f.write(text)
    frames_dir = os.path.join(args.out, "frames")
    if args.frames:
        first, last = (int(v) for v in args.frames.split("-"))
        os.makedirs(frames_dir, exist_ok=True)
        run_povray(pov_path, os.path.join(frames_dir, "look.png"), meta["width"], meta["height"], args.antialias or 0.3,
                   extra=([] if args.antialias else ["-A"]) + ["+KFI0", "+KFF%d" % (meta["frames"] - 1), "+SF%d" % first, "+EF%d" % last])
        return
    if args.encode_only:
        meta["renderSeconds"] = json.load(open(os.path.join(args.out, "truth.json"))).get("renderSeconds")
    if not args.no_render and not args.encode_only:
        t0 = time.time()
        shutil.rmtree(frames_dir, ignore_errors=True)
        os.makedirs(frames_dir)
        run_povray(pov_path, os.path.join(frames_dir, "f.png"), meta["width"], meta["height"], args.antialias or 0.3,
                   extra=["+KFI0", "+KFF%d" % (meta["frames"] - 1)] + ([] if args.antialias else ["-A"]))
        names = sorted(glob.glob(os.path.join(frames_dir, "f*.png")))
        if len(names) != meta["frames"]:
            raise RuntimeError("povray wrote %d frames of %d" % (len(names), meta["frames"]))
        for i, n in enumerate(names):
            os.replace(n, os.path.join(frames_dir, "%05d.png" % i))
        meta["renderSeconds"] = round(time.time() - t0, 1)
    if not args.no_render:
        phone_encode(args.out, os.path.join(args.out, "frames"), meta["fps"], meta["encode"], noise_per_gain=3)
        ball, marker = pick_colours(args.out, meta, shot, cams)
        meta["picked"] = {"ball": ball, "marker": marker}
        if ball is None:
            # No spot showed the ball's hue: the person types the colour they know, as it is made.
            h, sat, v = colorsys.rgb_to_hsv(*meta["ball"]["colour"])
            ball = {"h": round(h * 360, 1), "s": round(sat * 100, 1), "v": round(v * 100, 1)}
        options = {"hand": meta["hand"], "ballProfile": {"color": ball}, "calibration": {"lanePoints": meta["lanePoints"]}}
        if marker:
            options["ballProfile"]["markerColor"] = marker
        with open(os.path.join(args.out, "options.json"), "w") as f:
            json.dump(options, f)
    with open(os.path.join(args.out, "truth.json"), "w") as f:
        json.dump(meta, f, indent=1)
    s = meta["shots"][0]
    print("seed %d: %dx%d %d fps %.1f s, %s %s-handed %.1f mph, %s%s" % (
        args.seed, meta["width"], meta["height"], meta["fps"], meta["seconds"], s["kind"], meta["hand"], s["launchSpeed"],
        "bowler" if meta["bowler"] else "no bowler",
        (", rendered in %.0f s" % meta["renderSeconds"]) if "renderSeconds" in meta else ""), file=sys.stderr)


if __name__ == "__main__":
    main()
