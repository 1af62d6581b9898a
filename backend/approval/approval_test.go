package approval

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"pilot/backend/wire"
)

type record struct {
	mu    sync.Mutex
	asked []wire.Approval
	done  []string // id:outcome
	ready chan wire.Approval
}

func newRecord() *record { return &record{ready: make(chan wire.Approval, 16)} }

func (r *record) Asked(_ int64, a wire.Approval) {
	r.mu.Lock()
	r.asked = append(r.asked, a)
	r.mu.Unlock()
	r.ready <- a
}

func (r *record) Done(_ int64, id string, outcome wire.ApprovalOutcome) {
	r.mu.Lock()
	r.done = append(r.done, id+":"+string(outcome))
	r.mu.Unlock()
}

func (r *record) doneList() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.done...)
}

func change() wire.ChangeView {
	return wire.ChangeView{Tool: "multi_patch", Files: []wire.FileChange{
		{Path: "a.go", Hunks: make([]wire.Hunk, 3)},
		{Path: "b.go", Hunks: make([]wire.Hunk, 1)},
	}}
}

type result struct {
	ans Answer
	err error
}

func askAsync(ctx context.Context, b *Broker, session int64, cmd bool) chan result {
	out := make(chan result, 1)
	go func() {
		var r result
		if cmd {
			r.ans, r.err = b.Ask(ctx, session, wire.Approval{Kind: wire.ApprovalCommand, Tool: "run_bash", Command: "ls"})
		} else {
			r.ans, r.err = b.AskChange(ctx, session, wire.Approval{Tool: "multi_patch"}, change())
		}
		out <- r
	}()
	return out
}

func TestFirstAnswerWins(t *testing.T) {
	t.Parallel()
	rec := newRecord()
	b := New(rec)
	res := askAsync(context.Background(), b, 1, true)
	a := <-rec.ready
	if a.Kind != wire.ApprovalCommand || a.ID == "" {
		t.Fatalf("%+v", a)
	}
	if got := b.Pending(1); len(got) != 1 || got[0].ID != a.ID {
		t.Fatalf("pending %+v", got)
	}
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = b.DecideCommand(a.ID, wire.CommandDecision{Approve: i%2 == 0})
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else if !errors.Is(err, ErrNotPending) {
			t.Errorf("unexpected %v", err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d answers won", ok)
	}
	r := <-res
	if r.err != nil || r.ans.Command == nil {
		t.Fatalf("%+v", r)
	}
	if d := rec.doneList(); len(d) != 1 {
		t.Errorf("done %v", d)
	}
	if len(b.Pending(1)) != 0 {
		t.Error("still pending")
	}
}

func TestChangeDecisions(t *testing.T) {
	t.Parallel()
	edited := "x"
	cases := []struct {
		d       wire.ChangeDecision
		outcome wire.ApprovalOutcome
		err     error
	}{
		{wire.ChangeDecision{Files: []wire.FileDecision{{Path: "a.go", Hunks: []bool{true, true, true}}, {Path: "b.go", Hunks: []bool{true}}}}, wire.OutcomeApproved, nil},
		{wire.ChangeDecision{Files: []wire.FileDecision{{Path: "a.go", Hunks: []bool{true, false, true}}, {Path: "b.go", Hunks: []bool{true}}}}, wire.OutcomePartial, nil},
		{wire.ChangeDecision{Files: []wire.FileDecision{{Path: "a.go", Hunks: []bool{true, true, true}}}}, wire.OutcomePartial, nil},
		{wire.ChangeDecision{Feedback: "no"}, wire.OutcomeRejected, nil},
		{wire.ChangeDecision{Files: []wire.FileDecision{{Path: "a.go", EditedText: &edited}}}, wire.OutcomeEdited, nil},
		{wire.ChangeDecision{Files: []wire.FileDecision{{Path: "c.go", Hunks: []bool{true}}}}, "", ErrBadDecision},
		{wire.ChangeDecision{Files: []wire.FileDecision{{Path: "a.go", Hunks: []bool{true}}}}, "", ErrBadDecision},
		{wire.ChangeDecision{Files: []wire.FileDecision{{Path: "b.go", Hunks: []bool{true}}, {Path: "b.go", Hunks: []bool{true}}}}, "", ErrBadDecision},
	}
	for i, c := range cases {
		rec := newRecord()
		b := New(rec)
		ctx, cancel := context.WithCancel(context.Background())
		res := askAsync(ctx, b, 7, false)
		a := <-rec.ready
		if v, err := b.Change(a.ID); err != nil || v.ApprovalID != a.ID || len(v.Files) != 2 {
			t.Fatalf("change view %+v %v", v, err)
		}
		if err := b.DecideCommand(a.ID, wire.CommandDecision{}); !errors.Is(err, ErrWrongKind) {
			t.Errorf("wrong kind accepted: %v", err)
		}
		err := b.DecideChange(a.ID, c.d)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("case %d: %v", i, err)
			}
			cancel() // still pending after a bad decision: the cancel ends it
			if r := <-res; !errors.Is(r.err, context.Canceled) {
				t.Errorf("case %d: %+v", i, r)
			}
			continue
		}
		cancel()
		r := <-res
		if err != nil || r.err != nil || r.ans.Outcome != c.outcome || r.ans.Change == nil {
			t.Errorf("case %d: %v %+v", i, err, r)
		}
		if d := rec.doneList(); len(d) != 1 || d[0] != a.ID+":"+string(c.outcome) {
			t.Errorf("case %d: done %v", i, d)
		}
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	rec := newRecord()
	b := New(rec)
	ctx, cancel := context.WithCancel(context.Background())
	res := askAsync(ctx, b, 1, false)
	a := <-rec.ready
	other := askAsync(context.Background(), b, 2, true)
	oa := <-rec.ready
	cancel()
	if r := <-res; !errors.Is(r.err, context.Canceled) {
		t.Fatalf("%+v", r)
	}
	if err := b.DecideChange(a.ID, wire.ChangeDecision{}); !errors.Is(err, ErrNotPending) {
		t.Errorf("late answer: %v", err)
	}
	if _, err := b.Change(a.ID); !errors.Is(err, ErrNotPending) {
		t.Error(err)
	}
	if _, err := b.Change(oa.ID); !errors.Is(err, ErrWrongKind) {
		t.Error(err)
	}
	if len(b.Pending(1)) != 0 || len(b.Pending(2)) != 1 {
		t.Fatal("the cancel ended another session's approval, or left its own")
	}
	if err := b.DecideCommand(oa.ID, wire.CommandDecision{}); err != nil {
		t.Fatal(err)
	}
	if r := <-other; r.err != nil || r.ans.Outcome != wire.OutcomeRejected {
		t.Errorf("%+v", r)
	}
	want := []string{a.ID + ":" + string(wire.OutcomeCancelled), oa.ID + ":" + string(wire.OutcomeRejected)}
	if d := rec.doneList(); len(d) != 2 || d[0] != want[0] || d[1] != want[1] {
		t.Errorf("done %v want %v", d, want)
	}
}

// TestRaces hammers answer and cancel at once: every waiter
// returns, and each approval ends exactly once.
func TestRaces(t *testing.T) {
	t.Parallel()
	rec := newRecord()
	rec.ready = make(chan wire.Approval, 1000)
	b := New(rec)
	for i := 0; i < 200; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		res := askAsync(ctx, b, 3, true)
		a := <-rec.ready
		go b.DecideCommand(a.ID, wire.CommandDecision{Approve: true})
		go cancel()
		select {
		case <-res:
		case <-time.After(5 * time.Second):
			t.Fatal("waiter stuck")
		}
	}
	if d := rec.doneList(); len(d) != 200 {
		t.Errorf("%d done notifications for 200 approvals", len(d))
	}
}

// TestKinds: every yes/no kind is asked with its own kind and answered
// with DecideCommand; a change cannot be asked through Ask, and a yes/no
// answer never decides a change.
func TestKinds(t *testing.T) {
	t.Parallel()
	for _, kind := range []wire.ApprovalKind{wire.ApprovalCommand, wire.ApprovalMCP, wire.ApprovalFetch, wire.ApprovalBudget, wire.ApprovalPlan, wire.ApprovalOutsideSandbox} {
		rec := newRecord()
		b := New(rec)
		done := make(chan Answer, 1)
		go func() {
			ans, _ := b.Ask(context.Background(), 1, wire.Approval{Kind: kind})
			done <- ans
		}()
		a := <-rec.ready
		if a.Kind != kind {
			t.Fatalf("asked %q, announced %q", kind, a.Kind)
		}
		if err := b.DecideChange(a.ID, wire.ChangeDecision{}); !errors.Is(err, ErrWrongKind) {
			t.Errorf("%s: a change decision was accepted: %v", kind, err)
		}
		if err := b.DecideCommand(a.ID, wire.CommandDecision{Approve: true}); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if ans := <-done; ans.Command == nil || !ans.Command.Approve || ans.Outcome != wire.OutcomeApproved {
			t.Errorf("%s: answer %+v", kind, ans)
		}
	}
	b := New(newRecord())
	for _, kind := range []string{"", string(wire.ApprovalChange)} {
		if _, err := b.Ask(context.Background(), 1, wire.Approval{Kind: wire.ApprovalKind(kind)}); !errors.Is(err, ErrWrongKind) {
			t.Errorf("Ask of kind %q: %v", kind, err)
		}
	}
}

// TestAllIsEverySessionsQueue: All lists every session's pending
// approvals in the order they were asked, with their session and the time
// they were asked; one decided or cancelled leaves it.
func TestAllIsEverySessionsQueue(t *testing.T) {
	t.Parallel()
	r := newRecord()
	b := New(r)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	cancelled, stop := context.WithCancel(ctx)
	defer stop()

	// Sessions 3, 1, 2 ask in that order: the queue is by time, not session.
	first := askAsync(ctx, b, 3, false)
	a3 := <-r.ready
	second := askAsync(cancelled, b, 1, true)
	a1 := <-r.ready
	third := askAsync(ctx, b, 2, true)
	a2 := <-r.ready

	all := b.All()
	want := []struct {
		session int64
		id      string
		kind    wire.ApprovalKind
	}{{3, a3.ID, wire.ApprovalChange}, {1, a1.ID, wire.ApprovalCommand}, {2, a2.ID, wire.ApprovalCommand}}
	if len(all) != len(want) {
		t.Fatalf("All = %d approvals, want %d", len(all), len(want))
	}
	for i, w := range want {
		g := all[i]
		if g.Session != w.session || g.Approval.ID != w.id || g.Approval.Kind != w.kind {
			t.Errorf("All[%d] = session %d %s %s, want session %d %s %s", i, g.Session, g.Approval.ID, g.Approval.Kind, w.session, w.id, w.kind)
		}
		if g.Since.IsZero() || (i > 0 && g.Since.Before(all[i-1].Since)) {
			t.Errorf("All[%d] asked at %v, after %v: want a time, oldest first", i, g.Since, all[i-1].Since)
		}
	}

	// Decided elsewhere (the session's own card): gone from the queue.
	if err := b.DecideCommand(a2.ID, wire.CommandDecision{Approve: true}); err != nil {
		t.Fatal(err)
	}
	<-third
	stop()
	<-second
	all = b.All()
	if len(all) != 1 || all[0].Approval.ID != a3.ID {
		t.Fatalf("after a decision and a cancel All = %+v, want only %s", all, a3.ID)
	}
	cancel()
	<-first
	if all := b.All(); len(all) != 0 {
		t.Fatalf("All = %+v after every approval ended, want none", all)
	}
}
