package testenv

import "testing"

func TestDeepFollowsTheEnvironment(t *testing.T) {
	for _, c := range []struct {
		val  string
		want bool
	}{{"1", true}, {"", false}, {"0", false}, {"true", false}} {
		t.Setenv(DeepEnv, c.val)
		if got := Deep(); got != c.want {
			t.Errorf("%s=%q: Deep() = %v, want %v", DeepEnv, c.val, got, c.want)
		}
	}
}

func TestSkipUnlessDeepSkips(t *testing.T) {
	t.Setenv(DeepEnv, "")
	ran := false
	t.Run("inner", func(t *testing.T) {
		SkipUnlessDeep(t)
		ran = true
	})
	if ran {
		t.Error("SkipUnlessDeep did not skip without " + DeepEnv + "=1")
	}
	t.Setenv(DeepEnv, "1")
	t.Run("inner", func(t *testing.T) {
		SkipUnlessDeep(t)
		ran = true
	})
	if !ran {
		t.Error("SkipUnlessDeep skipped with " + DeepEnv + "=1")
	}
}
