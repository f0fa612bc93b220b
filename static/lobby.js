// @ts-check
// The room's lobby before the game starts (seats, host controls, the rules in a line), the
// invite link, and the option catalog every form is built from.

import * as api from "./api.js";
import { button, el } from "./dom.js";
import { TEAM, teamMark } from "./table.js";

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

  const h = el("h2", "", `Room ${room.code}`);
  if (room.rated) h.append(" ", el("span", "badge rated", "rated"));
  page.append(h);
  if (room.rated) {
    page.append(el("p", "muted rated-note", "A rated match: only players with an account can sit, no bots, "
      + "and the result changes everyone's rating." + (you.account ? "" : " Claim an account to play here.")));
  }
  const rules = el("p", "muted room-summary", roomSummary(room, ctx.meta));
  rules.id = "room-summary";
  page.append(rules);

  const list = el("ul", "seats");
  list.setAttribute("aria-label", "Seats");
  for (const s of seats) {
    const li = el("li", "seat");
    li.dataset.seat = String(s.seat);
    const label = el("span", "seat-no", `Seat ${s.seat + 1}`);
    li.append(label);
    if (s.team !== null) {
      li.dataset.team = TEAM[s.team];
      li.append(teamMark(s.team));
      const mine = mySeat && mySeat.team;
      if (mySeat && s !== mySeat && s.team === mine) li.append(el("span", "partner-tag", "Partner"));
    }
    if (s.bot) {
      li.append(el("span", "seat-name", s.name), el("span", "badge", `bot · ${s.bot}`));
      if (isHost) li.append(button("Remove bot", () => ctx.send({ type: "remove_bot", seat: s.seat }), "small"));
    } else if (s.player_id !== null) {
      li.append(el("span", "seat-name", s.name + (s === mySeat ? " (you)" : "")));
      li.append(el("span", "conn " + (s.connected ? "on" : "off"), s.connected ? "online" : "away"));
      if (s === mySeat) li.append(button("Stand up", () => ctx.send({ type: "stand" }), "small"));
      else if (isHost && !s.connected) {
        li.append(button("Free seat", () => ctx.send({ type: "free_seat", seat: s.seat }), "small"));
      }
    } else {
      li.append(el("span", "seat-name muted", "empty"));
      if (!mySeat && (!room.rated || you.account)) {
        li.append(button("Sit here", () => ctx.send({ type: "sit", seat: s.seat }), "small primary"));
      }
      if (isHost && ctx.meta && !room.rated) {
        const sel = el("select", "small");
        sel.setAttribute("aria-label", `Bot level for seat ${s.seat + 1}`);
        for (const l of ctx.meta.bot_levels) {
          const o = el("option", "", l);
          o.value = l;
          sel.append(o);
        }
        // The level chosen survives the lobby being drawn again (every room update redraws it).
        const chosen = chosenLevel.get(s.seat) ?? "normal";
        if ([...sel.options].some((o) => o.value === chosen)) sel.value = chosen;
        sel.addEventListener("change", () => chosenLevel.set(s.seat, sel.value));
        li.append(sel, button("Add bot", () => ctx.send({ type: "add_bot", seat: s.seat, level: sel.value }), "small"));
      }
    }
    list.append(li);
  }
  page.append(list);


  if (isHost) {
    const full = room.seats_taken === room.seat_count;
    const start = button("Start the game", () => ctx.send({ type: "start" }), "primary big");
    start.id = "start-button";
    start.disabled = !full;
    page.append(start);
    if (!full) page.append(el("p", "muted", "Fill every seat (invite someone or add bots) to start."));
    if (ctx.meta) {
      const det = el("details", "configure");
      det.append(el("summary", "", "Change the rules"));
      const fields = optionsFields(ctx.meta, { preset: room.preset, options: room.overrides, seats: room.seat_count,
        turn_seconds: room.turn_seconds, public: room.public, hints: room.hints }, { rated: room.rated });
      det.append(fields.el, button("Apply", () => ctx.send({ type: "configure", ...fields.value() })));
      page.append(det);
    }
  } else {
    page.append(el("p", "muted", "Waiting for the host to start the game."));
  }
  return page;
}

/** The room's rules in one line: the preset by its name, seats, pay-off piles, match,
 * partners, take-backs, hints, clock, listing. @param {Room} room @param {Catalog | null} meta */
export function roomSummary(room, meta) {
  const o = room.options;
  const preset = meta && meta.presets[room.preset] ? meta.presets[room.preset].label
    : room.preset.charAt(0).toUpperCase() + room.preset.slice(1).replace(/_/g, " ");
  const parts = [`${preset} rules`, `${room.seat_count} seats`];
  if (o) {
    parts.push(`pay-off piles of ${o.payoff_size}`, o.match_target ? `match to ${o.match_target}` : "a single game");
    if (o.teams === "pairs") parts.push("partners");
    parts.push(o.take_backs ? "take-backs allowed" : "no take-backs");
  }
  parts.push(room.rated ? "no hints (rated)" : room.hints ? "hints on" : "no hints");
  parts.push(room.turn_seconds ? `${room.turn_seconds} s turn clock` : "no turn clock", room.public ? "public" : "private");
  return parts.join(" · ");
}

/** The invite link with a copy button. @param {string} url */
export function inviteBox(url) {
  const box = el("div", "invite");
  const label = el("label", "", "Invite link");
  const input = el("input");
  input.id = "invite-url";
  input.readOnly = true;
  input.value = url;
  label.htmlFor = input.id;
  const status = el("span", "copy-status");
  status.setAttribute("role", "status");
  const copy = button("Copy", async () => {
    try {
      await navigator.clipboard.writeText(url);
      status.textContent = "Copied!";
    } catch {
      input.select();
      status.textContent = "Press Ctrl+C to copy.";
    }
    setTimeout(() => { status.textContent = ""; }, 2500);
  }, "small");
  copy.id = "copy-invite";
  box.append(label, input, copy, status);
  return box;
}
