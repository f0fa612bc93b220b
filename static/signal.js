// @ts-check
// Your turn, outside the page: a chime (on by default; localStorage "spite.sound"), the tab title
// "● Your turn · Spite & Malice", a vibration on touch screens; unread chat as "(N)" in the title.

import { el } from "./dom.js";
import { t } from "./i18n.js";

const KEY = "spite.sound";
const soundOn = () => localStorage.getItem(KEY) !== "off";

export class TurnSignal {
  constructor() {
    // A browser lets a page play sound only after a click or key press on it (so not right
    // after a reload): the chime is made ready at the first one.
    const arm = () => {
      if (soundOn() && !this.audio) try { this.audio = new AudioContext(); } catch { /* no sound here */ }
      if (this.audio && this.audio.state === "suspended") this.audio.resume().catch(() => {});
    };
    document.addEventListener("pointerdown", arm, { once: true, capture: true });
    document.addEventListener("keydown", arm, { once: true, capture: true });
    this.base = document.title;
    this.mine = false;
    this.unreadCount = 0;
    /** @type {AudioContext | null} */
    this.audio = null;
  }

  /** The button that turns the chime on and off. */
  button() {
    const b = el("button", "small");
    b.type = "button";
    b.id = "sound-toggle";
    const show = () => { b.textContent = t(soundOn() ? "sg.sound_on" : "sg.sound_off"); b.setAttribute("aria-pressed", String(soundOn())); };
    b.addEventListener("click", () => { localStorage.setItem(KEY, soundOn() ? "off" : "on"); show(); if (soundOn()) this.chime(); });
    show();
    return b;
  }

  /** @param {boolean} mine whether the turn is now this player's */
  turn(mine) {
    const was = this.mine;
    this.mine = mine;
    this.title();
    if (!mine || was) return;
    if (soundOn()) this.chime();
    const nav = /** @type {Navigator & {userActivation?: {hasBeenActive: boolean}}} */ (navigator);
    if (matchMedia("(pointer: coarse)").matches && nav.vibrate && (!nav.userActivation || nav.userActivation.hasBeenActive)) nav.vibrate(150);
  }

  /** @param {number} n unread chat lines */
  unread(n) {
    this.unreadCount = n;
    this.title();
  }

  title() {
    document.title = (this.unreadCount ? `(${this.unreadCount}) ` : "") + (this.mine ? `● ${t("sg.your_turn")} · ${t("app.title")}` : this.base);
  }

  /** Two soft notes (Web Audio). */
  chime() {
    try {
      const a = this.audio = this.audio || new AudioContext();
      if (a.state === "suspended") a.resume().catch(() => {});
      [660, 880].forEach((f, i) => {
        const t = a.currentTime + i * 0.12;
        const o = a.createOscillator();
        const g = a.createGain();
        o.frequency.value = f;
        g.gain.setValueAtTime(0.0001, t);
        g.gain.exponentialRampToValueAtTime(0.15, t + 0.02);
        g.gain.exponentialRampToValueAtTime(0.0001, t + 0.25);
        o.connect(g).connect(a.destination);
        o.start(t);
        o.stop(t + 0.3);
      });
    } catch {
      // no sound here: the title still says it
    }
  }

  stop() {
    document.title = this.base;
    if (this.audio) this.audio.close().catch(() => {});
  }
}
