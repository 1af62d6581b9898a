package trustfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/ownerfile"
)

// key is a Unix path in the platform's form: the trust files' keys are
// absolute paths of the machine.
func key(p string) string { return filepath.FromSlash(p) }

func TestStore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := Store{Dir: dir, Name: "t.json", Key: "files", Again: "trust it again"}
	if h, err := s.Get(key("/p/a")); h != "" || err != nil {
		t.Fatalf("no file: %q, %v", h, err)
	}
	for k, v := range map[string]string{key("/p/a"): "1", key("/p/sub/b"): "2", key("/pq/c"): "3"} {
		if err := s.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	if h, err := s.Get(key("/p/sub/b")); h != "2" || err != nil {
		t.Fatalf("Get = %q, %v", h, err)
	}
	if err := s.ForgetUnder(key("/p")); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{key("/p/a"): "", key("/p/sub/b"): "", key("/pq/c"): "3"} {
		if h, _ := s.Get(k); h != want {
			t.Errorf("after ForgetUnder(%s): %s = %q, want %q", key("/p"), k, h, want)
		}
	}
	if err := s.Set(key("/pq/c"), ""); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "t.json"))
	if err != nil || strings.TrimSpace(string(b)) != `{
  "files": {}
}` {
		t.Errorf("file %s, %v", b, err)
	}
	if err := ownerfile.Check(filepath.Join(dir, "t.json")); err != nil {
		t.Errorf("others can change the trust file: %v", err)
	}
}

func TestStoreNotJSON(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := Store{Dir: dir, Name: "t.json", Key: "files", Again: "trust it again"}
	if err := os.WriteFile(filepath.Join(dir, "t.json"), []byte("{oops"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get("/p"); err == nil || !strings.Contains(err.Error(), "is not valid JSON") || !strings.HasSuffix(err.Error(), ": trust it again") {
		t.Fatalf("Get on a broken file: %v", err)
	}
	if err := s.Set("/p", "1"); err != nil {
		t.Fatal(err)
	}
	if h, err := s.Get("/p"); h != "1" || err != nil {
		t.Errorf("after Set over a broken file: %q, %v", h, err)
	}
}
