#!/usr/bin/env bash
# The main job on a default that fits a 2-core machine in a few minutes and under 2 GB: installs
# what is missing, builds, counts Drop 16 (perft to depth 6, plain and hashed; distinct positions
# to ply 4), then solves the variant 3x3:NBRK completely into tables/ (resumable: a second run
# reuses the finished tables), queries a position from the tables and checks 200 random
# positions of the tables against the forward solver; then Spock: perft of the 5x5 start to depth
# 7, the row spock:3x3:RSK/rsk solved into tables/ with its draws (about 10 s), a position queried
# from its table, 2,000 positions of a row re-solved by the bounded forward search, and the 5x5
# start searched forward for 20 s; then Teeko solved whole into tables/ (about 10 s and 50 MB: a
# draw) and a position queried from its tables; then Dobutsu shogi solved whole into tables/ (a few
# minutes of both cores and 0.65 GB: Tanaka's 246,803,167 positions, the start lost in 78).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh --target drop16   # only what the job runs
set -x
build/drop16 perft --depth 6
build/drop16 perft --depth 7 --hash 1024
build/drop16 distinct --depth 4
build/drop16 solve --variant 3x3:NBRK --tables tables/3x3-NBRK
build/drop16 query --variant 3x3:NBRK --tables tables/3x3-NBRK --fen "3/1N1/3[BRKnbrk] b"
build/drop16 verify --variant 3x3:NBRK --tables tables/3x3-NBRK --samples 200
build/drop16 perft --variant spock --depth 7
build/drop16 solve --variant spock:3x3:RSK/rsk --tables tables/spock-3x3-RSK-rsk
build/drop16 query --tables tables/spock-3x3-RSK-rsk --fen "rsk/3/RSK w"
build/drop16 verify --variant spock:4x4:RK/rk --samples 2000
build/drop16 solve --variant spock --max-depth 60 --time-limit 20 --memory 1
build/drop16 solve --variant teeko --tables tables/teeko --threads 2
build/drop16 query --tables tables/teeko --fen "2X1X/2OO1/2O2/2XOX/5 o"
build/drop16 solve --variant dobutsu --tables tables/dobutsu --threads 2
