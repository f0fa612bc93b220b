// Drawing cards (CSS + Unicode suit signs, no images) and naming them for screen readers.

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAME = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAME = { A: "Ace", J: "Jack", Q: "Queen", K: "King", JOKER: "Joker" };

export const rankName = (r) => RANK_NAME[r] || r;

/** "7 of hearts", "King of clubs (wild, as 7)", "Joker". */
export function cardName(c) {
  if (!c) return "no card";
  let s = c.rank === "JOKER" ? "Joker" : `${rankName(c.rank)} of ${SUIT_NAME[c.suit] || ""}`;
  if (c.as) s += ` (wild, as ${rankName(c.as)})`;
  else if (c.wild) s += " (wild)";
  return s;
}

/** Short text such as "7♥" for logs and chat. */
export function cardShort(c) {
  if (!c) return "";
  return c.rank === "JOKER" ? "🃏" : c.rank + (SUIT[c.suit] || "");
}

/** The rank a centre stack has reached (a wild counts as the rank it stands for). */
export function stackRank(stack) {
  const top = stack[stack.length - 1];
  return top ? top.as || top.rank : null;
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** A face-up card. `opts.button`: make it a focusable button. */
export function cardFace(c, opts = {}) {
  const e = el(opts.button ? "button" : "div", "card face");
  if (opts.button) e.type = "button";
  const red = c.suit === "H" || c.suit === "D";
  e.classList.add(red ? "red" : "black");
  if (c.rank === "JOKER") e.classList.add("joker");
  if (c.wild || c.as) e.classList.add("wild");
  e.dataset.card = String(c.id);
  const corner = el("span", "corner", c.rank === "JOKER" ? "★" : c.rank);
  const suit = el("span", "pip", c.rank === "JOKER" ? "🃏" : SUIT[c.suit] || "");
  corner.setAttribute("aria-hidden", "true");
  suit.setAttribute("aria-hidden", "true");
  e.append(corner, suit);
  if (c.as) {
    const as = el("span", "as", "=" + c.as);
    as.title = `wild, stands for ${rankName(c.as)}`;
    as.setAttribute("aria-hidden", "true");
    e.append(as);
  }
  if (!opts.button) e.setAttribute("role", "img");
  e.setAttribute("aria-label", opts.label || cardName(c));
  return e;
}

/** A face-down card (the client never has its face). */
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

/** An empty place on the table. */
export function cardSpace(label) {
  const e = el("div", "card space");
  if (label) e.append(el("span", "space-label", label));
  return e;
}

export { el };
