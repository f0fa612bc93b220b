// @ts-check
// The room socket (protocol.md): hello first, automatic reconnect with backoff, keep-alive pings.
// It knows nothing of the game: it makes each delta the state it stands for ("View formats"),
// hands every message to `onMessage` and reports its state through `onStatus`.

import { currentLang, named, t } from "./i18n.js";

/** @typedef {import("./types.js").ClientMessage} ClientMessage */
/** @typedef {import("./types.js").ServerMessage} ServerMessage */
/** @typedef {import("./types.js").StateMessage} StateMessage */
/**
 * "connecting" (try `attempt`), "open", "waiting" (to retry after `delay` ms) or "closed" (gives
 * up: `code` and a sentence saying why).
 * @typedef {{state: "connecting", attempt: number} | {state: "open"} | {state: "waiting", attempt: number, delay: number}
 *   | {state: "closed", code: number, reason: string}} SocketStatus
 */

/** Close codes after which trying again cannot help. @type {Record<number, string>} */
const FINAL = {
  4401: "so.4401",
  4403: "so.4403",
  4404: "so.4404",
  4429: "so.4429",
};
// The close code after which we come back at once: the server restarts (or rebuilds the room).
const RESTART = 1012;

export class RoomSocket {
  /**
   * @param {string} code
   * @param {string} token
   * @param {{onMessage: (msg: ServerMessage) => void, onStatus: (s: SocketStatus) => void}} hooks
   */
  constructor(code, token, { onMessage, onStatus }) {
    this.code = code;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    /** @type {number | null} the last version seen, sent with each hello */
    this.lastV = null;
    /** @type {StateMessage | null} */
    this.held = null;
    this.attempt = 0;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.stopped = false;
    /** @type {number | undefined} */
    this.timer = undefined;
    /** @type {number | undefined} */
    this.pinger = undefined;
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/rooms/${encodeURIComponent(this.code)}`;
  }

  connect() {
    clearTimeout(this.timer);
    if (this.stopped) return;
    this.onStatus({ state: "connecting", attempt: this.attempt });
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", token: this.token, last_v: this.lastV, format: "delta", lang: currentLang() }));
    };
    ws.onmessage = (ev) => {
      let msg = /** @type {ServerMessage} */ (JSON.parse(ev.data, named));
      if (msg.type === "delta") {
        const h = this.held;
        if (!h || h.v !== msg.base || h.match_id !== msg.match_id) {
          this.send({ type: "sync" });
          return;
        }
        const s = /** @type {any} */ ({ ...h.shared, ...msg.shared }), o = /** @type {any} */ ({ ...h.own, ...msg.own });
        for (const k of msg.gone) delete s[k], delete o[k];
        s.players = [...s.players];
        for (const i in msg.players) s.players[i] = { ...s.players[i], ...msg.players[i] };
        msg = { ...msg, type: "state", shared: s, own: o };
      }
      if (msg.type === "state") this.held = msg, this.lastV = msg.v;
      if (msg.type === "welcome") {
        this.attempt = 0;
        this.onStatus({ state: "open" });
        clearInterval(this.pinger);
        this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
      }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      if (FINAL[ev.code]) {
        this.stopped = true;
        this.onStatus({ state: "closed", code: ev.code, reason: t(FINAL[ev.code]) });
        return;
      }
      if (ev.code === RESTART && this.attempt === 0) {
        this.attempt = 1;
        this.connect();
        return;
      }
      this.retry();
    };
    ws.onerror = () => {};
  }

  retry() {
    this.attempt += 1;
    // 0.5 s, 1 s, 2 s, 4 s, 8 s, then every 15 s, each with up to 30% jitter.
    const base = Math.min(15000, 500 * 2 ** (this.attempt - 1));
    const delay = Math.round(base * (1 + Math.random() * 0.3));
    this.onStatus({ state: "waiting", attempt: this.attempt, delay });
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Try again now (the banner's button). */
  now() {
    if (this.stopped || (this.ws && this.ws.readyState <= 1)) return;
    this.connect();
  }

  get open() {
    return !!this.ws && this.ws.readyState === 1;
  }

  /** Send one message; false when the socket is not open (the caller shows why). @param {ClientMessage} msg */
  send(msg) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }
}
