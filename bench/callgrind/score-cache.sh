#!/usr/bin/env bash
# Why the tokeniser's wall-clock ratio runs above its instruction ratio
# (bench/callgrind/score.sh): per script, cachegrind's simulated data-cache
# misses and branch mispredictions of one pass of scoreDocs (score) and of
# decodeFloor (decode) over the same 200 generated documents, each the
# difference between a run of 1+N iterations and a run of 1 of
# BenchmarkScorePass, as in score.sh. Simulated caches (valgrind's defaults
# for this CPU) and a simple branch predictor: counts repeat whatever the
# load, but they model, not measure, the hardware.
# Usage: bench/callgrind/score-cache.sh [lang ...]   (default: every script)
# Needs valgrind (3.19 tested); lib.sh has the runtime settings (cg_run).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cg_setup score 10 "en zh ja ko th ru mixed" "$@"
counts() { # lang pass iterations: "Ir Dr D1miss LLdmiss Bc Bmiss"
	GOGC=off cg_run valgrind --tool=cachegrind \
		--cache-sim=yes --branch-sim=yes --cachegrind-out-file=/dev/null "$dir/score.test" -test.run '^$' \
		-test.bench "BenchmarkScorePass/lang=$1/pass=$2\$" -test.benchtime "$3x" 2>&1 |
		awk '{gsub(",", "")}
			/I +refs:/ {ir=$4} /D +refs:/ {dr=$4} /D1 +misses:/ {d1=$4} /LLd misses:/ {lld=$4}
			/Branches:/ {br=$3} /Mispredicts:/ {bm=$3}
			END {print ir, dr, d1, lld, br, bm}'
}
pass() { # lang pass: the counts of one pass
	read -r -a a <<<"$(counts "$1" "$2" $((N + 1)))"
	read -r -a b <<<"$(counts "$1" "$2" 1)"
	for i in 0 1 2 3 4 5; do printf '%d ' $(((a[i] - b[i]) / N)); done
}
printf '%-6s %-6s %12s %12s %10s %10s %12s %10s\n' lang pass Ir D-refs D1-miss LLd-miss branches mispred
for l in "${langs[@]}"; do
	for p in decode score; do
		read -r ir dr d1 lld br bm <<<"$(pass "$l" "$p")"
		printf '%-6s %-6s %12d %12d %10d %10d %12d %10d\n' "$l" "$p" "$ir" "$dr" "$d1" "$lld" "$br" "$bm"
	done
done
