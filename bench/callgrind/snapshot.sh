#!/usr/bin/env bash
# Instruction counts behind issue 12's snapshot target: per script, the
# instructions of one walk-and-stat floor pass (readfloor.Stat) against one
# fresh engine with the snapshot of the unchanged tree, New → Query → fast
# result, in recall's BenchmarkSnapshotVsStatFloor (-snapshot.part runs one
# side only). A pass's count is the difference between a run of 1+N
# iterations and a run of 1, so the setup (writing the tree, the first
# engine and its snapshot, Go's start-up) cancels out. Unlike the
# benchmark's times these counts do not move with the machine's load; they
# count instructions, not the system calls' time in the kernel.
# Usage: bench/callgrind/snapshot.sh [lang ...]   (default: en zh ja mixed)
# TOPICS=1000 by default. Needs valgrind (3.19 tested); lib.sh holds the
# counting.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
TOPICS=${TOPICS:-1000}
cg_setup recall 4 "en zh ja mixed" "$@"
pass() { # lang part: instructions of one pass
	cg_pass "$N" recall "$dir/recall.test" "BenchmarkSnapshotVsStatFloor/^topics=$TOPICS\$/^lang=$1\$" -snapshot.part "$2"
}
printf '%-6s %7s %12s %12s %8s\n' lang topics floor-Ir fresh-Ir x-floor
for l in "${langs[@]}"; do
	f=$(pass "$l" floor)
	s=$(pass "$l" fresh)
	printf '%-6s %7d %12d %12d %8.2f\n' "$l" "$TOPICS" "$f" "$s" "$(echo "$s / $f" | bc -l)"
done
