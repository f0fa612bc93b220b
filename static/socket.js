// The room socket (protocol.md): hello first, automatic reconnect with backoff, keep-alive pings.
// It knows nothing of the game: it hands every message to `onMessage` and reports its state
// through `onStatus({state, attempt, delay, reason})` where state is
// "connecting" | "open" | "waiting" (to retry after `delay` ms) | "closed" (gives up: `reason`).

const FINAL = {
  4401: "Your guest identity was not accepted here. Pick a name again.",
  4403: "You may not join this room.",
  4404: "There is no room with this code. Check the link or the code.",
  4429: "You have this game open in too many tabs or windows. Close one, then reload this page.",
};
// Close codes after which we come back at once (the server restarts or moves us).
const AT_ONCE = new Set([1001, 1012, 4000, 4503]);

export class RoomSocket {
  constructor(code, token, { onMessage, onStatus, lastV }) {
    this.code = code;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.lastV = lastV ?? null;
    this.attempt = 0;
    this.ws = null;
    this.stopped = false;
    this.timer = null;
    this.pinger = null;
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
      ws.send(JSON.stringify({ type: "hello", token: this.token, last_v: this.lastV }));
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (!msg || typeof msg.type !== "string") return;
      if (msg.type === "welcome") {
        this.attempt = 0;
        this.onStatus({ state: "open" });
        clearInterval(this.pinger);
        this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
      }
      if (msg.type === "state" && typeof msg.v === "number") this.lastV = msg.v;
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      if (FINAL[ev.code]) {
        this.stopped = true;
        this.onStatus({ state: "closed", code: ev.code, reason: FINAL[ev.code] });
        return;
      }
      if (AT_ONCE.has(ev.code) && this.attempt === 0) {
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

  /** Send one message; false when the socket is not open (the caller shows why). */
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
