package main

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		stack []string // leaf first, as perf prints it
		want  string
	}{
		{[]string{"syscall.Fstat", "github.com/memrecall/memrecall/memory.osFS.readPrefix", "github.com/memrecall/memrecall/memory.(*Catalog).visit"}, "eng-fstat"},
		{[]string{"do_syscall_64", "syscall.read", "github.com/memrecall/memrecall/memory.osFS.readPrefix"}, "eng-io"},
		{[]string{"syscall.openat", "github.com/memrecall/memrecall/memory.openBeneath", "github.com/memrecall/memrecall/memory.osFS.readPrefix"}, "eng-io"},
		{[]string{"github.com/memrecall/memrecall/memory.validUTF8", "github.com/memrecall/memrecall/memory.normalize", "github.com/memrecall/memrecall/memory.(*Catalog).visit"}, "eng-check"},
		{[]string{"github.com/memrecall/memrecall/memory.parseNormalized", "github.com/memrecall/memrecall/memory.(*Catalog).visit"}, "eng-parse"},
		{[]string{"syscall.Getdents", "github.com/memrecall/memrecall/memory.(*walker).walkDir"}, "eng-walk"},
		{[]string{"github.com/memrecall/memrecall/memory.compareDocs", "github.com/memrecall/memrecall/memory.(*Catalog).scan"}, "eng-other"},
		{[]string{"syscall.Fstat", "github.com/memrecall/memrecall/internal/readfloor.statOpen", "github.com/memrecall/memrecall/internal/readfloor.read.func1"}, "floor-fstat"},
		{[]string{"syscall.read", "github.com/memrecall/memrecall/internal/readfloor.read.func1"}, "floor-io"},
		{[]string{"os.(*File).ReadDir", "github.com/memrecall/memrecall/internal/readfloor.list"}, "floor-list"},
		{[]string{"github.com/memrecall/memrecall/score.scoreASCIIField", "github.com/memrecall/memrecall/score.(*Index).scoreParallel.func1"}, "rank"},
		{[]string{"github.com/memrecall/memrecall/memory.OneLine", "github.com/memrecall/memrecall/model.BuildManifest"}, "cand"},
		{[]string{"github.com/memrecall/memrecall/score.(*Index).add", "github.com/memrecall/memrecall/score.(*Index).Warm", "github.com/memrecall/memrecall/recall.(*Engine).warm"}, "after"},
		{[]string{"runtime.scanobject", "runtime.gcDrain", "runtime.gcBgMarkWorker"}, "gc"},
		{[]string{"runtime.mallocgc", "runtime.gcAssistAlloc", "github.com/memrecall/memrecall/score.(*Index).Rank"}, "gc"},
		{[]string{"runtime.usleep", "runtime.sysmon"}, "sysmon"},
		{[]string{"runtime.findRunnable", "runtime.schedule"}, "sched"},
		{[]string{"ext4_create", "github.com/memrecall/memrecall/internal/gentree.Write"}, "setup"},
		{[]string{"unicode/utf8.DecodeRuneInString", "github.com/memrecall/memrecall/internal/readfloor.Decode", "github.com/memrecall/memrecall/recall.decodeTime"}, "after"},
	} {
		if got := classify(c.stack); got != c.want {
			t.Errorf("classify(%q) = %s, want %s", c.stack, got, c.want)
		}
	}
}

func TestRead(t *testing.T) {
	in := `12 100.5: 
	ffff1 syscall.Fstat
	ffff2 github.com/memrecall/memrecall/memory.osFS.readPrefix

13 100.25: 
	ffff3 runtime.sysmon

14 101.0: 
`
	got, err := read(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []sample{
		{t: 100.5, stack: []string{"syscall.Fstat", "github.com/memrecall/memrecall/memory.osFS.readPrefix"}},
		{t: 100.25, stack: []string{"runtime.sysmon"}},
		{t: 101.0},
	}
	if d := cmp.Diff(want, got, cmp.AllowUnexported(sample{})); d != "" {
		t.Errorf("read (-want +got):\n%s", d)
	}
	if _, err := read(strings.NewReader("12 notatime:\n")); err == nil {
		t.Error("read accepted a header without a time")
	}
}
