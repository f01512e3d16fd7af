// The server's JSON API as the page asks it: answers or errors (`ApiError`, the server's
// one-line message with its status and `Retry-After`), and the jobs a long answer becomes
// (202 with `Location`), followed with `?since=` (the server answers as soon as the job
// changes) or cancelled.

export class ApiError extends Error {
  constructor(message, status, retryAfter) {
    super(message);
    this.status = status;
    this.retryAfter = retryAfter;
  }
}

/** The JSON answer of a response, or an ApiError carrying the server's one-line message. */
export async function answerOf(response) {
  let body = null;
  try { body = await response.json(); } catch (e) { body = {}; }
  if (!response.ok) {
    throw new ApiError(body.error || response.statusText, response.status,
      Number(response.headers.get("Retry-After")) || 1);
  }
  return body;
}

/** `GET path?p`: its answer. */
export async function api(path, p) {
  return answerOf(await fetch(path + "?" + p.toString()));
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A job's next report: once it has changed since `report` (or the server's wait ends). */
export async function nextReport(report) {
  return answerOf(await fetch(`/api/v1/jobs/${report.id}?since=${report.version}`));
}

/** Cancels the job `id` on the server. */
export async function cancelJob(id) {
  return answerOf(await fetch(`/api/v1/jobs/${id}`, { method: "DELETE" }));
}

/** Whole seconds since `began` (a `Date.now()`). */
function waitedSince(began) {
  return Math.round((Date.now() - began) / 1000);
}

/** The query of `p`. One whose search outlasts the request is a job (202 with `Location`):
 * followed until it ends, `say` told what it waits for and how long it has waited. A full
 * queue (503) is asked again after `Retry-After`. Left (the search goes on, its answer kept)
 * once `wanted()` is false. */
export async function queryWithPatience(p, wanted, say) {
  const began = Date.now();
  for (let tries = 0; ; tries++) {
    const response = await fetch("/api/v1/query?" + p.toString());
    if (response.status === 202) return followQuery(await answerOf(response), began, wanted, say);
    try {
      return await answerOf(response);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 503 || tries > 60 || !wanted()) throw e;
      say(`${e.message} (waited ${waitedSince(began)} s so far) …`);
      await sleep(1000 * Math.min(e.retryAfter, 5));
      if (!wanted()) throw e;
    }
  }
}

/** A query's job followed to its answer while `wanted()`. */
async function followQuery(report, began, wanted, say) {
  for (;;) {
    if (!wanted()) throw new ApiError("the board moved on", 0, 1);
    if (report.state === "done") return report.result;
    if (report.state === "failed") throw new ApiError(report.error, report.status || 500, 1);
    if (report.state === "cancelled") throw new ApiError(report.error || "cancelled", 0, 1);
    say(`Waiting for ${report.what}: ${waitedSince(began)} s so far …`);
    report = await nextReport(report);
  }
}
