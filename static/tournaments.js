// @ts-check
// Tournaments (docs/protocol.md, "Tournaments (v1.4)"): the public ones open or running
// (`/#tournaments`) with the organiser's form to create one, and a player's tournaments (their
// history and profile). Each tournament's own page is tournament.js.

import * as api from "./api.js";
import { choice, el, errorLine, field } from "./dom.js";
import { date, more, t } from "./i18n.js";
import "./pages.js";

await Promise.all([more(), more("home")]); // tn.* (later part); the pace's words (pc.*, home part)

/** A line of `GET /api/tournaments`.
 * @typedef {{id: string, code: string | null, name: string, format: string, status: string, players: number,
 *   max_players: number | null, pace: string | null, rated: boolean | null, starts_at: string | null,
 *   finished_at: string | null}} TournamentItem */

/** @param {string} id */
export const tournamentHref = (id) => "/#tournament/" + encodeURIComponent(id);
/** A time as the reader's clock reads it, with the date. @param {string} iso */
export const when = (iso) => date(iso, { dateStyle: "medium", timeStyle: "short" });

/** One tournament's line: its name (a link), format, status, players, pace, rated, when.
 * @param {TournamentItem} i */
export function tournamentItem(i) {
  const li = el("li", "tournament-item");
  li.dataset.status = i.status;
  const a = el("a", "tournament-link", i.name);
  a.href = tournamentHref(i.id);
  li.append(a, " ", el("span", `badge ${i.status}`, t(`tn.status_${i.status}`)));
  if (i.rated) li.append(" ", el("span", "badge rated", t("tn.rated")));
  const bits = [t(`tn.format_${i.format}`), i.max_players ? t("tn.players_of", { n: i.players, max: i.max_players }) : t("tn.players", { n: i.players })];
  if (i.pace) bits.push(t(`tn.pace_${i.pace}`));
  if (i.finished_at) bits.push(t("tn.ended_at", { when: when(i.finished_at) }));
  else if (i.starts_at && i.status === "open") bits.push(t("tn.starts_at", { when: when(i.starts_at) }));
  li.append(" ", el("span", "muted small", bits.join(" · ")));
  return li;
}

/** `playerId`'s tournaments, newest first (history, profile): a section of its own. @param {string} playerId */
export function playerTournaments(playerId) {
  const box = el("section", "player-tournaments");
  box.append(el("h2", "", t("tn.title")));
  const list = el("ul", "tournament-list");
  box.append(list);
  api.get(`/api/tournaments?player=${encodeURIComponent(playerId)}`).then((got) => {
    const items = /** @type {{items: TournamentItem[]}} */ (got).items;
    for (const i of items) list.append(tournamentItem(i));
    if (!items.length) list.append(el("li", "muted", t("tn.none_played")));
  }).catch((e) => box.append(el("p", "error", e.message)));
  return box;
}

/** The page `/#tournaments`: open and running public tournaments, and the form to create one.
 * @param {{navigate: (path: string) => void}} ctx */
export function tournamentsPage(ctx) {
  const page = el("div", "tournaments-page");
  page.append(el("h1", "", t("tn.title")), el("p", "muted", t("tn.about")));
  const listed = el("section", "card-panel");
  listed.setAttribute("aria-labelledby", "tournaments-open");
  const h = el("h2", "", t("tn.open_title"));
  h.id = "tournaments-open";
  const list = el("ul", "tournament-list");
  list.id = "tournament-list";
  listed.append(h, list);
  page.append(listed);
  api.get("/api/tournaments").then((got) => {
    const items = /** @type {{items: TournamentItem[]}} */ (got).items;
    for (const i of items) list.append(tournamentItem(i));
    if (!items.length) list.append(el("li", "muted", t("tn.none_open")));
  }).catch((e) => listed.append(el("p", "error", e.message)));
  const me = api.identity();
  if (me) page.append(createForm(ctx, Boolean(me.username)));
  else {
    const p = el("p", "card-panel");
    const home = el("a", "", t("tn.name_first"));
    home.href = "/";
    p.append(home);
    page.append(p);
  }
  return page;
}

/** A checkbox with its label after it. @param {string} id @param {string} label */
function check(id, label) {
  const input = el("input");
  input.type = "checkbox";
  input.id = id;
  const l = el("label", "check");
  l.htmlFor = id;
  l.append(input, " ", label);
  const box = el("div", "field check-field");
  box.append(l);
  return { box, input };
}

/** A whole number from `min`; `max` only where the protocol fixes it (else the server's bound
 * is said in its refusal). @param {string} id @param {number} min @param {number | null} max @param {string} [value] */
function numberInput(id, min, max, value = "") {
  const input = el("input");
  input.type = "number";
  input.id = id;
  input.min = String(min);
  if (max !== null) input.max = String(max);
  input.step = "1";
  input.value = value;
  return input;
}

/** The times per turn offered to a turn-based tournament, in seconds, and how each is said. */
const TURNS = [[3600, "pc.hours", 1], [43200, "pc.hours", 12], [86400, "pc.days", 1], [259200, "pc.days", 3]];

/** "Create a tournament": the organiser's form (POST /api/tournaments); on 201, its page.
 * @param {{navigate: (path: string) => void}} ctx @param {boolean} account */
function createForm(ctx, account) {
  const box = el("section", "card-panel create-tournament");
  box.setAttribute("aria-labelledby", "create-tournament-title");
  const h = el("h2", "", t("tn.create"));
  h.id = "create-tournament-title";
  const form = el("form", "tournament-form");
  const name = el("input");
  name.id = "t-name";
  name.required = true;
  name.maxLength = 80;
  const format = choice("t-format", ["swiss", "round_robin", "arena"].map((f) => [f, t(`tn.format_${f}`)]));
  const rounds = numberInput("t-rounds", 1, null);
  const double = check("t-double", t("tn.double"));
  const minutes = numberInput("t-minutes", 1, null, "60");
  const seats = numberInput("t-seats", 2, 4, "2");
  const pace = choice("t-pace", [["live", t("pc.live")], ["turn_based", t("pc.turn_based")]]);
  const turn = choice("t-turn", TURNS.map(([v, key, n]) => [String(v), t(String(key), { n })]));
  turn.value = "86400";
  const duplicate = check("t-duplicate", t("tn.duplicate"));
  const rated = check("t-rated", t("tn.rated_box"));
  const pub = check("t-public", t("tn.public_box"));
  pub.input.checked = true;
  const max = numberInput("t-max", 2, null, "16");
  // The preset and its rules: the room's options form, without what the tournament sets itself.
  /** @type {ReturnType<typeof import("./options.js").optionsFields> | null} */
  let rules = null;
  const slot = el("div", "muted", t("hm.loading"));
  import("./lobby.js").then(async ({ loadMeta, optionsFields }) => {
    const meta = await loadMeta();
    const fields = optionsFields(meta, { preset: "standard" }, { showPublic: false, rated: rated.input.checked, rulesOnly: true });
    rated.input.addEventListener("change", () => fields.setRated(rated.input.checked));
    slot.replaceWith(fields.el);
    rules = fields;
  }).catch((ex) => { slot.textContent = t("hm.rules_failed", { text: ex.message }); });
  const starts = el("input");
  starts.type = "datetime-local";
  starts.id = "t-starts";
  /** A field shown only while `when` holds. @param {HTMLElement} e @param {() => boolean} when */
  const only = (e, when) => ({ e, when });
  const is = (/** @type {string[]} */ formats) => () => formats.includes(format.value);
  const parts = [
    field(t("tn.name"), name), field(t("tn.format"), format, t("tn.format_help")),
    only(field(t("tn.rounds"), rounds, t("tn.rounds_help")), is(["swiss"])),
    only(double.box, is(["round_robin"])),
    only(field(t("tn.minutes"), minutes), is(["arena"])),
    only(field(t("tn.seats"), seats, t("tn.seats_help")), is(["arena"])),
    field(t("pc.how"), pace), only(field(t("pc.turn"), turn), () => pace.value === "turn_based"),
    only(duplicate.box, is(["swiss", "round_robin"])),
    ...(account ? [rated.box] : []), pub.box, field(t("tn.max_players"), max),
    field(t("tn.starts"), starts, t("tn.starts_help")), slot,  // the rules last: their More options is long
  ];
  const err = errorLine("create-tournament-error");
  const go = el("button", "primary", t("tn.create_button"));
  go.type = "submit";
  for (const p of parts) form.append(p instanceof HTMLElement ? p : p.e);
  form.append(go, err);
  const show = () => {
    for (const p of parts) {
      if (p instanceof HTMLElement) continue;
      p.e.hidden = !p.when();
    }
  };
  format.addEventListener("change", show);
  pace.addEventListener("change", show);
  show();
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    const f = format.value;
    /** @type {Record<string, unknown>} */
    const body = { name: name.value.trim(), format: f, pace: pace.value, public: pub.input.checked,
      max_players: Number(max.value) || 16 };
    if (f === "swiss" && rounds.value) body.rounds = Number(rounds.value);
    if (f === "round_robin") body.double = double.input.checked;
    if (f === "arena") { body.minutes = Number(minutes.value); body.seats = Number(seats.value); }
    if (f !== "arena") body.duplicate = duplicate.input.checked;
    if (pace.value === "turn_based") body.turn_seconds = Number(turn.value);
    if (account) body.rated = rated.input.checked;
    if (rules) {  // the seats and the clock are the tournament's own: only the preset and the rules changed
      const { preset, options } = rules.value();
      body.preset = preset;
      if (Object.keys(options).length) body.options = options;
    }
    if (starts.value) body.starts_at = new Date(starts.value).toISOString();  // the reader's local time, sent in UTC
    go.disabled = true;
    try {
      const made = /** @type {{id: string, invite_url: string}} */ (await api.post("/api/tournaments", body));
      ctx.navigate(tournamentHref(made.id));
    } catch (ex) {
      err.textContent = /** @type {Error} */ (ex).message;
    } finally {
      go.disabled = false;
    }
  });
  box.append(h, form);
  return box;
}
