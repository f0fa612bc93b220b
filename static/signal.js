// @ts-check
// Telling a player outside the page that it is their turn: a short chime (a setting kept in
// localStorage, on by default), the tab title ("● Your turn · Spite & Malice"), a vibration on
// phones that allow it; and the count of unread chat lines in the title.

import { el } from "./cards.js";

const KEY = "spite.sound";
const TURN_TITLE = "● Your turn · Spite & Malice";

/** Whether the turn chime is on (default: on). */
export const soundOn = () => localStorage.getItem(KEY) !== "off";

export class TurnSignal {
  constructor() {
    this.base = document.title;
    this.mine = false;
    this.unreadCount = 0;
    /** @type {AudioContext | null} */
    this.audio = null;
    /** @type {HTMLButtonElement | null} */
    this.toggle = null;
  }

  /** The button that turns the chime on and off. */
  button() {
    const b = el("button", "small sound-toggle");
    b.type = "button";
    b.id = "sound-toggle";
    const show = () => {
      b.textContent = soundOn() ? "Sound: on" : "Sound: off";
      b.setAttribute("aria-pressed", String(soundOn()));
    };
    b.addEventListener("click", () => {
      localStorage.setItem(KEY, soundOn() ? "off" : "on");
      show();
      if (soundOn()) this.chime(); // let the player hear what it sounds like
    });
    show();
    this.toggle = b;
    return b;
  }

  /** The turn changed: `mine` says whether it is now this player's. @param {boolean} mine */
  turn(mine) {
    const was = this.mine;
    this.mine = mine;
    this.title();
    if (!mine || was) return;
    if (soundOn()) this.chime();
    const touch = matchMedia("(pointer: coarse)").matches;
    const nav = /** @type {Navigator & {userActivation?: {hasBeenActive: boolean}}} */ (navigator);
    if (touch && typeof nav.vibrate === "function" && (!nav.userActivation || nav.userActivation.hasBeenActive)) {
      nav.vibrate(150);
    }
  }

  /** @param {number} n unread chat lines */
  unread(n) {
    this.unreadCount = n;
    this.title();
  }

  title() {
    const prefix = this.unreadCount ? `(${this.unreadCount}) ` : "";
    document.title = prefix + (this.mine ? TURN_TITLE : this.base);
  }

  /** Two soft notes (Web Audio; nothing downloaded). */
  chime() {
    try {
      const Ctx = window.AudioContext;
      if (!Ctx) return;
      this.audio = this.audio || new Ctx();
      const a = this.audio;
      if (a.state === "suspended") a.resume().catch(() => {});
      const t = a.currentTime;
      [660, 880].forEach((f, i) => {
        const o = a.createOscillator();
        const g = a.createGain();
        o.frequency.value = f;
        g.gain.setValueAtTime(0.0001, t + i * 0.12);
        g.gain.exponentialRampToValueAtTime(0.15, t + i * 0.12 + 0.02);
        g.gain.exponentialRampToValueAtTime(0.0001, t + i * 0.12 + 0.25);
        o.connect(g).connect(a.destination);
        o.start(t + i * 0.12);
        o.stop(t + i * 0.12 + 0.3);
      });
    } catch {
      // no sound on this device: the title and the page still say it
    }
  }

  stop() {
    document.title = this.base;
    if (this.audio) this.audio.close().catch(() => {});
  }
}
