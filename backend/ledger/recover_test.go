package ledger

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"pilot/backend/llm"
	"pilot/backend/projectroot"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// crashedChange sets up what a kill between two renames leaves: an
// approved change of files (path → new content) recorded as a pending
// checkpoint of a tool call left running, with only the files in written
// holding their new content, and the store repaired as at start-up.
func crashedChange(t *testing.T, f *fixture, change map[string]string, written ...string) store.ToolCall {
	t.Helper()
	f.say("change them")
	msg, err := f.st.Messages.Append(f.ctx, f.sess.ID, llm.Message{Role: llm.RoleAssistant, Content: []llm.ContentBlock{
		{Type: llm.BlockToolUse, ID: "toolu_1", Name: "multi_patch", Input: json.RawMessage(`{}`)}}}, llm.Usage{})
	if err != nil {
		t.Fatal(err)
	}
	call, err := f.st.ToolCalls.Insert(f.ctx, store.ToolCall{SessionID: f.sess.ID, MessageID: msg.ID, Call: store.Call{ToolUseID: "toolu_1", Name: "multi_patch"}})
	if err != nil {
		t.Fatal(err)
	}
	var files []EditFile
	for rel, text := range change {
		before, old, err := ReadState(filepath.Join(f.dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, EditFile{Path: rel, Before: before, Old: old, New: []byte(text), Mode: 0o644})
	}
	if _, err := f.lg.BeginEdit(f.ctx, f.sess.ID, call.ID, "→ Patching", files); err != nil {
		t.Fatal(err)
	}
	root, err := projectroot.New(f.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for _, rel := range written {
		if _, err := root.MkdirAll(path.Dir(rel)); err != nil {
			t.Fatal(err)
		}
		if err := root.WriteAtomic(rel, []byte(change[rel]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.st.Sessions.Repair(f.ctx, f.sess.ID); err != nil { // what store.Sessions.RepairAll does
		t.Fatal(err)
	}
	return call
}

// result returns the stored tool call and the tool_result block the
// model reads for it.
func result(t *testing.T, f *fixture, id int64) (store.ToolCall, llm.ContentBlock) {
	t.Helper()
	calls, err := f.st.ToolCalls.List(f.ctx, f.sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := f.st.Messages.List(f.ctx, f.sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	var call store.ToolCall
	for _, c := range calls {
		if c.ID == id {
			call = c
		}
	}
	for _, m := range msgs {
		for _, b := range m.Content {
			if b.Type == llm.BlockToolResult && b.ToolUseID == call.ToolUseID {
				return call, b
			}
		}
	}
	t.Fatalf("no tool_result for %s", call.ToolUseID)
	return call, llm.ContentBlock{}
}

func TestRecoverInterruptedChange(t *testing.T) {
	t.Parallel()
	start := map[string]string{"a.txt": "a old\n", "b.txt": "b old\n", "c.txt": "c old\n"}
	change := map[string]string{"a.txt": "a new\n", "b.txt": "b new\n", "c.txt": "c new\n", "new/d.txt": "d new\n"}
	for _, tc := range []struct {
		name    string
		written []string
		meddle  map[string]string // written by someone else before the restart
		want    map[string]string // the files after the restart
		status  wire.ToolStatus
		says    []string
		card    string
	}{
		{name: "half written: completed", written: []string{"a.txt", "new/d.txt"},
			want:   change,
			status: wire.ToolDone, says: []string{"Interrupted by a crash; completed on restart.", "a.txt", "new/d.txt"}, card: "completed on restart"},
		{name: "all written before the kill: completed", written: []string{"a.txt", "b.txt", "c.txt", "new/d.txt"},
			want:   change,
			status: wire.ToolDone, says: []string{"completed on restart"}, card: "completed on restart"},
		{name: "nothing written: not applied", written: nil,
			want:   map[string]string{"a.txt": "a old\n", "b.txt": "b old\n", "c.txt": "c old\n", "new/d.txt": ""},
			status: wire.ToolError, says: []string{"Interrupted by a crash; not applied.", "nothing was changed"}, card: "not applied"},
		{name: "another program changed a file: undone, that file left", written: []string{"a.txt", "new/d.txt"},
			meddle: map[string]string{"b.txt": "b by the user\n"},
			want:   map[string]string{"a.txt": "a old\n", "b.txt": "b by the user\n", "c.txt": "c old\n", "new/d.txt": ""},
			status: wire.ToolError, says: []string{"Interrupted by a crash; undone on restart.", "something else changed b.txt", "b.txt was left as it is"}, card: "undone on restart"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, start)
			call := crashedChange(t, f, change, tc.written...)
			f.write(tc.meddle)
			f.open() // the next start
			if err := f.lg.Repair(f.ctx); err != nil {
				t.Fatal(err)
			}
			for rel, want := range tc.want {
				got := f.read(rel)
				if want == "" {
					if _, err := os.Stat(filepath.Join(f.dir, rel)); !os.IsNotExist(err) {
						t.Errorf("%s: should not exist, holds %q", rel, got)
					}
					continue
				}
				if got != want {
					t.Errorf("%s holds %q, want %q", rel, got, want)
				}
			}
			if tc.want["new/d.txt"] == "" {
				if _, err := os.Stat(filepath.Join(f.dir, "new")); !os.IsNotExist(err) {
					t.Errorf("the folder made for new/d.txt is still there")
				}
			}
			got, block := result(t, f, call.ID)
			if got.Status != tc.status {
				t.Errorf("status %s, want %s", got.Status, tc.status)
			}
			for _, s := range tc.says {
				if !strings.Contains(got.Output, s) {
					t.Errorf("the result does not say %q:\n%s", s, got.Output)
				}
			}
			if block.Content != got.Output || block.IsError != (tc.status != wire.ToolDone) {
				t.Errorf("the model reads %q (error %v), the card %q", block.Content, block.IsError, got.Output)
			}
			rec, err := f.st.ToolCalls.CrashRecoveries(f.ctx, f.sess.ID)
			if err != nil || rec["toolu_1"] != tc.card {
				t.Errorf("card recovery %q (%v), want %q", rec["toolu_1"], err, tc.card)
			}
			if pending, _ := f.st.Checkpoints.Pending(f.ctx); len(pending) != 0 {
				t.Errorf("%d checkpoints still pending", len(pending))
			}
			// A second start changes nothing more.
			f.open()
			if err := f.lg.Repair(f.ctx); err != nil {
				t.Fatal(err)
			}
			if again, _ := result(t, f, call.ID); again.Output != got.Output {
				t.Errorf("a second start rewrote the result: %q", again.Output)
			}
		})
	}
}
