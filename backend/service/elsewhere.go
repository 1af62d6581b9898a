package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"pilot/backend/present"
	"pilot/backend/store"
	"pilot/backend/wire"
)

// runningDir is where every Pilot process on a PILOT_HOME marks the
// sessions whose turn it runs: `running/<session id>.lock`, locked
// exclusively with flock(2) for the turn and holding the process's pid and
// the agent's state as JSON. The kernel drops the lock when the process
// ends, however it ends (kill -9 included), so a marker nobody holds is a
// leftover, never a run. The window reads them to show the sessions other
// processes (`pilot -p`, `pilot repl`) run (elsewhere_watch.go).
const runningDir = "running"

// marker is the content of a session's marker.
type marker struct {
	Pid     int              `json:"pid"`
	State   wire.AgentStatus `json:"state,omitempty"`
	Waiting []wire.Approval  `json:"waiting,omitempty"`
}

// markers are the markers this process holds, by session.
type markers struct {
	mu   sync.Mutex
	held map[int64]*heldMarker
}

// heldMarker is one marker this process holds, with what it last wrote.
type heldMarker struct {
	f *os.File
	m marker
}

func (w *Service) markerPath(id int64) string {
	return filepath.Join(w.home, runningDir, strconv.FormatInt(id, 10)+".lock")
}

// markRunning takes (or updates) the marker of a session whose turn this
// process runs. A marker another live process holds (the same session run
// twice at once) is left to it and logged.
func (w *Service) markRunning(id int64, state wire.AgentStatus) {
	w.markers.mu.Lock()
	defer w.markers.mu.Unlock()
	h := w.markers.held[id]
	if h == nil {
		f, err := w.takeMarker(id)
		if err != nil {
			w.log.Warn("marking the session running for other Pilot processes; they show it as the store saved it", "session", id, "err", err)
			return
		}
		if w.markers.held == nil {
			w.markers.held = map[int64]*heldMarker{}
		}
		h = &heldMarker{f: f, m: marker{Pid: os.Getpid()}}
		w.markers.held[id] = h
	}
	h.m.State = state
	w.writeMarker(id, h)
}

// markWaiting adds the approval a (when it has an id) to those waiting in
// a session this process runs, or takes out the one approvalID names.
func (w *Service) markWaiting(id int64, a wire.Approval, approvalID string) {
	w.markers.mu.Lock()
	defer w.markers.mu.Unlock()
	h := w.markers.held[id]
	if h == nil {
		return
	}
	h.m.Waiting = slices.DeleteFunc(h.m.Waiting, func(x wire.Approval) bool { return x.ID == approvalID || x.ID == a.ID })
	if a.ID != "" {
		h.m.Waiting = append(h.m.Waiting, a)
	}
	w.writeMarker(id, h)
}

// writeMarker rewrites a held marker (a reader meanwhile reads a run in an
// unknown state).
func (w *Service) writeMarker(id int64, h *heldMarker) {
	data, _ := json.Marshal(h.m)
	err := h.f.Truncate(0)
	if err == nil {
		_, err = h.f.WriteAt(data, 0)
	}
	if err != nil {
		w.log.Warn("writing the session's marker", "session", id, "err", err)
	}
}

// takeMarker opens and locks a session's marker, retrying once when the
// file it locked was removed meanwhile (its previous holder let it go).
func (w *Service) takeMarker(id int64) (*os.File, error) {
	path := w.markerPath(id)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	for try := 0; ; try++ {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, err
		}
		if err := lockMarker(f); err != nil {
			f.Close()
			return nil, err
		}
		fi, err1 := f.Stat()
		pi, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(fi, pi) || try > 0 {
			return f, nil
		}
		f.Close()
	}
}

// markDone lets a session's marker go: removed, then unlocked (a reader
// that opened it before sees it free).
func (w *Service) markDone(id int64) {
	w.markers.mu.Lock()
	defer w.markers.mu.Unlock()
	h := w.markers.held[id]
	if h == nil {
		return
	}
	delete(w.markers.held, id)
	if err := os.Remove(w.markerPath(id)); err != nil && !os.IsNotExist(err) {
		w.log.Warn("removing the session's marker", "session", id, "err", err)
	}
	h.f.Close()
}

// dropMarkers lets every marker go (Close).
func (w *Service) dropMarkers() {
	w.markers.mu.Lock()
	ids := make([]int64, 0, len(w.markers.held))
	for id := range w.markers.held {
		ids = append(ids, id)
	}
	w.markers.mu.Unlock()
	for _, id := range ids {
		w.markDone(id)
	}
}

// subscribeMarkers keeps this process's markers: taken at a turn's first
// state, updated at each and at each approval asked or decided, let go
// when it ends.
func (w *Service) subscribeMarkers() {
	subscribe(&w.subs, wire.AgentState, func(p wire.StatePayload) {
		if p.State == wire.StateIdle || p.State == wire.StateError {
			w.markDone(p.SessionID)
			return
		}
		w.markRunning(p.SessionID, p.State)
	})
	subscribe(&w.subs, wire.AgentApproval, func(p wire.ApprovalPayload) { w.markWaiting(p.SessionID, p.Approval, "") })
	subscribe(&w.subs, wire.AgentApprovalDone, func(p wire.ApprovalDonePayload) {
		w.markWaiting(p.SessionID, wire.Approval{}, p.ApprovalID)
	})
	subscribe(&w.subs, wire.AgentTurnDone, func(p wire.TurnDonePayload) { w.markDone(p.SessionID) })
}

// elsewhere reads the markers other processes hold: the runs of sessions
// this process does not run. A marker nobody holds (its process ended) is
// not a run.
func (w *Service) elsewhere() map[int64]wire.ElsewhereRun {
	ents, err := os.ReadDir(filepath.Join(w.home, runningDir))
	if err != nil {
		return nil
	}
	w.markers.mu.Lock()
	own := make(map[int64]bool, len(w.markers.held))
	for id := range w.markers.held {
		own[id] = true
	}
	w.markers.mu.Unlock()
	out := map[int64]wire.ElsewhereRun{}
	for _, e := range ents {
		id, err := strconv.ParseInt(strings.TrimSuffix(e.Name(), ".lock"), 10, 64)
		if err != nil || own[id] || !strings.HasSuffix(e.Name(), ".lock") {
			continue
		}
		if run, ok := readMarker(filepath.Join(w.home, runningDir, e.Name())); ok {
			out[id] = run
		}
	}
	return out
}

// ErrRunsElsewhere: another Pilot process runs a turn of the session.
var ErrRunsElsewhere = errors.New("the session runs in another Pilot process")

// refuseElsewhere refuses to start a turn of a session another process
// runs (two turns of one session would write one transcript at once).
func (w *Service) refuseElsewhere(id int64) error {
	if w.agent.Running(id) {
		return nil
	}
	run, ok := readMarker(w.markerPath(id))
	if !ok {
		return nil
	}
	return fmt.Errorf("%w (pid %d): wait for its turn to end, or stop it there, then send again", ErrRunsElsewhere, run.Pid)
}

// readMarker says whether another process holds the marker at path, with
// what it wrote in it.
func readMarker(path string) (wire.ElsewhereRun, bool) {
	f, err := os.Open(path)
	if err != nil {
		return wire.ElsewhereRun{}, false
	}
	defer f.Close()
	if !markerHeld(f) {
		return wire.ElsewhereRun{}, false
	}
	var m marker
	if data, err := os.ReadFile(path); err == nil {
		_ = json.Unmarshal(data, &m) // a marker being rewritten: a run in an unknown state
	}
	return wire.ElsewhereRun{Pid: m.Pid, State: m.State, Waiting: m.Waiting}, true
}

// presentSessions presents stored sessions for a list: with the runs other
// processes hold, and a session the store says is running that no process
// runs (its process was killed before it could say) as interrupted.
func (w *Service) presentSessions(ss []store.Session) []wire.SessionSummary {
	runs := w.elsewhere()
	out := make([]wire.SessionSummary, len(ss))
	for i, s := range ss {
		out[i] = w.presentWith(s, runs)
	}
	return out
}

func (w *Service) presentWith(s store.Session, runs map[int64]wire.ElsewhereRun) wire.SessionSummary {
	v := present.Session(s)
	if run, ok := runs[s.ID]; ok {
		v.Elsewhere = &run
	} else if v.State == wire.SessionRunning && !w.agent.Running(s.ID) {
		v.State = wire.SessionInterrupted
	}
	return v
}

// sessionSummary is one session presented as presentSessions does.
func (w *Service) sessionSummary(ctx context.Context, id int64) (wire.SessionSummary, error) {
	s, err := w.store.Sessions.Get(ctx, id)
	if err != nil {
		return wire.SessionSummary{}, err
	}
	return w.presentWith(s, w.elsewhere()), nil
}
