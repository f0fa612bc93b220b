// @ts-check
// Navigation without page loads: the page's root element, what the current page must stop when
// it is left, `navigate`, and internal links and history (back/forward) routed in place. main.js
// holds the route table and starts this with it.

import { el } from "./dom.js";
import { t } from "./i18n.js";

export const app = /** @type {HTMLElement} */ (document.getElementById("app"));
/** @type {(() => void)[]} what the current page must stop when we leave it */
let cleanup = [];
/** @type {() => void} draws the page of the current location */
let route = () => {};

/** Run `fn` when the current page is left. @param {() => void} fn */
export function onLeave(fn) {
  cleanup.push(fn);
}

/** Stop what the current page runs (its timers, its socket). */
export function leave() {
  for (const f of cleanup) f();
  cleanup = [];
}

/** Run `fn` every `ms` while the current page is shown. @param {number} ms @param {() => void} fn */
export function every(ms, fn) {
  const t = setInterval(fn, ms);
  onLeave(() => clearInterval(t));
}

/** Go to `path` (a history entry, no page load). @param {string} path */
export function navigate(path) {
  if (path !== location.pathname + location.hash) history.pushState(null, "", path);
  route();
}

/** Draw the current location's page again. */
export function refresh() {
  route();
}

/** The "← Home" line above a page. */
export function homeLink() {
  const nav = el("nav", "topnav");
  const a = el("a", "", `← ${t("mn.home")}`);
  a.href = "/";
  nav.append(a);
  return nav;
}

/** Route every location with `draw` from now on, starting with this one. @param {() => void} draw */
export function startRouter(draw) {
  route = draw;
  // Internal links navigate without a page load.
  document.addEventListener("click", (e) => {
    const a = /** @type {HTMLAnchorElement | null} */ (/** @type {Element} */ (e.target).closest("a[href]"));
    if (!a || a.target || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
    e.preventDefault();
    navigate(url.pathname + url.hash);
  });
  window.addEventListener("popstate", route);
  window.addEventListener("hashchange", route);
  route();
}
