// @ts-check
// Learning to play: the lessons' list ("/#learn": each lesson with its done tick and Start,
// Continue or Again) and the home page's "Learn to play" card (first on the page for a player
// who has not done every lesson nor dismissed it). A lesson itself is lesson.js's page.

import * as api from "./api.js";
import { button, el, errorLine } from "./dom.js";
import { more, t } from "./i18n.js";
import { startLesson } from "./lesson.js";
import "./pages.js";

await more("home"); // the lessons' words (learn.*) are in the home part of the catalogue

/** @typedef {import("./types.js").LessonItem} LessonItem */
/** @typedef {import("./types.js").LessonList} LessonList */

const lessons = () => /** @type {Promise<LessonList>} */ (api.get("/api/lessons"));

/** Start, Continue or Again for `item`. @param {LessonItem} item @param {HTMLElement} err */
function startButton(item, err) {
  const key = item.room ? "learn.continue" : item.done ? "learn.again" : "learn.start";
  const b = button(t(key), () => {
    b.disabled = true;
    startLesson(item.id).catch((e) => { b.disabled = false; err.textContent = e.message; });
  }, item.done && !item.room ? "small" : "small primary");
  b.setAttribute("aria-label", `${t(key)}: ${item.title}`);
  b.dataset.lesson = item.id;
  return b;
}

/** "Lessons done: 2 / 10". @param {LessonItem[]} items */
const progress = (items) => t("learn.progress", { done: items.filter((i) => i.done).length, n: items.length });

/** The lessons' page. @param {{navigate: (path: string) => void, refresh: () => void}} ctx */
export function learnPage(ctx) {
  const page = el("section", "learn-page");
  page.append(el("h1", "", t("learn.title")), el("p", "learn-intro", t("learn.intro")));
  const err = errorLine("learn-error");
  const slot = el("div", "", t("hm.loading"));
  page.append(slot, err);
  if (!api.identity()) {
    import("./nameform.js").then((m) => slot.replaceWith(m.nameForm(() => ctx.refresh(), () => null)), () => {});
    return page;
  }
  lessons().then((list) => {
    const ol = el("ol", "lesson-list");
    for (const item of list.items) {
      const li = el("li", item.done ? "lesson-item done" : "lesson-item");
      li.dataset.lesson = item.id;
      const name = el("span", "lesson-name", item.title);
      name.append(el("span", "lesson-about", item.about));
      const tick = el("span", "lesson-tick", item.done ? "✓" : "");
      tick.setAttribute("aria-hidden", "true");
      li.append(tick, name);
      if (item.done) li.append(el("span", "sr-only", ` (${t("learn.done_mark")})`));
      li.append(startButton(item, err));
      ol.append(li);
    }
    slot.replaceWith(el("p", "learn-progress", progress(list.items)), ol);
  }, (e) => { slot.textContent = t("learn.failed", { text: e.message }); });
  return page;
}

/** The home page's card, filled once the lessons are read; it removes itself when every lesson
 * is done or the player dismissed it. @returns {HTMLElement} */
export function learnCard() {
  const box = el("section", "card-panel learn-card");
  box.id = "learn-card";
  box.hidden = true;
  box.setAttribute("aria-labelledby", "learn-card-title");
  lessons().then((list) => {
    const next = list.items.find((i) => !i.done);
    if (list.dismissed || !next) { box.remove(); return; }
    const h = el("h2", "", t("learn.title"));
    h.id = "learn-card-title";
    const err = errorLine("learn-card-error");
    const row = el("p", "learn-card-buttons");
    const all = el("a", "", t("learn.open"));
    all.href = "/#learn";
    const dismiss = button(t("learn.dismiss"), () => {
      dismiss.disabled = true;
      api.post("/api/lessons/dismiss").then(() => box.remove(), (e) => { dismiss.disabled = false; err.textContent = e.message; });
    }, "small");
    dismiss.id = "learn-dismiss";
    const go = startButton(next, err);
    go.id = "learn-start";
    row.append(go, " ", all, " ", dismiss);
    box.append(h, el("p", "", t("learn.card")), el("p", "learn-progress", progress(list.items)), row, err);
    box.hidden = false;
  }, () => box.remove());
  return box;
}
