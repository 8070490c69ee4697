#!/usr/bin/env bash
# What linking costs a fresh `memrecall query` (decision 0821): builds
# memrecall and four throw-away variants of it from a copy of HEAD, each
# without one more thing, checks that every variant prints the same report
# for the query, counts the instructions of each one's -h with callgrind
# (when valgrind is installed), and times them with perf stat, interleaved.
#
#   bench/linkcost/run.sh TREE QUERY [ROUNDS]
#
# TREE holds project/ and user/ (bench/peer's trees, e.g.
# $TMPDIR/memrecall-peer/trees/zh-200); QUERY is the query text
# (gentree.New(lang).Query(), as bench/peer asks it). ROUNDS defaults to 6.
# The variants, cumulative:
#   e1  cmd/memrecall with the query command only (no daemon, eval, agent,
#       hook or install package)
#   e2  e1 with model.OpenAI stubbed (no net, net/http, crypto/tls)
#   e3  e2 with the frontmatter reader's YAML fallback stubbed (no yaml/v3)
#   e4  e3 with the vendored state-machine library escaping HTML itself
#       (no text/template, no html)
# They are measurements only: e3 cannot read frontmatter that needs YAML
# and e2 has no selector. Needs perf, awk and sed; all builds CGO_ENABLED=0.
set -euo pipefail
tree=${1:?tree}
query=${2:?query}
rounds=${3:-6}
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CGO_ENABLED=0 MEMRECALL_SNAPSHOT=off MEMRECALL_BASE_URL= MEMRECALL_MODEL=
src=$work/src
mkdir -p "$src" "$work/bin"
git -C "$repo" archive HEAD | tar -x -C "$src"
cd "$src"
go build -o "$work/bin/mr" ./cmd/memrecall

# dropfunc FILE NAME...: deletes the top-level functions NAME from FILE.
dropfunc() {
	local f=$1
	shift
	for name in "$@"; do
		awk -v n="$name" '
			$0 ~ "^func (\\([^)]*\\) )?" n "\\(" { skip = 1 }
			!skip { print }
			skip && /^}/ { skip = 0 }' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
	done
}

# e1: the query command alone. The helpers it shares with scan are kept.
cd "$src/cmd/memrecall"
rm -f ./*_test.go
{
	echo 'package main'
	echo 'import ("fmt"; "strings"; "time")'
	echo 'var _ = fmt.Sprint; var _ = strings.Cut; var _ time.Duration'
	for fn in orNone age plural pluralWord; do
		awk -v n="$fn" '$0 ~ "^func " n "\\(" { p = 1 } p { print } p && /^}/ { p = 0 }' scan.go
	done
} >helpers.go
rm daemon.go eval.go hook.go install.go status.go graph.go scan.go
sed -i -E '/^\tcase "(scan|eval|graph|hook|daemon|status|install|uninstall)":$/{N;d}' main.go
go build -o "$work/bin/e1" .

# e2: no OpenAI-compatible selector, so no HTTP or TLS.
cd "$src/model"
rm -f ./*_test.go openai.go openai_request.go openai_response.go
cat >openai_stub.go <<'GO'
package model

import "fmt"

type OpenAIConfig struct {
	BaseURL, Model, APIKey string
	MaxRequestBytes        int
	MaxResponseBytes       int64
}

func OpenAI(OpenAIConfig) (Selector, error) { return nil, fmt.Errorf("%w: stub", ErrConfig) }
GO
cd "$src/cmd/memrecall"
go build -o "$work/bin/e2" .

# e3: no YAML fallback.
cd "$src/memory"
rm -f ./*_test.go
dropfunc frontmatter_yaml.go yamlFields decodeYAML deref scalarText
sed -i '/go.yaml.in\/yaml\/v3/d' frontmatter_yaml.go
printf '\nfunc yamlFields([]byte) (fields, error) { panic("linkcost: no YAML") }\n\nvar _ = fmt.Sprint\n' >>frontmatter_yaml.go
cd "$src/cmd/memrecall"
go build -o "$work/bin/e3" .

# e4: the state machine library without text/template.
cd "$src"
go mod vendor
g=vendor/github.com/qmuntal/stateless/graph.go
sed -i -e '/^\t"html"$/d' -e '/^\t"text\/template"$/d' \
	-e 's/html\.EscapeString(/escHTML(/g' -e 's/template\.HTMLEscapeString(/escHTML(/g' "$g"
cat >>"$g" <<'GO'

func escHTML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;").Replace(s)
}
GO
cd "$src/cmd/memrecall"
go build -mod=vendor -o "$work/bin/e4" .

printf 'package main\n\nfunc main() {}\n' >"$work/empty.go"
(cd "$work" && go mod init empty >/dev/null 2>&1 && go build -o "$work/bin/empty" ./empty.go)

echo "== size, and which of net/http, crypto/tls, yaml/v3, text/template each build links"
for v in mr e1 e2 e3 e4; do
	syms=$(go tool nm "$work/bin/$v")
	printf '%-3s %9d bytes:' "$v" "$(stat -c %s "$work/bin/$v")"
	for p in net/http crypto/tls go.yaml.in/yaml/v3 text/template; do
		grep -q " T $p\." <<<"$syms" && printf ' %s' "$p"
	done
	echo
done

echo "== the same report for the query (timings aside)"
report() { "$work/bin/$1" query "$query" --project "$tree/project" --user "$tree/user" | grep -v -E '(ms|µs)$|^Timings'; }
report mr >"$work/mr.out"
for v in e1 e2 e3 e4; do
	report $v | cmp -s - "$work/mr.out" && echo "$v: same" || { echo "$v: DIFFERENT"; exit 1; }
done

# -h's instructions, the column of decision 0821's table (callgrind with
# decision 0800's settings; counts do not depend on the load). Skipped
# without valgrind. `-h` exits 2, which is not a failure here.
echo "== -h instructions (callgrind)"
if command -v valgrind >/dev/null; then
	for v in empty mr e1 e2 e3 e4; do
		ir=$(GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off valgrind --tool=callgrind \
			--callgrind-out-file=/dev/null "$work/bin/$v" -h 2>&1 | sed -n 's/.*Collected : //p' || true)
		printf '%-5s -h %12s instructions\n' "$v" "${ir:-?}"
	done
else
	echo "valgrind not found: skipped"
fi

# pstat N CMD...: perf stat's task-clock (ms) and page faults.
pstat() {
	local n=$1
	shift
	perf stat -x, -r "$n" -e task-clock,page-faults "$@" 2>&1 >/dev/null |
		awk -F, '/task-clock/ { c = $1 } /page-faults/ { f = $1 } END { printf "%8.2f ms %6d faults", c, f }'
}
echo "== interleaved: -h (perf stat -r 30), query (-r 20); load: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 1; r <= rounds; r++)); do
	for v in empty mr e1 e2 e3 e4; do
		printf 'round %d %-5s -h %s' "$r" "$v" "$(pstat 30 "$work/bin/$v" -h)"
		if [ $v = empty ]; then
			echo
		else
			echo "   query $(pstat 20 "$work/bin/$v" query "$query" --project "$tree/project" --user "$tree/user")"
		fi
	done
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
