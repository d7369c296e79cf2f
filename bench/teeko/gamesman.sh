#!/usr/bin/env bash
# Peer baseline for Teeko: GamesmanOne v1.3.0 (UC Berkeley's game solver, github.com/GamesCrafters/
# GamesmanOne) built and run on this machine. GamesmanOne is NOT a dependency of drop16's build;
# this script only needs a plain checkout of its source, given as --src DIR or GAMESMAN_SRC.
#
#   bench/teeko/gamesman.sh build [--src DIR] [--build-dir DIR] [--rebuild]
#   bench/teeko/gamesman.sh solve [--src DIR] [--build-dir DIR] [--data DIR]
#       `gamesman solve teeko` (forced, i.e. a full re-solve) under /usr/bin/time -v; prints one
#       JSON line: cpu/user/sys/wall seconds, max RSS KB, database bytes, uptime before and after,
#       and the start position's value and remoteness read back from the new database.
#   bench/teeko/gamesman.sh query [--build-dir DIR] [--data DIR] [--jobs N]  < fens
#       one project Teeko FEN a line ("5/5/5/5/5 x") in; "FEN<TAB>value<TAB>remoteness" out, value
#       win/draw/loss for the side to move (bench/teeko/gamesman-query.sh is a shorthand).
#   bench/teeko/gamesman.sh both [--src ...] [--data DIR] [-- DROP16_ARGS...]
#       drop16's Teeko solve, then GamesmanOne's, one after the other, a JSON line each as above.
#       DROP16_ARGS default: solve --variant teeko --tables tables-solve/teeko --threads 2 --json
#       --quiet (run from the repository root with build/drop16; its --tables dir is emptied).
#
# Defaults: --build-dir /tmp/gamesman-build, --data /work/gamesman-data (the database goes to
# DATA/teeko/V/), --variant 0 (GamesmanOne's Teeko variant V: 0 the standard game, 1 the advanced
# one, drop16's teeko:advanced). A positional argument that is a directory is taken as --src.
# Exit status 2 when the GamesmanOne source is missing (or the binary/database, for query).
set -euo pipefail

mode=${1:-}; [[ $# -gt 0 ]] && shift
src=${GAMESMAN_SRC:-}
build=${GAMESMAN_BUILD:-/tmp/gamesman-build}
data=${GAMESMAN_DATA:-/work/gamesman-data}
jobs=2 rebuild=0 drop16_args=() variant=${GAMESMAN_VARIANT:-0}
while [[ $# -gt 0 ]]; do
  case $1 in
    --src) src=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    --data) data=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --variant) variant=$2; shift 2 ;;
    --rebuild) rebuild=1; shift ;;
    --) shift; drop16_args=("$@"); break ;;
    *) if [[ -d $1 ]]; then src=$1; shift; else echo "gamesman.sh: unknown argument $1" >&2; exit 2; fi ;;
  esac
done
build=$(realpath -m "$build"); data=$(realpath -m "$data")
bin=$build/src/bin/gamesman  # their CMakeLists puts the binary in <source>/bin: here, the copy's

need_packages() {  # installs those of the Debian packages given that are missing (as install-deps.sh)
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "installing: ${missing[*]}" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

do_build() {
  if [[ -x $bin && $rebuild == 0 ]]; then return; fi
  if [[ -z $src || ! -f $src/src/games/teeko/teeko.c ]]; then
    echo "gamesman.sh: GamesmanOne source not found: give a checkout of it as --src DIR or GAMESMAN_SRC (not a drop16 dependency)" >&2
    exit 2
  fi
  need_packages cmake make gcc pkgconf zlib1g-dev liblzma-dev liblz4-dev libjson-c-dev
  # Their CMakeLists writes src/config.h and bin/ into the source tree: build a copy so that the
  # checkout given stays untouched. The snapshot's empty lib/ submodules (json-c, xz, lz4) are
  # not needed: Debian's packages stand in for them.
  rm -rf "$build/src"; mkdir -p "$build/src"
  tar -C "$src" --exclude=./.git --exclude=./build --exclude=./bin --exclude=./lib-build \
    -cf - . | tar -C "$build/src" -xf -
  # find_package(lz4 1.10.0 CONFIG) and find_package(liblzma 5.4.0 CONFIG) need CMake config files,
  # which Debian's liblz4-dev and liblzma-dev do not ship: write small stand-ins. They declare any
  # version compatible: Debian has lz4 1.9.4, and GamesmanOne calls only LZ4F_* frame functions
  # that 1.9.4 has. (Debian's libjson-c-dev ships its own json-c-config.cmake.)
  local stubs=$build/cmake-stubs name target lib header
  for name in lz4 liblzma; do
    if [[ $name == lz4 ]]; then target=lz4::lz4 lib=lz4 header=lz4frame.h
    else target=liblzma::liblzma lib=lzma header=lzma.h; fi
    mkdir -p "$stubs/$name"
    cat >"$stubs/$name/${name}Config.cmake" <<CMAKE
# Stand-in written by drop16's bench/teeko/gamesman.sh: Debian's package has no CMake config.
find_path(${name}_INCLUDE_DIR $header)
find_library(${name}_LIBRARY NAMES $lib)
if(NOT TARGET $target)
  add_library($target UNKNOWN IMPORTED)
  set_target_properties($target PROPERTIES IMPORTED_LOCATION "\${${name}_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "\${${name}_INCLUDE_DIR}")
endif()
CMAKE
    printf 'set(PACKAGE_VERSION "%s")\nset(PACKAGE_VERSION_COMPATIBLE TRUE)\n' \
      "$(pkg-config --modversion "lib$lib")" >"$stubs/$name/${name}ConfigVersion.cmake"
  done
  cmake -S "$build/src" -B "$build/obj" -DCMAKE_BUILD_TYPE=Release \
    -Dlz4_DIR="$stubs/lz4" -Dliblzma_DIR="$stubs/liblzma" >"$build/cmake.log"
  cmake --build "$build/obj" --target gamesman -j "$(nproc)" >>"$build/cmake.log"
  echo "built $bin" >&2
}

# timed_json DIR TAG DBDIR POST CMD...: runs CMD from DIR under /usr/bin/time -v and prints one
# JSON line; TAG names the solver, DBDIR is where its tables go, POST (a function, or "") prints
# the JSON of the start position's value once the run succeeded. Returns CMD's exit status.
timed_json() {
  local dir=$1 tag=$2 dbdir=$3 post=$4; shift 4
  need_packages time
  local tmp up_before up_after status=0 start=null
  tmp=$(mktemp -d); mkdir -p "$build"
  up_before=$(uptime)
  (cd "$dir" && /usr/bin/time -v -o "$tmp/time" "$@" >"$tmp/out" 2>"$tmp/err") || status=$?
  up_after=$(uptime)
  tail -n 5 "$tmp/err" >&2 || true
  cp "$tmp/out" "$build/$tag-solve.log"; cp "$tmp/time" "$build/$tag-solve.time"  # kept for later
  if [[ $status == 0 && -n $post ]]; then start=$($post) || start=null; fi
  python3 - "$tmp/time" "$tag" "$status" "$up_before" "$up_after" "$dbdir" "$start" "$*" <<'PY'
import json, os, sys
tfile, tag, status, up0, up1, dbdir, start, cmd = sys.argv[1:]
t = {}
for line in open(tfile):
    k, _, v = line.strip().rpartition(': ')
    t[k] = v
wall = 0.0
for part in t['Elapsed (wall clock) time (h:mm:ss or m:ss)'].split(':'):
    wall = wall * 60 + float(part)
apparent = disk = 0
for root, _, files in os.walk(dbdir):
    for f in files:
        st = os.lstat(os.path.join(root, f))
        apparent += st.st_size
        disk += st.st_blocks * 512
user, sys_ = float(t['User time (seconds)']), float(t['System time (seconds)'])
print(json.dumps({
    'solver': tag, 'command': cmd, 'exit_status': int(status),
    'cpu_s': round(user + sys_, 2), 'user_s': user, 'sys_s': sys_, 'wall_s': round(wall, 2),
    'max_rss_kb': int(t['Maximum resident set size (kbytes)']),
    'db_dir': dbdir, 'db_bytes': apparent, 'db_disk_bytes': disk,
    'uptime_before': up0.strip(), 'uptime_after': up1.strip(),
    'start': json.loads(start) if start.startswith('{') else None}))
PY
  rm -rf "$tmp"
  return "$status"
}

solve_gamesman() {
  do_build
  mkdir -p "$data"
  # --data-path must be relative (GamesmanOne's MkdirRecursive fails on a leading '/'): run from
  # the parent of $data. -f forces a full solve even when a database is already there.
  timed_json "$(dirname "$data")" gamesman "$data/teeko/$variant" start_value \
    "$bin" -f --data-path="$(basename "$data")" solve teeko "$variant"
}

start_value() {  # {"value": ..., "remoteness": ...} of the start, read from the database
  printf '5/5/5/5/5 x\n' | (query) |
    awk -F'\t' '$2 != "error" {printf "{\"value\": \"%s\", \"remoteness\": %s}\n", $2, $3}'
}

query() {
  [[ -x $bin ]] || { echo "gamesman.sh: no binary at $bin: run the build mode first" >&2; exit 2; }
  [[ -d $data/teeko/$variant ]] || { echo "gamesman.sh: no Teeko database in $data: run the solve mode first" >&2; exit 2; }
  cd "$(dirname "$data")"  # relative --data-path again
  # One `gamesman query` process a position (their binary has no batch mode), $jobs at a time,
  # the output in input order.
  # (The Python text goes in by -c: stdin carries the FENs.)
  python3 -c "$(cat <<'PY'
import concurrent.futures, json, subprocess, sys
gamesman, data_path, jobs, variant = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]

def formal(fen):
    """Project FEN -> GamesmanOne's formal position "T_<25 cells>".

    Cells row-major from the top row: rank 5 a..e, rank 4 a..e, ..., rank 1 a..e, the FEN's own
    reading order; 'X' Black, 'O' Red, '-' empty. T: '1' Black (x) to move, '2' Red (o).
    (Any of the 8 symmetries would give the same value; this is the identity.)
    """
    parts = fen.split()
    if len(parts) != 2 or parts[1] not in ('x', 'o'):
        raise ValueError('want "<ranks> x|o"')
    ranks = parts[0].split('/')
    if len(ranks) != 5:
        raise ValueError('want 5 ranks')
    cells = ''
    for r in ranks:
        row = ''.join('-' * int(c) if c in '12345' else c for c in r)
        if len(row) != 5 or set(row) - set('XO-'):
            raise ValueError('bad rank ' + r)
        cells += row
    nx, no = cells.count('X'), cells.count('O')
    if not (nx == no or nx == no + 1) or nx + no > 8:
        raise ValueError('piece counts')
    # In the drop phase GamesmanOne's hash ignores the turn given (a drop tier has one side to
    # move), so a wrong side would silently be answered for the other one: refuse it.
    if nx + no < 8 and (parts[1] == 'x') != (nx == no):
        raise ValueError('side to move does not match the piece counts')
    return ('1' if parts[1] == 'x' else '2') + '_' + cells

def ask(fen):
    try:
        pos = formal(fen)
    except ValueError as e:
        return f'{fen}\terror\t{e}'
    r = subprocess.run([gamesman, '--data-path=' + data_path, 'query', 'teeko', variant, pos],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return f'{fen}\terror\tgamesman exit {r.returncode}: {r.stderr.strip()}'
    j = json.loads(r.stdout)
    value = {'lose': 'loss'}.get(j['positionValue'], j['positionValue'])
    return f'{fen}\t{value}\t{j["remoteness"]}'

fens = [l.strip() for l in sys.stdin if l.strip()]
bad = 0
with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
    for line in pool.map(ask, fens):
        bad += '\terror\t' in line
        print(line, flush=True)
sys.exit(1 if bad else 0)
PY
)" "$bin" "$(basename "$data")" "$jobs" "$variant"
}

case $mode in
  build) do_build ;;
  solve) solve_gamesman ;;
  query) query ;;
  both)
    root=$(cd "$(dirname "$0")/../.." && pwd)
    ((${#drop16_args[@]})) ||
      drop16_args=(solve --variant teeko --tables tables-solve/teeko --threads 2 --json --quiet)
    [[ -x $root/build/drop16 ]] || { echo "gamesman.sh: $root/build/drop16 missing: build first" >&2; exit 2; }
    # Empty drop16's --tables dir first: leftover tables would be resumed, not measured.
    tables=""
    for ((i = 0; i + 1 < ${#drop16_args[@]}; i++)); do
      [[ ${drop16_args[i]} == --tables ]] && tables=${drop16_args[i + 1]}
    done
    [[ -n $tables && $tables != /* ]] && tables=$root/$tables
    [[ -n $tables ]] && rm -rf "$tables"
    timed_json "$root" drop16 "${tables:-/nonexistent}" "" "$root/build/drop16" "${drop16_args[@]}" || true
    solve_gamesman ;;
  *) sed -n '2,21p' "$0" >&2; exit 2 ;;
esac
