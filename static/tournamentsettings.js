// @ts-check
// How a tournament is played, in words (its page's "How it is played", tournament.js): organiser,
// rounds or length and table size, the rules (the preset by its name), pace, deals, rated, who
// may join, players, when it starts, started, ends or ended.

import { el } from "./dom.js";
import { t } from "./i18n.js";
import { presetName } from "./lobby.js";
import { changesText } from "./rulechanges.js";
import { lengthText } from "./spans.js";
import { when } from "./tournaments.js";

/** @typedef {import("./tournament.js").Tournament} Tournament */
/** @typedef {import("./types.js").Catalog} Catalog */

const enc = encodeURIComponent;

/** How it is played, in words: the section "How it is played". @param {Tournament} tn
 * @param {Catalog | null} meta the option catalog, for the preset's name */
export function settings(tn, meta) {
  const s = tn.settings;
  const dl = el("dl", "stats tournament-settings");
  /** @type {[string, string | HTMLElement][]} */
  const rows = [];
  const org = el("a", "", tn.organiser.name);
  org.href = "/#player/" + enc(tn.organiser.player_id);
  rows.push([t("tn.organiser"), org]);
  if (tn.format === "swiss") {
    rows.push([t("tn.rounds"), tn.rounds_total && (s.rounds || tn.status !== "open")
      ? t("tn.n_rounds", { n: tn.rounds_total }) : t("tn.rounds_auto")]);
  } else if (tn.format === "round_robin") {
    rows.push([t("tn.rounds"), t(s.double ? "tn.meet_twice" : "tn.meet_once")]);
  } else {
    rows.push([t("tn.length"), lengthText((Number(s.minutes) || 0) * 60)]);
    rows.push([t("tn.table_size"), t("tn.n_seats", { n: Number(s.seats) || 2 })]);
  }
  rows.push([t("tn.rules"), rules(String(s.preset || "standard"), s.options || {}, meta)]);
  rows.push([t("pc.how"), s.pace === "turn_based" && s.turn_seconds
    ? t("tn.turn_based_per", { time: lengthText(Number(s.turn_seconds)) }) : t(`tn.pace_${s.pace || "live"}`)]);
  if (tn.format !== "arena") rows.push([t("tn.deals"), t(s.duplicate ? "tn.deals_duplicate" : "tn.deals_own")]);
  rows.push([t("tn.rating"), t(s.rated ? "tn.rated_yes" : "tn.rated_no")]);
  rows.push([t("tn.who_joins"), t(s.public ? "tn.public_yes" : "tn.public_no")]);
  const active = tn.players.filter((p) => !p.withdrawn).length;
  rows.push([t("tn.players_label"), t("tn.players_of", { n: active, max: Number(s.max_players) || 16 })]);
  if (tn.finished_at) rows.push([t("tn.ended"), when(tn.finished_at)]);
  else if (tn.started_at) {
    rows.push([t("tn.started"), when(tn.started_at)]);
    if (tn.ends_at) rows.push([t("tn.ends"), when(tn.ends_at)]);
  } else rows.push([t("tn.starts"), tn.starts_at ? t("tn.your_time", { when: when(tn.starts_at) }) : t("tn.starts_by_organiser")]);
  for (const [k, v] of rows) dl.append(el("dt", "", k), v instanceof HTMLElement ? wrap(v) : el("dd", "", v));
  const box = el("section", "card-panel");
  box.append(el("h2", "", t("tn.how_played")), dl);
  return box;
}

/** The preset by its name, and under it what the options change from it.
 * @param {string} preset @param {Record<string, any>} options @param {Catalog | null} meta */
function rules(preset, options, meta) {
  const box = el("span", "", presetName(meta, preset));
  const changes = meta && meta.presets[preset] ? changesText(meta, preset, options) : "";
  if (changes) box.append(el("span", "rules-changed muted small", changes));
  return box;
}

/** @param {HTMLElement} e */
const wrap = (e) => { const dd = el("dd"); dd.append(e); return dd; };
