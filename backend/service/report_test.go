package service

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/config"
	"pilot/backend/logging"
	"pilot/backend/paths"
)

// An error the window shows is written to logs/pilot.log with its view and
// session, the key redacted.
func TestReportErrorIsLogged(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	key := "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789"
	env := map[string]string{"ANTHROPIC_API_KEY": key}
	getenv := func(k string) string { return env[k] }
	if err := paths.Ensure(home); err != nil {
		t.Fatal(err)
	}
	log, closer, err := logging.Open(paths.LogDir(home), 0, config.LogRedactor(getenv))
	if err != nil {
		t.Fatal(err)
	}
	w, err := Open(context.Background(), Options{Home: home, Log: log, Getenv: getenv})
	if err != nil {
		t.Fatal(err)
	}
	_, openErr := w.Projects.Open(context.Background(), filepath.Join(home, "no-such-folder"))
	w.Turns.ReportError("projects", 0, "Could not open the folder: "+openErr.Error())
	w.Turns.ReportError("chat", 7, "The message was not sent: key "+key+" rejected")
	w.Close()
	closer.Close()
	b, err := os.ReadFile(filepath.Join(paths.LogDir(home), "pilot.log"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, want := range []string{`"view":"projects"`, "no-such-folder does not exist", `"view":"chat"`, `"session":7`} {
		if !strings.Contains(text, want) {
			t.Errorf("log lacks %s:\n%s", want, text)
		}
	}
	if strings.Contains(text, key) {
		t.Errorf("the key reached the log:\n%s", text)
	}
}
