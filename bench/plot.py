#!/usr/bin/env python3
"""Draws tpose-bench -C output as an SVG bar chart: for each shape (and element size) one bar
per kernel or library, its ratio to memcpy of the same bytes (higher is faster), with a dashed
line at 1.0 where memcpy is. Python 3 standard library only.

usage: bench/plot.py [CSV] [--title TITLE] [-o OUT.svg] [--kernels K,...] [--labels OLD=NEW,...]
  CSV        tpose-bench -C output (default: stdin); header lines after the first, as from
             several runs concatenated, are skipped, and so are rows without a ratio (a
             failed measurement). A shape measured more than once shows its median.
  --title    the chart's title, e.g. the machine's name
  -o         output file (default: stdout)
  --kernels  only these series, in this order; "auto" stands for every auto:<kernel> row
  --labels   legend names, e.g. "auto=tpose AUTO,openblas omatcopy=OpenBLAS"
example:
  build-rel/bench/tpose-bench -C -r 8256 -e 4 -k auto,peers | bench/plot.py --title "my box"
"""
import argparse
import csv
import math
import statistics
import sys
from xml.sax.saxutils import escape

FIELDS = ["shape", "rows", "cols", "esize", "kernel", "gbps", "ticks_per_elem",
          "ratio_to_memcpy"]
# Okabe-Ito: distinguishable with the common colour-vision deficiencies.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
           "#000000"]

BAR_W, BAR_GAP, GROUP_GAP = 16, 2, 22
LEFT, RIGHT, TOP, BOTTOM = 70, 64, 84, 70
PLOT_H = 300


def series_of(kernel):
    """auto:<picked> rows of every shape form one series, whatever AUTO picked."""
    return "auto" if kernel.startswith("auto:") else kernel


def read_rows(stream):
    """(group, series) -> list of ratios, plus both keys in the order they first appear."""
    values, groups, series = {}, [], []
    for rec in csv.reader(stream):
        if not rec or rec[0] == "shape" or rec[0].startswith("#"):
            continue
        if len(rec) != len(FIELDS):
            sys.exit("plot.py: expected %d fields, got %d: %s" % (len(FIELDS), len(rec),
                                                                  ",".join(rec)))
        row = dict(zip(FIELDS, rec))
        if not row["ratio_to_memcpy"].strip():
            continue
        group = (row["shape"], row["esize"])
        name = series_of(row["kernel"])
        if group not in groups:
            groups.append(group)
        if name not in series:
            series.append(name)
        values.setdefault((group, name), []).append(float(row["ratio_to_memcpy"]))
    if "auto" in series:  # the library's own choice first, then the rest as they came
        series.remove("auto")
        series.insert(0, "auto")
    return {k: statistics.median(v) for k, v in values.items()}, groups, series


def nice_top(vmax):
    """The y axis runs to a multiple of 0.25 above both the data and memcpy's 1.0."""
    return max(1.25, math.ceil((vmax + 0.05) / 0.25) * 0.25)


def text(x, y, s, size=12, anchor="middle", extra=""):
    return ('<text x="%.1f" y="%.1f" font-size="%d" text-anchor="%s"%s>%s</text>'
            % (x, y, size, anchor, extra, escape(s)))


def svg_chart(values, groups, series, labels, title):
    group_w = len(series) * (BAR_W + BAR_GAP) - BAR_GAP + GROUP_GAP
    plot_w = max(len(groups) * group_w, 360)
    width, height = LEFT + plot_w + RIGHT, TOP + PLOT_H + BOTTOM
    top = nice_top(max(values.values()) if values else 1.0)

    def y_of(v):
        return TOP + PLOT_H * (1.0 - v / top)

    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'viewBox="0 0 %d %d" font-family="DejaVu Sans, Helvetica, Arial, sans-serif">'
           % (width, height, width, height),
           '<rect width="100%" height="100%" fill="white"/>',
           text(width / 2, 24, title, 16, extra=' font-weight="bold"')]
    # Grid and y axis ticks every 0.25.
    steps = int(round(top / 0.25))
    for i in range(steps + 1):
        v = i * 0.25
        y = y_of(v)
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#e0e0e0"/>'
                   % (LEFT, y, LEFT + plot_w, y))
        out.append(text(LEFT - 6, y + 4, "%.2f" % v, 11, "end"))
    # Bars; a missing one (no routine for that element size) gets a small dash.
    for gi, group in enumerate(groups):
        x0 = LEFT + gi * group_w + GROUP_GAP / 2
        for si, name in enumerate(series):
            x = x0 + si * (BAR_W + BAR_GAP)
            v = values.get((group, name))
            if v is None:
                out.append(text(x + BAR_W / 2, y_of(0) - 3, "-", 11, extra=' fill="#999"'))
                continue
            out.append('<rect x="%.1f" y="%.1f" width="%d" height="%.1f" fill="%s">'
                       '<title>%s, %s B, %s: %.2f</title></rect>'
                       % (x, y_of(v), BAR_W, y_of(0) - y_of(v), PALETTE[si % len(PALETTE)],
                          escape(group[0]), escape(group[1]), escape(labels.get(name, name)), v))
        cx = x0 + (len(series) * (BAR_W + BAR_GAP) - BAR_GAP) / 2
        out.append(text(cx, TOP + PLOT_H + 16, group[0], 11))
        out.append(text(cx, TOP + PLOT_H + 30, "%s B" % group[1], 11, extra=' fill="#555"'))
    # Axes, and memcpy's line at 1.0.
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'
               % (LEFT, TOP, LEFT, TOP + PLOT_H))
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="black"/>'
               % (LEFT, TOP + PLOT_H, LEFT + plot_w, TOP + PLOT_H))
    y1 = y_of(1.0)
    out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#c00" stroke-width="1.5" '
               'stroke-dasharray="6,4"/>' % (LEFT, y1, LEFT + plot_w, y1))
    out.append(text(LEFT + plot_w + 4, y1 + 4, "memcpy", 11, "start", ' fill="#c00"'))
    out.append(text(LEFT + plot_w / 2, height - 14, "shape (rows x cols), element size", 12))
    out.append(text(18, TOP + PLOT_H / 2, "ratio to memcpy (higher is faster)", 12,
                    extra=' transform="rotate(-90 18 %.1f)"' % (TOP + PLOT_H / 2)))
    # Legend in one row under the title.
    x, y = LEFT, 50
    for si, name in enumerate(series):
        label = labels.get(name, name)
        if x > LEFT and x + 17 + 7 * len(label) > width - RIGHT:
            x, y = LEFT, y + 18  # a second row: the plot starts below two
        out.append('<rect x="%d" y="%d" width="12" height="12" fill="%s"/>'
                   % (x, y, PALETTE[si % len(PALETTE)]))
        out.append(text(x + 17, y + 10, label, 12, "start"))
        x += 17 + 7 * len(label) + 22
    out.append("</svg>")
    return "\n".join(out) + "\n"


def parse_labels(spec):
    labels = {}
    for item in filter(None, spec.split(",")):
        old, sep, new = item.partition("=")
        if not sep:
            sys.exit("plot.py: --labels wants OLD=NEW, got %r" % item)
        labels[old] = new
    return labels


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="?", default="-")
    ap.add_argument("--title", default="tpose-bench: ratio to memcpy")
    ap.add_argument("-o", "--output", default="-")
    ap.add_argument("--kernels", default="")
    ap.add_argument("--labels", default="")
    args = ap.parse_args(argv)
    if args.csv == "-":
        values, groups, series = read_rows(sys.stdin)
    else:
        with open(args.csv, newline="") as f:
            values, groups, series = read_rows(f)
    if args.kernels:
        series = [k for k in args.kernels.split(",") if k in series]
        values = {k: v for k, v in values.items() if k[1] in series}
        groups = [g for g in groups if any((g, s) in values for s in series)]
    if not values:
        sys.exit("plot.py: no measurements in the input")
    svg = svg_chart(values, groups, series, parse_labels(args.labels), args.title)
    if args.output == "-":
        sys.stdout.write(svg)
    else:
        with open(args.output, "w") as f:
            f.write(svg)


if __name__ == "__main__":
    main(sys.argv[1:])
