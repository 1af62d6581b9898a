package ledger

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"pilot/backend/store"
)

// TestRetention: content shared by two sessions is stored once; the
// retention limit drops the oldest session's content first (its changes
// stay listed, no longer revertable), never the newest session's, and
// the sweep removes exactly the objects nothing refers to any more.
func TestRetention(t *testing.T) {
	t.Parallel()
	big := func(tag string) string { // text that does not compress to nothing
		r := rand.New(rand.NewPCG(uint64(len(tag)), uint64(tag[0])))
		var b strings.Builder
		for range 4000 {
			fmt.Fprintf(&b, "%s %x\n", tag, r.Uint64())
		}
		return b.String()
	}
	f := newFixture(t, map[string]string{"shared.txt": "same start\n", "old.txt": "x\n"})
	f.say("first session")
	f.edit("shared.txt", "same end\n")
	f.edit("old.txt", big("old"))
	oldSession := f.sess

	p, err := f.st.Projects.ByPath(f.ctx, f.dir)
	if err != nil {
		t.Fatal(err)
	}
	if f.sess, err = f.st.Sessions.Create(f.ctx, store.NewSession{ProjectID: p.ID}); err != nil {
		t.Fatal(err)
	}
	f.say("second session")
	f.write(map[string]string{"shared.txt": "same start\n"})
	f.edit("shared.txt", "same end\n") // the same two contents as the first session
	f.edit("new.txt", big("new"))

	before, err := f.lg.Usage(f.ctx, p.ID)
	if err != nil || before == 0 {
		t.Fatalf("usage %d %v", before, err)
	}
	sameEnd := Hash([]byte("same end\n"))
	oldBig := Hash([]byte(big("old")))
	if !f.lg.Blobs().Has(sameEnd) || !f.lg.Blobs().Has(oldBig) {
		t.Fatal("content not stored")
	}
	// A limit the newest session alone fits in: the old session's content goes.
	newSize, _ := f.lg.Blobs().StoredSize(Hash([]byte(big("new"))))
	freed, err := f.lg.Enforce(f.ctx, p.ID, newSize+1024)
	if err != nil || freed == 0 {
		t.Fatalf("enforce: freed %d, %v", freed, err)
	}
	if f.lg.Blobs().Has(oldBig) {
		t.Error("the oldest session's content is still stored")
	}
	if !f.lg.Blobs().Has(sameEnd) {
		t.Error("content the newest session still uses was removed")
	}
	after, _ := f.lg.Usage(f.ctx, p.ID)
	if after >= before {
		t.Errorf("usage %d → %d", before, after)
	}
	v, err := f.lg.View(f.ctx, oldSession.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range v.Checkpoints {
		for _, e := range c.Files {
			if e.Kept || e.Why != RetentionWhy {
				t.Errorf("old session's %s: kept %v why %q", e.Path, e.Kept, e.Why)
			}
		}
	}
	// The newest session is never dropped, even over the limit.
	if _, err := f.lg.Enforce(f.ctx, p.ID, 1); err != nil {
		t.Fatal(err)
	}
	if res, err := f.lg.RevertFileFor(f.ctx, f.sess.ID, "new.txt", none()); err != nil || !res.Done || len(res.Missing) != 0 {
		t.Fatalf("revert in the newest session after retention: %+v %v", res, err)
	}
}
