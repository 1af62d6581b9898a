package ledger

import (
	"strings"
	"testing"

	"pilot/backend/store"
	"pilot/backend/wire"
)

// TestKeptEveryFileSaysNothingChanged: a restore where the user kept their
// own version of every file it would write changes no file, and its
// message says so and names the files, instead of "Rewound" or
// "Reverted"; a restore that writes says how many files it restored.
func TestKeptEveryFileSaysNothingChanged(t *testing.T) {
	t.Parallel()
	type restore func(f *fixture, msg int64, cp store.Checkpoint, in wire.RestoreInput) (wire.RestoreResult, error)
	rewind := func(mode wire.RewindMode) restore {
		return func(f *fixture, msg int64, _ store.Checkpoint, in wire.RestoreInput) (wire.RestoreResult, error) {
			return f.lg.RewindSession(f.ctx, f.sess.ID, msg, wire.RewindMode(mode), in)
		}
	}
	revert := func(f *fixture, _ int64, cp store.Checkpoint, in wire.RestoreInput) (wire.RestoreResult, error) {
		return f.lg.RevertCheckpointFor(f.ctx, cp.ID, in)
	}
	cases := []struct {
		name     string
		restore  restore
		conflict []string // the files the restore meets as conflicts
		choice   wire.Resolution
		want     string
		notWant  string
		restored int
	}{
		{"rewind, every file kept", rewind(wire.RewindCode), []string{"a.txt", "b.txt"}, wire.ResolveMine,
			"Nothing was rewound: you kept your own version of 2 files (a.txt, b.txt), so no file changed.", "Rewound", 0},
		{"rewind of code and conversation, every file kept", rewind(wire.RewindBoth), []string{"a.txt", "b.txt"}, wire.ResolveMine,
			"(the earlier conversation is kept as it was); the files were not: you kept your own version of 2 files (a.txt, b.txt), so no file changed.", "Rewound files", 0},
		{"revert, the file kept", revert, []string{"a.txt"}, wire.ResolveMine,
			"Nothing was reverted: you kept your own version of a.txt, so no file changed.", "Reverted", 0},
		{"rewind, the earlier versions", rewind(wire.RewindCode), []string{"a.txt", "b.txt"}, wire.ResolveCheckpoint,
			": 2 files restored.", "Nothing", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t, map[string]string{"a.txt": "one\n", "b.txt": "bee\n"})
			msg := f.say("change both")
			cp := f.edit("a.txt", "two\n")
			f.edit("b.txt", "BEE\n")
			f.write(map[string]string{"a.txt": "two, and my line\n", "b.txt": "BEE, and mine\n"})

			res, err := tc.restore(f, msg, cp, none())
			if err != nil || res.Done || len(res.Conflicts) != len(tc.conflict) {
				t.Fatalf("before choosing: %+v %v", res, err)
			}
			in := none()
			for _, p := range tc.conflict {
				in.Resolutions[p] = tc.choice
			}
			res, err = tc.restore(f, msg, cp, in)
			if err != nil || !res.Done {
				t.Fatalf("%+v %v", res, err)
			}
			if !strings.Contains(res.Message, tc.want) || strings.Contains(res.Message, tc.notWant) || len(res.Restored) != tc.restored {
				t.Fatalf("message %q (%d restored), want it to hold %q, not %q, %d restored", res.Message, len(res.Restored), tc.want, tc.notWant, tc.restored)
			}
			if tc.choice == wire.ResolveMine && (f.read("a.txt") != "two, and my line\n" || f.read("b.txt") != "BEE, and mine\n") {
				t.Fatalf("a kept file changed: a %q b %q", f.read("a.txt"), f.read("b.txt"))
			}
		})
	}
}
