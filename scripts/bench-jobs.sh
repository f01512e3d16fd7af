#!/usr/bin/env bash
# Reviews as the page asks for them, timed against `granary serve` (started here on a free
# port over the table directory DIR, as a newcomer runs it: `--prepare 24`, the default), each
# run once the server is ready (its tables complete and the page's opening positions searched,
# `preparing` of /api/v1/variants):
#
#   scripts/bench-jobs.sh DIR [RUNS]     # DIR holds Kalah(6) tables to 24 seeds, empty and
#                                        # standard capture (else the server builds them first)
#
# - review: two 40-ply Kalah(6,4) games (empty and standard capture; random legal moves from a
#   fixed seed, written below), each posted with `Prefer: respond-async` and followed with
#   `GET /api/v1/jobs/{id}?since=` as the page follows it: seconds to the 202, to the first
#   ply's row and to the whole review; then the same game asked again (kept). A server of its
#   own each run (nothing kept from before); RUNS runs (default 3), medians printed;
# - cancel: 5 s after they run (past the search's set-up), both search slots held by reviews of Kalah(6,5) games (60 seeds, searched however
#   long: `--search-seconds 1e9`, hours over these tables), a third queued; milliseconds from the first one's DELETE answered to the
#   queued one running (the slot freed); RUNS times, the median;
# - load: 10 reviews of 40-ply games posted at once (two run, eight wait), while 4 clients ask
#   `GET /api/v1/query` of Kalah(6,4) positions the tables hold (24 seeds or fewer, from the
#   same games): the queries' latency percentiles, the reviews' end.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/bench-jobs.sh DIR [RUNS]}
runs=${2:-3}
bin=${GRANARY:-target/release/granary}
server=
trap '[ -n "$server" ] && kill $server 2>/dev/null || true' EXIT

# Starts a fresh server, with `granary serve`'s flags given; sets `url`.
serve() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$bin" serve --bind "127.0.0.1:$port" --dir "$dir" --prepare 24 "$@" 2>/dev/null &
  server=$!
  for _ in $(seq 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
    sleep 0.1
  done
  url="http://127.0.0.1:$port"
}

client() {
  python3 - "$url" "$@" <<'EOF'
import json, statistics, sys, threading, time, urllib.error, urllib.request

base, mode = sys.argv[1], sys.argv[2]
GAMES = {
    "empty": [2, 5, 5, 2, 4, 6, 4, 1, 6, 2, 5, 3, 2, 2, 6, 4, 5, 6, 4, 3, 6, 1, 1, 2, 6, 5, 5, 1,
              6, 3, 2, 3, 5, 4, 6, 2, 5, 4, 5, 6],
    "standard": [2, 5, 1, 3, 1, 5, 4, 4, 6, 4, 2, 1, 6, 1, 6, 4, 6, 1, 5, 3, 6, 2, 5, 3, 3, 1, 4,
                 1, 5, 4, 6, 2, 2, 1, 1, 5, 2, 3, 3, 4],
}

def call(method, path, body=None, prefer=False):
    request = urllib.request.Request(base + path, method=method,
                                     data=None if body is None else json.dumps(body).encode())
    request.add_header("Content-Type", "application/json")
    if prefer:
        request.add_header("Prefer", "respond-async")
    try:
        with urllib.request.urlopen(request, timeout=600) as response:
            return response.status, json.load(response)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)

def post(body):
    status, report = call("POST", "/api/v1/review", body, prefer=True)
    assert status in (200, 202), (status, report)
    return status, report

def ready():
    while True:
        status, variants = call("GET", "/api/v1/variants")
        prep = variants["preparing"]
        assert prep["state"] != "failed", prep
        if prep["state"] == "ready":
            return
        time.sleep(0.5)

ready()

def follow(report, until=lambda r: r["state"] not in ("queued", "running"), each=None):
    while not until(report):
        if each:
            each(report)
        status, report = call("GET", f"/api/v1/jobs/{report['id']}?since={report['version']}")
        assert status == 200, report
    return report

if mode == "review":
    for rules, moves in GAMES.items():
        body = {"game": "kalah", "rules": rules, "moves": moves}
        start = time.perf_counter()
        status, report = post(body)
        posted = time.perf_counter() - start
        first = []
        def each(r):
            if not first and r["done"] >= 1:
                first.append(time.perf_counter() - start)
        report = follow(report, each=each)
        whole = time.perf_counter() - start
        assert report["state"] == "done", report
        start = time.perf_counter()
        status, again = post(body)
        kept = time.perf_counter() - start
        assert status == 200 and again == report["result"]
        exact = sum(1 for p in again["plies"] if p["answer"] == "exact")
        print(json.dumps({"rules": rules, "accepted": posted, "first": first[0], "whole": whole,
                          "kept": kept, "plies": len(again["plies"]), "exact": exact}))
elif mode == "cancel":
    endless = lambda first: {"game": "kalah", "seeds": 5, "moves": [first]}
    running = [post(endless(pit))[1] for pit in (1, 2)]
    running = [follow(r, until=lambda r: r["state"] == "running") for r in running]
    # Past the search's set-up (tables copied into memory, the hash table allocated), which a
    # cancel does not interrupt: the search itself is what a cancel stops.
    time.sleep(5)
    _, queued = post(endless(3))
    assert queued["state"] == "queued", queued
    call("GET", f"/api/v1/jobs/{queued['id']}")
    status, _ = call("DELETE", f"/api/v1/jobs/{running[0]['id']}")
    start = time.perf_counter()
    queued = follow(queued, until=lambda r: r["state"] != "queued")
    freed = time.perf_counter() - start
    for job in (running[1], queued):
        call("DELETE", f"/api/v1/jobs/{job['id']}")
    print(json.dumps({"freed_ms": freed * 1000, "state": queued["state"]}))
elif mode == "load":
    # Ten distinct games: the two above, cut short at ten lengths.
    bodies = [{"game": "kalah", "rules": rules, "moves": moves[:30 + k]}
              for k in range(5) for rules, moves in GAMES.items()]
    positions = []
    for rules, moves in GAMES.items():
        for n in range(len(moves) + 1):
            status, shown = call("GET", "/api/v1/show?game=kalah&rules=%s&moves=%s"
                                 % (rules, ",".join(map(str, moves[:n]))))
            board = sum(shown["pits"])
            if board <= 24 and not shown["over"]:
                positions.append((rules, shown["position"]))
    latencies, done = [], threading.Event()
    def queries(k):
        i = k
        while not done.is_set():
            rules, position = positions[i % len(positions)]
            i += 4
            start = time.perf_counter()
            status, _ = call("GET", "/api/v1/query?game=kalah&rules=%s&position=%s"
                             % (rules, urllib.request.quote(position)))
            assert status == 200, status
            latencies.append(time.perf_counter() - start)
    start = time.perf_counter()
    reports = [post(b)[1] for b in bodies]
    threads = [threading.Thread(target=queries, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    # Every job asked about in turn, as ten pages would, so that none is left unasked.
    ends, pending = [], [r for r in reports if "state" in r]
    ends += [time.perf_counter() - start] * (len(reports) - len(pending))
    while pending:
        time.sleep(0.5)
        for r in list(pending):
            status, now = call("GET", f"/api/v1/jobs/{r['id']}")
            if now["state"] not in ("queued", "running"):
                assert now["state"] == "done", now
                ends.append(time.perf_counter() - start)
                pending.remove(r)
    done.set()
    for t in threads:
        t.join()
    ms = sorted(x * 1000 for x in latencies)
    pick = lambda q: ms[min(len(ms) - 1, int(q * len(ms)))]
    print(json.dumps({"queries": len(ms), "p50_ms": pick(0.5), "p99_ms": pick(0.99),
                      "max_ms": ms[-1], "reviews_end_s": max(ends)}))
EOF
}

median() { python3 -c 'import json,statistics,sys; rows=[json.loads(l) for l in sys.stdin]; key=sys.argv[1]; print(statistics.median(r[key] for r in rows))' "$1"; }

if [ -z "${SKIP_REVIEW:-}" ]; then
echo "== review: 40-ply Kalah(6,4) games over $dir, a fresh server a run"
: > /tmp/bench-jobs-review.jsonl
for run in $(seq "$runs"); do
  serve
  client review | tee -a /tmp/bench-jobs-review.jsonl
done
for rules in empty standard; do
  for key in accepted first whole kept; do
    printf '%s %s median: %s s\n' "$rules" "$key" \
      "$(grep "\"$rules\"" /tmp/bench-jobs-review.jsonl | median "$key")"
  done
done
fi
echo "== cancel: DELETE answered to the queued review running"
: > /tmp/bench-jobs-cancel.jsonl
for run in $(seq "$runs"); do
  serve --search-seconds 1e9
  client cancel | tee -a /tmp/bench-jobs-cancel.jsonl
done
echo "freed median: $(median freed_ms < /tmp/bench-jobs-cancel.jsonl) ms"
echo "== load: 10 reviews at once beside table queries"
serve
client load
