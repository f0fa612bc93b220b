// @ts-check
// Lengths of time in words ("1 day", "23 h 59 min"), from the catalogue (`tm.*`): a turn's
// length and the time left.

import { t } from "./i18n.js";

const HOUR = 3600;
const DAY = 86400;

/** A turn's length: "1 day", "3 days", "12 hours", "1 h 30 min", "5 min", "30 s".
 * @param {number} seconds */
export function lengthText(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s >= DAY && s % DAY === 0) return t("tm.days", { n: s / DAY });
  if (s >= HOUR && s % HOUR === 0) return t("tm.hours", { n: s / HOUR });
  if (s >= HOUR) return leftText(s);
  if (s >= 60 && s % 60 === 0) return t("tm.min", { n: s / 60 });
  return t("tm.s", { n: s });
}

/** Time left, whole units counted down: "1 day 3 h", "23 h 59 min", "12 min". @param {number} seconds */
export function leftText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const days = Math.floor(s / DAY);
  const h = Math.floor((s % DAY) / HOUR);
  if (days) return h ? t("tm.days_h", { n: days, h }) : t("tm.days", { n: days });
  const m = Math.floor((s % HOUR) / 60);
  if (h) return t("tm.h_min", { h, m });
  return t("tm.min", { n: m });
}
