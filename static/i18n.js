// @ts-check
// Languages: see docs/client.md, "Languages" (the catalogue, its parts, the picker).

const KEY = "spite.lang";
const root = document.documentElement;
/** The languages there are catalogues for (the server lists them on <html data-langs>). */
export const LANGS = (root.dataset.langs || "en").split(" ");

/** @param {readonly string[]} tags @returns {string | null} */
function negotiate(tags) {
  for (const tag of tags) {
    const low = String(tag).toLowerCase();
    const hit = [low, low.split("-")[0]].find((c) => LANGS.includes(c));
    if (hit) return hit;
  }
  return null;
}

/** @returns {string | null} */
function stored() {
  try {
    const v = localStorage.getItem(KEY);
    return LANGS.includes(v) ? v : null;
  } catch {
    return null;
  }
}

/** @type {Record<string, string>} */
let texts = {};
let lang = "en";
let plurals = new Intl.PluralRules("en");

/** Load `code`'s catalogue (English if it cannot be had). @param {string} code */
export async function load(code) {
  for (const c of [code, "en"]) {
    try {
      const r = await fetch(`/i18n/${c}.json`);
      if (!r.ok) continue;
      Object.assign(texts, await r.json()); // beside a part that may have come first
      lang = root.lang = c;
      plurals = new Intl.PluralRules(c);
      return;
    } catch {
      // English next
    }
  }
}

/** @type {Record<string, Promise<void>>} */
const parts = {};
/** @param {string} c @param {string} name */
const part = (c, name) => fetch(`/i18n/${c}.${name}.json`).then((r) => r.json()).then((d) => { Object.assign(texts, d); }, () => {});
const wanted = stored() || negotiate(navigator.languages || []) || negotiate([root.lang]) || "en";
if (!location.pathname.startsWith("/r/")) parts.home = part(wanted, "home"); // beside, not after
await load(wanted);
if (lang !== wanted) delete parts.home;

export const currentLang = () => lang;
/** A part of the catalogue (docs/client.md), fetched once: a module awaits it before drawing. @param {string} [name] */
export const more = (name = "later") => (parts[name] ||= part(lang, name));
/** @param {number} n @param {Intl.NumberFormatOptions} [o] */
export const num = (n, o) => new Intl.NumberFormat(lang, o).format(n);
/** @param {string | number | Date} d @param {Intl.DateTimeFormatOptions} [o] */
export const date = (d, o = { dateStyle: "medium" }) => (isNaN(+new Date(d)) ? String(d) : new Intl.DateTimeFormat(lang, o).format(new Date(d)));
/** @param {string | number | Date} d */
export const clock = (d) => date(d, { timeStyle: "short" });
/** "a, b or c". @param {string[]} items @param {boolean} [or] */
export const list = (items, or = false) =>
  new Intl.ListFormat(lang, { type: or ? "disjunction" : "conjunction" }).format(items);

/** @type {Record<string, number>} */
const RANKS = { A: 1, J: 11, Q: 12, K: 13, JK: 14, JOKER: 14 };
/** @param {unknown} v */
const rankOf = (v) => RANKS[String(v)] || Number(v) || 0;

/** A rank ("A", "7", "Q" or 1..14) as a word and as a card's corner letter. @param {unknown} r */
export const rankWord = (r) => texts[`rank.${rankOf(r)}`] || String(r);
/** @param {unknown} r */
export const rankLetter = (r) => texts[`card_short.${rankOf(r)}`] || String(r);

/** A parameter as its placeholder's kind says it. @param {unknown} v @param {string} [kind] @returns {string} */
function say(v, kind) {
  if (kind === "rank" || kind === "a_rank") return texts[`${kind}.${rankOf(v)}`] || String(v);
  if (kind === "ranks_or") return list((/** @type {unknown[]} */ (v) || []).map((r) => say(r, "rank")), true);
  if (kind) return texts[`${kind}.${v}`] || String(v);
  return typeof v === "number" ? num(v) : String(v ?? "");
}

/**
 * `key` in the page's language with its `{name}` placeholders filled from `params`; a key with
 * plural forms (`key#one`, `key#other`, …) picks one by `params.n`. A missing key shows as itself.
 * @param {string} key @param {Record<string, unknown>} [params] @returns {string}
 */
export function t(key, params = {}) {
  let text = texts[key];
  if (text === undefined && `${key}#other` in texts) {
    text = texts[`${key}#${plurals.select(Number(params.n ?? 0))}`] ?? texts[`${key}#other`];
  }
  return text === undefined ? key : text.replace(/\{(\w+)(?::(\w+))?\}/g, (_, n, k) => say(params[n], k));
}

/** `text` as a sentence of its own: its first letter a capital ("it is not your turn" → "It is
 * not your turn"). @param {string} text */
export const sentence = (text) => text.charAt(0).toLocaleUpperCase(lang) + text.slice(1);

/** A language's name in that language ("Deutsch"). @param {string} code */
const langName = (code) => {
  const name = new Intl.DisplayNames([code], { type: "language" }).of(code) || code;
  return name[0].toLocaleUpperCase(code) + name.slice(1);
};

/** Keep `code` as this browser's choice. @param {string} code */
export function remember(code) {
  try {
    localStorage.setItem(KEY, code);
  } catch {
    // private mode: the choice lasts this page
  }
}

/** The picker; a pick is kept here and by `onPick`, then the page reloads.
 * @param {(code: string) => unknown} [onPick] @returns {HTMLElement} */
export function picker(onPick) {
  const label = document.createElement("label");
  label.className = "lang-picker";
  const select = document.createElement("select");
  for (const code of LANGS) select.add(Object.assign(new Option(langName(code), code, false, code === lang), { lang: code }));
  select.addEventListener("change", async () => {
    remember(select.value);
    try {
      await onPick?.(select.value);
    } finally {
      location.reload();
    }
  });
  label.append(t("lang.pick"), " ", select);
  return label;
}

/** JSON.parse's reviver: a bot's `name`, the server's English "Normal bot 2" (a name no person
 * may take), in the page's language. @param {string} k @param {unknown} v */
export const named = (k, v) => {
  const m = k === "name" && /^(Random|Easy|Normal|Hard) bot (\d+)$/.exec(String(v));
  return m ? t(`lb.bot_${m[1].toLowerCase()}`, { n: +m[2] }) : v;
};

/** The player's language once known: followed (reloading) when this browser has no pick. @param {string | null} [code] */
export function followPlayer(code) {
  if (!code || stored() || !LANGS.includes(code)) return;
  remember(code);
  if (code !== lang) location.reload();
}

// The shell's own words (the skip link), said by the server in Accept-Language's language: in the page's.
for (const e of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-i18n]"))) e.textContent = t(e.dataset.i18n);
