package mcp

import (
	"pilot/backend/trustfile"

	"bytes"
	"os"
	"path/filepath"
	"pilot/backend/internal/keyvars"
	"runtime"
	"strings"
	"testing"
)

// procOf reads /proc/PID/environ and /proc/PID/cmdline of a running
// child of the test, as the kernel holds them.
func procOf(t *testing.T, pid string) (environ, cmdline string) {
	t.Helper()
	e, err := os.ReadFile(filepath.Join("/proc", pid, "environ"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := os.ReadFile(filepath.Join("/proc", pid, "cmdline"))
	if err != nil {
		t.Fatal(err)
	}
	return string(bytes.ReplaceAll(e, []byte{0}, []byte{'\n'})), string(bytes.ReplaceAll(c, []byte{0}, []byte{' '}))
}

// No key reaches a running stdio server, through its environment or its
// arguments: every preset's key variable (and TS_AGENT_API_KEY) is set in
// Pilot's environment and a saved key is held. ${GROQ_API_KEY} in args or
// env is refused with a sentence, in any file; ${...TOKEN} in a project's
// file is refused too, while the user's own file may pass one.
func TestNoKeyReachesAServer(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("reads each server's environment and command line from /proc, which Windows has not")
	}
	keys := map[string]string{}
	for _, v := range keyvars.All() {
		keys[v] = "key-of-" + strings.ToLower(v) + "-0123456789"
		t.Setenv(v, keys[v])
	}
	const saved = "saved-key-value-0123456789"
	t.Setenv("SAVED_ELSEWHERE", saved)
	t.Setenv("PILOT_TEST_GH_TOKEN", "users-own-gh-token")
	t.Setenv("PILOT_TEST_PLAIN", "plain-value")
	home, project := t.TempDir(), t.TempDir()

	ok := selfServer(t, map[string]string{"GITHUB_TOKEN": "${PILOT_TEST_GH_TOKEN}", "MARK": "server-ok"})
	ok.Args = append(ok.Args, "--plain=${PILOT_TEST_PLAIN}")
	inArgs := selfServer(t, nil)
	inArgs.Args = append(inArgs.Args, "--key=${GROQ_API_KEY}")
	writeUser(t, home, map[string]Server{
		"ok":      ok,
		"args":    inArgs,
		"env":     selfServer(t, map[string]string{"K": "${GROQ_API_KEY:-none}"}),
		"literal": selfServer(t, map[string]string{"K": "Bearer " + saved}),
		"http":    {Type: "http", URL: "http://127.0.0.1:1/mcp", Headers: map[string]string{"Authorization": "Bearer ${ANTHROPIC_API_KEY}"}},
	})
	projOK := selfServer(t, map[string]string{"MARK": "project-ok", "P": "${PILOT_TEST_PLAIN}"})
	if err := WriteFile(ProjectPath(project), File{Servers: map[string]Server{
		"projtoken": selfServer(t, map[string]string{"GH": "${PILOT_TEST_GH_TOKEN}"}),
		"projok":    projOK,
	}}); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(ProjectPath(project))
	if err := Trust(home, project, trustfile.Hash(raw)); err != nil {
		t.Fatal(err)
	}
	o := testOptions(home)
	o.Secrets = []string{saved}
	h, _ := Open(project, o)
	defer h.Close()
	waitState(t, h, "ok", Ready)
	waitState(t, h, "projok", Ready)
	for name, want := range map[string]string{
		"args":      "${GROQ_API_KEY} in its args names a provider key",
		"env":       "${GROQ_API_KEY} in its env names a provider key",
		"http":      "${ANTHROPIC_API_KEY} in its headers names a provider key",
		"literal":   "its env holds an API key Pilot uses",
		"projtoken": "${PILOT_TEST_GH_TOKEN} in its env names a secret, and a project's .mcp.json comes with the repository",
	} {
		st := waitState(t, h, name, Failed)
		if !strings.Contains(st.Error, want) || !strings.HasPrefix(st.Error, "not started: ") {
			t.Errorf("%s: error %q, want %q", name, st.Error, want)
		}
		if strings.Contains(st.Display, "key-of-") || strings.Contains(st.Display, saved) {
			t.Errorf("%s: the row shows a key: %s", name, st.Display)
		}
	}

	kids := children(t)
	if len(kids) != 2 {
		t.Fatalf("want the 2 allowed servers running, got %v", kids)
	}
	seen := map[string]bool{}
	for _, k := range kids {
		environ, cmdline := procOf(t, strings.Fields(k)[0])
		for name, key := range keys {
			if strings.Contains(environ, key) || strings.Contains(cmdline, key) || strings.Contains(environ, name+"=") {
				t.Errorf("%s reached a server (pid %s):\n%s\n%s", name, k, environ, cmdline)
			}
		}
		if strings.Contains(environ, saved) || strings.Contains(cmdline, saved) || strings.Contains(environ, "PILOT_TEST_GH_TOKEN") {
			t.Errorf("a held key or an unlisted variable reached a server:\n%s", environ)
		}
		switch {
		case strings.Contains(environ, "MARK=server-ok"):
			seen["ok"] = true
			if !strings.Contains(environ, "GITHUB_TOKEN=users-own-gh-token") || !strings.Contains(cmdline, "--plain=plain-value") {
				t.Errorf("the user's own variables did not reach their server:\n%s\n%s", environ, cmdline)
			}
		case strings.Contains(environ, "MARK=project-ok"):
			seen["projok"] = true
			if !strings.Contains(environ, "P=plain-value") {
				t.Errorf("the project server lost its plain variable:\n%s", environ)
			}
		}
		if !strings.Contains(environ, "PATH="+os.Getenv("PATH")) || !strings.Contains(environ, "HOME=") {
			t.Errorf("PATH or HOME missing:\n%s", environ)
		}
	}
	if !seen["ok"] || !seen["projok"] {
		t.Errorf("servers seen: %v", seen)
	}
	h.Close()
	noChildren(t)
}
