// @ts-check
// A small line chart as inline SVG, with its axes: values on the left (a few round ticks),
// dates along the bottom, a dashed reference line (a rating's 1500, where everyone starts),
// each point's value on hover (a <title>) and the last point's value written beside it.
// Nothing is drawn outside the SVG; pages.css styles it.

import { date, num } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const W = 520, H = 210, LEFT = 50, RIGHT = 56, TOP = 14, BOTTOM = 34;

/** @param {string} tag @param {Record<string, string | number>} attrs @param {string} [text] */
function node(tag, attrs, text) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  if (text !== undefined) n.textContent = text;
  return n;
}

/** Round ticks between lo and hi (about four). @param {number} lo @param {number} hi */
export function ticks(lo, hi) {
  const raw = (hi - lo) / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Math.round(v));
  return out;
}

/**
 * @typedef {{value: number, at: string | null, tip: string}} ChartPoint  one point: its value,
 *   when (ISO; null: no date), and what hovering it says
 * @typedef {{label: string, ref?: number, min?: number, plain?: Intl.NumberFormatOptions}} ChartOptions
 *   `label` names the chart for screen readers; `ref` is the dashed line; `min` the least height
 *   the value axis spans; `plain` how values are written
 */

/**
 * The chart of `points` (oldest first).
 * @param {ChartPoint[]} points @param {ChartOptions} o
 */
export function lineChart(points, o) {
  const svg = node("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-label": o.label });
  if (points.length < 2) return svg;
  const write = (/** @type {number} */ v) => num(v, o.plain);
  const values = points.map((p) => p.value);
  if (o.ref !== undefined) values.push(o.ref);
  let lo = Math.min(...values), hi = Math.max(...values);
  const span = Math.max(o.min || 0, hi - lo);
  const mid = (lo + hi) / 2;
  lo = mid - span / 2 - span * 0.08;
  hi = mid + span / 2 + span * 0.08;
  const x = (/** @type {number} */ i) => LEFT + (i * (W - LEFT - RIGHT)) / (points.length - 1);
  const y = (/** @type {number} */ v) => TOP + ((hi - v) * (H - TOP - BOTTOM)) / (hi - lo);
  const axes = node("g", { class: "axes" });
  for (const v of ticks(lo, hi)) {
    axes.append(node("line", { x1: LEFT, x2: W - RIGHT, y1: y(v), y2: y(v), class: "grid" }));
    axes.append(node("text", { x: LEFT - 6, y: y(v) + 4, class: "tick y" }, write(v)));
  }
  axes.append(node("line", { x1: LEFT, x2: LEFT, y1: TOP, y2: H - BOTTOM, class: "axis" }));
  axes.append(node("line", { x1: LEFT, x2: W - RIGHT, y1: H - BOTTOM, y2: H - BOTTOM, class: "axis" }));
  // Dates under a few points: the first, the last and, with room, ones between; one format
  // along the axis (the day, never a time: points of one day share one label, their times are
  // in each point's hover text).
  const every = Math.max(1, Math.ceil((points.length - 1) / 4));
  let shown = "";
  points.forEach((p, i) => {
    if (!p.at || (i % every && i !== points.length - 1) || (i !== points.length - 1 && points.length - 1 - i < every / 2)) return;
    const day = date(p.at, { month: "short", day: "numeric" });
    if (day === shown) return;
    shown = day;
    axes.append(node("line", { x1: x(i), x2: x(i), y1: H - BOTTOM, y2: H - BOTTOM + 4, class: "axis" }));
    axes.append(node("text", { x: x(i), y: H - BOTTOM + 18, class: "tick x" }, day));
  });
  svg.append(axes);
  if (o.ref !== undefined) {
    svg.append(node("line", { x1: LEFT, x2: W - RIGHT, y1: y(o.ref), y2: y(o.ref), class: "zero" }));
    svg.append(node("text", { x: W - RIGHT + 4, y: y(o.ref) + 4, class: "ref" }, write(o.ref)));
  }
  svg.append(node("polyline", { points: points.map((p, i) => `${x(i)},${y(p.value)}`).join(" "), class: "line" }));
  points.forEach((p, i) => {
    const dot = node("circle", { cx: x(i), cy: y(p.value), r: 3.5 });
    dot.append(node("title", {}, p.tip));
    svg.append(dot);
  });
  const last = points[points.length - 1];
  svg.append(node("text", { x: x(points.length - 1), y: y(last.value) - 8, class: "value" }, write(last.value)));
  return svg;
}
