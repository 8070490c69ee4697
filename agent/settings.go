package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
)

// ErrSettingsComments: the settings file holds comments (JSONC, which
// Gemini CLI accepts). Rewriting it would drop them, so install refuses it
// and the caller shows the entries to add by hand (HooksSnippet). It
// wraps ErrSettings.
var ErrSettingsComments = fmt.Errorf("%w: it has comments, which a rewrite would drop", ErrSettings)

// ErrSettings: the agent's settings file is not a JSON object of the
// shape its hooks need; the installer leaves it untouched.
var ErrSettings = errors.New("agent: settings file cannot be parsed")

// HookEvents lists the hook events memrecall's hook is installed for in
// agent a, in the order they occur in a session.
func HookEvents(a Name) []string {
	switch a {
	case Gemini:
		return []string{"SessionStart", "BeforeAgent", "AfterTool", "AfterAgent", "SessionEnd"}
	case Qwen:
		return []string{"SessionStart", "UserPromptSubmit", "PostToolBatch", "Stop", "SessionEnd"}
	}
	return []string{"SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "SessionEnd"}
}

// hookTimeout is the timeout written for each hook, in the agent's unit:
// seconds for Claude Code and Qwen Code, milliseconds for Gemini CLI. The
// hook bounds itself far below it (hook.Budget); this is the agent's own
// backstop.
func hookTimeout(a Name) int {
	if a == Gemini {
		return 10000
	}
	return 10
}

// SettingsFile is agent a's user settings file: ~/.claude/settings.json
// ($CLAUDE_CONFIG_DIR/settings.json when set), ~/.qwen/settings.json,
// ~/.gemini/settings.json.
func SettingsFile(a Name, env Env) string {
	switch a {
	case Claude:
		if d := env.getenv("CLAUDE_CONFIG_DIR"); d != "" {
			return filepath.Join(d, "settings.json")
		}
		return filepath.Join(env.Home, ".claude", "settings.json")
	case Qwen:
		return filepath.Join(env.Home, ".qwen", "settings.json")
	}
	return filepath.Join(env.Home, ".gemini", "settings.json")
}

// HookCommand is the command line installed for agent a, running the
// binary at exe: `memrecall-hook --agent a` for the hook-only binary,
// `memrecall hook --agent a` for any other.
func HookCommand(exe string, a Name) string {
	if strings.HasPrefix(filepath.Base(exe), "memrecall-hook") {
		return shellQuote(exe) + " --agent " + string(a)
	}
	return shellQuote(exe) + " hook --agent " + string(a)
}

// InstallHooks returns settings with memrecall's hook entries for agent a
// merged in, each running command; every other key and every other hook
// is kept. An earlier memrecall entry (another binary path) is replaced,
// so installing twice gives the same file. Empty settings are an empty
// object. The result is indented JSON (two spaces) that keeps the file's
// key order and every value other than memrecall's events as written;
// only a hook event memrecall changes is re-encoded. A file with comments
// is refused (ErrSettingsComments).
func InstallHooks(a Name, settings []byte, command string) ([]byte, error) {
	return editHooks(a, settings, command, true)
}

// UninstallHooks returns settings without memrecall's hook entries for
// agent a — those running command, and those of any program named
// memrecall* with the arguments "hook --agent a"; a hook group or event
// left empty by that is removed too.
func UninstallHooks(a Name, settings []byte, command string) ([]byte, error) {
	return editHooks(a, settings, command, false)
}

// SameSettings reports whether two settings files hold the same JSON
// value (so an install that changes nothing writes nothing).
func SameSettings(a, b []byte) bool {
	va, ea := decodeSettings(a)
	vb, eb := decodeSettings(b)
	return ea == nil && eb == nil && reflect.DeepEqual(va, vb)
}

// HooksSnippet is the "hooks" object memrecall's install adds for agent a
// running command, indented, for a user to merge by hand into a settings
// file install refuses (one with comments).
func HooksSnippet(a Name, command string) (string, error) {
	b, err := InstallHooks(a, nil, command)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

func decodeSettings(data []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}, nil
	}
	if hasComments(data) {
		return nil, ErrSettingsComments
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // numbers are written back as they were read
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSettings, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: data after the JSON object", ErrSettings)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: not a JSON object", ErrSettings)
	}
	return obj, nil
}

// editHooks removes memrecall's entries for a from every event, then,
// when add is set, adds one group per hook event running command.
func editHooks(a Name, settings []byte, command string, add bool) ([]byte, error) {
	a, err := ParseName(string(a))
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	obj, err := decodeSettings(settings)
	if err != nil {
		return nil, err
	}
	hooks := map[string]any{}
	if h, ok := obj["hooks"]; ok {
		if hooks, ok = h.(map[string]any); !ok {
			return nil, fmt.Errorf("%w: \"hooks\" is not an object", ErrSettings)
		}
	}
	for event, v := range hooks {
		groups, ok := v.([]any)
		if !ok {
			continue // not ours to judge; the agent will complain about it
		}
		kept, changed := withoutOurs(groups, a, command)
		switch {
		case !changed:
		case len(kept) == 0:
			delete(hooks, event)
		default:
			hooks[event] = kept
		}
	}
	if add {
		for _, event := range HookEvents(a) {
			groups, _ := hooks[event].([]any)
			hooks[event] = append(groups, map[string]any{
				"matcher": "*",
				"hooks": []any{map[string]any{
					"type": "command", "command": command, "timeout": json.Number(fmt.Sprint(hookTimeout(a))),
				}},
			})
		}
	}
	if len(hooks) == 0 {
		delete(obj, "hooks")
	} else {
		obj["hooks"] = hooks
	}
	changed := map[string]bool{}
	original := rawHooks(settings)
	for ev := range hooks {
		if before, ok := original[ev]; ok {
			after, err := marshal(hooks[ev])
			if err == nil && sameJSON(before, after) {
				continue
			}
		}
		changed[ev] = true
	}
	return encodeOrdered(settings, obj, changed)
}

// marshal encodes v without HTML escaping ("<", ">", "&" stay as written).
func marshal(v any) ([]byte, error) {
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSettings, err)
	}
	return bytes.TrimRight(out.Bytes(), "\n"), nil
}

func sameJSON(a, b []byte) bool {
	var va, vb any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	return da.Decode(&va) == nil && db.Decode(&vb) == nil && reflect.DeepEqual(va, vb)
}

// members reads the members of the JSON object data, in order, values raw.
// Anything else (not an object, bad JSON) gives nothing.
func members(data []byte) ([]string, map[string]json.RawMessage) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil
	}
	var keys []string
	vals := map[string]json.RawMessage{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil
		}
		k, ok := t.(string)
		if !ok {
			return nil, nil
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil
		}
		if _, dup := vals[k]; !dup {
			keys = append(keys, k)
		}
		vals[k] = raw // the last of duplicate keys wins, as in decoding
	}
	return keys, vals
}

// rawHooks is the original "hooks" object's members, raw.
func rawHooks(settings []byte) map[string]json.RawMessage {
	_, top := members(settings)
	_, h := members(top["hooks"])
	return h
}

// encodeOrdered writes obj (the edited settings) in the key order of the
// original file, new keys last. Top-level values other than "hooks" are
// the original bytes, re-indented; inside "hooks", the events in changed
// are encoded from obj and the others kept as written.
func encodeOrdered(original []byte, obj map[string]any, changed map[string]bool) ([]byte, error) {
	keys, raw := members(original)
	hookKeys, hookRaw := members(raw["hooks"])
	var b bytes.Buffer
	field := func(k string, v []byte, last bool) error {
		kb, _ := marshal(k)
		b.WriteString("  ")
		b.Write(kb)
		b.WriteString(": ")
		if err := json.Indent(&b, v, "  ", "  "); err != nil {
			return fmt.Errorf("%w: %w", ErrSettings, err)
		}
		if !last {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		return nil
	}
	order := func(known []string, m map[string]any) []string {
		var out []string
		for _, k := range known {
			if _, ok := m[k]; ok {
				out = append(out, k)
			}
		}
		var added []string
		for k := range m {
			if !slices.Contains(known, k) {
				added = append(added, k)
			}
		}
		slices.Sort(added)
		return append(out, added...)
	}
	top := order(keys, obj)
	if len(top) == 0 {
		return []byte("{}\n"), nil
	}
	b.WriteString("{\n")
	for i, k := range top {
		var v []byte
		switch {
		case k == "hooks":
			hooks := obj["hooks"].(map[string]any)
			var hb bytes.Buffer
			hb.WriteString("{")
			for j, ev := range order(hookKeys, hooks) {
				if j > 0 {
					hb.WriteString(",")
				}
				kb, _ := marshal(ev)
				hb.Write(kb)
				hb.WriteString(":")
				if r, ok := hookRaw[ev]; ok && !changed[ev] {
					hb.Write(r)
					continue
				}
				vb, err := marshal(hooks[ev])
				if err != nil {
					return nil, err
				}
				hb.Write(vb)
			}
			hb.WriteString("}")
			v = hb.Bytes()
		case raw[k] != nil:
			v = raw[k]
		default:
			vb, err := marshal(obj[k])
			if err != nil {
				return nil, err
			}
			v = vb
		}
		if err := field(k, v, i == len(top)-1); err != nil {
			return nil, err
		}
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// hasComments reports whether data holds a // or /* comment outside a
// JSON string.
func hasComments(data []byte) bool {
	in, esc := false, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case in && esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case !in && c == '/' && i+1 < len(data) && (data[i+1] == '/' || data[i+1] == '*'):
			return true
		}
	}
	return false
}

// withoutOurs drops memrecall's hooks for a from groups, and groups that
// held only those; it reports whether anything was dropped.
func withoutOurs(groups []any, a Name, command string) ([]any, bool) {
	changed := false
	kept := make([]any, 0, len(groups))
	for _, g := range groups {
		group, ok := g.(map[string]any)
		if !ok {
			kept = append(kept, g)
			continue
		}
		list, ok := group["hooks"].([]any)
		if !ok {
			kept = append(kept, g)
			continue
		}
		var rest []any
		for _, h := range list {
			if isOurs(h, a, command) {
				changed = true
				continue
			}
			rest = append(rest, h)
		}
		if len(rest) == len(list) {
			kept = append(kept, g)
			continue
		}
		if len(rest) > 0 {
			copyGroup := map[string]any{}
			for k, v := range group {
				copyGroup[k] = v
			}
			copyGroup["hooks"] = rest
			kept = append(kept, copyGroup)
		}
	}
	return kept, changed
}

// isOurs recognises a hook memrecall installed for a: the command being
// installed, or a command whose program is named memrecall* and whose
// arguments are "hook --agent a" (memrecall) or "--agent a"
// (memrecall-hook), as an install from another path writes.
func isOurs(h any, a Name, command string) bool {
	m, ok := h.(map[string]any)
	if !ok {
		return false
	}
	cmd, _ := m["command"].(string)
	cmd = strings.TrimSpace(cmd)
	if command != "" && cmd == command {
		return true
	}
	i := strings.LastIndex(cmd, " --agent ")
	if i < 0 || strings.TrimSpace(cmd[i+len(" --agent "):]) != string(a) {
		return false
	}
	prog := strings.TrimSuffix(cmd[:i], " hook")
	prog = strings.Trim(prog, "'\"")
	return strings.HasPrefix(filepath.Base(prog), "memrecall")
}

// shellQuote quotes a path for the agent's shell when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
