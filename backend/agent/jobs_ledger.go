package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"pilot/backend/ledger"
	"pilot/backend/wire"
)

// A background job changes files while the turn goes on, so its effects
// are measured between scans of the folder rather than around one call:
// jobs.cp is the folder as last scanned for the running jobs. What changed
// since is recorded as the jobs' checkpoint (attributed to the run_bash
// call that started the job) before every change the session makes (the
// call's hold: the model's own changes are then recorded as its own), at
// the end of each turn, and when a job ends or is stopped; after each
// change a new scan is taken. The folder is held for the scans only.
//
// What is measured between two scans is everything that changed in the
// folder, by the job or by anyone else outside Pilot (an editor) in that
// time: it is recorded as the job's, as a command's effects are.

// jobHoldWait bounds how long recording a job's effects waits for the
// folder when Pilot is closing.
const jobHoldWait = 10 * time.Second

// jobsBaseline scans the folder before a job starts, when no running job
// has a scan already; the folder is held.
func (js *jobs) jobsBaseline(ctx context.Context) {
	if lg := js.l.m.ledger; lg != nil && !js.scanned() {
		js.rescan(ctx, lg, "scanning the folder before a background job")
	}
}

// scanned reports whether the running jobs have a scan of the folder.
func (js *jobs) scanned() bool {
	js.mu.Lock()
	defer js.mu.Unlock()
	return js.cp != nil
}

// sweepJobs records what changed since the running jobs' scan (and a job
// that ended, until its end is recorded), attributed to them, and scans again while any
// still runs. The folder is held.
func (js *jobs) sweepJobs(ctx context.Context) {
	l := js.l
	lg := l.m.ledger
	if lg == nil {
		return
	}
	owners := js.owners()
	js.mu.Lock()
	cp := js.cp
	js.cp = nil
	js.mu.Unlock()
	if cp != nil && len(owners) > 0 {
		label, callID := jobsLabel(owners)
		saved, err := cp.Finish(ctx, l.id, callID, label)
		switch {
		case err != nil:
			l.m.log.Error("recording a background job's changes", "session", l.id, "err", err)
			l.notice("limit", "Pilot could not record what the background job "+owners[0].id+" changed ("+err.Error()+"); it cannot be undone from Pilot.", 0)
		case saved.ID != 0:
			l.m.out.global(wire.LedgerUpdated, wire.LedgerUpdatedPayload{SessionID: l.id})
			// The call that started the job has its result already: the
			// model is told with the user's next message.
			if note := runsCodeNote(jobsWho(owners), saved); note != "" {
				if err := l.m.st.Sessions.AddPendingNote(ctx, l.id, "[Pilot] "+note); err != nil {
					l.m.log.Warn("keeping a note for the model", "session", l.id, "err", err)
				}
			}
		}
	}
	js.rebaseJobs(ctx)
}

// rebaseJobs scans the folder again for the running jobs (after a change
// the session made, which is not theirs); none running: no scan is kept.
// The folder is held.
func (js *jobs) rebaseJobs(ctx context.Context) {
	l := js.l
	lg := l.m.ledger
	if lg == nil {
		return
	}
	if len(js.running()) == 0 {
		js.mu.Lock()
		js.cp = nil
		js.mu.Unlock()
		return
	}
	js.rescan(ctx, lg, "scanning the folder for the background jobs")
}

// rescan scans the folder as the running jobs' file effects are measured
// from; when it cannot, none is kept (what they change is not recorded).
func (js *jobs) rescan(ctx context.Context, lg *ledger.Ledger, doing string) {
	cp, err := lg.BeforeCommand(ctx, js.l.root)
	if err != nil {
		js.l.m.log.Warn(doing, "session", js.l.id, "err", err)
	}
	js.mu.Lock()
	js.cp = cp
	js.mu.Unlock()
}

// recordJobs takes the folder and records what the jobs changed (the
// running ones, and one that just ended): at a turn's end, and when a job
// ends.
func (js *jobs) recordJobs(ctx context.Context) {
	l := js.l
	lg := l.m.ledger
	if lg == nil || !js.scanned() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, jobHoldWait)
	defer cancel()
	release, err := lg.Hold(ctx, l.root.Dir(), l.who(ctx)+" (recording what its background jobs changed)", nil)
	if err != nil {
		l.m.log.Warn("taking the folder to record the background jobs' changes", "session", l.id, "err", err)
		return
	}
	defer release()
	js.sweepJobs(ctx)
}

// jobEnded records what an ended job changed.
func (js *jobs) jobEnded() { js.recordJobs(context.Background()) }

// jobsWho names the jobs in a sentence: "The background job 1", "The
// background jobs 1, 2".
func jobsWho(js []*job) string {
	ids := make([]string, len(js))
	for i, j := range js {
		ids[i] = j.id
	}
	if len(js) == 1 {
		return "The background job " + ids[0]
	}
	return "The background jobs " + strings.Join(ids, ", ")
}

// jobsLabel names the jobs a checkpoint is attributed to, and the call it
// belongs to (the oldest job's).
func jobsLabel(js []*job) (string, int64) {
	if len(js) == 1 {
		return fmt.Sprintf("$ %s (background job %s)", js[0].command, js[0].id), js[0].callID
	}
	ids, cmds := make([]string, len(js)), make([]string, len(js))
	for i, j := range js {
		ids[i], cmds[i] = j.id, "$ "+j.command
	}
	return "background jobs " + strings.Join(ids, ", ") + ": " + strings.Join(cmds, "; "), js[0].callID
}
