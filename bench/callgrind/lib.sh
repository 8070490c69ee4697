# Shared by the callgrind scripts here (source it; not run on its own).
# asyncpreemptoff and cpu.rdtscp=off keep Go's runtime inside what valgrind
# 3.19 emulates; GOMAXPROCS=1 keeps the count to one thread's schedule.
# Extra environment (GOGC=off) can be given before the call.

# cg_setup PKG N LANGS [LANG...]: the scripts' common start, after they
# source this file. It moves to the repository's root; sets N to the
# environment's N, else to the N given; sets langs to the LANG arguments
# (the script's own "$@"), else to the space-separated LANGS; and makes
# dir, a temporary directory removed when the script exits, holding PKG's
# test binary as $dir/PKG.test.
cg_setup() {
	local pkg=$1 n=$2 defaults=$3
	shift 3
	cd "$(dirname "${BASH_SOURCE[0]}")/../.."
	N=${N:-$n}
	if [ $# -gt 0 ]; then
		langs=("$@")
	else
		read -ra langs <<<"$defaults"
	fi
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
	go test -c -o "$dir/$pkg.test" "./$pkg"
}

# cg_run CMD [ARG...]: runs CMD (valgrind) with those runtime settings.
cg_run() {
	GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=1 "$@"
}

# cg_ir DIR ITERS BINARY BENCH [ARG...]: the instructions callgrind counts
# in a run of BINARY (a go test binary) in DIR doing ITERS iterations of the
# benchmarks matching BENCH, with ARG... passed on.
cg_ir() {
	local dir=$1 iters=$2 bin=$3 bench=$4
	shift 4
	(cd "$dir" && cg_run valgrind --tool=callgrind \
		--callgrind-out-file=/dev/null "$bin" -test.run '^$' \
		-test.bench "$bench" -test.benchtime "${iters}x" "$@" 2>&1 |
		sed -n 's/.*Collected : //p')
}

# cg_pass N DIR BINARY BENCH [ARG...]: the instructions of one iteration:
# the difference between a run of 1+N iterations and a run of 1, over N,
# so the setup (generating input, Go's start-up) cancels out.
cg_pass() {
	local n=$1
	shift
	local dir=$1 bin=$2 bench=$3
	shift 3
	echo $((($(cg_ir "$dir" $((n + 1)) "$bin" "$bench" "$@") - $(cg_ir "$dir" 1 "$bin" "$bench" "$@")) / n))
}

# cg_vs_decode BENCH PASS: after cg_setup score, for each of langs, the
# instructions of one iteration of BENCH's sub-benchmarks
# lang=L/pass=decode and lang=L/pass=PASS (cg_pass, N iterations,
# GOGC=off) and their ratio, as a table.
cg_vs_decode() {
	local bench=$1 pass=$2 l d s
	printf '%-6s %12s %12s %8s\n' lang decode-Ir "$pass-Ir" x-decode
	for l in "${langs[@]}"; do
		d=$(GOGC=off cg_pass "$N" . "$dir/score.test" "$bench/lang=$l/pass=decode\$")
		s=$(GOGC=off cg_pass "$N" . "$dir/score.test" "$bench/lang=$l/pass=$pass\$")
		printf '%-6s %12d %12d %8.2f\n' "$l" "$d" "$s" "$(echo "$s / $d" | bc -l)"
	done
}
