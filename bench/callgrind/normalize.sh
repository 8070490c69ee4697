#!/usr/bin/env bash
# Instructions of normalize (memory: the scan's check of a topic file's
# bytes: NUL, UTF-8, CR) over 200 generated topic files per script, for
# today's normalize (one) and the three passes it replaced (ref), from
# BenchmarkNormalize, with LF and with CRLF line ends. As in score.sh, a
# pass's count is the difference between a run of 1+N iterations and a
# run of 1. N defaults to 20 (it was 5): an English pass is about
# 0.26 M instructions, and at N=5 the run-to-run noise of the two
# whole-process counts moved English's ratio between 0.83 and 0.99 (three
# runs; 0.96 and 0.94 at N=20, the N decision 0226's table was made
# with).
# Usage: bench/callgrind/normalize.sh [lang ...]   (default: every script)
# Needs valgrind (3.19 tested).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
cg_setup memory 20 "en zh ja ko th ru mixed" "$@"
printf '%-6s %-5s %12s %12s %8s\n' lang crlf ref-Ir one-Ir x-ref
for l in "${langs[@]}"; do
	for c in false true; do
		r=$(GOGC=off cg_pass "$N" . "$dir/memory.test" "BenchmarkNormalize/lang=$l/crlf=$c/pass=ref\$")
		o=$(GOGC=off cg_pass "$N" . "$dir/memory.test" "BenchmarkNormalize/lang=$l/crlf=$c/pass=one\$")
		printf '%-6s %-5s %12d %12d %8.2f\n' "$l" "$c" "$r" "$o" "$(echo "$o / $r" | bc -l)"
	done
done
