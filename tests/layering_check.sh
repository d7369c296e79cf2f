#!/usr/bin/env bash
# The layout's three rules, checked on the source tree (ctest layering_check):
#  1. A game's rules know nothing of solvers: no file directly in rules/ (registry.h,
#     game_entry.h), rules/common/ or rules/<game>/ includes solver/, tablebase/, app/ or a game's
#     solve/ or commands/ folder; and no file in rules/<game>/solve/ includes app/ or a commands/
#     folder (what binds a game to the solvers is not a front end).
#  2. Front ends and generic code never compare a game's name: no "drop16", nor the name of any
#     other game's folder under rules/ ("spock", "rookrace", ...), compared as a string in app/, solver/, tablebase/, python/, probe/,
#     mpi/, include/ or web/ (they dispatch through rules/registry.h instead; the page draws by
#     the "drawing" its position's JSON names), nor matched by a style sheet's attribute selector
#     ([data-game="nardy"]).
#  3. Generic code includes no game's header: no file in app/, solver/, tablebase/, mpi/, python/,
#     probe/ or include/ includes rules/<game>/ (rules/registry.h, rules/game_entry.h and
#     rules/common/ are generic).
# Prints each violation as FILE:LINE: TEXT and exits 1 if there is any, 0 otherwise.
#
# Usage: layering_check.sh SOURCE_DIR
#        layering_check.sh --self-test   (plants one violation of each kind in a scratch tree and
#                                         checks that each is reported: the check can fail)
set -u

check() {
  local root=$1 status=0 hits
  cd "$root" || return 2
  # 1. Includes by layer.
  hits=$(find rules -maxdepth 2 -type f \( -name '*.h' -o -name '*.cpp' \) -print0 |
    xargs -0 -r grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"(solver|tablebase|app)/|^[[:space:]]*#[[:space:]]*include[[:space:]]*"rules/[^/"]+/(solve|commands)/')
  if [ -n "$hits" ]; then
    echo "rules/, rules/common/ and rules/<game>/ include no solver/, tablebase/, app/, solve/ or commands/ file:"
    echo "$hits"
    status=1
  fi
  hits=$(find rules -mindepth 3 -maxdepth 3 -path 'rules/*/solve/*' -type f \( -name '*.h' -o -name '*.cpp' \) -print0 |
    xargs -0 -r grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"(app/|rules/[^/"]+/commands/)')
  if [ -n "$hits" ]; then
    echo "rules/<game>/solve/ includes no app/ or commands/ file:"
    echo "$hits"
    status=1
  fi
  # 2. Game names compared as strings: NAME == x, x != NAME (and JavaScript's ===, !==),
  # starts_with/startswith/rfind/compare/find(NAME...), case NAME, [attribute="NAME..."].
  # Drop 16's folder is rules/drop; every other game's folder is named as its variants are.
  local names
  names="(drop16$(find rules -mindepth 1 -maxdepth 1 -type d ! -name common ! -name drop -printf '|%f'))"
  local q="[\"']"
  local pattern="(==|!=)=?[[:space:]]*${q}${names}[^\"']*${q}|${q}${names}[^\"']*${q}[[:space:]]*(==|!=)|(starts_with|startswith|rfind|compare|find)\([[:space:]]*${q}${names}|case[[:space:]]+${q}${names}|\[[[:alnum:]_-]+[~|^\$*]?=[[:space:]]*${q}?${names}"
  local dirs=()
  for d in app solver tablebase python probe mpi include web; do [ -d "$d" ] && dirs+=("$d"); done
  hits=$(find "${dirs[@]}" -type f \( -name '*.h' -o -name '*.cpp' -o -name '*.py' -o -name '*.js' \
      -o -name '*.mjs' -o -name '*.html' -o -name '*.css' \) ! -name 'test_*.py' -print0 |
    xargs -0 -r grep -nE "$pattern")
  if [ -n "$hits" ]; then
    echo "a game's name compared outside rules/ (dispatch through rules/registry.h instead):"
    echo "$hits"
    status=1
  fi
  # 3. No include of a game's header in generic code.
  local generic=()
  for d in app solver tablebase mpi python probe include; do [ -d "$d" ] && generic+=("$d"); done
  if [ ${#generic[@]} -gt 0 ]; then
    hits=$(find "${generic[@]}" -type f \( -name '*.h' -o -name '*.cpp' \) -print0 |
      xargs -0 -r grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"rules/[^/"]+/' |
      grep -vE '"rules/common/')
    if [ -n "$hits" ]; then
      echo "generic code (app/, solver/, tablebase/, mpi/, python/, probe/, include/) includes no"
      echo "rules/<game>/ header (move the code into the game's folder):"
      echo "$hits"
      status=1
    fi
  fi
  return $status
}

# A scratch tree with no violation: a game's rules, its solve/ over tablebase/.
scaffold() {
  rm -rf "${scratch:?}"/*
  mkdir -p "$scratch/rules/mygame/solve" "$scratch/rules/common" "$scratch/app" \
    "$scratch"/rules/{spock,rookrace,nardy}
  echo '#include "rules/common/key128.h"' >"$scratch/rules/mygame/game.h"
  echo '#include "tablebase/index.h"' >"$scratch/rules/mygame/solve/space.h"
}

self_test() {
  scratch=$(mktemp -d) || exit 2
  trap 'rm -rf "$scratch"' EXIT
  local plant=(
    'rules/mygame/game.h:#include "solver/perft.h"'
    'rules/common/text.h:#include "tablebase/index.h"'
    'rules/registry.h:#include "rules/mygame/solve/space.h"'
    'rules/mygame/solve/space.h:#include "app/command.h"'
    'app/cmd_x.cpp:  if (name == "nardy") return;'
    'python/module.cpp:  if (game.starts_with("spock")) return;'
    "web/view.js:  if (game !== 'rookrace') draw();"
    "web/app.js:  return state.position && state.position.game === 'spock';"
    'web/style.css:body[data-game="nardy"] .board-game { display: none; }'
    'solver/search.h:#include "rules/mygame/game.h"'
    'app/cmd_x.cpp:#include "rules/mygame/game.h"'
    'app/cmd_y.cpp:#  include "rules/mygame/solve/space.h"'
    'include/api.h:#include "rules/mygame/game.h"'
  )
  local failed=0 entry file line out
  for entry in "${plant[@]}"; do
    file=${entry%%:*}
    line=${entry#*:}
    scaffold
    mkdir -p "$(dirname "$scratch/$file")"
    echo "$line" >>"$scratch/$file"
    if out=$(check "$scratch"); then
      echo "self-test: not reported: $file: $line"
      failed=1
    elif ! grep -qF "$line" <<<"$out"; then
      echo "self-test: reported something else for $file: $line"
      echo "$out"
      failed=1
    fi
  done
  # And a clean tree passes, generic headers from generic code among it.
  scaffold
  echo 'const char* kName = "nardy";  // a name, not a comparison' >"$scratch/app/cmd_x.cpp"
  mkdir -p "$scratch/solver"
  printf '#include "rules/registry.h"\n#include "rules/common/key128.h"\n' >"$scratch/solver/x.h"
  if ! out=$(check "$scratch"); then
    echo "self-test: a clean tree was refused:"
    echo "$out"
    failed=1
  fi
  return $failed
}

case "${1:-}" in
  --self-test) self_test ;;
  "") echo "usage: $0 SOURCE_DIR | --self-test" >&2; exit 2 ;;
  *) check "$1" ;;
esac
