// A line chart drawn as SVG by hand (no library, no build step): one or more series of
// [x, y] points on shared axes, with a few ticks on each axis and a legend. The drawing
// scales with its box (viewBox); what it shows is said in words by the caller's `summary`
// (the chart is one image to a screen reader).
const NS = "http://www.w3.org/2000/svg";
const H = 240;
const PAD = { left: 48, right: 12, top: 12, bottom: 30 };

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [key, value] of Object.entries(attrs)) if (value !== null && value !== undefined) el.setAttribute(key, value);
  el.append(...children.flat());
  return el;
}

// About `count` round numbers covering [low, high], `least` apart at the least (1 for
// whole numbers such as scores: ticks at 0, 0.5 and 1 would all be labelled 0 or 1).
export function ticks(low, high, count = 4, least = 0) {
  if (high <= low) return [low];
  const raw = Math.max((high - low) / count, least);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(low / step) * step; v <= high + 1e-9; v += step) out.push(Number(v.toFixed(6)));
  return out;
}

// series: [{ label, points: [[x, y]…], cls }]; xLabel(x) and yLabel(y) format the ticks.
// xLeast, yLeast: the least step between each axis's ticks (ticks()).
export function lineChart({ series, id, summary, width = 640, xLabel = String, yLabel = String, xTitle = "", yTitle = "", xLeast = 0, yLeast = 0 }) {
  // As wide as the room it gets (a phone), so that its words keep their size.
  const W = Math.max(300, Math.min(width, 640));
  const all = series.flatMap((s) => s.points);
  const xs = all.map((p) => p[0]);
  const ys = all.map((p) => p[1]);
  let [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  if (x0 === x1) x1 = x0 + 1;
  if (y0 === y1) { y0 -= 10; y1 += 10; }
  const margin = (y1 - y0) * 0.08;
  [y0, y1] = [y0 - margin, y1 + margin];
  const px = (x) => PAD.left + ((x - x0) / (x1 - x0)) * (W - PAD.left - PAD.right);
  const py = (y) => H - PAD.bottom - ((y - y0) / (y1 - y0)) * (H - PAD.top - PAD.bottom);
  const grid = ticks(y0, y1, 4, yLeast).map((y) => svg("g", { class: "tick" },
    svg("line", { x1: PAD.left, x2: W - PAD.right, y1: py(y), y2: py(y) }),
    svg("text", { x: PAD.left - 6, y: py(y) + 4, "text-anchor": "end" }, yLabel(y))));
  // The last label ends at the right edge rather than being cut in half by it.
  const xAxis = ticks(x0, x1, 4, xLeast).map((x) => svg("text", { class: "xtick", x: px(x), y: H - PAD.bottom + 16,
    "text-anchor": px(x) > W - PAD.right - 24 ? "end" : "middle" }, xLabel(x)));
  const lines = series.map((s, i) => svg("g", { class: `series s${i} ${s.cls ?? ""}` },
    svg("polyline", { points: s.points.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(" ") }),
    s.points.length <= 40 ? s.points.map(([x, y]) => svg("circle", { cx: px(x).toFixed(1), cy: py(y).toFixed(1), r: 3 })) : []));
  const titles = [
    xTitle ? svg("text", { class: "axis", x: W - PAD.right, y: H - 2, "text-anchor": "end" }, xTitle) : "",
    yTitle ? svg("text", { class: "axis", x: 4, y: PAD.top - 2 }, yTitle) : "",
  ];
  const picture = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": summary, class: "chart", id },
    svg("title", {}, summary), ...grid, ...xAxis, ...lines, ...titles);
  const legend = series.length > 1 || series[0]?.label
    ? Object.assign(document.createElement("ul"), { className: "legend" }) : null;
  series.forEach((s, i) => {
    if (!legend) return;
    const item = document.createElement("li");
    item.className = `s${i}`;
    item.textContent = s.label;
    legend.append(item);
  });
  const figure = document.createElement("figure");
  figure.className = "chartbox";
  figure.append(picture);
  if (legend) figure.append(legend);
  return figure;
}
