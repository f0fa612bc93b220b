// @ts-check
// Achievements, announced once: each player earns each achievement once (docs/protocol.md), and
// a finished hand's `state.awards` comes again with every state of that version (a reload, the
// room reopened), so this device remembers, per player and achievement, what it has announced
// (localStorage `spite.announced`; docs/client.md, "Results").

import { announce } from "./announce.js";
import { more, t } from "./i18n.js";

/** @typedef {import("./types.js").Awards} Awards */

const KEY = "spite.announced";

/** The "player:achievement" pairs this device has announced. @returns {Set<string>} */
function announced() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "[]");
    return new Set(Array.isArray(kept) ? kept.map(String) : []);
  } catch {
    return new Set();
  }
}

/** Say (a toast by `show`, and the live region) the achievements of `awards` that are `me`'s
 * and not announced on this device before. @param {Awards | null} awards @param {string} me
 * @param {(text: string) => void} show */
export function announceAwards(awards, me, show) {
  if (!awards) return;
  const told = announced();
  const mine = awards.achievements.filter((a) => a.player_id === me && !told.has(`${me}:${a.key}`));
  if (!mine.length) return;
  for (const a of mine) told.add(`${me}:${a.key}`);
  try {
    localStorage.setItem(KEY, JSON.stringify([...told]));
  } catch {
    // private mode: remembered for this page only
  }
  more().then(() => { // achievements' names are in the catalogue's later part
    const text = t("rm.achievement", { list: mine.map((a) => `${t(`ach.${a.key}`)} (${t(`ach.${a.key}.d`)})`).join("; ") });
    show(text);
    announce(text);
    clearOfResult();
  });
}

/** While the achievement's toast shows (at the top), the result's overlay starts below it
 * (`--toast`, style.css), so the toast never covers the result's title. */
function clearOfResult() {
  const toast = document.getElementById("toast");
  if (!toast) return;
  const fit = () => {
    const on = !toast.hidden && toast.classList.contains("award");
    document.documentElement.style.setProperty("--toast", on ? `${Math.ceil(toast.getBoundingClientRect().bottom)}px` : "0px");
    return on;
  };
  if (!fit()) return;
  const watch = new MutationObserver(() => { if (!fit()) watch.disconnect(); });
  watch.observe(toast, { attributes: true, childList: true }); // hidden, another toast, other words
}
