// The service worker: shows the server's Web Push messages ({type, room, url, title, body,
// deadline}: docs/protocol.md, "Notifications") and opens the room when one is clicked.
// @ts-check
// (Checked as a page script: the worker's own globals are reached through `sw`.)

/** @type {any} */
const sw = self;

sw.addEventListener("install", () => sw.skipWaiting());
sw.addEventListener("activate", (/** @type {any} */ event) => event.waitUntil(sw.clients.claim()));

sw.addEventListener("push", (/** @type {any} */ event) => {
  /** @type {any} */
  let msg = {};
  try { msg = event.data ? event.data.json() : {}; } catch { msg = {}; }
  const url = typeof msg.url === "string" && msg.url.startsWith("/") ? msg.url : "/";
  const title = typeof msg.title === "string" ? msg.title : "Spite & Malice";
  event.waitUntil(sw.registration.showNotification(title, {
    body: typeof msg.body === "string" ? msg.body : "",
    tag: typeof msg.room === "string" ? "room-" + msg.room : "spite",
    data: { url },
    icon: "/icon-192.png",
    badge: "/icon-192.png",
  }));
});

sw.addEventListener("notificationclick", (/** @type {any} */ event) => {
  event.notification.close();
  const url = new URL((event.notification.data && event.notification.data.url) || "/", sw.location.origin).href;
  event.waitUntil((async () => {
    const open = await sw.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const c of open) {
      if (c.url === url && "focus" in c) return c.focus();
    }
    return sw.clients.openWindow(url);
  })());
});
