#!/usr/bin/env bash
# Instruction counts behind decision 0125: per language, the instructions
# of ranking BenchmarkWarmQueryPass's four queries over 1,000 generated
# topics through the live term map and through the frozen index (what an
# engine's warm-up leaves), and their ratio. A pass's count is the
# difference between a run of 1+N iterations and a run of 1, so the setup
# (generating, parsing and indexing the documents both ways, Go's start-up)
# cancels out. Unlike the benchmark's times these counts do not move with
# the machine's load. Usage: bench/callgrind/warmquery.sh [lang ...]
# (default: en zh ja ko mixed; TOPICS=10000 for the larger trees, slow).
# Needs valgrind (3.19 tested); lib.sh has the runtime settings.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
TOPICS=${TOPICS:-1000}
cg_setup score 10 "en zh ja ko mixed" "$@"
pass() { # lang layout: instructions of one pass (four queries)
	GOGC=off cg_pass "$N" . "$dir/score.test" "BenchmarkWarmQueryPass/topics=$TOPICS/lang=$1/layout=$2\$"
}
printf '%-6s %12s %12s %8s\n' lang live-Ir frozen-Ir x-live
for l in "${langs[@]}"; do
	a=$(pass "$l" live)
	f=$(pass "$l" frozen)
	printf '%-6s %12d %12d %8.2f\n' "$l" "$a" "$f" "$(echo "$f / $a" | bc -l)"
done
