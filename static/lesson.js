// @ts-check
// A lesson's page ("/#lesson/{code}"): the lesson room's socket (protocol.md, "Learning to play")
// and the room's own table (table.js), input (dnd.js: mouse, touch, drag, keyboard) and keys
// (keys.js), with a lesson panel instead of the lobby, seats and chat: the step i of n, what to
// do, the goal, why a move was refused (read out, as every change of step), a Hint button, and
// the next lesson once this one is done.

import * as api from "./api.js";
import { announce, describeEvents } from "./announce.js";
import { button, el } from "./dom.js";
import { more, sentence, t } from "./i18n.js";
import { focusKeyOf, restoreFocus } from "./focus.js";
import { endTurnMove } from "./moves.js";
import { app, navigate, onLeave } from "./router.js";
import "./pages.js";
import { RoomSocket } from "./socket.js";
import { renderTable, turnText } from "./table.js";

await more("home"); // the lessons' words (learn.*) are in the home part of the catalogue

/** @typedef {import("./types.js").Identity} Identity */
/** @typedef {import("./types.js").LessonMessage} LessonMessage */
/** @typedef {import("./types.js").Move} Move */
/** @typedef {import("./types.js").ServerMessage | LessonMessage | import("./types.js").LessonWelcomeMessage} LessonServerMessage */
/** @typedef {import("./types.js").View} View */

/** The page of lesson room `code` (a name first, if this browser has none). @param {string} code */
export function lessonPage(code) {
  const me = api.identity();
  if (!me) navigate("/#learn");
  else new LessonPage(code, me);
}

/** Start lesson `id` (the caller's run of it) and go to its room. @param {string} id */
export async function startLesson(id) {
  const r = /** @type {import("./types.js").LessonStarted} */ (await api.post(`/api/lessons/${encodeURIComponent(id)}`));
  navigate(`/#lesson/${encodeURIComponent(r.room)}`);
}

class LessonPage {
  /** @param {string} code @param {Identity} me */
  constructor(code, me) {
    this.code = code;
    /** @type {View | null} */ this.view = null;
    /** @type {number | null} */ this.v = null;
    /** @type {number | null} */ this.drawnV = null;
    /** @type {LessonMessage | null} */ this.step = null;
    /** @type {Set<string>} */ this.spread = new Set();
    this.hints = true;
    this.build();
    this.socket = new RoomSocket(code, me.token, {
      onMessage: (m) => this.dispatch(/** @type {LessonServerMessage} */ (m)),
      onStatus: (s) => this.status(s),
    });
    this.socket.connect();
    onLeave(() => this.socket.close());
    /** @type {typeof import("./keys.js") | null} */ this.keys = null;
    import("./keys.js").then((m) => { this.keys = m; }, () => {});
    /** @param {KeyboardEvent} e */
    const keys = (e) => this.keys?.onRoomKey(e, this);
    document.addEventListener("keydown", keys);
    onLeave(() => document.removeEventListener("keydown", keys));
  }

  build() {
    const top = el("nav", "topnav lesson-nav");
    const home = el("a", "", `← ${t("mn.home")}`);
    home.href = "/";
    const all = el("a", "", t("learn.all"));
    all.href = "/#learn";
    top.append(home, " · ", all);
    this.conn = el("span", "conn-state", t("ch.connecting"));
    this.conn.setAttribute("role", "status");
    top.append(" ", this.conn);
    const panel = el("section", "lesson-panel");
    panel.id = "lesson-panel";
    this.heading = el("h1", "lesson-title", t("learn.title"));
    this.counter = el("p", "lesson-step");
    this.counter.id = "lesson-step";
    this.text = el("p", "lesson-text");
    this.text.id = "lesson-text";
    this.goal = el("p", "lesson-goal");
    this.goal.id = "lesson-goal";
    this.why = el("p", "lesson-why");
    this.why.id = "lesson-why";
    this.why.setAttribute("role", "status");
    this.buttons = el("div", "lesson-buttons");
    this.hintButton = button(t("learn.hint"), () => this.askHint(), "lesson-hint");
    this.hintButton.id = "lesson-hint";
    // Under rules where a discard does not end the turn (Cat and Mouse), the learner ends it here
    this.endButton = button(t("ac.end_turn"), () => { const end = this.view && endTurnMove(this.view); if (end) this.sendMove(end); });
    this.endButton.id = "end-turn";
    this.endButton.hidden = true;
    this.nextButton = button(t("learn.next"), () => this.next(), "primary");
    this.nextButton.id = "lesson-next";
    this.nextButton.hidden = true;
    this.allLink = el("a", "button-link", t("learn.all"));
    this.allLink.href = "/#learn";
    this.allLink.id = "lesson-all";
    this.allLink.hidden = true;
    this.buttons.append(this.endButton, this.hintButton, this.nextButton, this.allLink);
    panel.append(this.heading, this.counter, this.text, this.goal, this.why, this.buttons);
    this.stage = el("div", "stage lesson-stage");
    this.stage.id = "stage";
    this.stage.append(el("p", "muted", t("rm.connecting")));
    const main = el("div", "lesson-main");
    main.append(panel, this.stage);
    app.append(top, main);
    /** @type {import("./dnd.js").TableInput | null} */ this.input = null;
    import("./dnd.js").then((m) => { this.input = new m.TableInput(this.stage, {
      view: () => /** @type {View} */ (this.view),
      send: (move) => this.sendMove(move),
      announce: (text) => announce(text),
      refuse: (text) => this.refuse(text),
      peek: (p) => { if (this.spread.has(p)) this.spread.delete(p); else this.spread.add(p); this.draw(); },
    }); }, () => {});
    /** @type {typeof import("./anim.js") | null} */ this.anim = null;
    import("./anim.js").then((m) => { this.anim = m; }, () => {});
  }

  /** @param {import("./socket.js").SocketStatus} s */
  status(s) {
    this.conn.textContent = s.state === "open" ? "" : s.state === "closed" ? s.reason : t("ch.connecting");
    this.conn.hidden = s.state === "open";
  }

  /** @param {Move} move */
  sendMove(move) {
    this.stage.classList.add("busy");
    const sent = this.socket.send({ type: "move", id: moveId(), move });
    if (!sent) this.refuse(t("rm.offline"));
    return sent;
  }

  askHint() {
    if (!this.socket.send({ type: "hint" })) this.refuse(t("rm.offline"));
  }

  focusChat() {}

  toggleHelp() {}

  /** @param {string} key */
  shortcut(key) {
    return this.input?.shortcut(key) ?? false;
  }

  /** Why a move was refused: on the panel, and read out at once. @param {string} text */
  refuse(text) {
    this.why.textContent = sentence(text);
    this.why.classList.add("refused");
    announce(sentence(text), true);
  }

  /** @param {LessonServerMessage} msg */
  dispatch(msg) {
    switch (msg.type) {
      case "lesson":
        this.onStep(msg);
        break;
      case "state": {
        const view = /** @type {View} */ ({ ...msg.shared, ...msg.own });
        const first = !this.view;
        const before = first || !this.anim ? null : this.anim.snapshot(this.stage);
        this.view = view;
        this.v = msg.v;
        this.stage.classList.remove("busy");
        this.draw();
        this.anim?.animate(this.stage, before, msg.events);
        if (!first && msg.events.length) {
          this.why.textContent = "";
          this.why.classList.remove("refused");
          const mine = view.turn === view.you || view.status !== "playing";
          announce(`${describeEvents(view, msg.events)} ${mine ? "" : t("learn.bot_turn")}`.trim());
        }
        break;
      }
      case "error":
        this.stage.classList.remove("busy");
        this.refuse(msg.message);
        if (this.view) this.draw();
        break;
      case "hint":
        this.input?.showHint(msg.move);
        this.why.textContent = t("learn.hint_said", { text: msg.reason });
        this.why.classList.remove("refused");
        announce(t("learn.hint_said", { text: msg.reason }));
        break;
      default:
        break;
    }
  }

  /** A new step (or the lesson's end): shown, and read out. @param {LessonMessage} msg */
  onStep(msg) {
    const changed = !this.step || this.step.step !== msg.step || this.step.finished !== msg.finished;
    this.step = msg;
    document.title = `${msg.title} · ${t("app.title")}`;
    this.heading.textContent = msg.title;
    this.counter.textContent = t("learn.step", { step: msg.step, of: msg.of });
    this.text.textContent = msg.finished && msg.done ? msg.done : msg.text;
    this.goal.textContent = msg.finished ? (msg.next ? "" : t("learn.all_done")) : t("learn.goal", { goal: msg.goal });
    this.goal.hidden = !this.goal.textContent;
    this.hintButton.hidden = msg.finished;
    this.nextButton.hidden = !msg.finished || !msg.next;
    this.allLink.hidden = !msg.finished;
    this.stage.dataset.finished = String(msg.finished);
    if (!changed) return;
    this.why.textContent = "";
    this.why.classList.remove("refused");
    const said = msg.finished ? [msg.done || "", msg.next ? "" : t("learn.all_done")] : [
      t("learn.step", { step: msg.step, of: msg.of }), msg.text, t("learn.goal", { goal: msg.goal })];
    announce(said.filter(Boolean).join(" "));
    if (msg.finished && msg.next) this.nextButton.focus();
  }

  next() {
    const id = this.step?.next;
    if (id) startLesson(id).catch((e) => this.refuse(e.message));
  }

  draw() {
    if (!this.view) return;
    const focusKey = focusKeyOf(document.activeElement);
    const same = this.v === this.drawnV;
    this.stage.textContent = "";
    this.stage.append(renderTable(this.view, { spread: this.spread, bots: new Set([1]) }));
    this.stage.dataset.v = String(this.v);
    this.stage.dataset.status = this.view.status;
    this.stage.dataset.turn = this.view.turn === this.view.you ? "you" : "other";
    this.endButton.hidden = !endTurnMove(this.view);
    this.input?.reset(same);
    this.drawnV = this.v;
    restoreFocus(this.stage, focusKey, this.stage);
    this.stage.setAttribute("aria-description", turnText(this.view));
  }
}

function moveId() {
  const b = new Uint8Array(8);
  crypto.getRandomValues(b);
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}
