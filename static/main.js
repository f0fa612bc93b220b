// @ts-check
// The client's entry: the route table. Routes: "/" home, "/r/{code}" a room (lobby, then table),
// "/#how" how to play, "/#history" my matches, "/#replay/{id}" the replay viewer, "/#account" sign
// in / claim an account, "/#leaderboard", "/#player/{id}" a profile (hash routes need no extra
// server paths). Pages other than home and rooms load their module when visited.

import "./i18n.js"; // the player's language, loaded before anything is drawn
import { el } from "./dom.js";
import { homePage, howToPlay } from "./home.js";
import { roomPage } from "./room.js";
import { app, every, homeLink, leave, navigate, onLeave, refresh, startRouter } from "./router.js";

/** @type {object | null} which page `later` may still fill (a new route takes it over) */
let current = null;

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
  const ctx = { navigate, every, refresh, seed };
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
      onLeave(r.stop);
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

startRouter(route);
