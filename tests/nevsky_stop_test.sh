#!/usr/bin/env bash
# ctest nevsky_stop: Ctrl-C (SIGINT) during `drop16 solve --format coalition-tiers` stops at the
# end of the tier under way, keeps the reach's checkpoint or the tiers solved, and says so; the
# same command run again finishes with the counts and values of a run never stopped.
# The signal is sent after a few delays, so that some runs are stopped in the reach and some in
# the solve; a run the signal finds finished (exit 0) passes as long as its answer is right.
# Usage: nevsky_stop_test.sh DROP16
set -euo pipefail
drop16=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() {
  echo "FAIL: $*" >&2
  exit 1
}
row=nevsky:6x6:1
args=(solve --variant $row --format coalition-tiers --threads 2 --json --quiet)
solve() {  # solve DIR: the row's solve into DIR, its JSON on stdout
  "$drop16" "${args[@]}" --tables "$1"
}
# The counts and values of a run: what a stop and a rerun must not change.
answer() {
  python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
s = j["solved"]
print(json.dumps([s["positions"], s["splits"], s["longest_forced_win"], j["coalitions"]]))' "$1"
}
solve "$work/whole" >"$work/whole.json"
answer "$work/whole.json" >"$work/whole.answer"

# A folder whose reach is done (the finished run's index, no tier solved): a stop in the solve.
mkdir "$work/indexed"
cp "$work"/whole/index* "$work/indexed/"
stopped=0
for delay in 0.3 1 2 3 indexed; do
  d="$work/stopped-$delay"
  if [[ $delay == indexed ]]; then
    mv "$work/indexed" "$d"
    delay=0.3
  fi
  set +e
  # Started directly, not through a function: a background subshell would take the signal.
  "$drop16" "${args[@]}" --tables "$d" >"$d.json" 2>"$d.err" &
  pid=$!
  sleep "$delay"
  kill -INT "$pid" 2>/dev/null
  wait "$pid"
  status=$?
  set -e
  if ((status == 0)); then
    echo "after ${delay} s: the solve had finished"
  else
    ((status == 1)) || fail "after ${delay} s: exit status $status, not 1"
    grep -q "^drop16: stopped: .*run the same command again to go on" "$d.err" ||
      fail "after ${delay} s: no word of what was kept: $(cat "$d.err")"
    echo "after ${delay} s: $(grep '^drop16: stopped' "$d.err")"
    ((++stopped))
    solve "$d" >"$d.json" || fail "after ${delay} s: the rerun failed"
  fi
  answer "$d.json" >"$d.answer"
  cmp -s "$work/whole.answer" "$d.answer" || fail "after ${delay} s: the answer differs"
done
((stopped > 0)) || fail "no run was stopped: $row solves faster than the delays"
echo "$stopped runs stopped and finished by a rerun, every answer the unstopped run's"
