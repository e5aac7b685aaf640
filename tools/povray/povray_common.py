"""What the POV-Ray scene scripts share: vector helpers, the camera (one set of numbers drives both
POV-Ray and the truth's projection), and running POV-Ray quietly on one thread.

Coordinates are POV-Ray's (left-handed): x right, y up, z away from the viewer.
"""
import math
import os
import shutil
import subprocess
import sys

# Small vector helpers (stdlib only, so the scripts run anywhere POV-Ray does).

def add(a, b): return (a[0] + b[0], a[1] + b[1], a[2] + b[2])
def sub(a, b): return (a[0] - b[0], a[1] - b[1], a[2] - b[2])
def mul(a, s): return (a[0] * s, a[1] * s, a[2] * s)
def dot(a, b): return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
def cross(a, b): return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
def norm(a):
    n = math.sqrt(dot(a, a))
    return (a[0] / n, a[1] / n, a[2] / n)
def rot_about(v, axis, ang):
    """Rodrigues rotation of v about the unit vector axis by ang radians."""
    c, s = math.cos(ang), math.sin(ang)
    return add(add(mul(v, c), mul(cross(axis, v), s)), mul(axis, dot(axis, v) * (1 - c)))

def pv(v):
    """A POV-Ray vector literal."""
    return "<%.6f, %.6f, %.6f>" % v

def srgb(c):
    return "srgb <%.4f, %.4f, %.4f>" % tuple(c)


# ---------------------------------------------------------------------------------------------
# Camera: one set of numbers drives both POV-Ray and the truth's projection, so they cannot
# disagree. POV-Ray's perspective camera shoots, for image position (u, v) in [-0.5, 0.5]
# (u left→right, v bottom→top), the ray direction + u·right + v·up; we give all three vectors
# explicitly (no look_at) so no POV-Ray default enters.

class Camera:
    def __init__(self, location, target, roll_deg, hfov_deg, width, height):
        self.location, self.width, self.height = location, width, height
        self.aspect = width / height
        f = norm(sub(target, location))
        r = norm(cross((0.0, 1.0, 0.0), f))  # left-handed: Y × forward points right
        u = cross(f, r)
        roll = math.radians(roll_deg)
        self.f, self.r, self.u = f, rot_about(r, f, roll), rot_about(u, f, roll)
        self.hfov_deg, self.roll_deg = hfov_deg, roll_deg
        self.dlen = (self.aspect / 2) / math.tan(math.radians(hfov_deg) / 2)
        self.target = target

    def pov(self):
        return ("camera {\n  perspective\n  location %s\n  direction %s\n  right %s\n  up %s\n}\n"
                % (pv(self.location), pv(mul(self.f, self.dlen)), pv(mul(self.r, self.aspect)), pv(self.u)))

    def project(self, p):
        """World point → (px, py) in pixel-centre coordinates, or None when behind the camera."""
        v = sub(p, self.location)
        a = dot(v, self.f)
        if a <= 1e-9:
            return None
        ui = dot(v, self.r) / a * self.dlen / self.aspect
        vi = dot(v, self.u) / a * self.dlen
        return ((ui + 0.5) * self.width - 0.5, (0.5 - vi) * self.height - 0.5)

    def as_json(self):
        vfov = 2 * math.degrees(math.atan(0.5 / self.dlen))
        return {"location": self.location, "target": self.target, "forward": self.f, "right": self.r,
                "up": self.u, "hfovDeg": self.hfov_deg, "vfovDeg": vfov, "rollDeg": self.roll_deg,
                "povDirectionLength": self.dlen, "aspect": self.aspect,
                "pixelConvention": "pixel centres; top-left pixel centre is (0,0)"}



def run_povray(pov_path, out_path, width, height, antialias, extra=()):
    """Runs POV-Ray quietly on one thread (the machine is shared); raises with its log on failure.
    `extra` adds options, e.g. an animation's frame range."""
    if not shutil.which("povray"):
        sys.exit("%s: povray not found (apt-get install -y povray)" % os.path.basename(sys.argv[0]))
    cmd = ["povray", "+I" + pov_path, "+O" + out_path, "+W%d" % width, "+H%d" % height,
           "+A%.2f" % antialias, "+AM2", "+R2", "-D", "-V", "+FN", "+WT1", "-GA", *extra]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("povray failed (%d): %s" % (p.returncode, (p.stderr or p.stdout)[-2000:]))


def widen_to_fit(location, target, roll, hfov, width, height, keys, inside, step, tries):
    """The horizontal field of view, from `hfov` widened `step` times at a go (at most `tries`
    times), at which every key point's image lies inside `inside` = (x from, x to, y from, y to),
    shares of the frame's width and height: a camera framed around what the scene must show."""
    x0, x1, y0, y1 = inside
    for _ in range(tries):
        cam = Camera(location, target, roll, hfov, width, height)
        pts = [cam.project(k) for k in keys]
        if all(p is not None and x0 * width <= p[0] <= x1 * width and y0 * height <= p[1] <= y1 * height for p in pts):
            break
        hfov *= step
    return hfov

def mean_rgb(png):
    """The picture's mean red, green and blue, 0–255 (ffmpeg scales it to one pixel by area)."""
    p = subprocess.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-i", png, "-vf", "scale=1:1:flags=area",
                        "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], capture_output=True, check=True)
    return [max(1.0, float(c)) for c in p.stdout[:3]]


def phone_encode(out, frames_dir, fps, e, noise_per_gain):
    """Frames (`frames_dir/%05d.png`) to `out/clip.mp4` as a phone makes a clip: it exposes and
    white-balances for the scene (the first frame's mean brought to the exposure `e["exposure"]`,
    most of the light's colour cast taken out: grey world, not all of it, as phones leave some),
    the gain amplifies the sensor's noise (`e["noise"]` plus `noise_per_gain` per unit of gain
    above 1), then H.264 or HEVC (`e["codec"]`, `e["crf"]`). Records the gains and the noise
    applied in `e`."""
    mean = mean_rgb(os.path.join(frames_dir, "00000.png"))
    grey = sum(mean) / 3
    gain = min(3.0, max(0.7, e["exposure"] * 255 / grey))
    gains = [gain * (grey / c) ** 0.8 for c in mean]
    noise = int(round(e["noise"] + noise_per_gain * max(0.0, gain - 1.0)))
    e["gains"], e["noiseApplied"] = [round(g, 3) for g in gains], noise
    vf = "lutrgb=" + ":".join("%s='clip(val*%.3f,0,255)'" % (c, g) for c, g in zip("rgb", gains))
    vf += ",noise=alls=%d:allf=t" % noise if noise else ""
    vf += ",format=yuv420p"
    tmp = os.path.join(out, "clip.tmp.mp4")
    cmd = ["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-framerate", str(fps),
           "-i", os.path.join(frames_dir, "%05d.png"), "-vf", vf, "-c:v", e["codec"], "-crf", str(e["crf"])]
    if e["codec"] == "libx265":
        cmd += ["-x265-params", "log-level=error", "-tag:v", "hvc1"]
    subprocess.run(cmd + [tmp], check=True)
    os.replace(tmp, os.path.join(out, "clip.mp4"))
