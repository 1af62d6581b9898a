package store

import (
	"context"
	"reflect"
	"testing"
)

// TestCheckpointListedFiles: which files a command changed can run code,
// and the files it changed that the ledger lists without keeping them, are
// kept with its checkpoint and read back as they were written (so a
// reloaded card shows them), and a checkpoint that only lists files (a
// command that wrote only into .git folders or ignored files) is not
// dropped as empty when it is settled.
func TestCheckpointListedFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, _ := newStore(t)
	_, sess := newSession(t, st, t.TempDir())
	listed := []ListedFile{
		{Path: "sub/.git", Op: "created", Why: "a git folder: not kept", RunsCode: "a new git repository: git runs its hooks and config here", Folder: true},
		{Path: "sub/.git/hooks/post-checkout", Op: "created", Why: "in a git folder: not kept", RunsCode: "a git hook"},
		{Path: "node_modules/left-pad/index.js", Op: "modified", Why: "ignored: not kept"},
	}
	tests := []struct {
		name   string
		cp     Checkpoint
		remain bool
	}{
		{"events and listed files", Checkpoint{Files: []FileEvent{
			{Path: "a.txt", Before: FileSide{Hash: "bb", Mode: 0o644, Size: 1, Kept: true}, After: FileSide{Hash: "cc", Mode: 0o644, Size: 1, Kept: true}},
			{Path: "run.sh", After: FileSide{Hash: "aa", Mode: 0o755, Size: 2, Kept: true}, RunsCode: "executable"},
		}, Listed: listed, Omitted: 4}, true},
		{"listed files only", Checkpoint{Listed: listed[:2]}, true},
		{"omitted files only", Checkpoint{Omitted: 3}, true},
		{"nothing", Checkpoint{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cp := tc.cp
			cp.SessionID, cp.Kind, cp.Label = sess.ID, CheckpointCommand, "$ "+tc.name
			cp, err := st.Checkpoints.Begin(ctx, cp)
			if err != nil {
				t.Fatal(err)
			}
			remains, err := st.Checkpoints.Finish(ctx, cp.ID, nil)
			if err != nil || remains != tc.remain {
				t.Fatalf("FinishCheckpoint: %v, %v; want %v", remains, err, tc.remain)
			}
			got, err := st.Checkpoints.Get(ctx, cp.ID)
			if !tc.remain {
				if err == nil {
					t.Fatalf("an empty checkpoint remains: %+v", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got.Listed, tc.cp.Listed) || got.Omitted != tc.cp.Omitted {
				t.Errorf("listed %+v (%d omitted), want %+v (%d)", got.Listed, got.Omitted, tc.cp.Listed, tc.cp.Omitted)
			}
			if len(got.Files) != len(tc.cp.Files) {
				t.Fatalf("files %+v, want %+v", got.Files, tc.cp.Files)
			}
			for i, f := range got.Files {
				if f.Path != tc.cp.Files[i].Path || f.RunsCode != tc.cp.Files[i].RunsCode {
					t.Errorf("file %d: %s runs code %q, want %s %q", i, f.Path, f.RunsCode, tc.cp.Files[i].Path, tc.cp.Files[i].RunsCode)
				}
			}
		})
	}
}
