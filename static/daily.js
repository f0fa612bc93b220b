// @ts-check
// The daily deal's pages (loaded when visited): the day's results (`/#daily/{date}`) with the
// fair-deal check once the day is over (before, when it can be made), and the page a stranger
// gets on a daily deal's room while its day lasts (the room cannot be watched then).

import * as api from "./api.js";
import { el } from "./dom.js";
import { dayText, opensText, verifySeed } from "./fair.js";
import { num, t } from "./i18n.js";
import "./pages.js";
import { app, homeLink, leave } from "./router.js";

/** The daily deal's results of `day`. @param {string} day */
export function dailyResultsPage(day) {
  const page = el("div", "daily-page");
  page.append(el("h1", "", `${t("mn.daily")} · ${dayText(day)}`));
  const body = el("div", "card-panel");
  page.append(body);
  api.get(`/api/daily/${encodeURIComponent(day)}/results`).then((r) => {
    const res = /** @type {any} */ (r); // GET /api/daily/{date}/results (docs/protocol.md)
    const commit = el("p", "muted small commitment");
    commit.append(t("dy.commitment") + " ", el("code", "", res.commitment));
    body.append(commit, fairCheck(day, res.seed, res.commitment));
    if (!res.items.length) body.append(el("p", "muted", t("fa.nobody")));
    else {
      const table = el("table", "results-table");
      const head = el("tr");
      for (const key of ["fa.col_rank", "rs.player", "fa.col_result", "fa.col_payoff", "fa.col_moves"]) head.append(el("th", "", t(key)));
      table.append(head);
      for (const i of res.items) {
        const tr = el("tr");
        for (const cell of [num(i.rank), i.name, t(i.won ? "fa.won" : "fa.lost"), num(i.payoff_left), num(i.moves)]) {
          tr.append(el("td", "", cell));
        }
        table.append(tr);
      }
      body.append(table);
    }
  }).catch((e) => body.append(el("p", "error", e.message)));
  return page;
}

/** The seed and its check against the commitment once the day is over; until then, when.
 * @param {string} day @param {string | null} seed @param {string} commitment */
function fairCheck(day, seed, commitment) {
  const box = el("div", "fair-check");
  box.id = "daily-fair";
  if (seed === null) {
    box.dataset.verdict = "later";
    box.append(el("p", "", t("dy.check_later", { when: opensText(day) })));
    return box;
  }
  const line = el("p", "seed");
  line.append(t("rs.seed") + " ", el("code", "", seed));
  const verdict = el("p", "verdict", t("rs.checking_long"));
  verdict.setAttribute("role", "status");
  box.append(line, verdict);
  verifySeed(seed, commitment).then((v) => {
    box.dataset.verdict = verdict.dataset.verdict = v;
    verdict.textContent = t(`rs.long_${v}`);
  });
  return box;
}

/** What the daily deal of `day` still keeps shut, and when it opens: for the replay viewer.
 * @param {string} day */
export function sealedNote(day) {
  const box = el("section", "card-panel sealed");
  box.id = "daily-sealed";
  box.append(el("h2", "", `${t("mn.daily")} · ${dayText(day)}`),
    el("p", "", t("dy.sealed_why")),
    el("p", "", t("dy.opens", { when: opensText(day) })));
  const results = el("a", "", t("dy.results_link"));
  results.href = "/#daily/" + encodeURIComponent(day);
  box.append(results);
  return box;
}

/** A daily deal's room opened by someone without a seat while its day lasts: a plain page
 * saying so and when it opens, nothing of the room. @param {string} day */
export function sealedRoom(day) {
  leave();
  app.textContent = "";
  document.title = `${t("mn.daily")} · ${t("app.title")}`;
  const note = sealedNote(day);
  app.append(homeLink(), note);
  const h = /** @type {HTMLElement} */ (note.querySelector("h2"));
  h.tabIndex = -1;
  h.focus();
}
