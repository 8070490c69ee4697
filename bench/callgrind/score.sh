#!/usr/bin/env bash
# Instruction counts behind issue 12's tokeniser target: per script, the
# instructions of scoring 200 generated documents directly (scoreDocs:
# normalise, tokenise, look up each token's keys, what a cold query does per
# document) against a plain utf8.DecodeRune pass over the same bytes
# (decodeFloor), counted by callgrind in BenchmarkScorePass. A pass's count
# is the difference between a run of 1+N iterations and a run of 1, so the
# setup (generating and parsing the documents, Go's start-up) cancels out.
# Unlike the benchmark's times these counts do not move with the machine's
# load. Usage: bench/callgrind/score.sh [lang ...]   (default: every script)
# Needs valgrind (3.19 tested); lib.sh holds the counting.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cg_setup score 10 "en zh ja ko th ru mixed" "$@"
cg_vs_decode BenchmarkScorePass score
