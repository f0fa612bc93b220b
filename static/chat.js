// @ts-check
// The chat panel of a room: a log of messages and a one-line input.

import { el } from "./dom.js";
import { clock, t } from "./i18n.js";

/** @typedef {import("./types.js").ChatMessage} ChatMessage */

/** Returns { el, input, add(msg) -> sender's name, replace(lines) }; `send(text)` is called with
 * each message typed; `replace` shows the room's history (sent on each connect) instead of the log.
 * @param {(text: string) => boolean} send */
export function chatPanel(send) {
  const box = el("section", "chat");
  box.setAttribute("aria-label", t("ch.chat"));
  const h = el("h2", "", t("ch.chat"));
  const log = el("ol", "chat-log");
  log.setAttribute("role", "log");
  log.setAttribute("aria-live", "off");
  const form = el("form", "chat-form");
  const label = el("label", "sr-only", t("ct.message"));
  const input = el("input");
  input.id = "chat-input";
  label.htmlFor = "chat-input";
  input.maxLength = 500;
  input.autocomplete = "off";
  input.placeholder = t("ct.say");
  const b = el("button", "", t("ct.send"));
  b.type = "submit";
  form.append(label, input, b);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (text && send(text)) input.value = "";
  });
  box.append(h, log, form);
  return {
    el: box,
    input,
    /** @param {Omit<ChatMessage, "type">[]} lines */
    replace(lines) {
      log.textContent = "";
      for (const line of lines) this.add(line);
    },
    /** @param {Omit<ChatMessage, "type">} msg */
    add(msg) {
      const li = el("li");
      const time = el("time", "", clock(msg.at));
      time.dateTime = msg.at;
      const from = msg.from.name;
      const seat = msg.from.seat; // a seated player's line is marked apart from a watcher's
      li.className = seat === null ? "by-watcher" : "by-player";
      const tag = el("span", "chat-tag", seat === null ? t("ch.watcher") : t("lb.seat", { n: seat + 1 }));
      li.append(time, " ", el("b", "", from), " ", tag, ": ", el("span", "", msg.text));
      log.append(li);
      while (log.children.length > 200) log.firstChild.remove();
      log.scrollTop = log.scrollHeight;
      return from;
    },
  };
}
