// @ts-check
// The game options form (create a room; the host reconfigures one), built from GET /api/options:
// each option with its one-line explanation. The client knows no option's meaning: only its
// name, help text, and the kind of value it takes (`kind` in the catalog).

import { choice, el, field } from "./dom.js";
import { more, rankLetter, t } from "./i18n.js";
import { changesText } from "./rulechanges.js";
import { lengthText } from "./spans.js";

await more(); // the form's words are in the later part of the catalogue

/** @typedef {import("./types.js").Catalog} Catalog */
/** @typedef {import("./types.js").ConfigureFields} ConfigureFields */
/** @typedef {import("./types.js").GameOptions} GameOptions */
/** @typedef {import("./types.js").OptionSpec} OptionSpec */
/** @typedef {import("./types.js").OptionValue} OptionValue */
/** @typedef {import("./types.js").Rank} Rank */
/** @typedef {import("./types.js").Room} Room */
/** @typedef {HTMLInputElement | HTMLSelectElement | HTMLFieldSetElement} Control */
/**
 * What the form starts from: the room's preset, overrides and settings (all absent on the home page).
 * @typedef {object} FormInit
 * @property {string} [preset]
 * @property {Partial<GameOptions>} [options]
 * @property {number} [seats]
 * @property {number | null} [turn_seconds]
 * @property {boolean} [public]
 * @property {boolean} [hints]
 * @property {string} [pace]  a turn-based room's clock offers hours and days
 */

/** @type {Rank[]} */
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
// Shown in the form's first rows (with their own controls), not among the other options.
const MAIN = new Set(["players", "teams", "match_target", "payoff_size"]);
/** A turn-based room's turn lengths (seconds): hours to two weeks, as on the create-room form. */
const TURN_BASED = [3600, 43200, 86400, 259200, 604800, 1209600];

/** @param {string} name @param {OptionSpec} o @param {OptionValue} value @returns {Control} */
function controlFor(name, o, value) {
  /** @type {Control} */
  let input;
  if (o.kind === "bool") {
    const box = el("input");
    box.type = "checkbox";
    box.checked = value === true;
    input = box;
  } else if (o.kind === "ranks") {
    input = el("fieldset", "ranks");
    input.append(el("legend", "sr-only", o.label));
    const chosen = /** @type {Rank[]} */ (value);
    for (const r of RANKS) {
      const l = el("label", "rank-box");
      const c = el("input");
      c.type = "checkbox";
      c.value = r;
      c.checked = chosen.includes(r);
      l.append(c, rankLetter(r));
      input.append(l);
    }
  } else if (o.kind === "choice" || o.kind === "int_or_unlimited") {
    const select = el("select");
    /** @type {(string | number)[]} */
    let choices;
    if (o.kind === "choice") {
      choices = o.choices;
    } else {
      choices = [];
      for (let n = o.min; n <= o.max; n++) choices.push(n);
      choices.push(o.unlimited);
      for (const extra of o.also || []) choices.push(extra);
    }
    const words = o.choice_labels || {};
    for (const c of choices) {
      const opt = el("option", "", words[String(c)] || String(c).replace(/_/g, " "));
      opt.value = JSON.stringify(c);
      select.append(opt);
    }
    select.value = JSON.stringify(value);
    input = select;
  } else {
    const number = el("input");
    number.type = "number";
    number.min = String(o.min);
    if (o.kind === "int") number.max = String(o.max);
    number.value = value === null ? "" : String(value);
    input = number;
  }
  input.id = "opt-" + name;
  input.dataset.option = name;
  input.dataset.kind = o.kind;
  return input;
}

/** @param {Control} input @returns {OptionValue} */
function readControl(input) {
  if (input instanceof HTMLFieldSetElement) {
    const boxes = /** @type {NodeListOf<HTMLInputElement>} */ (input.querySelectorAll("input:checked"));
    return [...boxes].map((c) => /** @type {Rank} */ (c.value));
  }
  if (input instanceof HTMLSelectElement) return JSON.parse(input.value);
  if (input.type === "checkbox") return input.checked;
  return input.value === "" ? null : Number(input.value);
}

/** @param {unknown} a @param {unknown} b */
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The form's fields.
 * @param {Catalog} meta
 * @param {FormInit} [init]
 * @param {{showPublic?: boolean, rated?: boolean, rulesOnly?: boolean}} [how] `rated`: a rated room (no hints);
 *   `rulesOnly`: the preset and its rules alone (a tournament's seats, clock and hints are its own; it ranks players, not pairs)
 * @returns {{el: HTMLElement, value: () => ConfigureFields, setRated: (rated: boolean) => void}}
 */
export function optionsFields(meta, init = {}, { showPublic = true, rated = false, rulesOnly = false } = {}) {
  const box = el("div", "options-fields");
  /** @param {string} labelText @param {HTMLElement} control @param {string} help */
  const row = (labelText, control, help) => {
    const wrap = field(labelText, control, help);
    box.append(wrap);
    return wrap;
  };
  const names = Object.keys(meta.presets);

  const preset = choice("opt-preset", names.map((name) => [name, meta.presets[name].label]));
  preset.value = init.preset || names[0];
  const presetRow = row(t("op.rules"), preset, "");
  const presetHelp = el("p", "help");
  presetHelp.id = "opt-preset-help";
  preset.setAttribute("aria-describedby", presetHelp.id);
  presetRow.append(presetHelp);

  const seats = el("select");
  seats.id = "opt-seats";
  for (let n = meta.seats.min; n <= meta.seats.max; n++) {
    const o = el("option", "", t("op.players", { n }));
    o.value = String(n);
    seats.append(o);
  }
  const seatsRow = row(t("lb.seats"), seats, t("op.seats_help"));

  const payoff = /** @type {HTMLInputElement} */ (controlFor("payoff_size", meta.options.payoff_size, meta.defaults.payoff_size));
  row(meta.options.payoff_size.label, payoff, t("op.payoff_help"));

  const teams = el("select");
  teams.id = "opt-teams";
  for (const v of ["none", "pairs"]) {
    const o = el("option", "", t(`op.teams_${v}`));
    o.value = v;
    teams.append(o);
  }
  const teamsRow = row(t("op.teams"), teams, meta.options.teams.help);

  const target = el("select");
  target.id = "opt-target";
  for (const v of meta.match_targets) {
    const o = el("option", "", v === null ? t("op.single") : t("op.match_to", { n: v }));
    o.value = String(v);
    target.append(o);
  }
  row(t("op.match"), target, meta.options.match_target.help);

  const clock = el("select");
  clock.id = "opt-clock";
  const based = init.pace === "turn_based" ? meta.turn_based_seconds : null; // no "no clock": a turn has a length
  /** The clocks offered, `want` chosen: a rated live room always has one (docs/protocol.md), at
   * least its shortest, so no "No turn clock" there; without one chosen, the one it gets.
   * @param {number | null} want */
  const clocks = (want) => {
    const least = rated && !based ? meta.rated_turn_seconds : null;
    if (least && (want === null || want < least.min)) want = least.default;
    clock.textContent = "";
    for (const v of based ? TURN_BASED.filter((v) => v >= based.min && v <= based.max) : [null, 30, 60, 120, 300]) {
      if (least && (v === null || v < least.min)) continue;
      const o = el("option", "", v === null ? t("op.no_clock") : based ? t("op.per_turn", { time: lengthText(v) })
        : v < 60 ? t("op.seconds", { n: v }) : t("op.minutes", { n: v / 60 }));
      o.value = String(v);
      clock.append(o);
    }
    clock.value = String(want);
    if (clock.value === "") { // a clock set through the API, not among the choices above
      const o = el("option", "", t("op.per_turn", { time: lengthText(want) }));
      o.value = String(want);
      clock.append(o);
      clock.value = o.value;
    }
  };
  let chosen = init.turn_seconds ?? null; // the host's pick, kept while Rated is ticked and unticked
  clock.addEventListener("change", () => { chosen = JSON.parse(clock.value); });
  const clockRow = row(t("op.clock"), clock, t("op.clock_help"));

  const hints = el("input");
  hints.type = "checkbox";
  hints.id = "opt-hints";
  hints.checked = init.hints ?? meta.hints.default;
  const hintsRow = row(t("op.hints"), hints, t("op.hints_help"));
  const hintsHelp = /** @type {HTMLElement} */ (hintsRow.querySelector(".help"));
  /** A rated room gives no hints: the box is off and cannot be ticked. @param {boolean} on */
  const setRated = (on) => {
    rated = on;
    clocks(chosen);
    hints.disabled = on;
    if (on) hints.checked = false;
    else hints.checked = init.hints ?? meta.hints.default;
    hintsHelp.textContent = t(on ? "op.hints_rated" : "op.hints_help");
  };
  setRated(rated);
  if (rulesOnly) for (const r of [seatsRow, teamsRow, clockRow, hintsRow]) r.remove();

  /** @type {HTMLInputElement | null} */
  let pub = null;
  if (showPublic) {
    pub = el("input");
    pub.type = "checkbox";
    pub.id = "opt-public";
    pub.checked = !!init.public;
    row(t("op.public"), pub, t("op.public_help"));
  }

  const extra = el("details", "more-options");
  extra.append(el("summary", "", t("op.more")));
  const list = el("div", "option-list");
  extra.append(list);
  box.append(extra);

  const presetValues = () => meta.presets[preset.value].options;
  /** @type {Control[]} */
  let controls = [];
  /** @param {Partial<GameOptions>} overrides @param {number} [seatCount] */
  const fill = (overrides, seatCount) => {
    /** @type {GameOptions} */
    const values = { ...presetValues(), ...overrides };
    presetHelp.textContent = meta.presets[preset.value].help;
    seats.value = String(seatCount ?? values.players);
    teams.value = values.teams;
    payoff.value = String(values.payoff_size);
    target.value = String(values.match_target);
    if (target.value === "") {
      const o = el("option", "", t("op.match_to", { n: values.match_target }));
      o.value = String(values.match_target);
      target.append(o);
      target.value = o.value;
    }
    list.textContent = "";
    controls = [];
    for (const [name, o] of Object.entries(meta.options)) {
      if (MAIN.has(name)) continue;
      const current = values[/** @type {keyof GameOptions} */ (name)];
      const wrap = el("div", "field option");
      if (o.kind === "int" && o.min === o.max) { // one value only: said, not asked
        const fixed = el("span", "fixed-value", String(current));
        fixed.id = "opt-" + name;
        wrap.append(el("label", "", o.label), fixed, el("p", "help", o.help));
        list.append(wrap);
        continue;
      }
      const c = controlFor(name, o, current);
      const l = el("label", "", o.label);
      l.htmlFor = c.id;
      const h = el("p", "help", o.help);
      h.id = c.id + "-help";
      c.setAttribute("aria-describedby", h.id);
      wrap.append(l, c, h);
      list.append(wrap);
      controls.push(c);
    }
    changed();
  };
  /** The preset's help speaks of the preset; what the form changes from it is said below it,
   * so the help never contradicts a box ("pay-off piles of 20" beside a 5). */
  const changed = () => {
    presetChanged.textContent = changesText(meta, preset.value, value().options);
    presetChanged.hidden = !presetChanged.textContent;
  };
  /** What the form asks for. @returns {ConfigureFields} */
  const value = () => {
    const base = presetValues();
    /** @type {Record<string, OptionValue>} */
    const options = {};
    for (const c of controls) {
      const v = readControl(c);
      const name = /** @type {keyof GameOptions} */ (c.dataset.option);
      if (!same(v, base[name])) options[name] = v;
    }
    const tv = JSON.parse(target.value);
    if (!same(tv, base.match_target)) options.match_target = tv;
    if (teams.value !== base.teams) options.teams = teams.value;
    const size = readControl(payoff);
    if (!same(size, base.payoff_size)) options.payoff_size = size;
    /** @type {ConfigureFields} */
    const out = { preset: preset.value, options: /** @type {Partial<GameOptions>} */ (options), seats: Number(seats.value),
      turn_seconds: JSON.parse(clock.value), hints: hints.checked && !rated };
    if (pub) out.public = pub.checked;
    return out;
  };
  const presetChanged = el("p", "help preset-changed");
  presetChanged.id = "opt-preset-changed";
  presetRow.append(presetChanged);
  fill(init.options || {}, init.seats);
  preset.addEventListener("change", () => fill({}));
  box.addEventListener("input", changed);
  box.addEventListener("change", changed);

  return { el: box, setRated, value };
}

/** What a person is told when the lobby changes under them: the host took them out of their
 * seat, or changed the rules (`summary`: the room's rules in a line). Never the host.
 * @param {Room} old @param {Room} room @param {string} me @param {string} summary
 * @param {string} sent the type of the last message this page sent (a "stand" is no news) */
export function changeNotice(old, room, me, summary, sent) {
  if (room.host === me || room.status === "playing") return "";
  /** @param {Room} r */
  const seated = (r) => r.seats.some((s) => s.player_id === me);
  if (seated(old) && !seated(room) && sent !== "stand" && old.seat_count === room.seat_count) return t("op.removed");
  /** @param {Room} r */
  const rules = (r) => JSON.stringify([r.preset, r.overrides, r.seat_count, r.turn_seconds, r.hints, r.public]);
  return rules(old) !== rules(room) ? t("op.rules_changed", { rules: summary }) : "";
}
