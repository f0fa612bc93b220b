// @ts-check
// What leaving a match being played really does, by the room's pace (docs/protocol.md,
// "Turn-based rooms"): the question *← Home* and *Leave* ask. Loaded after the table, with its
// words in the later part of the catalogue (`lv.*`).

import { more, t } from "./i18n.js";
import { lengthText } from "./spans.js";

await more();

/** A live game waits, or a stand-in plays once you have been away a while with someone else at
 * the table; a turn-based game goes on, each deadline playing your turn.
 * @param {import("./types.js").Room | null} room @param {import("./types.js").Catalog | null} meta */
export function leaveWarning(room, meta) {
  // the server's settings come with the catalog; until it has come, their defaults (docs/operations.md)
  const away = (meta && meta.away) || { stand_in_seconds: 60, missed_turns: 3 };
  if (room && room.pace === "turn_based") return t(room.rated ? "lv.rated" : "lv.turn_based", { n: away.missed_turns });
  return t("lv.live", { time: lengthText(away.stand_in_seconds) });
}
