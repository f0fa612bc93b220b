// REST calls (protocol.md) and the guest identity kept in this browser.
// Every function resolves with parsed JSON or rejects with an ApiError whose message is fit
// to show a person.

const KEY = "spite.identity";

export class ApiError extends Error {
  constructor(status, message, detail) {
    super(message);
    this.status = status;
    this.detail = detail;
  }
}

/** The stored identity {id, name, token}, or null. */
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

/** Turn a FastAPI/our error body into one readable sentence. */
function explain(status, body) {
  const d = body && (body.detail ?? body.message ?? body.error);
  if (typeof d === "string") return d;
  if (d && typeof d.message === "string") return d.message;
  if (Array.isArray(d) && d.length) {
    return d.map((e) => {
      const where = Array.isArray(e.loc) ? e.loc.filter((x) => x !== "body").join(".") : "";
      return (where ? where + ": " : "") + (e.msg || "is not valid");
    }).join("; ");
  }
  if (status === 401) return "Your guest identity was not recognised. Pick a name again.";
  if (status === 404) return "Not found.";
  if (status === 429) return "Too many requests; wait a moment and try again.";
  if (status >= 500) return "The server had a problem. Please try again.";
  return `The request failed (${status}).`;
}

export async function request(method, path, body) {
  const headers = { Accept: "application/json" };
  const me = identity();
  if (me) headers.Authorization = "Bearer " + me.token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "Cannot reach the server. Check your connection and try again.");
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) throw new ApiError(res.status, explain(res.status, data), data);
  return data;
}

export const get = (path) => request("GET", path);
export const post = (path, body) => request("POST", path, body ?? {});

/** Create a guest identity under `name` and keep it in this browser. */
export async function register(name) {
  const me = await post("/api/players", { name });
  const kept = { id: String(me.id), name: me.name, token: me.token };
  localStorage.setItem(KEY, JSON.stringify(kept));
  return kept;
}

/** Change the display name of this browser's identity (matches already played keep the old one). */
export async function rename(name) {
  const out = await request("PATCH", "/api/players/me", { name });
  const me = identity();
  if (me) localStorage.setItem(KEY, JSON.stringify({ ...me, name: out.name }));
  return out;
}

export const options = () => get("/api/options");
export const createRoom = (spec) => post("/api/rooms", spec);
export const publicRooms = () => get("/api/rooms");
export const room = (code) => get("/api/rooms/" + encodeURIComponent(code));
export const me = () => get("/api/players/me");
export const matches = (playerId, cursor) =>
  get(`/api/players/${encodeURIComponent(playerId)}/matches` + (cursor ? "?cursor=" + encodeURIComponent(cursor) : ""));
export const stats = (playerId) => get(`/api/players/${encodeURIComponent(playerId)}/stats`);
export const match = (id) => get("/api/matches/" + encodeURIComponent(id));
export const replay = (id, at) =>
  get(`/api/matches/${encodeURIComponent(id)}/replay` + (at === undefined ? "" : "?at=" + at));
