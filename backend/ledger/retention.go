package ledger

import (
	"context"
	"sort"
)

// RetentionWhy is what a file event says once retention removed its content.
const RetentionWhy = "content removed to stay under the checkpoint retention limit"

// Usage is the space the kept content of a project's ledger takes, each
// stored object counted once.
func (l *Ledger) Usage(ctx context.Context, projectID int64) (int64, error) {
	refs, err := l.st.Checkpoints.BlobRefs(ctx, projectID)
	if err != nil {
		return 0, err
	}
	seen := map[string]bool{}
	var n int64
	for _, r := range refs {
		if seen[r.Hash] {
			continue
		}
		seen[r.Hash] = true
		if sz, err := l.blobs.StoredSize(r.Hash); err == nil {
			n += sz
		}
	}
	return n, nil
}

// Enforce keeps a project's ledger content under limit bytes: the content
// of its oldest sessions goes first (their changes stay listed, no longer
// revertable), never that of its newest session. Then every stored object
// that nothing refers to any more is removed. It returns the bytes freed.
func (l *Ledger) Enforce(ctx context.Context, projectID, limit int64) (int64, error) {
	if limit <= 0 {
		return 0, nil
	}
	refs, err := l.st.Checkpoints.BlobRefs(ctx, projectID)
	if err != nil {
		return 0, err
	}
	type sess struct {
		id      int64
		updated int64
		hashes  []string
	}
	bySess := map[int64]*sess{}
	for _, r := range refs {
		s := bySess[r.SessionID]
		if s == nil {
			s = &sess{id: r.SessionID, updated: r.SessionUpdated.UnixMilli()}
			bySess[r.SessionID] = s
		}
		s.hashes = append(s.hashes, r.Hash)
	}
	ss := make([]*sess, 0, len(bySess))
	for _, s := range bySess {
		ss = append(ss, s)
	}
	sort.Slice(ss, func(i, j int) bool {
		if ss[i].updated != ss[j].updated {
			return ss[i].updated < ss[j].updated
		}
		return ss[i].id < ss[j].id
	})
	// Each object counts once, for the newest session that uses it: the
	// space dropping a session's content frees is what only older ones use.
	owner := map[string]int{}
	for i, s := range ss {
		for _, h := range s.hashes {
			owner[h] = i
		}
	}
	var total int64
	share := make([]int64, len(ss))
	for h, i := range owner {
		if sz, err := l.blobs.StoredSize(h); err == nil {
			share[i] += sz
			total += sz
		}
	}
	var drop []int64
	for i := 0; i < len(ss)-1 && total > limit; i++ {
		drop = append(drop, ss[i].id)
		total -= share[i]
	}
	if len(drop) == 0 {
		return 0, nil
	}
	if err := l.st.Checkpoints.DropContent(ctx, drop, RetentionWhy); err != nil {
		return 0, err
	}
	return l.Sweep(ctx)
}

// Sweep removes every stored object that no ledger entry, no project
// manifest and no message (an image) refers to.
func (l *Ledger) Sweep(ctx context.Context) (int64, error) {
	l.gc.Lock() // no edit or restore is between storing content and recording it
	defer l.gc.Unlock()
	live, err := l.trees.Live()
	if err != nil {
		return 0, err
	}
	refs, err := l.st.Checkpoints.BlobRefs(ctx, 0)
	if err != nil {
		return 0, err
	}
	for _, r := range refs {
		live[r.Hash] = true
	}
	images, err := l.st.Messages.ImageHashes(ctx)
	if err != nil {
		return 0, err
	}
	l.liveImages(live, images)
	return l.blobs.Sweep(live)
}
