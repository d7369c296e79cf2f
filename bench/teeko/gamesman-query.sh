#!/usr/bin/env bash
# Project Teeko FENs on stdin, one a line -> "FEN<TAB>value<TAB>remoteness" from GamesmanOne's
# solved database (value win/draw/loss for the side to move). Options as `gamesman.sh query`.
set -euo pipefail
exec "$(dirname "$0")/gamesman.sh" query "$@"
