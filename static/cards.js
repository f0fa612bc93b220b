// @ts-check
// Drawing cards (CSS + Unicode suit signs, no images) and naming them for screen readers.

import { el } from "./dom.js";
import { rankLetter, rankWord, t } from "./i18n.js";

/** @typedef {import("./types.js").Card} Card */
/** @typedef {import("./types.js").Rank} Rank */

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** @param {Rank} r */
export const rankName = (r) => rankWord(r);

/** "7 of hearts", "King of clubs (wild, as 7)", "Joker". @param {Card | null} c */
export function cardName(c) {
  if (!c) return t("cd.none");
  const s = c.rank === "JOKER" ? rankName(c.rank) : t("cd.card", { rank: rankName(c.rank), suit: t(`cd.${c.suit}`) });
  if (c.as) return t("cd.wild_as", { card: s, rank: rankName(c.as) });
  return c.wild ? t("cd.wild", { card: s }) : s;
}

/** The rank a centre stack has reached (a wild counts as the rank it stands for). @param {Card[]} stack */
export function stackRank(stack) {
  const top = stack[stack.length - 1];
  return top ? top.as || top.rank : null;
}

/**
 * A face-up card. `opts.button`: make it a focusable button.
 * @param {Card} c
 * @param {{button?: boolean, label?: string}} [opts]
 */
export function cardFace(c, opts = {}) {
  const e = opts.button ? el("button", "card face") : el("div", "card face");
  if (e instanceof HTMLButtonElement) e.type = "button";
  const red = c.suit === "H" || c.suit === "D";
  e.classList.add(red ? "red" : "black");
  if (c.rank === "JOKER") e.classList.add("joker");
  if (c.wild || c.as) e.classList.add("wild");
  e.dataset.card = String(c.id);
  const corner = el("span", "corner", c.rank === "JOKER" ? "★" : rankLetter(c.rank));
  const suit = el("span", "pip", c.rank === "JOKER" ? "🃏" : SUIT[c.suit]);
  corner.setAttribute("aria-hidden", "true");
  suit.setAttribute("aria-hidden", "true");
  e.append(corner, suit);
  if (c.wild && !c.as) {
    const w = el("span", "wild-tag", t("cd.wild_tag"));
    w.setAttribute("aria-hidden", "true");
    e.append(w);
  }
  if (c.as) {
    const as = el("span", "as", "=" + rankLetter(c.as));
    as.title = t("cd.stands_for", { rank: rankName(c.as) });
    as.setAttribute("aria-hidden", "true");
    e.append(as);
  }
  if (!opts.button) e.setAttribute("role", "img");
  e.setAttribute("aria-label", opts.label || cardName(c));
  return e;
}

/** A face-down card (the client never has its face). @param {string} [label] */
export function cardBack(label) {
  const e = el("div", "card back");
  if (label) {
    e.setAttribute("role", "img");
    e.setAttribute("aria-label", label);
  } else {
    e.setAttribute("aria-hidden", "true");
  }
  return e;
}

/** An empty place on the table. @param {string} [label] */
export function cardSpace(label) {
  const e = el("div", "card space");
  if (label) e.append(el("span", "space-label", label));
  return e;
}
