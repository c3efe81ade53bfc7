#!/usr/bin/env bash
# Load test of `isolda serve` (issue 12): builds isolda and isolda-load into a
# temporary folder, starts `isolda serve` on a free loopback port, waits for
# /healthz, sends the built-in request (the first 1,000 triples of
# ../shared/data/big/nomisma.nt.gz as ISOLDA with the o200k_base token count)
# at a constant rate, open loop, sampling the server's memory, then stops the
# server with SIGTERM and checks that it exited cleanly.
#
# Environment (all optional):
#   RATE=200              requests per second; a comma-separated list runs a
#                         ramp (one stage per rate, each for DURATION)
#   DURATION=10m          length of each stage
#   WINDOW=1m             rows of the table and windows of the memory verdict
#   CONCURRENCY=8         requests in flight, also the server's --max-concurrent
#   CLIENTS=$CONCURRENCY  clients of the load, each from a loopback address of
#                         its own (the server shares its slots by client)
#   BUDGET=0              token budget of the request (record-aware truncation)
#   TRIPLES=1000          triples of the request
#   HOSTILE=0             hostile requests started per second beside the load
#                         (poison graphs, a 190k-quad graph, slow bodies,
#                         malformed requests: internal/testkit/loadgen.Attacks); 0: none
#   HOSTILE_MAX=16        most hostile requests in progress at once
#   MEMORY_LIMIT          the server's --memory-limit (such as 1GiB); the run
#                         then fails when the server's peak RSS reaches it
#   GOGC, GOMEMLIMIT      passed to the server when set
#   SERVE_ARGS            more flags for `isolda serve`
#   LOAD_ARGS             more flags for isolda-load (e.g. --strict, --body FILE)
#   OUT=DIR               keep the binaries, server log and results.json there
#
# Examples:
#   scripts/loadtest.sh                                   # 10 minutes at 200 req/s
#   DURATION=2m WINDOW=20s scripts/loadtest.sh
#   RATE=100,200,400,800 DURATION=30s WINDOW=10s scripts/loadtest.sh
#   BUDGET=2000 DURATION=2m scripts/loadtest.sh           # record-aware budget variant
#   HOSTILE=1 MEMORY_LIMIT=1GiB scripts/loadtest.sh       # beside a hostile mix, under 1 GiB
set -euo pipefail

RATE=${RATE:-200}
DURATION=${DURATION:-10m}
WINDOW=${WINDOW:-1m}
CONCURRENCY=${CONCURRENCY:-8}
CLIENTS=${CLIENTS:-$CONCURRENCY}
BUDGET=${BUDGET:-0}
TRIPLES=${TRIPLES:-1000}
HOSTILE=${HOSTILE:-0}
HOSTILE_MAX=${HOSTILE_MAX:-16}
MEMORY_LIMIT=${MEMORY_LIMIT:-}
SERVE_ARGS=${SERVE_ARGS:-}
LOAD_ARGS=${LOAD_ARGS:-}

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
if [[ -n ${OUT:-} ]]; then
	dir=$OUT
	mkdir -p "$dir"
else
	dir=$(mktemp -d "${TMPDIR:-/tmp}/isolda-loadtest.XXXXXX")
fi

server_pid=
cleanup() {
	if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
		kill -TERM "$server_pid" 2>/dev/null || true
		wait "$server_pid" 2>/dev/null || true
	fi
	if [[ -z ${OUT:-} ]]; then
		rm -rf "$dir"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "# building into $dir"
go build -o "$dir/isolda" ./cmd/isolda
go build -o "$dir/isolda-load" ./cmd/isolda-load

# Port 0: the kernel picks a free loopback port; the server prints it.
serve_cmd=("$dir/isolda" serve --addr 127.0.0.1:0 --max-concurrent "$CONCURRENCY")
[[ -n $MEMORY_LIMIT ]] && serve_cmd+=(--memory-limit "$MEMORY_LIMIT")
# shellcheck disable=SC2206 # word splitting of the extra flags is wanted
serve_cmd+=($SERVE_ARGS)
env_prefix=()
[[ -n ${GOGC:-} ]] && env_prefix+=("GOGC=$GOGC")
[[ -n ${GOMEMLIMIT:-} ]] && env_prefix+=("GOMEMLIMIT=$GOMEMLIMIT")
env ${env_prefix[@]+"${env_prefix[@]}"} "${serve_cmd[@]}" 2>"$dir/serve.log" &
server_pid=$!

addr=
for _ in $(seq 1 100); do
	addr=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$dir/serve.log" | head -1 || true)
	[[ -n $addr ]] && break
	kill -0 "$server_pid" 2>/dev/null || { cat "$dir/serve.log" >&2; echo "isolda serve exited" >&2; exit 1; }
	sleep 0.1
done
[[ -n $addr ]] || { cat "$dir/serve.log" >&2; echo "isolda serve printed no address" >&2; exit 1; }
for i in $(seq 1 100); do
	if curl -fsS "$addr/healthz" >/dev/null 2>&1; then
		break
	fi
	[[ $i == 100 ]] && { echo "no answer from $addr/healthz" >&2; exit 1; }
	sleep 0.1
done
echo "# server: ${env_prefix[*]+${env_prefix[*]} }${serve_cmd[*]} (pid $server_pid) at $addr, healthz ok"

load_cmd=("$dir/isolda-load" --url "$addr/v1/serialize" --rate "$RATE" --duration "$DURATION"
	--window "$WINDOW" --concurrency "$CONCURRENCY" --clients "$CLIENTS" --triples "$TRIPLES" --budget "$BUDGET"
	--pid "$server_pid" --json "$dir/results.json")
if [[ $HOSTILE != 0 ]]; then
	load_cmd+=(--hostile "$HOSTILE" --hostile-max "$HOSTILE_MAX")
fi
[[ -n $MEMORY_LIMIT ]] && load_cmd+=(--memory-limit "$MEMORY_LIMIT")
# shellcheck disable=SC2206
load_cmd+=($LOAD_ARGS)
echo "# load: ${load_cmd[*]}"
echo "# machine: $(nproc) CPUs, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
"${load_cmd[@]}" || status=$?

echo
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg); server CPU time: $(awk '{printf "%.2f s user, %.2f s system", $14/100, $15/100}' "/proc/$server_pid/stat")"
echo "# metrics of the server after the run:"
curl -fsS "$addr/metrics" | grep -E '^isolda_http_(requests_total|request_duration_seconds_(sum|count))\{endpoint="serialize"|^isolda_memory_|^isolda_workers?_' || true

# Work that outlived its request (a timed-out request stops at its next
# check of its context) holds its slot and memory until it ends: wait for
# the reservations to drain, and say how long it took.
drained=
reserved=
for i in $(seq 0 120); do
	reserved=$(curl -fsS "$addr/metrics" | awk '$1 == "isolda_memory_reserved_bytes" {print $2}')
	if [[ $reserved == 0 ]]; then
		drained=$i
		break
	fi
	sleep 1
done
if [[ -n $drained ]]; then
	echo "# memory reservations back to 0 ${drained}s after the run"
else
	echo "# memory reservations still $reserved bytes 120s after the run" >&2
	status=1
fi

kill -TERM "$server_pid"
if wait "$server_pid"; then
	echo "# isolda serve stopped cleanly (exit 0)"
else
	rc=$?
	echo "# isolda serve exited with status $rc" >&2
	status=1
fi
server_pid=
tail -n 2 "$dir/serve.log"
echo "# command: RATE=$RATE DURATION=$DURATION WINDOW=$WINDOW CONCURRENCY=$CONCURRENCY BUDGET=$BUDGET TRIPLES=$TRIPLES HOSTILE=$HOSTILE${MEMORY_LIMIT:+ MEMORY_LIMIT=$MEMORY_LIMIT}${GOGC:+ GOGC=$GOGC}${GOMEMLIMIT:+ GOMEMLIMIT=$GOMEMLIMIT} scripts/loadtest.sh"
[[ -n ${OUT:-} ]] && echo "# results: $dir/results.json"
exit "$status"
