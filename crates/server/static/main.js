// granary's page: the game in the address bar (address.js), drawn with its board and moves
// (board.js) and played, by the person or by granary (play.js); its review pane (review.js,
// chart.js). The page's modules, each importing what it uses; this one starts them: the
// server's catalogue loaded (catalogue.js), the controls wired, the address drawn.

import { params, setParams } from "./address.js";
import { followPreparing, loadCatalogue } from "./catalogue.js";
import { status } from "./dom.js";
import { render, wirePlay } from "./play.js";
import { drawReviewTables, wireReview } from "./review.js";

async function main() {
  try {
    await loadCatalogue();
  } catch (e) {
    status(e.message, true);
    document.body.dataset.ready = "1";
    return;
  }
  wirePlay();
  wireReview(render);
  followPreparing(drawReviewTables);
  setParams(params(), false); // this entry's depth, kept over a reload
  await render();
}

main();
