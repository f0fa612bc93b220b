// @ts-check
// The stylesheet of the pages loaded when visited (history, a match, the replay and its review,
// profiles, the leaderboard): pages.css, linked once and awaited so those pages draw styled.
// The home and room pages never load it (their first load stays small, tests/e2e/test_size.py).

const HREF = "/pages.css";
if (!document.querySelector(`link[href="${HREF}"]`)) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = HREF;
  await new Promise((done) => { link.onload = link.onerror = done; document.head.append(link); });
}
export {};
