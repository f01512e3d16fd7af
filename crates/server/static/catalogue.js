// What the server holds (GET /api/v1/variants): the games with their options and defaults, the
// tables present, and the tables it builds in the background for reviews (`preparing`),
// followed while it builds them.

import { api, sleep } from "./api.js";

/** The server's catalogue once loaded (`loadCatalogue`), else null. */
export let catalogue = null;

/** Loads the catalogue; throws the server's error. */
export async function loadCatalogue() {
  catalogue = await api("/api/v1/variants", new URLSearchParams());
}

/** While the server builds tables for reviews and searches the openings over them, the
 * catalogue's tables and `preparing` follow it (every 2 s), `changed()` told each time, until
 * it ends. */
export async function followPreparing(changed) {
  const busy = (prep) => prep && (prep.state === "building" || prep.state === "searching");
  while (catalogue && busy(catalogue.preparing)) {
    await sleep(2000);
    try {
      const fresh = await api("/api/v1/variants", new URLSearchParams());
      catalogue.tables = fresh.tables;
      catalogue.preparing = fresh.preparing;
    } catch (e) {
      return;
    }
    changed();
  }
}
