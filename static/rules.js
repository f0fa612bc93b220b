// @ts-check
// How to play, in the rules of the options in play: the engine's option values (a room's
// `options`, or a preset's from GET /api/options), read here, never constants of its own. The
// How to play page (`/#how`, `/#how/{preset}`: a preset picked) and the room's *How to play
// with these rules* box both draw `rulesText`. Loaded when either is shown.

import * as api from "./api.js";
import { choice, el } from "./dom.js";
import { more, rankLetter, t } from "./i18n.js";

await more(); // the rules' words (`hw.`) are in the later part of the catalogue

/** @typedef {import("./types.js").Catalog} Catalog */
/** @typedef {import("./types.js").GameOptions} GameOptions */
/** @typedef {import("./types.js").OptionValue} OptionValue */

// Options the text below says in sentences; any other that differs from the standard game is
// listed under "Also in this game" by its label and value (the catalog's words).
const SAID = new Set(["players", "teams", "jokers_per_deck", "kings_wild", "wild_cannot_be", "payoff_size",
  "hand_size", "side_stacks", "centre_stacks", "completed_stacks", "stock_out", "five_card_bonus", "discard_rule",
  "must_discard", "side_to_side", "aces_on_side_stacks", "wilds_on_side_stacks", "compulsory_aces",
  "compulsory_aces_twos", "side_plays", "side_colours", "side_stacks_shown", "winner_bonus", "match_target", "take_backs"]);

/** A list item: a bold term, then sentences. @param {string} term @param {string[]} sentences */
function item(term, sentences) {
  const li = el("li");
  li.append(el("b", "", term), " ", sentences.filter(Boolean).join(" "));
  return li;
}

/** @param {string} cls @param {string[]} sentences */
const para = (cls, sentences) => el("p", cls, sentences.filter(Boolean).join(" "));

/** What a wild card is and may stand for, from `kings_wild`, `jokers_per_deck` and `wild_cannot_be`.
 * @param {GameOptions} o @returns {string[]} */
export function wildWords(o) {
  const which = o.kings_wild ? (o.jokers_per_deck ? "hw.wild_kj" : "hw.wild_k") : (o.jokers_per_deck ? "hw.wild_j" : "");
  if (!which) return [t("hw.wild_none")];
  const not = o.wild_cannot_be;
  return [t(which), not.length ? t("hw.wild_but", { tag: t("cd.wild_tag"), ranks: not }) : t("hw.wild_any", { tag: t("cd.wild_tag") }),
    not.includes("A") ? t("hw.wild_no_ace") : "", t("hw.wild_shown")];
}

/** An option's value in the catalog's words. @param {Catalog} meta @param {string} name @param {OptionValue} v */
function valueWords(meta, name, v) {
  if (typeof v === "boolean") return t(v ? "op.yes" : "op.no");
  if (Array.isArray(v)) return v.length ? v.map((r) => rankLetter(r)).join(" ") : t("op.none");
  return (meta.options[/** @type {keyof GameOptions} */ (name)].choice_labels || {})[String(v)] || String(v);
}

/**
 * The rules of `o` as the body of How to play (without its heading).
 * @param {GameOptions} o the engine's resolved options
 * @param {Catalog} meta the option catalog: labels of the options listed by name
 * @returns {HTMLElement}
 */
export function rulesText(o, meta) {
  const box = el("div", "rules-text");
  const aim = el("p");
  aim.append(el("b", "", t("hw.aim_label")), " ", t("hw.aim", { n: o.payoff_size }));
  const piles = el("ul");
  piles.append(
    item(t("hw.centre_label"), [t(o.kings_wild ? "hw.centre_q" : "hw.centre_k"),
      o.centre_stacks === "unlimited" ? t("hw.centre_unlimited") : t("hw.centre_n", { n: o.centre_stacks }),
      t(o.completed_stacks === "shuffle_into_stock" ? "hw.done_shuffle" : "hw.done_aside")]),
    item(t("hw.hand_label"), [t("hw.hand", { n: o.hand_size })]),
    item(t("hw.side_label"), [t("hw.side", { n: o.side_stacks }),
      o.discard_rule === "same_or_one_lower" ? t("hw.side_lower") : "",
      o.side_colours === "alternate" ? t("hw.side_colours") : "",
      o.aces_on_side_stacks ? "" : t("hw.side_no_aces"), o.wilds_on_side_stacks ? "" : t("hw.side_no_wilds"),
      o.side_to_side ? t("hw.side_move") : "",
      o.side_stacks_shown === "spread" ? "" : t(`hw.side_${o.side_stacks_shown}`)]));
  const turn = el("ol");
  const bonus = { refill: "hw.bonus_refill", centre_only: "hw.bonus_centre", none: "hw.bonus_none" }[o.five_card_bonus];
  turn.append(el("li", "", t("hw.turn_play")), el("li", "", t(bonus || "hw.bonus_none", { n: o.hand_size })),
    el("li", "", o.side_plays === "many" ? [t("hw.end_many"), o.must_discard ? t("hw.end_must") : ""].join(" ").trim()
      : t(o.must_discard ? "hw.end_discard" : "hw.end_may")));
  const stock = { draw: "hw.stock_draw", fewest_wins: "hw.stock_fewest", play_on: "hw.stock_play_on" }[o.stock_out];
  const tip = el("p");
  tip.append(el("b", "", t("hw.tip_label")), " ", t("hw.tip"));
  box.append(aim, piles, el("h2", "", t("hw.turn")), turn, para("wild-rule", wildWords(o)),
    para("", [o.compulsory_aces ? t("hw.aces_now") : "", o.compulsory_aces_twos ? t("hw.aces_twos") : ""]), tip,
    para("", [t("hw.score", { n: o.winner_bonus }), o.match_target ? t("hw.match", { n: o.match_target }) : t("hw.single"),
      stock ? t(stock) : "", o.teams === "pairs" ? t("hw.partners") : "", o.take_backs ? t("hw.take_backs") : ""]));
  const others = Object.keys(meta.options).filter((name) => !SAID.has(name)
    && JSON.stringify(o[/** @type {keyof GameOptions} */ (name)]) !== JSON.stringify(meta.defaults[/** @type {keyof GameOptions} */ (name)]));
  if (others.length) {
    const list = el("ul", "other-rules");
    for (const name of others) {
      const label = meta.options[/** @type {keyof GameOptions} */ (name)].label;
      list.append(el("li", "", t("hw.other_one", { label, value: valueWords(meta, name, o[/** @type {keyof GameOptions} */ (name)]) })));
    }
    box.append(el("p", "", t("hw.other")), list);
  }
  for (const p of box.querySelectorAll("p")) if (!p.textContent) p.remove();
  return box;
}

/** The How to play page: the rules of a preset (the standard game unless the address names
 * another: `/#how/{preset}`), with a picker of the presets. @param {string} [preset] */
export function howToPlay(preset = "standard") {
  const page = el("article", "card-panel how-to");
  page.append(el("h1", "", t("hw.title")));
  const body = el("div");
  page.append(body);
  api.options().then((meta) => {
    const names = Object.keys(meta.presets);
    const pick = choice("how-preset", names.map((name) => [name, meta.presets[name].label]));
    pick.value = names.includes(preset) ? preset : "standard";
    const label = el("label", "", t("hw.preset") + " ");
    label.htmlFor = pick.id;
    const row = el("p", "how-preset");
    row.append(label, pick);
    const draw = () => {
      body.textContent = "";
      body.append(rulesText(meta.presets[pick.value].options, meta));
    };
    pick.addEventListener("change", () => {
      history.replaceState(history.state, "", "/#how/" + encodeURIComponent(pick.value));
      draw();
    });
    page.insertBefore(row, body);
    draw();
  }).catch((ex) => { body.textContent = t("hm.rules_failed", { text: ex.message }); });
  const back = el("a", "", t("hw.back"));
  back.href = "/";
  const foot = el("p");
  foot.append(back);
  page.append(foot);
  return page;
}

/**
 * The room's *How to play with these rules*: folded; drawn from the room's options each time it
 * is opened, and again while open when they change (`update`).
 * @param {() => GameOptions | null | undefined} options the options in play now
 * @param {() => Promise<Catalog>} catalog
 */
export function rulesBox(options, catalog) {
  const box = el("details", "card-panel room-rules");
  box.id = "room-rules";
  box.append(el("summary", "", t("hw.these_rules")));
  const body = el("div");
  box.append(body);
  const update = () => {
    const o = options();
    if (!box.open || !o) return;
    catalog().then((meta) => { body.textContent = ""; body.append(rulesText(o, meta)); }, () => {});
  };
  box.addEventListener("toggle", update);
  return { el: box, update };
}
