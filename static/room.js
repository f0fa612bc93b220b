// @ts-check
// The room page: the room socket wired to the lobby and the table, dispatch on msg.type, the
// table drawn from each state, results between hands. Around it: chrome.js (top bar, banner,
// toasts), ending.js (results), awards.js (achievements, announced once), leaving.js (the Leave
// warning), keys.js, clock.js, focus.js, actions.js, quickstep.js.

import { drawActions } from "./actions.js";
import * as api from "./api.js";
import { announce, describeEvents } from "./announce.js";
import { chatPanel } from "./chat.js";
import { RoomChrome, watchingText } from "./chrome.js";
import { clockText, deadlineIn, deadlineOf, tickClocks } from "./clock.js";
import { el } from "./dom.js";
import { sentence, t } from "./i18n.js";
import { focusKeyOf, restoreFocus } from "./focus.js";
import { changeNotice, inviteBox, loadMeta, roomLobby, roomSummary } from "./lobby.js";
import { MoveLog, awayText } from "./movelog.js";
import { quickStep } from "./quickstep.js";
import { app, homeLink, onLeave, refresh } from "./router.js";
import { TurnSignal } from "./signal.js";
import { RoomSocket } from "./socket.js";
import { renderTable, turnText, watchingYou } from "./table.js";

/** @typedef {import("./types.js").ClientMessage} ClientMessage */
/** @typedef {import("./types.js").ErrorMessage} ErrorMessage */
/** @typedef {import("./types.js").HintMessage} HintMessage */
/** @typedef {import("./types.js").Identity} Identity */
/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").Room} Room */
/** @typedef {import("./types.js").ServerMessage} ServerMessage */
/** @typedef {import("./types.js").StateMessage} StateMessage */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").You} You */

/** The page of room `code` (a name first, if this browser has none). @param {string} code */
export function roomPage(code) {
  const me = api.identity();
  if (!me) import("./nameform.js").then((m) => app.append(homeLink(), m.nameForm(() => refresh(), m.seatOrChat, t("rm.invited", { code }))));
  else new RoomPage(code, me);
}

class RoomPage {
  /** @param {string} code @param {Identity} me */
  constructor(code, me) {
    this.code = code;
    this.me = me;
    /** @type {Room | null} */ this.room = null;
    this.sent = ""; // the type of the last message sent
    /** @type {You | null} */ this.you = null;
    /** @type {View | null} the table, once a match has started (null in the lobby) */
    this.view = null;
    /** @type {number | null} */ this.v = null;
    /** @type {number | null} the version last drawn: a redraw of it keeps a picked card */ this.drawnV = null;
    /** @type {string | null} */ this.matchId = null;
    /** @type {Map<string, Move>} move id -> move, until the server answers */
    this.pending = new Map();
    /** @type {Set<string>} */ this.spread = new Set();
    /** @type {import("./types.js").Catalog | null} */ this.meta = null;
    /** @type {string | null} */ this.lastTurnKey = null;
    /** @type {number | null} when the turn clock runs out, on this browser's clock (ms) */
    this.deadline = null;
    /** @type {number[]} */ this.autoplay = [];
    this.hints = true;
    this.hintAsked = false;
    /** @type {import("./types.js").Awards | null} what the hand or match that just ended awarded */
    this.awards = null;
    this.log = new MoveLog();
    /** @type {import("./types.js").NextHandInfo | null} between hands: who is ready, the countdown */
    this.nextHand = null;
    /** @type {number | null} when the next hand is dealt anyway, on this browser's clock (ms) */
    this.nextDeadline = null;
    this.signal = new TurnSignal();
    onLeave(() => this.signal.stop());
    this.build();
    loadMeta().then((m) => { this.meta = m; if (!this.view && this.room) this.draw(); }).catch(() => {});
    this.socket = new RoomSocket(code, me.token, {
      onMessage: (m) => this.dispatch(m),
      onStatus: (s) => this.chrome.status(s),
    });
    this.socket.connect();
    onLeave(() => this.socket.close());
    const tick = setInterval(() => tickClocks(this.stage, this.resultSlot, this), 500);
    onLeave(() => clearInterval(tick));
    /** @type {typeof import("./keys.js") | null} the keyboard (loaded beside the socket) */
    this.keys = null;
    import("./keys.js").then((m) => { this.keys = m; }, () => {});
    /** @param {KeyboardEvent} e */
    const keys = (e) => this.keys?.onRoomKey(e, this);
    document.addEventListener("keydown", keys);
    onLeave(() => document.removeEventListener("keydown", keys));
  }

  build() {
    this.chat = chatPanel((text) => this.send({ type: "chat", text }));
    this.chrome = new RoomChrome(this.code, {
      mayLeave: () => this.mayLeave(), retry: () => this.socket.now(), signal: this.signal, chat: this.chat,
    });
    this.stage = el("div", "stage");
    this.stage.id = "stage";
    this.actions = el("div", "table-actions");
    this.hintLine = el("p", "hint-line");
    this.resultSlot = el("div", "result-slot");
    /** @type {import("./ending.js").Endings | null} results: their module loads after the table */
    this.endings = null;
    const ending = import("./ending.js");
    ending.then((m) => { this.endings = new m.Endings(this.resultSlot, this); if (this.view) this.draw(); });
    this.invite = el("div", "invite-slot");
    const side = el("aside", "side");
    this.spectators = el("p", "spectators");
    side.append(this.log.el, this.invite, this.chat.el, this.spectators);
    const main = el("div", "room-main");
    const left = el("div", "room-left");
    left.append(this.stage, this.actions, this.resultSlot);
    main.append(left, side);
    app.append(...this.chrome.parts(), main);
    this.stage.append(el("p", "muted", t("rm.connecting")));
    /** @type {import("./dnd.js").TableInput | null} the table's pointer and keys (loaded beside the socket) */
    this.input = null;
    import("./dnd.js").then((m) => { this.input = new m.TableInput(this.stage, {
      view: () => this.view,
      send: (move) => this.sendMove(move),
      announce: (t) => announce(t),
      refuse: (t) => this.chrome.showError(t),
      peek: (p) => { if (this.spread.has(p)) this.spread.delete(p); else this.spread.add(p); this.draw(); },
    }); }, (e) => this.chrome.showError(e.message));
    /** @type {typeof import("./anim.js") | null} */ this.anim = null; // the plays' animations, loaded after
    import("./anim.js").then((m) => { this.anim = m; }, () => {});
    /** @type {typeof import("./leaving.js") | null} */ this.leaving = null;
    import("./leaving.js").then((m) => { this.leaving = m; }, () => {});
    import("./rules.js").then((m) => { // How to play with the rules in play (loaded after)
      this.rules = m.rulesBox(() => this.view?.options ?? this.room?.options, loadMeta);
      side.insertBefore(this.rules.el, this.chat.el);
    }, () => {});
  }

  /** @param {ClientMessage} msg */
  send(msg) {
    this.sent = msg.type;
    if (this.socket.send(msg)) return true;
    this.chrome.showError(t("rm.offline"));
    return false;
  }

  /** @param {Move} move */
  sendMove(move) {
    const id = moveId();
    this.pending.set(id, move);
    this.stage.classList.add("busy");
    return this.send({ type: "move", id, move });
  }

  askHint() {
    this.hintAsked = true;
    this.send({ type: "hint" });
  }

  focusChat() {
    this.chat.input.focus();
  }

  toggleHelp() {
    this.chrome.toggleHelp();
  }

  /** A refusal: shown and read out. @param {string} text */
  refuse(text) {
    this.chrome.showError(text);
    announce(text, true);
  }

  /** A card shortcut key (1-9, P). @param {string} key */
  shortcut(key) {
    return this.input?.shortcut(key) ?? false;
  }

  /** @param {ServerMessage} msg */
  dispatch(msg) {
    switch (msg.type) {
      case "welcome":
        this.you = msg.you;
        this.onRoom(msg.room);
        break;
      case "room": // the same room again (a presence echo) is not drawn again: a click in flight keeps its button
        if (JSON.stringify(msg.room) !== this.roomJson) this.onRoom(msg.room);
        break;
      case "state":
        this.onState(msg);
        break;
      case "error":
        if (msg.reason === "daily_sealed") import("./daily.js").then((m) => m.sealedRoom(String(msg.params.day)));
        else this.onError(msg);
        break;
      case "chat": {
        const from = this.chat.add(msg);
        announce(t("rm.says", { name: from, text: msg.text }));
        if (msg.from.player_id !== this.me.id) this.chrome.unreadChat();
        break;
      }
      case "chat_history":
        this.chat.replace(msg.lines);
        break;
      case "hint":
        this.onHint(msg);
        break;
      case "log": // the whole hand's moves, on each connect; what was made for you while away
        if (!this.view || msg.match_id !== this.matchId) break;
        this.log.rebuild(this.view, msg.entries);
        this.showAway(awayText(this.view, msg.entries, msg.made_for_you));
        this.draw();
        break;
      case "pong": break;
      default: // a type newer than this client: say so, and carry on
        console.warn("unknown message type from the server:", /** @type {{type: unknown}} */ (msg).type);
    }
  }

  /** @param {Room} room */
  onRoom(room) {
    const notice = this.room && changeNotice(this.room, room, this.me.id, roomSummary(room, this.meta), this.sent);
    if (notice) this.chrome.showNotice(notice);
    this.roomJson = JSON.stringify(room);
    if (!this.room && !room.daily) {
      this.invite.append(inviteBox(location.origin + "/r/" + encodeURIComponent(this.code)));
      import("./invite.js").then((m) => this.invite.append(m.inviteFriends(this.code)), () => {});
    }
    this.room = room;
    quickStep(room, this.me.id, (m) => this.send(m));
    this.chrome.title.textContent = t(room.daily ? "mn.daily" : "ch.room", { code: room.code });
    this.spectators.textContent = watchingText(room, this.me.id);
    this.hints = room.hints;
    this.rules?.update();
    if (room.match_id) this.matchId = room.match_id;
    if (!this.view || room.status === "waiting" || this.view.status === "match_over") {
      if (room.status === "waiting") this.view = null;
      this.draw();
    }
  }

  /** @param {StateMessage} msg */
  onState(msg) {
    /** @type {View} */
    const view = { ...msg.shared, ...msg.own };
    const first = !this.view;
    const before = first || !this.anim ? null : this.anim.snapshot(this.stage);
    this.view = view;
    this.v = msg.v;
    this.pending.clear();
    this.stage.classList.remove("busy");
    this.deadline = deadlineOf(msg.clock);
    this.nextHand = msg.next_hand;
    this.nextDeadline = msg.next_hand ? deadlineIn(msg.next_hand.remaining) : null;
    this.matchId = msg.match_id;
    this.autoplay = msg.autoplay;
    this.awards = msg.awards || null;
    this.log.add(view, msg.events);
    if (view.status === "playing") {
      sessionStorage.setItem(`spite.commit.${this.code}.${view.hand_number}`, view.deal_commitment);
    }
    this.draw();
    this.anim?.animate(this.stage, before, msg.events);
    // a spectator is told once, with the first table, that they watch
    const said = first ? watchingYou(view) : describeEvents(view, msg.events);
    const turnKey = `${view.hand_number}:${view.turn}:${view.status}`;
    // whose turn, unless an event said it (known by the event, not by searching the words)
    const told = !first && msg.events.some((e) => e.type === "turn");
    const turnSaid = turnKey !== this.lastTurnKey && !told ? " " + turnText(view) : "";
    if (turnKey !== this.lastTurnKey) this.signal.turn(view.status === "playing" && view.you !== null && view.turn === view.you);
    this.lastTurnKey = turnKey;
    announce((said + turnSaid).trim());
    const awards = this.awards;
    if (awards && awards.achievements.length) {
      import("./awards.js").then((m) => m.announceAwards(awards, this.me.id, (text) => this.chrome.showAward(text)), () => {});
    }
  }

  /** @param {string | null} text */
  showAway(text) {
    if (!text) return;
    this.chrome.showAway(text);
    announce(text);
  }

  /** @param {ErrorMessage} msg */
  onError(msg) {
    const move = msg.id && this.pending.get(msg.id);
    if (move) {
      this.pending.delete(msg.id);
      this.stage.classList.remove("busy");
    }
    if (this.hintAsked && msg.code === "hints_off") this.hints = false;
    this.hintAsked = false;
    // why a double-clicked card cannot go to the centre: an answer, told calmly
    const calm = move && move === this.input?.why;
    if (calm) this.chrome.showNotice(sentence(msg.message));
    else this.chrome.showError(msg.message);
    announce(sentence(msg.message), !calm);
    if (this.view) this.draw();
  }

  /** @param {HintMessage} msg */
  onHint(msg) {
    this.hintAsked = false;
    this.input?.showHint(msg.move);
    const text = t("rm.hint", { text: msg.reason });
    this.hintLine.textContent = text;
    announce(text);
  }

  draw() {
    const focusKey = focusKeyOf(document.activeElement);
    this.stage.textContent = "";
    this.actions.textContent = "";
    this.resultSlot.textContent = "";
    const same = this.view !== null && this.v === this.drawnV;
    if (this.view) {
      this.stage.append(renderTable(this.view, { spread: this.spread, clock: clockText(this.deadline, this.view),
        autoplay: this.autoplay, recent: this.log.recent, lastMove: this.log.last(),
        bots: new Set(this.room ? this.room.seats.filter((s) => s.bot).map((s) => s.seat) : []) }));
      this.stage.dataset.v = String(this.v);
      this.stage.dataset.status = this.view.status;
      this.hintLine = drawActions(this.actions, this.view, this);
      if (this.endings) this.endings.draw(this.view);
    } else if (this.room) {
      this.stage.append(roomLobby(this.room, this.you, { send: (m) => this.send(m), meta: this.meta }));
    }
    this.input?.reset(same);
    this.drawnV = this.view ? this.v : null;
    restoreFocus(this.stage, focusKey, this.resultSlot);
  }

  /** Back to the room's lobby from a finished match. */
  toLobby() {
    this.view = null;
    this.draw();
  }

  /** Leaving a hand being played (or about to be dealt) asks first. */
  mayLeave() {
    const v = this.view;
    if (!v || v.you === null || v.status === "match_over") return true;
    return confirm(this.leaving ? this.leaving.leaveWarning(this.room, this.meta) : t("rm.leave"));
  }
}

function moveId() {
  const b = new Uint8Array(8);
  crypto.getRandomValues(b);
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}
