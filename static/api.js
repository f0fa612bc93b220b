// @ts-check
// REST calls (protocol.md) and the guest identity kept in this browser.
// Every function resolves with parsed JSON or rejects with an ApiError whose message is fit
// to show a person.

/** @typedef {import("./types.js").Catalog} Catalog */
/** @typedef {import("./types.js").ConfigureFields} ConfigureFields */
/** @typedef {import("./types.js").ErrorBody} ErrorBody */
/** @typedef {import("./types.js").Identity} Identity */
/** @typedef {import("./types.js").MatchPage} MatchPage */
/** @typedef {import("./types.js").MatchDetail} MatchDetail */
/** @typedef {import("./types.js").Replay} Replay */
/** @typedef {import("./types.js").ReplayStep} ReplayStep */
/** @typedef {import("./types.js").RestRoom} RestRoom */
/** @typedef {import("./types.js").Stats} Stats */
/** @typedef {import("./types.js").Achievement} Achievement */
/** @typedef {import("./types.js").Leaderboard} Leaderboard */
/** @typedef {import("./types.js").Me} Me */
/** @typedef {import("./types.js").Profile} Profile */
/** @typedef {import("./types.js").RatingPage} RatingPage */

import { currentLang, followPlayer, named, t } from "./i18n.js";

const KEY = "spite.identity";

export class ApiError extends Error {
  /** @param {number} status @param {string} message @param {ErrorBody | null} [body] */
  constructor(status, message, body = null) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

/** The stored identity, or null. @returns {Identity | null} */
export function identity() {
  try {
    const me = JSON.parse(localStorage.getItem(KEY) || "null");
    return me && me.token && me.id ? me : null;
  } catch {
    return null;
  }
}

export function forget() {
  localStorage.removeItem(KEY);
}

/** An error answer as one readable sentence: the server's `message` (every 4xx has one);
 * a few words of our own when the answer has no body (a proxy, a crash).
 * @param {number} status @param {ErrorBody | null} body */
function explain(status, body) {
  if (body && typeof body.message === "string" && body.message) return body.message;
  if (status === 401) return t("ap.401");
  if (status === 404) return t("ap.404");
  if (status === 429) return t("ap.429");
  if (status >= 500) return t("ap.500");
  return t("ap.failed", { status });
}

/**
 * @param {string} method @param {string} path @param {object} [body] @param {Record<string, string>} [more] headers
 * @returns {Promise<unknown>} the parsed answer: each caller below names its type (protocol.md)
 */
export async function request(method, path, body, more = {}) {
  /** @type {Record<string, string>} */
  const headers = { ...more, Accept: "application/json", "Accept-Language": currentLang() };
  const me = identity();
  if (me) headers.Authorization = "Bearer " + me.token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, t("ap.offline"));
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text, named) : null; } catch { data = null; }
  if (!res.ok) throw new ApiError(res.status, explain(res.status, data), data);
  return data;
}

/** @param {string} path */
export const get = (path) => request("GET", path);
/** @param {string} path @param {object} [body] */
export const post = (path, body) => request("POST", path, body ?? {});

/** Create a guest identity under `name` and keep it in this browser.
 * @param {string} name @returns {Promise<Identity>} */
export async function register(name) {
  const me = /** @type {Identity} */ (await post("/api/players", { name }));
  const kept = { id: me.id, name: me.name, token: me.token };
  localStorage.setItem(KEY, JSON.stringify(kept));
  return kept;
}

/** Change the display name of this browser's identity (matches already played keep the old one).
 * @param {string} name @returns {Promise<{id: string, name: string}>} */
export async function rename(name) {
  const out = /** @type {{id: string, name: string}} */ (await request("PATCH", "/api/players/me", { name }));
  const me = identity();
  if (me) localStorage.setItem(KEY, JSON.stringify({ ...me, name: out.name }));
  return out;
}

/** Keep `lang` as the player's language (docs/protocol.md, "Languages"). @param {string} lang */
export const setLang = (lang) => identity() ? request("PATCH", "/api/players/me", { lang }) : null;
export const options = () => /** @type {Promise<Catalog>} */ (get("/api/options"));
/** @param {ConfigureFields & {seed?: string}} spec */
export const createRoom = (spec) => /** @type {Promise<RestRoom>} */ (post("/api/rooms", spec));
export const publicRooms = () => /** @type {Promise<{items: RestRoom[]}>} */ (get("/api/rooms"));
/** @param {string} playerId @param {string | null} cursor */
export const matches = (playerId, cursor) => /** @type {Promise<MatchPage>} */ (
  get(`/api/players/${encodeURIComponent(playerId)}/matches` + (cursor ? "?cursor=" + encodeURIComponent(cursor) : "")));
/** @param {string} playerId */
export const stats = (playerId) => /** @type {Promise<Stats>} */ (get(`/api/players/${encodeURIComponent(playerId)}/stats`));
/** A match: players, hands and how each ended. @param {string} id */
export const matchDetail = (id) => /** @type {Promise<MatchDetail>} */ (get(`/api/matches/${encodeURIComponent(id)}`));
/** The whole replay of a finished match. @param {string} id */
export const replay = (id) => /** @type {Promise<Replay>} */ (get(`/api/matches/${encodeURIComponent(id)}/replay`));
/** The table after version `at`, face up. @param {string} id @param {number} at */
export const replayStep = (id, at) =>
  /** @type {Promise<ReplayStep>} */ (get(`/api/matches/${encodeURIComponent(id)}/replay?at=${at}`));

/** @param {Identity} me */
function keep(me) {
  localStorage.setItem(KEY, JSON.stringify(me));
}

/** Turn this browser's guest identity into an account (same id, so the history stays).
 * @param {string} username @param {string} password @returns {Promise<Identity>} */
export async function claimAccount(username, password) {
  const out = /** @type {{id: string, name: string, username: string}} */ (
    await post("/api/account", { username, password }));
  const me = identity();
  const kept = { ...(me || { token: "" }), id: out.id, name: out.name, username: out.username };
  keep(kept);
  return kept;
}

/** Sign in to an account: a new token for this browser (it replaces a guest identity here).
 * @param {string} username @param {string} password @returns {Promise<Identity>} */
export async function signIn(username, password) {
  const out = /** @type {Identity} */ (await request("POST", "/api/sessions", { username, password }));
  const kept = { id: out.id, name: out.name, token: out.token, username };
  keep(kept);
  const me = /** @type {Me & {lang?: string | null}} */ (await get("/api/players/me"));
  keep({ ...kept, name: me.name, username: me.username });
  followPlayer(me.lang);
  return identity() || kept;
}

/** Sign this browser out: its token stops working everywhere at once. */
export async function signOut() {
  try {
    await request("DELETE", "/api/sessions/current");
  } finally {
    forget();
  }
}

/** @param {string} id */
export const profile = (id) => /** @type {Promise<Profile>} */ (get(`/api/players/${encodeURIComponent(id)}`));
/** @param {string} id @param {string | null} [cursor] */
export const ratings = (id, cursor = null) => /** @type {Promise<RatingPage>} */ (
  get(`/api/players/${encodeURIComponent(id)}/ratings?limit=100` + (cursor ? "&cursor=" + encodeURIComponent(cursor) : "")));
/** @param {string} id */
export const achievements = (id) => /** @type {Promise<{items: Achievement[]}>} */ (
  get(`/api/players/${encodeURIComponent(id)}/achievements`));
/** @param {string | null} [cursor] */
export const leaderboard = (cursor = null) => /** @type {Promise<Leaderboard>} */ (
  get("/api/leaderboard" + (cursor ? "?cursor=" + encodeURIComponent(cursor) : "")));
