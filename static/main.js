// @ts-check
// The client's entry: routing by location, the room socket wired to the pages, dispatch on
// msg.type. Routes: "/" home, "/r/{code}" a room (lobby, then table), "/#history" my matches,
// "/#replay/{id}" the replay viewer, "/#account" sign in / claim an account, "/#leaderboard",
// "/#player/{id}" a profile (hash routes need no extra server paths).

import "./i18n.js"; // the player's language, loaded before anything is drawn
import * as api from "./api.js";
import { animate, snapshot } from "./anim.js";
import { announce, describeEvents } from "./announce.js";
import { el } from "./cards.js";
import { chatPanel } from "./chat.js";
import { TableInput } from "./dnd.js";
import { QUICK_KEY, homePage, howToPlay, inviteBox, loadMeta, nameForm, roomLobby } from "./lobby.js";
import { endTurnMove, takeBackMove } from "./moves.js";
import { MoveLog } from "./movelog.js";
import { resultPanel } from "./results.js";
import { RoomSocket } from "./socket.js";
import { renderTable, turnText } from "./table.js";
import { TurnSignal } from "./signal.js";

/** @typedef {import("./types.js").ChatMessage} ChatMessage */
/** @typedef {import("./types.js").ClientMessage} ClientMessage */
/** @typedef {import("./types.js").Clock} Clock */
/** @typedef {import("./types.js").ErrorMessage} ErrorMessage */
/** @typedef {import("./types.js").HintMessage} HintMessage */
/** @typedef {import("./types.js").Identity} Identity */
/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").ServerMessage} ServerMessage */
/** @typedef {import("./types.js").StateMessage} StateMessage */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").You} You */
/** @typedef {import("./socket.js").SocketStatus} SocketStatus */

const app = document.getElementById("app");
/** @type {(() => void)[]} what the current page must stop when we leave it */
let cleanup = [];

function leave() {
  for (const f of cleanup) f();
  cleanup = [];
}

/** @param {number} ms @param {() => void} fn */
function every(ms, fn) {
  const t = setInterval(fn, ms);
  cleanup.push(() => clearInterval(t));
}

/** @param {string} path */
export function navigate(path) {
  if (path !== location.pathname + location.hash) history.pushState(null, "", path);
  route();
}

function route() {
  leave();
  current = null;
  app.textContent = "";
  const path = location.pathname;
  const hash = location.hash.replace(/^#\/?/, "");
  const room = path.match(/^\/r\/([^/]+)\/?$/);
  // ?seed=… (tests, development) goes with the rooms created here; the server refuses it unless
  // it runs with seeded rooms enabled.
  const seed = new URLSearchParams(location.search).get("seed");
  const ctx = { navigate, every, refresh: route, seed };
  if (room) {
    document.title = "Room " + decodeURIComponent(room[1]) + " · Spite & Malice";
    roomPage(decodeURIComponent(room[1]));
  } else if (hash === "how") {
    document.title = "How to play · Spite & Malice";
    app.append(homeLink(), howToPlay());
  } else if (hash === "history") {
    document.title = "My matches · Spite & Malice";
    later(import("./replay.js"), (m) => m.historyPage());
  } else if (hash === "account") {
    document.title = "Account · Spite & Malice";
    later(import("./account.js"), (m) => m.accountPage(ctx));
  } else if (hash === "leaderboard") {
    document.title = "Leaderboard · Spite & Malice";
    later(import("./account.js"), (m) => m.leaderboardPage());
  } else if (hash.startsWith("player/")) {
    document.title = "Player · Spite & Malice";
    later(import("./account.js"), (m) => m.profilePage(decodeURIComponent(hash.slice(7))));
  } else if (hash.startsWith("replay/")) {
    document.title = "Replay · Spite & Malice";
    later(import("./replay.js"), (m) => {
      const r = m.replayPage(decodeURIComponent(hash.slice(7)));
      cleanup.push(r.stop);
      return r.el;
    });
  } else {
    document.title = "Spite & Malice";
    app.append(homePage(ctx));
  }
  const h = /** @type {HTMLElement | null} */ (app.querySelector("h1, h2"));
  if (h && document.activeElement === document.body) h.tabIndex = -1;
}

/** A page whose module loads only when it is visited (the first load stays small): the home
 * link at once, the page when its module has arrived, unless the player has moved on by then.
 * @template M @param {Promise<M>} module @param {(m: M) => HTMLElement} page */
function later(module, page) {
  app.append(homeLink());
  const here = location.href;
  const ticket = {};
  current = ticket;
  module.then((m) => {
    if (current === ticket && location.href === here) app.append(page(m));
  }).catch((e) => {
    if (current === ticket) app.append(el("p", "error", "This page could not load: " + e.message));
  });
}

/** @type {object | null} which page `later` may still fill (a new route takes it over) */
let current = null;

function homeLink() {
  const nav = el("nav", "topnav");
  const a = el("a", "", "← Home");
  a.href = "/";
  nav.append(a);
  return nav;
}

// Internal links navigate without a page load.
document.addEventListener("click", (e) => {
  const a = /** @type {HTMLAnchorElement | null} */ (/** @type {Element} */ (e.target).closest("a[href]"));
  if (!a || a.target || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
  e.preventDefault();
  navigate(url.pathname + url.hash);
});
window.addEventListener("popstate", route);
window.addEventListener("hashchange", route);

// ---- the room page ---------------------------------------------------------------------------

/** @param {string} code */
function roomPage(code) {
  const me = api.identity();
  if (!me) {
    app.append(homeLink(), nameForm(() => route(), `You are invited to room ${code}. Pick a name to join.`));
    return;
  }
  new RoomPage(code, me);
}

class RoomPage {
  /** @param {string} code @param {Identity} me */
  constructor(code, me) {
    this.code = code;
    this.me = me;
    /** @type {Room | null} */
    this.room = null;
    /** @type {You | null} */
    this.you = null;
    /** @type {View | null} the table, once a match has started (null in the lobby) */
    this.view = null;
    /** @type {number | null} */
    this.v = null;
    /** @type {string | null} */
    this.matchId = null;
    /** @type {Map<string, Move>} move id -> move, until the server answers */
    this.pending = new Map();
    /** @type {Set<string>} */
    this.spread = new Set();
    /** @type {import("./types.js").Catalog | null} */
    this.meta = null;
    /** @type {string | null} */
    this.lastTurnKey = null;
    /** @type {number | null} when the turn clock runs out, on this browser's clock (ms) */
    this.deadline = null;
    /** @type {number[]} */
    this.autoplay = [];
    this.hints = true;
    this.hintAsked = false;
    /** @type {{view: View, committed: string} | null} */
    this.lastResult = null;
    /** @type {string | null} */
    this.readResult = null;
    /** @type {string | null} */
    this.resultShown = null;
    /** @type {number | undefined} */
    this.toastTimer = undefined;
    /** @type {import("./types.js").Awards | null} what the hand or match that just ended awarded */
    this.awards = null;
    /** @type {string | null} the hand whose achievements were last announced */
    this.awardsShown = null;
    this.log = new MoveLog();
    /** @type {import("./types.js").NextHandInfo | null} between hands: who is ready, the countdown */
    this.nextHand = null;
    /** @type {number | null} when the next hand is dealt anyway, on this browser's clock (ms) */
    this.nextDeadline = null;
    this.signal = new TurnSignal();
    cleanup.push(() => this.signal.stop());
    this.build();
    loadMeta().then((m) => { this.meta = m; if (!this.view && this.room) this.draw(); }).catch(() => {});
    this.socket = new RoomSocket(code, me.token, {
      onMessage: (m) => this.dispatch(m),
      onStatus: (s) => this.status(s),
    });
    this.socket.connect();
    cleanup.push(() => this.socket.close());
    const tick = setInterval(() => this.tick(), 500);
    cleanup.push(() => clearInterval(tick));
    /** @param {KeyboardEvent} e */
    const keys = (e) => this.onKey(e);
    document.addEventListener("keydown", keys);
    cleanup.push(() => document.removeEventListener("keydown", keys));
  }

  build() {
    const top = el("header", "topbar");
    const home = el("a", "home-link", "← Home");
    home.href = "/";
    home.addEventListener("click", (e) => { if (!this.mayLeave()) { e.preventDefault(); e.stopImmediatePropagation(); } });
    this.title = el("span", "room-title", `Room ${this.code}`);
    this.connDot = el("span", "conn-state", "connecting…");
    this.connDot.setAttribute("role", "status");
    const help = el("button", "small", "Keys");
    help.type = "button";
    help.setAttribute("aria-expanded", "false");
    help.addEventListener("click", () => this.toggleHelp(help));
    this.chatBadge = el("button", "small chat-badge", "Chat");
    this.chatBadge.type = "button";
    this.chatBadge.id = "chat-badge";
    this.chatBadge.hidden = true;
    this.chatBadge.addEventListener("click", () => this.readChat(true));
    top.append(home, this.title, this.connDot, this.chatBadge, this.signal.button(), help);
    this.banner = el("div", "banner");
    this.banner.id = "banner";
    this.banner.hidden = true;
    this.banner.setAttribute("role", "status");
    this.toast = el("div", "toast");
    this.toast.id = "toast";
    this.toast.setAttribute("role", "alert");
    this.toast.hidden = true;
    this.stage = el("div", "stage");
    this.stage.id = "stage";
    this.actions = el("div", "table-actions");
    this.resultSlot = el("div", "result-slot");
    this.invite = el("div", "invite-slot");
    const side = el("aside", "side");
    this.chat = chatPanel((text) => this.send({ type: "chat", text }));
    this.spectators = el("p", "spectators");
    side.append(this.log.el, this.invite, this.chat.el, this.spectators);
    this.chat.el.addEventListener("focusin", () => this.readChat(false));
    this.unread = 0;
    this.helpBox = el("section", "keys-help");
    this.helpBox.hidden = true;
    this.helpBox.innerHTML = `<h2>Keyboard</h2><ul>
<li><kbd>Tab</kbd> moves between your cards; <kbd>Enter</kbd> or <kbd>Space</kbd> picks one.</li>
<li>Then <kbd>←</kbd> <kbd>→</kbd> choose where it goes and <kbd>Enter</kbd> places it; <kbd>Esc</kbd> cancels.</li>
<li><kbd>1</kbd>–<kbd>5</kbd> pick a hand card, <kbd>P</kbd> your pay-off card.</li>
<li><kbd>E</kbd> ends your turn (when the rules allow), <kbd>H</kbd> asks for a hint, <kbd>C</kbd> goes to the chat.</li>
<li>Double-click or right-click a card to play it to the only centre stack it fits.</li></ul>`;
    const main = el("div", "room-main");
    const left = el("div", "room-left");
    left.append(this.stage, this.actions, this.resultSlot);
    main.append(left, side);
    app.append(top, this.banner, this.toast, this.helpBox, main);
    this.stage.append(el("p", "muted", "Connecting to the room…"));
    this.input = new TableInput(this.stage, {
      view: () => this.view,
      send: (move) => this.sendMove(move),
      announce: (t) => announce(t),
      refuse: (t) => this.showError(t),
      peek: (p) => { if (this.spread.has(p)) this.spread.delete(p); else this.spread.add(p); this.draw(); },
    });
    this.invite.append(inviteBox(location.origin + "/r/" + encodeURIComponent(this.code)));
  }

  /** @param {HTMLElement} b */
  toggleHelp(b) {
    this.helpBox.hidden = !this.helpBox.hidden;
    b.setAttribute("aria-expanded", String(!this.helpBox.hidden));
  }

  /** @param {SocketStatus} s */
  status(s) {
    const b = this.banner;
    if (s.state === "open") {
      b.hidden = true;
      this.connDot.textContent = "online";
      this.connDot.className = "conn-state on";
      return;
    }
    this.connDot.className = "conn-state off";
    this.connDot.textContent = s.state === "closed" ? "disconnected" : "reconnecting…";
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
      const a = el("a", "", "Go home");
      a.href = "/";
      b.append(a);
      if (s.code === 4401) api.forget();
    } else if (s.state === "waiting") {
      b.className = "banner";
      b.append(`Connection lost. Reconnecting in ${Math.ceil(s.delay / 1000)} s… `);
      const r = el("button", "small", "Retry now");
      r.type = "button";
      r.addEventListener("click", () => this.socket.now());
      b.append(r);
    } else {
      b.className = "banner";
      b.append("Reconnecting…");
    }
  }

  /** The room does not exist: a plain page saying so, nothing else of the room. */
  noSuchRoom() {
    leave();
    app.textContent = "";
    document.title = "No such room · Spite & Malice";
    const box = el("section", "card-panel no-room");
    const h = el("h1", "", "No such room");
    h.tabIndex = -1;
    const p = el("p", "", `There is no room with the code ${this.code}. Check the invite link, or start a new room.`);
    const a = el("a", "", "Go to the home page");
    a.href = "/";
    box.append(h, p, a);
    app.append(box);
    h.focus();
  }

  /** @param {ClientMessage} msg */
  send(msg) {
    if (this.socket.send(msg)) return true;
    this.showError("You are not connected right now; try again in a moment.");
    return false;
  }

  /** @param {Move} move */
  sendMove(move) {
    const id = moveId();
    this.pending.set(id, move);
    this.stage.classList.add("busy");
    return this.send({ type: "move", id, move });
  }

  /** @param {string} text */
  showError(text) {
    this.toast.hidden = false;
    this.toast.className = "toast";
    this.toast.textContent = text;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { this.toast.hidden = true; }, 5000);
  }

  /** @param {ServerMessage} msg */
  dispatch(msg) {
    switch (msg.type) {
      case "welcome":
        this.you = msg.you;
        this.onRoom(msg.room);
        break;
      case "room":
        this.onRoom(msg.room);
        break;
      case "state":
        this.onState(msg);
        break;
      case "error":
        this.onError(msg);
        break;
      case "chat": {
        const from = this.chat.add(msg);
        announce(`${from} says: ${msg.text}`);
        if (msg.from.player_id !== this.me.id) this.unreadChat();
        break;
      }
      case "chat_history":
        this.chat.replace(msg.lines);
        break;
      case "hint":
        this.onHint(msg);
        break;
      case "pong":
        break;
      default: // a type newer than this client: say so, and carry on
        console.warn("unknown message type from the server:", /** @type {{type: unknown}} */ (msg).type);
    }
  }

  /** "Play a bot now": sit, add a Normal bot, start, one step per room update. @param {Room} room */
  quickStart(room) {
    if (sessionStorage.getItem(QUICK_KEY) !== room.code) return;
    if (room.status !== "waiting" || room.host !== this.me.id) { sessionStorage.removeItem(QUICK_KEY); return; }
    const mine = room.seats.find((s) => s.player_id === this.me.id);
    const empty = room.seats.find((s) => s.player_id === null && !s.bot);
    if (!mine) this.send({ type: "sit", seat: empty ? empty.seat : 0 });
    else if (empty) this.send({ type: "add_bot", seat: empty.seat, level: "normal" });
    else {
      sessionStorage.removeItem(QUICK_KEY);
      this.send({ type: "start" });
    }
  }

  /** @param {Room} room */
  onRoom(room) {
    this.room = room;
    this.quickStart(room);
    this.title.textContent = `Room ${room.code}`;
    // Who watches, by name, without this browser's player.
    const others = room.watchers.filter((w) => w.player_id !== this.me.id);
    const named = others.filter((w) => w.name).map((w) => w.name);
    const unnamed = others.length - named.length;
    if (unnamed) named.push(unnamed === 1 ? "1 more" : `${unnamed} more`);
    this.spectators.textContent = others.length ? `Watching: ${named.join(", ")}` : "";
    this.hints = room.hints;
    if (room.match_id) this.matchId = room.match_id;
    if (!this.view || room.status === "waiting") {
      if (room.status === "waiting") this.view = null;
      this.draw();
    }
  }

  /** @param {StateMessage} msg */
  onState(msg) {
    /** @type {View} */
    const view = { ...msg.shared, ...msg.own };
    const first = !this.view;
    const before = first ? null : snapshot(this.stage);
    this.view = view;
    this.v = msg.v;
    this.pending.clear();
    this.stage.classList.remove("busy");
    this.deadline = deadlineOf(msg.clock);
    this.nextHand = msg.next_hand;
    this.nextDeadline = msg.next_hand ? Date.now() + msg.next_hand.remaining * 1000 : null;
    this.matchId = msg.match_id;
    this.autoplay = msg.autoplay;
    this.awards = msg.awards || null;
    this.log.add(view, msg.events);
    if (view.status === "playing") {
      sessionStorage.setItem(`spite.commit.${this.code}.${view.hand_number}`, view.deal_commitment);
    }
    this.draw();
    animate(this.stage, before, msg.events);
    const said = first ? "" : describeEvents(view, msg.events);
    const turnKey = `${view.hand_number}:${view.turn}:${view.status}`;
    const turnSaid = turnKey !== this.lastTurnKey && !/turn\./.test(said) ? " " + turnText(view) : "";
    if (turnKey !== this.lastTurnKey) this.signal.turn(view.status === "playing" && view.you !== null && view.turn === view.you);
    this.lastTurnKey = turnKey;
    announce((said + turnSaid).trim() || (first ? turnText(view) : ""));
    this.announceAwards(view);
  }

  /** Say once per hand which achievements the hand (or match) just earned you.
   * @param {View} view */
  announceAwards(view) {
    const key = `${this.matchId}:${view.hand_number}`;
    if (!this.awards || this.awardsShown === key) return;
    this.awardsShown = key;
    const mine = this.awards.achievements.filter((a) => a.player_id === this.me.id);
    if (!mine.length) return;
    const text = "Achievement unlocked: " + mine.map((a) => `${a.name} (${a.description})`).join("; ");
    this.showAward(text);
    announce(text);
  }

  /** @param {string} text */
  showAward(text) {
    this.toast.hidden = false;
    this.toast.className = "toast award";
    this.toast.textContent = "★ " + text;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { this.toast.hidden = true; this.toast.className = "toast"; }, 8000);
  }

  /** @param {ErrorMessage} msg */
  onError(msg) {
    if (msg.id && this.pending.has(msg.id)) {
      this.pending.delete(msg.id);
      this.stage.classList.remove("busy");
    }
    if (this.hintAsked && msg.code === "hints_off") this.hints = false;
    this.hintAsked = false;
    this.showError(msg.message);
    announce(msg.message, true);
    if (this.view) this.draw();
  }

  /** @param {HintMessage} msg */
  onHint(msg) {
    this.hintAsked = false;
    this.input.showHint(msg.move);
    const text = "Hint: " + msg.reason;
    this.hintLine.textContent = text;
    announce(text);
  }

  draw() {
    const focusKey = focusKeyOf(document.activeElement);
    this.stage.textContent = "";
    this.actions.textContent = "";
    this.resultSlot.textContent = "";
    this.input.reset();
    if (this.view) {
      this.stage.append(renderTable(this.view, { spread: this.spread, clock: this.clockText(), autoplay: this.autoplay,
        recent: this.log.recent, lastMove: this.log.last(),
        bots: new Set(this.room ? this.room.seats.filter((s) => s.bot).map((s) => s.seat) : []) }));
      this.stage.dataset.v = String(this.v);
      this.stage.dataset.status = this.view.status;
      this.drawActions();
      if (this.view.result) this.drawResult();
      else if (this.lastResult && this.lastResult.view.deal_commitment !== this.view.deal_commitment) this.drawLastResult();
    } else if (this.room) {
      this.stage.append(roomLobby(this.room, this.you, { send: (m) => this.send(m), meta: this.meta }));
    }
    restoreFocus(this.stage, focusKey, this.resultSlot);
  }

  drawActions() {
    const v = this.view;
    const myTurn = v.status === "playing" && v.you !== null && v.turn === v.you;
    const undo = takeBackMove(v);
    if (undo) {
      const b = el("button", "", "Undo");
      b.type = "button";
      b.id = "undo";
      b.title = "Take back your last move (Ctrl+Z)";
      b.addEventListener("click", () => this.sendMove(undo));
      this.actions.append(b);
    }
    const end = endTurnMove(v);
    if (end) {
      const b = el("button", "", "End turn");
      b.type = "button";
      b.id = "end-turn";
      b.addEventListener("click", () => this.sendMove(end));
      this.actions.append(b);
    }
    if (myTurn && this.hints) {
      const b = el("button", "", "Hint");
      b.type = "button";
      b.id = "hint-button";
      b.addEventListener("click", () => this.askHint());
      this.actions.append(b);
    }
    this.hintLine = el("p", "hint-line");
    this.hintLine.setAttribute("aria-live", "off");
    this.actions.append(this.hintLine);
    if (myTurn && v.legal_moves.length) {
      this.actions.append(el("p", "muted how", v.options.side_plays === "many"
        ? "Play cards to the centre and discard to your side stacks; press End turn when you are done."
        : v.options.must_discard
          ? "Play cards to the centre, then discard one card to a side stack to end your turn."
          : "Play cards to the centre; end your turn with a discard or the End turn button."));
    }
  }

  askHint() {
    this.hintAsked = true;
    this.send({ type: "hint" });
  }

  drawResult() {
    const v = this.view;
    const key = v.deal_commitment;
    const committed = sessionStorage.getItem(`spite.commit.${this.code}.${v.hand_number}`) || v.deal_commitment;
    const matchId = this.matchId;
    const done = () => { this.readResult = key; this.lastResult = null; };
    const panel = resultPanel(v, committed, {
      isPlayer: v.you !== null,
      ready: this.nextHand ? this.nextHand.ready : null,
      countdown: this.countdownText(),
      next: () => { done(); this.send({ type: "next_hand" }); },
      rematch: () => { done(); this.send({ type: "rematch" }); },
      home: () => { if (this.mayLeave()) navigate("/"); },
      lobby: v.status === "match_over" ? () => { done(); this.view = null; this.draw(); } : null,
      replay: matchId && v.status === "match_over" ? () => navigate("/#replay/" + encodeURIComponent(matchId)) : null,
      awards: this.awards,
      me: this.me.id,
    });
    this.resultSlot.append(panel);
    // Kept on screen (until closed) if someone else starts the next hand before we have read it.
    if (this.readResult !== key) this.lastResult = { view: v, committed };
    if (this.resultShown !== key) {
      this.resultShown = key;
      const t = /** @type {HTMLElement | null} */ (panel.querySelector("#result-title"));
      if (t) t.focus();
    }
  }

  drawLastResult() {
    const { view, committed } = this.lastResult;
    const panel = resultPanel(view, committed, {
      close: () => { this.lastResult = null; this.draw(); },
      home: () => navigate("/"),
    });
    panel.classList.add("earlier");
    this.resultSlot.append(panel);
  }

  /** The seconds left before the next hand is dealt anyway ("0:17"), or null. */
  countdownText() {
    if (!this.nextDeadline || !this.view || this.view.status !== "hand_over") return null;
    const left = Math.max(0, Math.ceil((this.nextDeadline - Date.now()) / 1000));
    return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  }

  /** Leaving a hand being played (or about to be dealt) asks first. */
  mayLeave() {
    const v = this.view;
    if (!v || v.you === null || v.status === "match_over") return true;
    return confirm("Leave this match? The server plays for you while you are away.");
  }

  unreadChat() {
    const seen = !document.hidden && this.chat.el.contains(document.activeElement);
    if (seen) return;
    this.unread += 1;
    this.chatBadge.hidden = false;
    this.chatBadge.textContent = `Chat · ${this.unread} new`;
    this.chatBadge.setAttribute("aria-label", `${this.unread} unread chat messages: go to the chat`);
    this.signal.unread(this.unread);
  }

  /** @param {boolean} go move focus to the chat input */
  readChat(go) {
    this.unread = 0;
    this.chatBadge.hidden = true;
    this.signal.unread(0);
    if (go) this.chat.input.focus();
  }

  clockText() {
    if (!this.deadline || !this.view || this.view.status !== "playing") return null;
    const left = Math.max(0, Math.round((this.deadline - Date.now()) / 1000));
    return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  }

  tick() {
    const c = /** @type {HTMLElement | null} */ (this.stage.querySelector(".clock"));
    const t = this.clockText();
    if (c && t) {
      c.textContent = t;
      c.classList.toggle("low", (this.deadline - Date.now()) < 10000);
    }
    const n = /** @type {HTMLElement | null} */ (this.resultSlot.querySelector(".countdown"));
    const left = this.countdownText();
    if (n && left) n.textContent = left;
  }

  /** @param {KeyboardEvent} e */
  onKey(e) {
    if ((e.ctrlKey || e.metaKey) && !e.altKey && (e.key === "z" || e.key === "Z") && this.view
        && !(e.target instanceof Element && e.target.closest("input, textarea, select"))) {
      const undo = takeBackMove(this.view);
      if (undo) { e.preventDefault(); this.sendMove(undo); }
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target instanceof Element && e.target.closest("input, textarea, select")) return;
    if (!this.view) return;
    const k = e.key;
    if (k === "e" || k === "E") {
      const end = endTurnMove(this.view);
      if (end) { e.preventDefault(); this.sendMove(end); }
    } else if ((k === "h" || k === "H") && this.hints && this.view.turn === this.view.you) {
      e.preventDefault();
      this.askHint();
    } else if (k === "c" || k === "C") {
      e.preventDefault();
      this.chat.input.focus();
    } else if (k === "?") {
      this.toggleHelp(/** @type {HTMLElement} */ (app.querySelector(".topbar button")));
    } else if (/^[1-9pP]$/.test(k) && this.input.shortcut(k)) {
      e.preventDefault();
    }
  }
}

/** When the turn clock runs out, in ms on this browser's clock (null: no clock now). From the
 * seconds remaining, not the deadline, so a browser whose clock is off still counts down right.
 * @param {Clock | null} clock */
function deadlineOf(clock) {
  return clock === null ? null : Date.now() + clock.remaining * 1000;
}

function moveId() {
  const b = new Uint8Array(8);
  crypto.getRandomValues(b);
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}

/** What to refocus after a re-render: the same card, pile or button if it still exists.
 * @param {Element | null} e */
function focusKeyOf(e) {
  if (!(e instanceof HTMLElement) || e === document.body) return null;
  if (e.dataset && e.dataset.card) return `[data-card="${e.dataset.card}"][data-from]`;
  if (e.dataset && e.dataset.pile) return `[data-pile="${e.dataset.pile}"]`;
  if (e.id) return "#" + CSS.escape(e.id);
  return null;
}

/** After a re-render: focus on the same card or pile if it is still there (and not a place a
 * card was just put), else on the result when one is shown, else on your hand.
 * @param {HTMLElement} root @param {string | null} key @param {HTMLElement} result */
function restoreFocus(root, key, result) {
  const now = document.activeElement;
  if (now && now !== document.body) return; // focus was not lost with the old DOM
  const placed = key && /^\[data-pile="(centre|side)/.test(key); // a target: the card has gone there
  /** @type {HTMLElement | null} */
  const same = key && !placed ? root.querySelector(key) || result.querySelector(key) : null;
  /** @type {HTMLElement | null} */
  const e = same || result.querySelector(".result .actions button.primary, #result-title")
    || (key || root.querySelector(".me") ? root.querySelector(".hand-row button.card") : null);
  if (e) e.focus({ preventScroll: true });
}

route();
