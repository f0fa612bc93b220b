// @ts-check
// What a room's or a tournament's options change from their preset's rules, said in a sentence
// (the options form's note under the preset; a tournament's "How it is played").

import { list as listWords, more, rankLetter, t } from "./i18n.js";

await more(); // the words (op.*) are in the later part of the catalogue

/** @typedef {import("./types.js").Catalog} Catalog */
/** @typedef {import("./types.js").GameOptions} GameOptions */
/** @typedef {import("./types.js").OptionValue} OptionValue */

/** What `options` change from the preset's rules, in a sentence ("Changed from Short game: Pay-off
 * pile size: 10 (not 13)."); "" when nothing. The form's note, and a tournament's rules.
 * @param {Catalog} meta @param {string} preset @param {Partial<GameOptions>} options */
export function changesText(meta, preset, options) {
  const base = meta.presets[preset].options;
  /** How a value reads. @param {keyof GameOptions} name @param {OptionValue} v */
  const say = (name, v) => {
    if (name === "match_target") return v === null ? t("op.single") : t("op.match_to", { n: v });
    if (name === "teams") return t(`op.teams_${v}`);
    if (typeof v === "boolean") return t(v ? "op.yes" : "op.no");
    if (Array.isArray(v)) return v.length ? v.map((r) => rankLetter(r)).join(" ") : t("op.none");
    return (meta.options[name].choice_labels || {})[JSON.stringify(v).replace(/^"|"$/g, "")] || String(v);
  };
  const items = Object.entries(options).map(([key, v]) => {
    const name = /** @type {keyof GameOptions} */ (key);
    return t("op.changed_one", { label: meta.options[name].label, value: say(name, v), was: say(name, base[name]) });
  });
  return items.length ? t("op.changed", { preset: meta.presets[preset].label, list: listWords(items) }) : "";
}
