package cli

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"pilot/backend/internal/fakellm"
	"pilot/backend/wire"
)

// treeHash lists every file and folder of dir with its mode and content
// hash (links by target): equal lists are byte-identical trees.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.IsDir():
			lines = append(lines, "d "+rel+" "+fi.Mode().String())
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			lines = append(lines, "l "+rel+" "+target)
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			lines = append(lines, fmt.Sprintf("f %s %s %x", rel, fi.Mode(), sha256.Sum256(b)))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// TestHeadlessLedgerAndRewind: pilot -p makes a change and runs a command
// that edits with sed -i, removes, renames and creates files;
// `pilot sessions changes` lists every effect; a file edited outside
// Pilot makes `pilot rewind` refuse (exit 1) and list it; --force rewinds
// the tree to exactly what it was before the session.
func TestHeadlessLedgerAndRewind(t *testing.T) {
	t.Parallel()
	srv := fakellm.New(fakellm.Script{Turns: []fakellm.Turn{
		{ToolCalls: []fakellm.ToolCall{{ID: "p1", Name: "patch_file", Input: []byte(`{"path":"notes.txt","old_text":"draft","new_text":"final"}`)}}},
		{ToolCalls: []fakellm.ToolCall{{ID: "b1", Name: "run_bash", Input: []byte(`{"command":"sed -i 's/one/ONE/' a.txt && rm gone.txt && mv old.txt new.txt && mkdir -p made && echo hi > made/created.txt && chmod +x run.sh"}`)}}},
		{Text: "Done."},
	}})
	defer srv.Close()
	home := t.TempDir()
	dir := tempProject(t, map[string]string{"notes.txt": "status: draft\n", "a.txt": "one two\n", "gone.txt": "bye\n", "old.txt": "moving\n", "run.sh": "echo run\n"})
	before := treeHash(t, dir)
	run := func(args ...string) (string, string, int) {
		cmd := command(t, srv, home, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), code
	}
	if out, errOut, code := run("-p", "Finish the notes and tidy up", "--project", dir, "--approve", "all"); code != 0 {
		t.Fatalf("pilot -p: %d\n%s\n%s", code, out, errOut)
	}

	list, _, _ := run("sessions", "list", "--project", dir, "--json")
	ss := decodeLines[wire.SessionRecord](t, list)
	if len(ss) == 0 || ss[0].ID == 0 {
		t.Fatalf("sessions list: %s", list)
	}
	sess := ss[0]
	id := fmt.Sprint(sess.ID)
	text, errOut, code := run("sessions", "changes", id)
	for _, want := range []string{"modified notes.txt", "modified a.txt", "deleted  gone.txt", "deleted  old.txt", "created  new.txt", "created  made/created.txt", "modified run.sh", "$ sed -i"} {
		if code != 0 || !strings.Contains(text, want) {
			t.Errorf("sessions changes lacks %q (exit %d):\n%s%s", want, code, text, errOut)
		}
	}
	js, _, _ := run("sessions", "changes", id, "--json")
	if lv := decodeStrict[wire.Ledger](t, js); len(lv.Checkpoints) != 2 {
		t.Fatalf("sessions changes --json: %s", js)
	}

	show, _, _ := run("sessions", "show", id, "--json")
	tr := decodeStrict[wire.Transcript](t, show)
	var first int64
	if len(tr.Messages) > 0 && tr.Messages[0].Role == "user" {
		first = tr.Messages[0].ID
	}
	if first == 0 {
		t.Fatalf("no user message in\n%s", show)
	}

	// The user edits a file outside Pilot: rewind refuses and lists it.
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("ONE two, and mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := run("rewind", id, "--to", fmt.Sprint(first))
	if code != 1 || !strings.Contains(out, "conflict  a.txt") || !strings.Contains(errOut, "--force") {
		t.Fatalf("rewind with a conflict: exit %d\n%s\n%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.txt")); string(b) != "ONE two, and mine\n" {
		t.Fatalf("a conflict was overwritten: %q", b)
	}
	out, errOut, code = run("rewind", id, "--to", fmt.Sprint(first), "--force")
	if code != 0 {
		t.Fatalf("rewind --force: exit %d\n%s\n%s", code, out, errOut)
	}
	if got := treeHash(t, dir); got != before {
		t.Fatalf("after rewind the tree is\n%s\nwant\n%s", got, before)
	}
	if _, errOut, code := run("rewind", id); code != 2 || !strings.Contains(errOut, "--to MESSAGE_ID") {
		t.Errorf("rewind without --to: exit %d %s", code, errOut)
	}
}
