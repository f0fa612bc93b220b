// The game options form (create a room; the host reconfigures one), built from GET /api/options:
// each option with its one-line explanation. The client knows no option's meaning: only its
// name, help text, and the kind of value it takes (from the metadata or the preset's values).

import { el } from "./cards.js";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
// Shown in the form's first rows (with their own controls), not among the other options.
const MAIN = new Set(["players", "teams", "match_target"]);

function entries(x) {
  if (Array.isArray(x)) return x.map((o) => [o.name, o]);
  return Object.entries(x || {});
}

/** Normalise the server's /api/options answer into {presets, options, defaults}. */
export function normalizeMeta(data) {
  data = data || {};
  const defaults = data.defaults || data.default_options || {};
  const optionHelp = data.option_help || {};
  const presetHelp = data.preset_help || {};
  const options = entries(data.options).map(([name, o]) => {
    o = typeof o === "string" ? { help: o } : o || {};
    return { name, help: o.help || optionHelp[name] || "", choices: o.choices || o.values || null,
      min: o.min ?? (o.range ? o.range[0] : undefined), max: o.max ?? (o.range ? o.range[1] : undefined),
      type: o.kind || o.type || null, default: o.default ?? defaults[name], unlimited: o.unlimited };
  });
  for (const name of Object.keys(optionHelp)) {
    if (!options.find((o) => o.name === name)) options.push({ name, help: optionHelp[name], default: defaults[name] });
  }
  const presets = entries(data.presets).map(([name, p]) => {
    p = typeof p === "string" ? { help: p } : p || {};
    const values = p.resolved || p.values || { ...defaults, ...(p.options || p.overrides || {}) };
    return { name, help: p.help || presetHelp[name] || "", values };
  });
  for (const o of options) if (o.default === undefined && presets[0]) o.default = presets[0].values[o.name];
  const levels = Array.isArray(data.bot_levels) && data.bot_levels.length ? data.bot_levels : ["easy", "normal", "hard"];
  const hints = data.hints && typeof data.hints === "object" ? data.hints.default !== false : data.hints !== false;
  return { presets, options, defaults, levels, hints, turnSeconds: data.turn_seconds || null };
}

function controlFor(o, value) {
  const id = "opt-" + o.name;
  let input;
  const kind = o.type || (typeof value === "boolean" ? "bool" : Array.isArray(value) ? "ranks"
    : o.choices ? "choice" : o.name === "centre_stacks" ? "int_or_unlimited" : typeof value === "number" ? "int" : "text");
  if (kind === "bool" || kind === "boolean") {
    input = el("input");
    input.type = "checkbox";
    input.checked = !!value;
  } else if (kind === "ranks" || kind === "set") {
    input = el("fieldset", "ranks");
    input.append(el("legend", "sr-only", o.name));
    for (const r of o.choices || RANKS) {
      const l = el("label", "rank-box");
      const c = el("input");
      c.type = "checkbox";
      c.value = r;
      c.checked = (value || []).includes(r);
      l.append(c, r);
      input.append(l);
    }
  } else if (kind === "choice" || kind === "centre" || kind === "int_or_unlimited") {
    input = el("select");
    let choices = o.choices;
    if (!choices) {
      choices = [];
      for (let n = o.min ?? 3; n <= (o.max ?? 8); n++) choices.push(n);
      choices.push(o.unlimited || "unlimited");
    }
    for (const c of choices) {
      const opt = el("option", "", String(c).replace(/_/g, " "));
      opt.value = JSON.stringify(c);
      input.append(opt);
    }
    if (!choices.some((c) => c === value)) {
      const opt = el("option", "", String(value));
      opt.value = JSON.stringify(value);
      input.append(opt);
    }
    input.value = JSON.stringify(value);
  } else {
    input = el("input");
    input.type = kind === "int" || kind === "integer" ? "number" : "text";
    if (o.min !== undefined) input.min = o.min;
    if (o.max !== undefined) input.max = o.max;
    input.value = value ?? "";
    if (o.min !== undefined && o.min === o.max) input.disabled = true;
  }
  input.id = id;
  input.dataset.option = o.name;
  input.dataset.kind = kind;
  return input;
}

function readControl(input) {
  const k = input.dataset.kind;
  if (k === "bool" || k === "boolean") return input.checked;
  if (k === "ranks" || k === "set") return [...input.querySelectorAll("input:checked")].map((c) => c.value);
  if (k === "choice" || k === "centre" || k === "int_or_unlimited") return JSON.parse(input.value);
  if (input.type === "number") return input.value === "" ? null : Number(input.value);
  return input.value;
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The form's fields. init: {preset, options (overrides), seats, turn_seconds, public}.
 * Returns {el, value() -> {preset, options, seats, turn_seconds, public}}.
 */
export function optionsFields(meta, init = {}, { showPublic = true } = {}) {
  const box = el("div", "options-fields");
  const row = (labelText, control, help) => {
    const wrap = el("div", "field");
    const l = el("label", "", labelText);
    l.htmlFor = control.id;
    wrap.append(l, control);
    if (help) {
      const h = el("p", "help", help);
      h.id = control.id + "-help";
      control.setAttribute("aria-describedby", h.id);
      wrap.append(h);
    }
    box.append(wrap);
    return wrap;
  };

  const preset = el("select");
  preset.id = "opt-preset";
  for (const p of meta.presets) {
    const o = el("option", "", p.name.replace(/_/g, " "));
    o.value = p.name;
    preset.append(o);
  }
  preset.value = init.preset || (meta.presets[0] && meta.presets[0].name) || "standard";
  const presetRow = row("Rules", preset, "");
  const presetHelp = presetRow.querySelector(".help") || el("p", "help");
  presetHelp.id = "opt-preset-help";
  preset.setAttribute("aria-describedby", presetHelp.id);
  presetRow.append(presetHelp);

  const seats = el("select");
  seats.id = "opt-seats";
  for (let n = 2; n <= 6; n++) {
    const o = el("option", "", `${n} players`);
    o.value = String(n);
    seats.append(o);
  }
  row("Seats", seats, "How many players sit at the table (bots can fill seats).");

  const teams = el("select");
  teams.id = "opt-teams";
  for (const [v, t] of [["none", "Every player for themselves"], ["pairs", "Partners (4 or 6 players)"]]) {
    const o = el("option", "", t);
    o.value = v;
    teams.append(o);
  }
  row("Teams", teams, helpOf(meta, "teams"));

  const target = el("select");
  target.id = "opt-target";
  for (const [v, t] of [["null", "Single game"], ["25", "Match to 25"], ["50", "Match to 50"], ["100", "Match to 100"]]) {
    const o = el("option", "", t);
    o.value = v;
    target.append(o);
  }
  row("Match", target, helpOf(meta, "match_target"));

  const clock = el("select");
  clock.id = "opt-clock";
  for (const [v, t] of [["null", "No turn clock"], ["30", "30 seconds a turn"], ["60", "1 minute a turn"], ["120", "2 minutes a turn"], ["300", "5 minutes a turn"]]) {
    const o = el("option", "", t);
    o.value = v;
    clock.append(o);
  }
  clock.value = init.turn_seconds ? String(init.turn_seconds) : "null";
  if (clock.value === "") clock.value = "null";
  row("Turn clock", clock, "When time runs out, the server plays for you.");

  const hints = el("input");
  hints.type = "checkbox";
  hints.id = "opt-hints";
  hints.checked = init.hints ?? meta.hints ?? true;
  row("Hints", hints, "Players may ask the server to suggest a move.");

  let pub = null;
  if (showPublic) {
    pub = el("input");
    pub.type = "checkbox";
    pub.id = "opt-public";
    pub.checked = !!init.public;
    row("Public room", pub, "Listed on the home page so anyone can join; otherwise only people with the link.");
  }

  const more = el("details", "more-options");
  more.append(el("summary", "", "More options"));
  const list = el("div", "option-list");
  more.append(list);
  box.append(more);

  const presetValues = () => (meta.presets.find((p) => p.name === preset.value) || { values: meta.defaults }).values;
  let controls = [];
  const fill = (overrides = {}) => {
    const values = { ...presetValues(), ...overrides };
    presetHelp.textContent = (meta.presets.find((p) => p.name === preset.value) || {}).help || "";
    seats.value = String(values.players || init.seats || 2);
    teams.value = values.teams || "none";
    target.value = values.match_target ? String(values.match_target) : "null";
    if (![...target.options].some((o) => o.value === target.value)) {
      const o = el("option", "", `Match to ${values.match_target}`);
      o.value = String(values.match_target);
      target.append(o);
      target.value = o.value;
    }
    list.textContent = "";
    controls = [];
    for (const o of meta.options) {
      if (MAIN.has(o.name) || !(o.name in values)) continue;
      const c = controlFor(o, values[o.name]);
      const wrap = el("div", "field option");
      const l = el("label", "", o.name.replace(/_/g, " "));
      l.htmlFor = c.id;
      const h = el("p", "help", o.help);
      h.id = c.id + "-help";
      c.setAttribute("aria-describedby", h.id);
      wrap.append(l, c, h);
      list.append(wrap);
      controls.push(c);
    }
  };
  fill(init.options || {});
  preset.addEventListener("change", () => fill());

  return {
    el: box,
    value() {
      const base = presetValues();
      const options = {};
      for (const c of controls) {
        const v = readControl(c);
        if (!same(v, base[c.dataset.option])) options[c.dataset.option] = v;
      }
      const tv = JSON.parse(target.value);
      if (!same(tv, base.match_target ?? null)) options.match_target = tv;
      if (teams.value !== (base.teams || "none")) options.teams = teams.value;
      const out = { preset: preset.value, options, seats: Number(seats.value), turn_seconds: JSON.parse(clock.value),
        hints: hints.checked };
      if (pub) out.public = pub.checked;
      return out;
    },
  };
}

function helpOf(meta, name) {
  const o = meta.options.find((x) => x.name === name);
  return o ? o.help : "";
}
