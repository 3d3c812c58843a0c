"""Synthetic 12-lead ECGs for case attachments, drawn from a simulated heart vector.

An image attachment must show its finding (a blank picture sends a vision model nothing).
This draws a 12-lead ECG a clinician can read: the heart's electrical activity is modelled
as a vector in three dimensions moving through the P wave, the QRS complex and the T wave
of each beat, and each lead is that vector projected on the lead's axis (the frontal-plane
limb leads, the horizontal-plane chest leads), so the leads agree with each other as real
ones do (lead II = I + III). The picture follows the standard layout: four columns of 2.5
seconds (I aVR V1 V4 / II aVL V2 V5 / III aVF V3 V6) and a 10-second lead II rhythm strip,
at 25 mm/s and 10 mm/mV on a millimetre grid, with a calibration pulse.

Every picture is marked as synthetic in its header. The same rhythm, rate and seed always
draw the same picture, so a case says how its image was made.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np

if TYPE_CHECKING:
    from PIL.ImageDraw import ImageDraw
    from PIL.ImageFont import FreeTypeFont, ImageFont

Rhythm = Literal["sinus", "inferior-stemi", "anterior-stemi", "atrial-fibrillation", "hyperkalaemia",
                 "complete-heart-block"]
RHYTHMS: dict[str, str] = {
    "sinus": "normal sinus rhythm",
    "inferior-stemi": "sinus rhythm, ST elevation in II, III and aVF with reciprocal ST depression in I and aVL",
    "anterior-stemi": "sinus rhythm, ST elevation in V1-V4",
    "atrial-fibrillation": "atrial fibrillation: irregularly irregular, no P waves, fibrillatory baseline",
    "hyperkalaemia": "peaked T waves, broad QRS, small P waves and a long PR interval",
    "complete-heart-block": "complete heart block: regular P waves dissociated from a slow broad escape rhythm",
}

SAMPLE_RATE = 500  # per second
SECONDS = 10.0
MM_PER_SECOND = 25
MM_PER_MV = 10
PIXELS_PER_MM = 8

LAYOUT = (("I", "aVR", "V1", "V4"), ("II", "aVL", "V2", "V5"), ("III", "aVF", "V3", "V6"))

# The inverse Dower transform: the standard leads from the heart vector in Frank's axes (x to
# the patient's left, y to the feet, z to the back), as electrocardiography derives them.
_DOWER = {
    "I": (0.632, -0.235, 0.059), "II": (0.235, 1.066, -0.132),
    "V1": (-0.515, 0.157, -0.917), "V2": (0.044, 0.164, -1.387), "V3": (0.882, 0.098, -1.277),
    "V4": (1.213, 0.127, -0.601), "V5": (1.125, 0.127, -0.086), "V6": (0.831, 0.076, 0.230),
}


def _leads(heart: np.ndarray) -> dict[str, np.ndarray]:
    leads = {name: heart @ np.asarray(row) for name, row in _DOWER.items()}
    one, two = leads["I"], leads["II"]
    leads |= {"III": two - one, "aVR": -(one + two) / 2, "aVL": one - two / 2, "aVF": two - one / 2}
    return leads


@dataclass(frozen=True)
class Wave:
    """One wave of a beat: a Gaussian pulse of the heart vector (mV) centred at ``at`` seconds."""

    at: float
    width: float
    vector: tuple[float, float, float]


@dataclass
class BeatShape:
    """The waves of a beat, relative to its QRS onset, and an injury current over its ST segment."""

    p: list[Wave] = field(default_factory=lambda: [Wave(-0.13, 0.022, (0.08, 0.12, -0.03))])
    qrs: list[Wave] = field(default_factory=lambda: [
        Wave(0.012, 0.008, (-0.10, 0.05, -0.25)),  # septal: to the right and forward
        Wave(0.040, 0.011, (1.00, 0.60, 0.50)),  # the free walls: left, inferior, back
        Wave(0.066, 0.010, (-0.30, -0.30, 0.30)),  # the late basal part
    ])
    t: list[Wave] = field(default_factory=lambda: [Wave(0.30, 0.050, (0.30, 0.25, -0.10))])
    injury: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """Added from the J point to the end of the T wave: the ST shift of an infarct."""
    st_end: float = 0.36


def _shape(rhythm: Rhythm) -> BeatShape:
    shape = BeatShape()
    if rhythm == "inferior-stemi":
        shape.injury = (-0.06, 0.26, 0.02)
        shape.t = [Wave(0.27, 0.07, (0.05, 0.35, -0.05))]
    elif rhythm == "anterior-stemi":
        shape.injury = (0.05, 0.0, -0.30)
        shape.t = [Wave(0.27, 0.07, (0.15, 0.10, -0.40))]
        shape.qrs[0] = Wave(0.012, 0.008, (-0.02, 0.0, 0.02))  # septal r lost: QS in V1-V2
    elif rhythm == "hyperkalaemia":
        shape.p = [Wave(-0.19, 0.028, (0.03, 0.04, -0.01))]
        shape.qrs = [Wave(0.020, 0.016, (-0.10, 0.05, -0.20)), Wave(0.065, 0.020, (0.90, 0.55, 0.45)),
                     Wave(0.110, 0.020, (-0.30, -0.25, 0.30))]
        shape.t = [Wave(0.26, 0.028, (0.55, 0.45, -0.45))]
    elif rhythm == "complete-heart-block":
        shape.qrs = [Wave(0.030, 0.018, (-0.30, -0.10, 0.10)), Wave(0.080, 0.024, (1.00, 0.50, 0.70)),
                     Wave(0.130, 0.020, (0.20, 0.15, 0.35))]  # a broad ventricular escape complex
        shape.t = [Wave(0.40, 0.070, (-0.30, -0.10, -0.20))]
        shape.st_end = 0.50
    return shape


def _add(signal: np.ndarray, t: np.ndarray, wave: Wave, start: float) -> None:
    centre = start + wave.at
    near = np.abs(t - centre) < 5 * wave.width
    pulse = np.exp(-0.5 * ((t[near] - centre) / wave.width) ** 2)
    signal[near] += pulse[:, None] * np.asarray(wave.vector)[None, :]


@dataclass(frozen=True)
class Ecg:
    rhythm: Rhythm
    rate: int
    """Ventricular rate per minute (the escape rate in complete heart block)."""
    leads: dict[str, np.ndarray]
    seconds: float
    description: str


def simulate(rhythm: Rhythm, rate: int | None = None, seed: int = 1) -> Ecg:
    """Ten seconds of twelve leads (mV), sampled at :data:`SAMPLE_RATE`."""
    rng = np.random.default_rng(seed)
    rate = rate or {"atrial-fibrillation": 118, "complete-heart-block": 36, "hyperkalaemia": 64}.get(rhythm, 78)
    shape = _shape(rhythm)
    t = np.arange(int(SECONDS * SAMPLE_RATE)) / SAMPLE_RATE
    heart = np.zeros((t.size, 3))
    beats: list[float] = []
    mean_rr = 60.0 / rate
    clock = 0.25 + rng.uniform(0, 0.2)
    while clock < SECONDS + 1:
        beats.append(clock)
        rr = mean_rr * (rng.uniform(0.55, 1.45) if rhythm == "atrial-fibrillation" else rng.uniform(0.98, 1.02))
        clock += rr
    for onset in beats:
        if rhythm not in ("atrial-fibrillation", "complete-heart-block"):
            for wave in shape.p:
                _add(heart, t, wave, onset)
        for wave in shape.qrs + shape.t:
            _add(heart, t, wave, onset)
        if any(shape.injury):
            j = onset + (shape.qrs[-1].at + shape.qrs[-1].width * 2)
            span = (t >= j) & (t <= onset + shape.st_end)
            ramp = np.clip((onset + shape.st_end - t[span]) / 0.08, 0, 1)  # back to baseline at the T's end
            heart[span] += ramp[:, None] * np.asarray(shape.injury)[None, :]
    if rhythm == "complete-heart-block":
        atrial = 60.0 / 82
        clock = rng.uniform(0.05, 0.4)
        while clock < SECONDS + 1:
            for wave in shape.p:
                _add(heart, t, Wave(0.0, wave.width, wave.vector), clock)
            clock += atrial * rng.uniform(0.99, 1.01)
    if rhythm == "atrial-fibrillation":
        for frequency in (5.3, 6.4, 7.7):
            phase = rng.uniform(0, 2 * math.pi)
            heart[:, 1] += 0.025 * np.sin(2 * math.pi * frequency * t + phase)
            heart[:, 2] -= 0.03 * np.sin(2 * math.pi * frequency * 1.07 * t + phase)  # coarse in V1
    heart += rng.normal(0, 0.006, heart.shape)  # a little noise, as every recording has
    heart[:, 1] += 0.03 * np.sin(2 * math.pi * 0.23 * t + rng.uniform(0, 6))  # the baseline wanders with breathing
    leads = _leads(heart)
    return Ecg(rhythm, rate, leads, SECONDS, RHYTHMS[rhythm])


# --- drawing -----------------------------------------------------------------------------


def draw(ecg: Ecg, path: Path, *, label: str = "") -> Path:
    """Draw ``ecg`` as a PNG at ``path``: the 12-lead layout and a lead II rhythm strip."""
    from PIL import Image
    from PIL import ImageDraw as Drawing

    px = PIXELS_PER_MM
    width_mm, row_mm, header_mm, margin_mm = 10 + 250 + 6, 32, 14, 4
    height_mm = header_mm + row_mm * 4 + margin_mm
    image = Image.new("RGB", (width_mm * px, height_mm * px), "white")
    pen = Drawing.Draw(image)
    top = header_mm * px
    for mm in range(0, width_mm + 1):  # the millimetre grid, every fifth line bolder
        colour = (240, 160, 160) if mm % 5 == 0 else (252, 222, 222)
        pen.line([(mm * px, top), (mm * px, height_mm * px)], fill=colour, width=2 if mm % 5 == 0 else 1)
    for mm in range(0, height_mm - header_mm + 1):
        colour = (240, 160, 160) if mm % 5 == 0 else (252, 222, 222)
        pen.line([(0, top + mm * px), (width_mm * px, top + mm * px)], fill=colour, width=2 if mm % 5 == 0 else 1)
    font = _font(3 * px)
    small = _font(int(2.4 * px))
    title = f"SYNTHETIC 12-LEAD ECG (simulated, not from a patient)  {label}".rstrip()
    pen.text((4 * px, 2 * px), title, fill="black", font=font)
    pen.text((4 * px, 7 * px), f"25 mm/s   10 mm/mV   ventricular rate {ecg.rate}/min", fill="black", font=small)
    samples_per_mm = SAMPLE_RATE / MM_PER_SECOND
    column_mm = 62.5  # 2.5 seconds
    left = 10  # mm: room for the calibration pulse
    for row, names in enumerate(LAYOUT):
        baseline = top + (row * row_mm + row_mm * 0.6) * px
        _calibration(pen, 2 * px, baseline, px)
        for column, name in enumerate(names):
            start = int(column * 2.5 * SAMPLE_RATE)
            trace = ecg.leads[name][start:start + int(2.5 * SAMPLE_RATE)]
            x0 = (left + column * column_mm) * px
            _trace(pen, trace, x0, baseline, px, samples_per_mm)
            pen.text((x0 + 1 * px, baseline - 11 * px), name, fill="black", font=font)
            if column:
                pen.line([(x0, baseline - 3 * px), (x0, baseline + 3 * px)], fill="black", width=2)
    baseline = top + (3 * row_mm + row_mm * 0.6) * px
    _calibration(pen, 2 * px, baseline, px)
    _trace(pen, ecg.leads["II"], left * px, baseline, px, samples_per_mm)
    pen.text(((left + 1) * px, baseline - 11 * px), "II (rhythm strip)", fill="black", font=font)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, optimize=True)
    return path


def _trace(pen: ImageDraw, trace: np.ndarray, x0: float, baseline: float, px: int, samples_per_mm: float) -> None:
    points = [(x0 + i / samples_per_mm * px, baseline - float(v) * MM_PER_MV * px) for i, v in enumerate(trace)]
    pen.line(points, fill="black", width=2)


def _calibration(pen: ImageDraw, x: float, baseline: float, px: int) -> None:
    """The 1 mV, 200 ms calibration pulse at the start of a row."""
    height = MM_PER_MV * px
    points = [(x, baseline), (x + 1 * px, baseline), (x + 1 * px, baseline - height), (x + 6 * px, baseline - height),
              (x + 6 * px, baseline), (x + 7 * px, baseline)]
    pen.line(points, fill="black", width=2)


def _font(size: int) -> FreeTypeFont | ImageFont:
    from PIL import ImageFont as Fonts

    for name in ("DejaVuSans.ttf", "LiberationSans-Regular.ttf", "Arial.ttf"):
        try:
            return Fonts.truetype(name, size)
        except OSError:
            continue
    return Fonts.load_default(size)
