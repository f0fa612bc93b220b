// @ts-check
// The fair-deal check (SHA-256 of the seed against the commitment) and when a daily deal's seed,
// replay and table open: at the end of its UTC day, said in the reader's own time ("Dec 8, 2026,
// 1:00 AM (in 5 h 12 min)"). Used by the result in the room, the daily results page, the replay
// viewer and the page a stranger gets for a daily deal's room.

import { date, more, t } from "./i18n.js";
import { leftText } from "./spans.js";

await more(); // these words are in the later part of the catalogue

/** Lowercase hex SHA-256 of a string's UTF-8 bytes; null where crypto.subtle is missing
 * (it needs a secure context: https, or localhost). @param {string} text */
export async function sha256hex(text) {
  if (!globalThis.crypto || !crypto.subtle) return null;
  const buf = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Check `seed` against `commitment` (lowercase hex).
 * @param {string} seed @param {string} commitment
 * @returns {Promise<"ok" | "mismatch" | "unavailable">} */
export async function verifySeed(seed, commitment) {
  const h = await sha256hex(seed);
  if (h === null) return "unavailable";
  return h === commitment ? "ok" : "mismatch";
}

/** When a daily deal of `day` (YYYY-MM-DD, UTC) opens: the next UTC midnight. @param {string} day */
export const opensAt = (day) => new Date(Date.parse(`${day}T00:00:00Z`) + 86400e3);

/** "Dec 8, 2026, 1:00 AM (in 5 h 12 min)": the moment `day` ends in this browser's time zone,
 * and how long until then while that is ahead. @param {string} day */
export function opensText(day) {
  const at = opensAt(day);
  const when = date(at, { dateStyle: "medium", timeStyle: "short" });
  const left = (+at - Date.now()) / 1000;
  return left >= 60 ? t("dy.at_in", { when, left: leftText(left) }) : t("dy.at", { when });
}

/** The day as a date people read ("December 7, 2026"): the UTC day, whatever the zone. @param {string} day */
export const dayText = (day) => date(`${day}T12:00:00Z`, { dateStyle: "long", timeZone: "UTC" });
