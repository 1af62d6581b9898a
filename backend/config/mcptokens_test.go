package config

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"pilot/backend/childenv"
)

// TestMCPTokensKeptLikeKeys: a sign-in is kept as the API keys are (mode
// 0600, made private again when loosened), every token in it is held from
// children, and nil removes it.
func TestMCPTokensKeptLikeKeys(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("no permission bits")
	}
	home := t.TempDir()
	path := filepath.Join(home, MCPTokensFile)
	tok := &MCPToken{URL: "https://mcp.example/mcp", AccessToken: "at-held-9f8e7d6c5b4a", RefreshToken: "rt-held-1a2b3c4d5e6f", ClientID: "c1", TokenURL: "https://as.example/token"}
	if err := SaveMCPToken(home, "k1", tok); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		name  string
		loose os.FileMode
		keys  int
	}{{"created", 0, 1}, {"loosened to 0644", 0o644, 1}, {"loosened to 0666", 0o666, 1}} {
		if step.loose != 0 {
			if err := os.Chmod(path, step.loose); err != nil {
				t.Fatal(err)
			}
		}
		got, err := LoadMCPTokens(home)
		info, _ := os.Stat(path)
		if err != nil || len(got) != step.keys || got["k1"].RefreshToken != tok.RefreshToken || info.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %o, tokens %v, err %v", step.name, info.Mode().Perm(), got, err)
		}
	}
	for _, s := range []string{tok.AccessToken, tok.RefreshToken} {
		if !childenv.HoldsKey("X="+s, nil) {
			t.Errorf("%s is not held from children", s)
		}
	}
	if err := SaveMCPToken(home, "k1", nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := LoadMCPTokens(home); len(got) != 0 {
		t.Errorf("after removal: %v", got)
	}
	if raw, _ := os.ReadFile(filepath.Join(home, KeysFile)); len(raw) != 0 {
		t.Error("a sign-in went into keys.json")
	}
}

// TestMCPTokensSavedTogether: saves made at once (as by the window and a
// pilot -p, each opening the lock file on its own) all land; and of two
// renewals of one sign-in at once, the second sees the first's tokens.
func TestMCPTokensSavedTogether(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	const n = 24
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if err := SaveMCPToken(home, fmt.Sprint("server-", i), &MCPToken{AccessToken: fmt.Sprint("tok-", i)}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	all, err := LoadMCPTokens(home)
	if err != nil || len(all) != n {
		t.Fatalf("%d of %d saves kept (%v)", len(all), n, err)
	}

	var refreshed atomic.Int32
	for range 8 {
		wg.Go(func() {
			_, err := UpdateMCPToken(home, "server-0", func(kept MCPToken) (*MCPToken, bool, error) {
				if kept.AccessToken != "tok-0" {
					return nil, false, nil // renewed already: adopt
				}
				refreshed.Add(1)
				return &MCPToken{AccessToken: "renewed"}, true, nil
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got, _ := LoadMCPTokens(home); refreshed.Load() != 1 || got["server-0"].AccessToken != "renewed" || len(got) != n {
		t.Fatalf("renewed %d times; kept %+v", refreshed.Load(), got["server-0"])
	}
}
