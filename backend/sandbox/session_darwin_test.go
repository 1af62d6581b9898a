package sandbox

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The Seatbelt sandbox as commands meet it (make mac runs this on a Mac;
// it cannot run on Linux): the project is written, the home's secrets
// are neither read nor written, nothing outside the writable places is
// written, and no connection leaves without a proxy.
func TestSeatbeltConfinesCommands(t *testing.T) {
	t.Parallel()
	if st := Probe(); !st.Ready {
		t.Skipf("no sandbox on this Mac: %s", st.Why)
	}
	root := realDir(t)
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "home", "proj")
	mkdir(t, filepath.Join(home, ".ssh"))
	mkdir(t, proj)
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := NewSession(Policy{Project: proj, Home: home})
	t.Cleanup(func() { _ = s.Close() })
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + home, "LANG=C"}
	cases := []struct {
		command string
		ok      bool
	}{
		{"echo hi > " + filepath.Join(proj, "made") + " && cat " + filepath.Join(proj, "made"), true},
		{"echo hi > \"$TMPDIR/x\" && cat \"$TMPDIR/x\"", true},
		{"cat " + filepath.Join(home, ".ssh", "id_ed25519"), false},
		{"ls " + filepath.Join(home, ".ssh"), false},
		{"echo x > " + filepath.Join(home, "outside"), false},
		{"echo x > /private/tmp/pilot-seatbelt-test", false},
		{"/usr/bin/curl -sS --max-time 5 http://example.com", false},
	}
	for _, c := range cases {
		out, code := runSeatbelt(t, s, proj, env, c.command)
		if (code == 0) != c.ok || strings.Contains(out, "KEY") {
			t.Errorf("%s: exit %d, want success %v:\n%s", c.command, code, c.ok, out)
		}
	}
}

func runSeatbelt(t *testing.T, s *Session, dir string, env []string, command string) (string, int) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p, err := s.Start(context.Background(), Cmd{Command: command, Dir: dir, Env: env, Output: w})
	w.Close()
	if err != nil {
		t.Fatalf("%s: %v", command, err)
	}
	out, _ := io.ReadAll(r)
	code, err := p.Wait()
	if err != nil {
		t.Fatalf("%s: %v", command, err)
	}
	return string(out), code
}
