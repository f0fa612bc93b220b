// @ts-check
// The room page around the table: the top bar (home, room title, connection state, unread chat,
// sound, keys), the connection banner, the toast for refusals and achievements, the keyboard
// help, and the page shown when the room does not exist.

import * as api from "./api.js";
import { button, el } from "./dom.js";
import { list, sentence, t } from "./i18n.js";
import { app, leave } from "./router.js";

/** @typedef {import("./socket.js").SocketStatus} SocketStatus */
/** @typedef {import("./signal.js").TurnSignal} TurnSignal */
/**
 * @typedef {{mayLeave: () => boolean, retry: () => void, signal: TurnSignal,
 *   chat: {el: HTMLElement, input: HTMLInputElement}}} ChromeCtx
 */

/** Who watches, by name, without this browser's player ("Watching: Cleo, 2 more"), or "".
 * @param {import("./types.js").Room} room @param {string} me */
export function watchingText(room, me) {
  const others = room.watchers.filter((w) => w.player_id !== me);
  const named = others.filter((w) => w.name).map((w) => w.name);
  const unnamed = others.length - named.length;
  if (unnamed) named.push(t("rm.more", { n: unnamed }));
  return others.length ? t("rm.watching", { names: list(named) }) : "";
}

export class RoomChrome {
  /** @param {string} code @param {ChromeCtx} ctx */
  constructor(code, ctx) {
    this.code = code;
    this.ctx = ctx;
    /** @type {number | undefined} */
    this.toastTimer = undefined;
    this.unread = 0;
    this.top = el("header", "topbar");
    const home = el("a", "home-link", "← " + t("ch.home"));
    home.href = "/";
    home.addEventListener("click", (e) => { if (!ctx.mayLeave()) { e.preventDefault(); e.stopImmediatePropagation(); } });
    this.title = el("span", "room-title", t("ch.room", { code }));
    this.connDot = el("span", "conn-state", t("ch.connecting"));
    this.connDot.setAttribute("role", "status");
    this.helpButton = button(t("ch.keys"), () => this.toggleHelp(), "small keys-button");
    this.helpButton.setAttribute("aria-expanded", "false");
    this.chatBadge = button(t("ch.chat"), () => this.readChat(true), "small chat-badge");
    this.chatBadge.id = "chat-badge";
    this.chatBadge.hidden = true;
    this.top.append(home, this.title, this.connDot, this.chatBadge, ctx.signal.button(), this.helpButton);
    this.banner = el("div", "banner");
    this.banner.id = "banner";
    this.banner.hidden = true;
    this.banner.setAttribute("role", "status");
    this.toast = el("div", "toast");
    this.toast.id = "toast";
    this.toast.setAttribute("role", "alert");
    this.toast.hidden = true;
    this.helpBox = el("section", "keys-help"); // filled by keys.js when it first opens
    this.helpBox.hidden = true;
    this.away = el("div", "away-note");
    this.away.id = "away-note";
    this.away.setAttribute("role", "status");
    this.away.hidden = true;
    ctx.chat.el.addEventListener("focusin", () => this.readChat(false));
    // Read once on screen (scrolled to, or the window made taller).
    new IntersectionObserver((es) => { if (es.some((e) => e.isIntersecting)) this.readChat(false); }).observe(ctx.chat.el);
    // Lines that came while the tab was hidden are read on coming back, if the chat is in sight.
    document.addEventListener("visibilitychange", () => { if (this.unread && this.chatInSight()) this.readChat(false); });
  }

  /** What goes above the room's main part, in order. */
  parts() {
    return [this.top, this.banner, this.toast, this.helpBox, this.away];
  }

  /** What the server did for you while you were away, until closed. @param {string} text */
  showAway(text) {
    this.away.textContent = "";
    this.away.append(el("span", "", text), " ", button("OK", () => { this.away.hidden = true; }, "small"));
    this.away.hidden = false;
  }

  toggleHelp() {
    import("./keys.js").then((m) => m.showHelp(this.helpBox, this.helpButton));
  }

  /** A refusal or a problem, for five seconds, as a sentence (the catalogue's refusals start in
   * lower case: they are also said inside other sentences). @param {string} text */
  showError(text) {
    this.showToast(sentence(text), "toast", 5000);
  }

  /** News, not a problem (the rules changed, the host took you out of your seat): calmer, for
   * six seconds, read out politely. @param {string} text */
  showNotice(text) {
    this.showToast(text, "toast notice", 6000, "status");
  }

  /** An achievement, for eight seconds. @param {string} text */
  showAward(text) {
    this.showToast("★ " + text, "toast award", 8000, "status");
  }

  /** @param {string} text @param {string} cls @param {number} ms @param {string} [role] */
  showToast(text, cls, ms, role = "alert") {
    this.toast.hidden = false;
    this.toast.className = cls;
    this.toast.setAttribute("role", role);
    this.toast.textContent = text;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { this.toast.hidden = true; this.toast.className = "toast"; }, ms);
  }

  /** The chat is on the screen of a visible tab. */
  chatInSight() {
    const box = this.ctx.chat.el.getBoundingClientRect();
    return !document.hidden && this.ctx.chat.el.isConnected && box.bottom > 0 && box.top < innerHeight && box.height > 0;
  }

  /** A chat line from someone else: counted unless the chat is on screen (or being typed in). */
  unreadChat() {
    const seen = this.chatInSight() || (!document.hidden && this.ctx.chat.el.contains(document.activeElement));
    if (seen) return;
    this.unread += 1;
    this.chatBadge.hidden = false;
    this.chatBadge.textContent = t("ch.chat_new", { n: this.unread });
    this.chatBadge.setAttribute("aria-label", t("ch.unread", { n: this.unread }));
    this.ctx.signal.unread(this.unread);
  }

  /** @param {boolean} go move focus to the chat input */
  readChat(go) {
    this.unread = 0;
    this.chatBadge.hidden = true;
    this.ctx.signal.unread(0);
    if (go) this.ctx.chat.input.focus();
  }

  /** The connection's state, in the top bar and (when not open) the banner. @param {SocketStatus} s */
  status(s) {
    const b = this.banner;
    if (s.state === "open") {
      b.hidden = true;
      this.connDot.textContent = t("tb.online");
      this.connDot.className = "conn-state on";
      return;
    }
    this.connDot.className = "conn-state off";
    this.connDot.textContent = t(s.state === "closed" ? "ch.disconnected" : "ch.reconnecting");
    if (s.state === "connecting" && !s.attempt) return;
    b.hidden = false;
    b.textContent = "";
    if (s.state === "closed" && s.code === 4404) {
      this.noSuchRoom();
      return;
    }
    if (s.state === "closed") {
      b.className = "banner bad";
      b.append(s.reason + " ");
      const a = el("a", "", t("ch.go_home"));
      a.href = "/";
      b.append(a);
      if (s.code === 4401) api.forget();
    } else if (s.state === "waiting") {
      b.className = "banner";
      b.append(t("ch.lost", { n: Math.ceil(s.delay / 1000) }) + " ");
      b.append(button(t("ch.retry"), () => this.ctx.retry(), "small"));
    } else {
      b.className = "banner";
      b.append(t("ch.reconnecting_long"));
    }
  }

  /** The room does not exist: a plain page saying so, nothing else of the room. */
  noSuchRoom() {
    leave();
    app.textContent = "";
    document.title = `${t("ch.no_room")} · ${t("app.title")}`;
    const box = el("section", "card-panel no-room");
    const h = el("h1", "", t("ch.no_room"));
    h.tabIndex = -1;
    const p = el("p", "", t("ch.no_room_long", { code: this.code }));
    const a = el("a", "", t("ch.home_page"));
    a.href = "/";
    box.append(h, p, a);
    app.append(box);
    h.focus();
  }
}
