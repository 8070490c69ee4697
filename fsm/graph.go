package fsm

import (
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
)

// DOT returns the lifecycle's transition table as a Graphviz digraph, as
// stateless exports it. Guards appear in brackets by function name. The
// edge lines are sorted, because stateless emits edges of one trigger in
// map order.
func DOT() string {
	lines := strings.Split(newMachine().ToGraph(), "\n")
	// Sort each run of consecutive edge lines, leaving the init edge last.
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && isEdgeLine(lines[j]) {
			j++
		}
		if j > i {
			slices.Sort(lines[i:j])
			i = j
		} else {
			i++
		}
	}
	return strings.Join(lines, "\n")
}

func isEdgeLine(l string) bool {
	return strings.Contains(l, " -> ") && !strings.HasPrefix(strings.TrimSpace(l), "init ")
}

// Mermaid returns the same table as a Mermaid stateDiagram-v2: one arrow
// per row, labelled with the trigger and its guard; rows that keep the
// state are drawn as self-loops, marked "(ignored)" when they have no
// effect. Unguarded ignores (a late event of a plan past that point) are
// left out to keep the picture readable; DOT has every row.
func Mermaid() string {
	var b strings.Builder
	b.WriteString("stateDiagram-v2\n")
	for _, st := range States {
		if id := mermaidID(st); id != st.String() {
			fmt.Fprintf(&b, "    state %q as %s\n", st.String(), id)
		}
	}
	fmt.Fprintf(&b, "    [*] --> %s\n", mermaidID(StateIdle))
	for _, from := range States {
		for i := range lifecycle[from] {
			r := &lifecycle[from][i]
			kind := r.kind(from)
			if kind == edgeIgnore && r.guard == nil {
				continue
			}
			label := r.on.String()
			if r.guard != nil {
				label += " [" + funcName(r.guard) + "]"
			}
			switch kind {
			case edgeRestart:
				label += " (new plan)"
			case edgeInternal:
				label += " / " + funcName(r.action)
			case edgeIgnore:
				label += " (ignored)"
			}
			fmt.Fprintf(&b, "    %s --> %s: %s\n", mermaidID(from), mermaidID(r.to), label)
		}
	}
	return b.String()
}

// mermaidID is a state's name made a valid Mermaid identifier.
func mermaidID(s State) string { return strings.ReplaceAll(s.String(), "-", "_") }

// funcName is the short name stateless would print for a guard or action.
func funcName(f any) string {
	name := runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
	return name[strings.LastIndexByte(name, '.')+1:]
}
