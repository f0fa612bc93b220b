// @ts-check
// The room's lobby before the game starts (seats, host controls, the rules in a line), the
// invite link, and the option catalog every form is built from.

import * as api from "./api.js";
import { button, el } from "./dom.js";
import { t } from "./i18n.js";
import { lengthText } from "./spans.js";
import { TEAM, teamMark } from "./table.js";

/** The host's Change the rules form as last drawn. @type {{key: string, open: boolean, fields: ReturnType<typeof optionsFields>} | null} */
let form = null;
/** Bot level picked per empty seat, kept across redraws of the lobby. @type {Map<number, string>} */
const chosenLevel = new Map();

/** @typedef {import("./types.js").Catalog} Catalog */
/** @typedef {import("./types.js").ClientMessage} ClientMessage */
/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").You} You */

/** @type {Promise<Catalog> | null} */
let metaCache = null;
/** @type {typeof import("./options.js") | null} the options form, loaded beside the catalog */
let forms = null;

/** The option catalog (GET /api/options), fetched once, with the module of the options form
 * (loaded while the catalog is fetched, not with the first page). */
export function loadMeta() {
  if (!metaCache) {
    const module = import("./options.js");
    metaCache = Promise.all([api.options(), module])
      .then(([catalog, m]) => { forms = m; return catalog; })
      .catch((ex) => { metaCache = null; throw ex; });
  }
  return metaCache;
}

/** @param {Parameters<typeof import("./options.js").changeNotice>} args */
export const changeNotice = (...args) => (forms ? forms.changeNotice(...args) : "");

/** The options form; only once `loadMeta` has resolved.
 * @param {Parameters<typeof import("./options.js").optionsFields>} args */
export function optionsFields(...args) {
  return forms.optionsFields(...args);
}

/**
 * The lobby of `room` for the receiver `you` (from `welcome`); `meta` is null until the option
 * catalog has come.
 * @param {Room} room
 * @param {You} you
 * @param {{send: (msg: ClientMessage) => boolean, meta: Catalog | null}} ctx
 */
export function roomLobby(room, you, ctx) {
  const page = el("div", "lobby");
  const isHost = room.host === you.player_id;
  const seats = room.seats;
  const mySeat = seats.find((s) => s.player_id === you.player_id);

  const h = el("h2", "", t("ch.room", { code: room.code }));
  if (room.rated) h.append(" ", el("span", "badge rated", t("lb.rated")));
  page.append(h);
  if (room.rated) {
    page.append(el("p", "muted rated-note", t("lb.rated_note") + (you.account ? "" : " " + t("lb.claim"))));
  }
  const rules = el("p", "muted room-summary", roomSummary(room, ctx.meta));
  rules.id = "room-summary";
  page.append(rules);

  const list = el("ul", "seats");
  list.setAttribute("aria-label", t("lb.seats"));
  for (const s of seats) {
    const li = el("li", "seat");
    li.dataset.seat = String(s.seat);
    const label = el("span", "seat-no", t("lb.seat", { n: s.seat + 1 }));
    li.append(label);
    if (s.team !== null) {
      li.dataset.team = TEAM[s.team];
      li.append(teamMark(s.team));
      const mine = mySeat && mySeat.team;
      if (mySeat && s !== mySeat && s.team === mine) li.append(el("span", "partner-tag", t("tb.partner")));
    }
    if (s.bot) {
      li.append(el("span", "seat-name", s.name), el("span", "badge", `${t("tb.bot")} · ${t(`lb.level_${s.bot}`)}`));
      if (isHost) li.append(button(t("lb.remove_bot"), () => ctx.send({ type: "remove_bot", seat: s.seat }), "small"));
    } else if (s.player_id !== null) {
      li.append(el("span", "seat-name", s === mySeat ? t("tb.you", { name: s.name }) : s.name));
      li.append(el("span", "conn " + (s.connected ? "on" : "off"), t(s.connected ? "tb.online" : "tb.away")));
      if (s === mySeat) li.append(button(t("lb.stand"), () => ctx.send({ type: "stand" }), "small"));
      else if (isHost) li.append(button(t("lb.remove"), () => ctx.send({ type: "remove_player", seat: s.seat }), "small"));
    } else {
      li.append(el("span", "seat-name muted", t("lb.empty")));
      if (!mySeat && (!room.rated || you.account)) {
        const sit = button(t("lb.sit"), () => ctx.send({ type: "sit", seat: s.seat }), "small primary");
        sit.id = `sit-${s.seat}`; // the focus stays on it across a redraw (focus.js)
        li.append(sit);
      }
      if (isHost && ctx.meta && !room.rated) {
        const sel = el("select", "small");
        sel.setAttribute("aria-label", t("lb.level_for", { n: s.seat + 1 }));
        for (const l of ctx.meta.bot_levels) {
          const o = el("option", "", t(`lb.level_${l}`));
          o.value = l;
          sel.append(o);
        }
        // The level chosen survives the lobby being drawn again (every room update redraws it).
        const chosen = chosenLevel.get(s.seat) ?? "normal";
        if ([...sel.options].some((o) => o.value === chosen)) sel.value = chosen;
        sel.addEventListener("change", () => chosenLevel.set(s.seat, sel.value));
        li.append(sel, button(t("lb.add_bot"), () => ctx.send({ type: "add_bot", seat: s.seat, level: sel.value }), "small"));
      }
    }
    list.append(li);
  }
  page.append(list);


  if (isHost) {
    const full = room.seats_taken === room.seat_count;
    const start = button(t("lb.start"), () => ctx.send({ type: "start" }), "primary big");
    start.id = "start-button";
    start.disabled = !full;
    page.append(start);
    if (!full) page.append(el("p", "muted", t(room.rated ? "lb.fill_rated" : "lb.fill")));
    if (ctx.meta) {
      // Kept open, with what the host typed, while the room's rules stay the same (someone sits).
      const init = { preset: room.preset, options: room.overrides, seats: room.seat_count,
        turn_seconds: room.turn_seconds, public: room.public, hints: room.hints, pace: room.pace };
      const key = room.code + JSON.stringify(init);
      if (!form || form.key !== key) form = { key, open: false, fields: optionsFields(ctx.meta, init, { rated: room.rated }) };
      const { fields } = form;
      const det = el("details", "configure");
      det.open = form.open;
      const sum = el("summary", "", t("lb.change"));
      sum.addEventListener("click", () => { form.open = !det.open; }); // at once: a redraw may come first
      det.addEventListener("toggle", () => { form.open = det.open; });
      det.append(sum);
      det.append(fields.el, button(t("lb.apply"), () => ctx.send({ type: "configure", ...fields.value() })));
      page.append(det);
    }
  } else if (mySeat) {
    page.append(el("p", "muted", t("lb.waiting_host")));
  } else if (!room.rated || you.account) { // not seated
    const free = seats.some((s) => s.player_id === null && !s.bot);
    const line = el("p", free ? "take-seat" : "muted", t(free ? "lb.take_seat" : "lb.seats_full"));
    line.id = "lobby-next";
    page.append(line);
  }
  return page;
}

/** The room's rules in one line: the preset by its name, seats, pay-off piles, match,
 * partners, take-backs, hints, clock, listing. @param {Room} room @param {Catalog | null} meta */
export function roomSummary(room, meta) {
  const o = room.options;
  const parts = [t("lb.s_rules", { preset: presetName(meta, room.preset) }), t("lb.s_seats", { n: room.seat_count })];
  if (o) {
    parts.push(t("lb.s_payoff", { n: o.payoff_size }), o.match_target ? t("tb.match_to", { n: o.match_target }) : t("lb.s_single"));
    if (o.teams === "pairs") parts.push(t("lb.s_partners"));
    parts.push(t(o.take_backs ? "lb.s_undo" : "lb.s_no_undo"));
  }
  parts.push(t(room.rated ? "lb.s_no_hints_rated" : room.hints ? "lb.s_hints" : "lb.s_no_hints"));
  const time = room.turn_seconds ? lengthText(room.turn_seconds) : "";
  parts.push(room.pace === "turn_based" ? t("lb.s_turn_based", { time }) : time ? t("lb.s_clock", { time }) : t("lb.s_no_clock"));
  parts.push(t(room.public ? "lb.s_public" : "lb.s_private"));
  return parts.join(" · ");
}

/** A preset's name: the catalog's words (until it has come, its key made readable).
 * @param {Catalog | null} meta @param {string} name */
export const presetName = (meta, name) => meta?.presets[name]?.label ?? name.charAt(0).toUpperCase() + name.slice(1).replace(/_/g, " ");

/** The invite link with a copy button. @param {string} url */
export function inviteBox(url) {
  const box = el("div", "invite");
  const label = el("label", "", t("lb.invite"));
  const input = el("input");
  input.id = "invite-url";
  input.readOnly = true;
  input.value = url;
  label.htmlFor = input.id;
  const status = el("span", "copy-status");
  status.setAttribute("role", "status");
  const copy = button(t("lb.copy"), async () => {
    try {
      await navigator.clipboard.writeText(url);
      status.textContent = t("lb.copied");
    } catch {
      input.select();
      status.textContent = t("lb.press_copy");
    }
    setTimeout(() => { status.textContent = ""; }, 2500);
  }, "small");
  copy.id = "copy-invite";
  box.append(label, input, copy, status);
  return box;
}
