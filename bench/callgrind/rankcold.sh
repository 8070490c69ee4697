#!/usr/bin/env bash
# Instructions of the cold engine's first ranking in score alone, per
# script: a new Index ranking 1,000 generated topics it has never seen
# (every document scored directly: title, description, body, prefilter,
# bookkeeping, then weighing and ordering), against a plain
# utf8.DecodeRune pass over the same fields, from BenchmarkRankColdPass.
# As in score.sh, a pass's count is the difference between a run of 1+N
# iterations and a run of 1. GOMAXPROCS=1 (lib.sh): the scoring runs on
# one goroutine, as it does on one core of a loaded machine.
# caps-en is English with capitals (score's capsEnglish): the generated
# scripts have none, and real English notes take the lowering path.
# Usage: bench/callgrind/rankcold.sh [lang ...]   (default: every script, and caps-en)
# Needs valgrind (3.19 tested).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cg_setup score 5 "en zh ja ko th ru mixed caps-en" "$@"
cg_vs_decode BenchmarkRankColdPass rank
