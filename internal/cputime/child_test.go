package cputime

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMain lets the test binary stand in for a child process: with
// CPUTIME_CHILD set it prints "out" and "err" and exits with that code.
func TestMain(m *testing.M) {
	if code := os.Getenv("CPUTIME_CHILD"); code != "" {
		fmt.Print("out")
		fmt.Fprint(os.Stderr, "err")
		if code != "0" {
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name    string
		code    string
		stdout  bool // the caller sets Stdout
		wantOut string
		wantErr bool
	}{
		{name: "ok, output discarded", code: "0"},
		{name: "ok, output kept", code: "0", stdout: true, wantOut: "out"},
		{name: "failure quotes stderr", code: "3", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "CPUTIME_CHILD="+tc.code)
			var out strings.Builder
			if tc.stdout {
				cmd.Stdout = &out
			}
			p, err := Run(cmd)
			if tc.wantErr {
				var exit *exec.ExitError
				if !errors.As(err, &exit) || exit.ExitCode() != 3 || !strings.HasSuffix(err.Error(), ": err") {
					t.Fatalf("Run = %v, want the exit status 3 and the child's stderr", err)
				}
				if p != (Proc{}) {
					t.Errorf("a failed run reported %+v", p)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.wantOut, out.String()); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if p.Wall <= 0 {
				t.Errorf("Run = %+v, want a positive wall time", p)
			}
			// A Go process faults in its pages: on Linux the kernel
			// counts them for the child (elsewhere childFaults may say 0).
			if runtime.GOOS == "linux" && p.MinorFaults <= 0 {
				t.Errorf("Run = %+v, want the child's minor faults counted", p)
			}
		})
	}
}
