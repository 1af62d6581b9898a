package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"pilot/backend/service"
)

func TestWindowOrCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args    []string
		command bool // a headless command (else the window)
	}{
		{nil, false},
		{[]string{"-assetdir", "frontend/dist", "-devserver", "127.0.0.1:3000"}, false},
		{[]string{"version"}, true},
		{[]string{"--help"}, true},
		{[]string{"-assetdir=frontend/dist", "--devserver", "x", "-loglevel", "Error"}, false},
		{[]string{"-tsprefix", "", "-tssuffix", "", "-tsoutputtype", "classes"}, false},
		{[]string{"nosuchcommand"}, true},
		{[]string{"--nosuchoption"}, true},
		{[]string{"-assetdir", "frontend/dist", "extra"}, true},
	}
	for _, tc := range tests {
		if _, window := service.WindowFolder(tc.args); window == tc.command {
			t.Errorf("WindowFolder(%q) opens the window: %v, want %v", tc.args, window, !tc.command)
		}
	}
}

// Every word the window takes for a command is one Run knows.
func TestCommandWordsAreCommands(t *testing.T) {
	t.Parallel()
	for w := range service.CommandWords {
		var out, errb bytes.Buffer
		Run(context.Background(), []string{w, "--help"}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }})
		if strings.Contains(errb.String(), "unknown command") {
			t.Errorf("%s is no command of Run: %s", w, errb.String())
		}
	}
}

func TestRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args     []string
		code     int
		stdout   string
		stderrIn string
	}{
		{[]string{"version"}, 0, "commit:", ""},
		{[]string{"help"}, 0, "pilot version", ""},
		{[]string{"frobnicate"}, 2, "", "unknown command \"frobnicate\""},
		{[]string{"nosuchcommand"}, 2, "", "Usage:\n  pilot "},
		{[]string{"--bogus"}, 2, "", "unknown option \"--bogus\""},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			var out, errb bytes.Buffer
			code := Run(context.Background(), tc.args, IO{Stdout: &out, Stderr: &errb})
			if code != tc.code {
				t.Fatalf("exit %d, want %d (stderr %q)", code, tc.code, errb.String())
			}
			if !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errb.String(), tc.stderrIn) {
				t.Fatalf("stdout %q stderr %q", out.String(), errb.String())
			}
		})
	}
}
