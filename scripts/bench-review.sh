#!/usr/bin/env bash
# Review times of whole games, as a user runs them (`granary review --record FILE --json`):
#
#   scripts/bench-review.sh DIR [RUNS]     # tables in DIR; each review RUNS times (default 3)
#
# Three games, drawn at random from a fixed seed (each ply a legal move chosen uniformly, as
# `granary show --json` lists them; a game that ends too soon is drawn again):
# - a 60-ply Kalah(6,4) standard game, over Kalah(6) standard tables to 20 seeds (the plies
#   above them searched where the cost model expects at most 60 s, else beyond);
# - an Oware(6,3) awari game to its end, over awari tables 0..=24 (plies above 24 seeds beyond);
# - a 200-ply Oware(6,2) awari game over the same tables (every ply exact).
# Missing tables are built first (`granary build`, not timed). Prints, a game: plies, exact and
# beyond plies, the median wall time of the review (the process: start, tables opened, every ply
# answered) and plies a second; the records are kept in target/bench-review/.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/bench-review.sh DIR [RUNS]}
runs=${2:-3}
bin=${GRANARY:-target/release/granary}
out=target/bench-review
mkdir -p "$out"
RANDOM=20261129

# A random game of `plies` plies (0: to its end) of the game the flags name; `min`: plies it
# must reach. Prints the moves, comma-separated.
draw() {
    local plies=$1 min=$2
    shift 2
    while :; do
        local moves=() legal
        while :; do
            local joined
            joined=$(IFS=,; echo "${moves[*]}")
            legal=$("$bin" show "$@" ${joined:+--moves "$joined"} --json |
                python3 -c 'import json,sys; print(" ".join(map(str, json.load(sys.stdin)["legal_moves"])))')
            [ -z "$legal" ] && break
            local options=($legal)
            moves+=("${options[$((RANDOM % ${#options[@]}))]}")
            [ "$plies" -gt 0 ] && [ "${#moves[@]}" -ge "$plies" ] && break
        done
        if [ "${#moves[@]}" -ge "$min" ]; then
            (IFS=,; echo "${moves[*]}")
            return
        fi
    done
}

# Reviews the record `file` `runs` times; prints the figures of `name`.
bench() {
    local name=$1 file=$2 times=() json
    for _ in $(seq "$runs"); do
        local start end
        start=$(date +%s.%N)
        json=$("$bin" review --record "$file" --dir "$dir" --json)
        end=$(date +%s.%N)
        times+=("$(echo "$end - $start" | bc -l)")
    done
    local median
    median=$(printf '%s\n' "${times[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    echo "$json" | python3 -c '
import json, sys
name, median, times = sys.argv[1], float(sys.argv[2]), sys.argv[3]
r = json.load(sys.stdin)
plies = len(r["plies"])
exact = sum(p["answer"] == "exact" for p in r["plies"])
searched = sum(p.get("source") == "search" for p in r["plies"])
print(f"{name}: {plies} plies ({exact} exact, {searched} of them searched, {plies - exact} beyond); "
      f"review {median:.3f} s median of [{times}] s, {plies / median:.3g} plies/s, "
      f"{1000 * median / plies:.2f} ms a ply")
' "$name" "$median" "${times[*]}"
}

# Writes the record of `moves` (comma-separated) of the game `game` with `rules` and `seeds`.
record() {
    local file=$1 moves=$2 game=$3 rules=$4 seeds=$5
    printf '[Game "%s"]\n[Rules "%s"]\n[Seeds "%s"]\n\n%s\n' "$game" "$rules" "$seeds" "${moves//,/ }" >"$file"
}

kalah=(kalah --rules standard)
oware=(oware --rules awari)
# Layers already built are kept.
"$bin" build "${kalah[@]}" --max-seeds 20 --dir "$dir" >/dev/null
"$bin" build "${oware[@]}" --max-seeds 24 --dir "$dir" >/dev/null

moves=$(draw 60 60 "${kalah[@]}")
record "$out/kalah-6-4.txt" "$moves" kalah standard 4
moves=$(draw 0 40 "${oware[@]}" --seeds 3)
record "$out/oware-6-3.txt" "$moves" oware awari 3
moves=$(draw 200 200 "${oware[@]}" --seeds 2)
record "$out/oware-6-2.txt" "$moves" oware awari 2

echo "$(date -u +%F), $(git rev-parse --short HEAD), $(lscpu | sed -n 's/^Model name: *//p') family $(lscpu | sed -n 's/^CPU family: *//p') model $(lscpu | sed -n 's/^Model: *//p'), $(nproc) cores; $bin"
bench "Kalah(6,4) standard, 60 plies, tables to 20" "$out/kalah-6-4.txt"
bench "Oware(6,3) awari, to its end, tables 0..=24" "$out/oware-6-3.txt"
bench "Oware(6,2) awari, 200 plies, tables 0..=24" "$out/oware-6-2.txt"
