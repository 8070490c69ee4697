package wire

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Environment variables that place the daemon.
const (
	// EnvDir overrides the directory of the socket and lock (tests, e2e).
	EnvDir = "MEMRECALL_RUNTIME_DIR"
)

// SocketName and LockName are the file names inside Dir.
const (
	SocketName = "memrecall.sock"
	LockName   = "memrecall.lock"
)

// ErrUnsafeDir: the runtime directory is not a directory owned by this
// user and closed to others.
var ErrUnsafeDir = errors.New("wire: unsafe runtime directory")

// Dir returns the daemon's runtime directory: $MEMRECALL_RUNTIME_DIR, else
// $XDG_RUNTIME_DIR/memrecall, else memrecall-<uid> under the temp
// directory. It does not create it (see EnsureDir).
func Dir(getenv func(string) string) string {
	if d := getenv(EnvDir); d != "" {
		return d
	}
	if d := getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "memrecall")
	}
	return filepath.Join(os.TempDir(), "memrecall-"+strconv.Itoa(os.Getuid()))
}

// EnsureDir creates dir with mode 0700 if needed and checks that it is a
// directory of this user that nobody else can enter: in a shared temp
// directory another user could have made it first.
func EnsureDir(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("wire: runtime directory: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("wire: runtime directory: %w", err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%w: not a directory", ErrUnsafeDir)
	}
	if uid, ok := ownerUID(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("%w: owned by uid %d", ErrUnsafeDir, uid)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("%w: mode %v", ErrUnsafeDir, fi.Mode().Perm())
		}
	}
	return nil
}

// CheckPrivate returns an ErrUnsafeDir error unless fi is owned by this
// user (where files have owners) and gives the group and others no
// access: what a reader of a file in the runtime directory requires
// before trusting it, since in the /tmp fallback another user may have
// made the directory first.
func CheckPrivate(fi os.FileInfo) error {
	if uid, ok := ownerUID(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("%w: owned by uid %d", ErrUnsafeDir, uid)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%w: mode %v", ErrUnsafeDir, fi.Mode().Perm())
	}
	return nil
}

// EnvNames lists the environment variables the hook forwards to the
// daemon: the ones that decide where each agent keeps its memory. A name
// that looks like a secret is never forwarded, whatever its prefix.
func EnvNames(environ []string) map[string]string {
	out := map[string]string{}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !forwarded(k) {
			continue
		}
		out[k] = v
	}
	return out
}

func forwarded(k string) bool {
	switch k {
	case "HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "SANDBOX":
		return true
	}
	if !strings.HasPrefix(k, "CLAUDE_") && !strings.HasPrefix(k, "QWEN_") && !strings.HasPrefix(k, "GEMINI_") {
		return false
	}
	up := strings.ToUpper(k)
	for _, s := range []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "AUTH", "CREDENTIAL"} {
		if strings.Contains(up, s) {
			return false
		}
	}
	return true
}
