// @ts-check
// The client's entry: the route table. Routes: "/" home, "/r/{code}" a room (lobby, then table),
// "/#how" how to play, "/#history" my matches, "/#match/{id}" a match, "/#replay/{id}" the replay viewer,
// "/#analysis/{id}/{v}/{seat}" the analysis board, "/#account" sign
// in / claim an account, "/#games" your games, "/#leaderboard", "/#player/{id}" a profile, "/#tournaments" the
// tournaments, "/#tournament/{id}" and "/t/{code}" (its invite link) one tournament, "/#learn" the lessons,
// "/#lesson/{code}" a lesson's room (hash routes need no extra server paths). Every page loads its module when visited: what a page loads first is its own.

import { t } from "./i18n.js"; // the player's language, loaded before anything is drawn
import { el } from "./dom.js";
import { app, every, homeLink, leave, navigate, onLeave, refresh, startRouter } from "./router.js";

/** A page's title. @param {string} key */
const title = (key) => `${t(key)} · ${t("app.title")}`;

/** @type {object | null} which page `later` may still fill (a new route takes it over) */
let current = null;

function route() {
  leave();
  current = null;
  app.textContent = "";
  const path = location.pathname;
  const hash = location.hash.replace(/^#\/?/, "");
  const room = path.match(/^\/r\/([^/]+)\/?$/);
  const invited = path.match(/^\/t\/([^/]+)\/?$/);  // a tournament's invite link
  // ?seed=… (tests, development) goes with the rooms created here; the server refuses it unless
  // it runs with seeded rooms enabled.
  const seed = new URLSearchParams(location.search).get("seed");
  const ctx = { navigate, every, refresh, seed };
  if (room && room[1].startsWith("1")) { // a lesson's code (never a room's): its own page
    location.replace("/#lesson/" + room[1]);
    return;
  } else if (room) {
    document.title = `${t("ch.room", { code: decodeURIComponent(room[1]) })} · ${t("app.title")}`;
    const code = decodeURIComponent(room[1]);
    page(import("./room.js"), (m) => m.roomPage(code));
  } else if (invited || hash.startsWith("tournament/")) {
    document.title = title("mn.tournament");
    const key = decodeURIComponent(invited ? invited[1] : hash.slice(11));
    later(import("./tournament.js"), (m) => m.tournamentPage(key, ctx));
  } else if (hash === "learn") {
    document.title = title("learn.title");
    later(import("./learn.js"), (m) => m.learnPage(ctx));
  } else if (hash.startsWith("lesson/")) {
    document.title = title("learn.title");
    const code = decodeURIComponent(hash.slice(7));
    page(import("./lesson.js"), (m) => m.lessonPage(code));
  } else if (hash === "tournaments") {
    document.title = title("mn.tournaments");
    later(import("./tournaments.js"), (m) => m.tournamentsPage(ctx));
  } else if (hash === "how" || hash.startsWith("how/")) { // "how/{preset}": that preset's rules
    document.title = title("mn.how");
    later(import("./rules.js"), (m) => m.howToPlay(decodeURIComponent(hash.slice(4))));
  } else if (hash === "history") {
    document.title = title("mn.matches");
    later(import("./history.js"), (m) => m.historyPage());
  } else if (hash === "account") {
    document.title = title("hm.account");
    later(import("./account.js"), (m) => m.accountPage(ctx));
  } else if (hash === "games") {
    document.title = title("mn.games");
    later(import("./games.js"), (m) => m.gamesPage(ctx));
  } else if (hash === "leaderboard") {
    document.title = title("hm.leaderboard");
    later(import("./account.js"), (m) => m.leaderboardPage());
  } else if (hash.startsWith("player/")) {
    document.title = title("rs.player");
    later(import("./account.js"), (m) => m.profilePage(decodeURIComponent(hash.slice(7))));
  } else if (hash === "friends") {
    document.title = title("mn.friends");
    later(import("./friends.js"), (m) => m.friendsPage(ctx));
  } else if (hash.startsWith("daily/")) {
    document.title = title("mn.daily");
    later(import("./daily.js"), (m) => m.dailyResultsPage(decodeURIComponent(hash.slice(6))));
  } else if (hash.startsWith("match/")) {
    document.title = title("mn.match");
    later(import("./history.js"), (m) => m.matchPage(decodeURIComponent(hash.slice(6))));
  } else if (hash.startsWith("analysis/")) { // "analysis/{match}/{v}/{seat}[/{move}]": the analysis board
    document.title = title("ab.title");
    later(import("./analysis.js"), (m) => {
      const at = m.parseRoute(hash);
      if (!at) return el("p", "error", t("mn.failed", { text: hash }));
      const r = m.analysisPage(at.id, at.v, at.seat, at.best);
      onLeave(r.stop);
      return r.el;
    });
  } else if (hash.startsWith("replay/")) {
    document.title = title("mn.replay");
    later(import("./replay.js"), (m) => {
      const r = m.replayPage(decodeURIComponent(hash.slice(7)));
      onLeave(r.stop);
      return r.el;
    });
  } else {
    document.title = t("app.title");
    page(import("./home.js"), (m) => app.append(m.homePage(ctx)));
  }
  settle();
}

/** A drawn page's heading can take the focus (where a screen reader starts). */
function settle() {
  const h = /** @type {HTMLElement | null} */ (app.querySelector("h1, h2"));
  if (h && document.activeElement === document.body) h.tabIndex = -1;
}

/** The home and room pages: each loads its own modules (what a page loads first stays small),
 * drawn when they arrive unless the player has moved on by then.
 * @template M @param {Promise<M>} module @param {(m: M) => void} draw */
function page(module, draw) {
  const here = location.href;
  const ticket = {};
  current = ticket;
  module.then((m) => {
    if (current === ticket && location.href === here) { draw(m); settle(); }
  }).catch((e) => {
    if (current === ticket) app.append(el("p", "error", t("mn.failed", { text: e.message })));
  });
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
    if (current === ticket) app.append(el("p", "error", t("mn.failed", { text: e.message })));
  });
}

startRouter(route);
const lobby = import("./lobbysock.js");  // invitations and friends on every page
lobby.then((m) => m.startLobby(), () => {});
