package service

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"pilot/backend/wire"
)

// elsewhere marks the sessions whose turn this process runs, for the
// other processes, and reads theirs.
type elsewhere struct{ *core }

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

func (el *elsewhere) markerPath(id int64) string {
	return filepath.Join(el.home, runningDir, strconv.FormatInt(id, 10)+".lock")
}

// markRunning takes (or updates) the marker of a session whose turn this
// process runs. A marker another live process holds (the same session run
// twice at once) is left to it and logged.
func (el *elsewhere) markRunning(id int64, state wire.AgentStatus) {
	el.markers.mu.Lock()
	defer el.markers.mu.Unlock()
	h := el.markers.held[id]
	if h == nil {
		f, err := el.takeMarker(id)
		if err != nil {
			el.log.Warn("marking the session running for other Pilot processes; they show it as the store saved it", "session", id, "err", err)
			return
		}
		if el.markers.held == nil {
			el.markers.held = map[int64]*heldMarker{}
		}
		h = &heldMarker{f: f, m: marker{Pid: os.Getpid()}}
		el.markers.held[id] = h
	}
	h.m.State = state
	el.writeMarker(id, h)
}

// markWaiting adds the approval a (when it has an id) to those waiting in
// a session this process runs, or takes out the one approvalID names.
func (el *elsewhere) markWaiting(id int64, a wire.Approval, approvalID string) {
	el.markers.mu.Lock()
	defer el.markers.mu.Unlock()
	h := el.markers.held[id]
	if h == nil {
		return
	}
	h.m.Waiting = slices.DeleteFunc(h.m.Waiting, func(x wire.Approval) bool { return x.ID == approvalID || x.ID == a.ID })
	if a.ID != "" {
		h.m.Waiting = append(h.m.Waiting, a)
	}
	el.writeMarker(id, h)
}

// writeMarker rewrites a held marker (a reader meanwhile reads a run in an
// unknown state).
func (el *elsewhere) writeMarker(id int64, h *heldMarker) {
	data, _ := json.Marshal(h.m)
	err := h.f.Truncate(0)
	if err == nil {
		_, err = h.f.WriteAt(data, 0)
	}
	if err != nil {
		el.log.Warn("writing the session's marker", "session", id, "err", err)
	}
}

// takeMarker opens and locks a session's marker, retrying once when the
// file it locked was removed meanwhile (its previous holder let it go).
func (el *elsewhere) takeMarker(id int64) (*os.File, error) {
	path := el.markerPath(id)
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
func (el *elsewhere) markDone(id int64) {
	el.markers.mu.Lock()
	defer el.markers.mu.Unlock()
	h := el.markers.held[id]
	if h == nil {
		return
	}
	delete(el.markers.held, id)
	if err := os.Remove(el.markerPath(id)); err != nil && !os.IsNotExist(err) {
		el.log.Warn("removing the session's marker", "session", id, "err", err)
	}
	h.f.Close()
}

// dropMarkers lets every marker go (Close).
func (el *elsewhere) dropMarkers() {
	el.markers.mu.Lock()
	ids := make([]int64, 0, len(el.markers.held))
	for id := range el.markers.held {
		ids = append(ids, id)
	}
	el.markers.mu.Unlock()
	for _, id := range ids {
		el.markDone(id)
	}
}

// subscribe keeps this process's markers: taken at a turn's first
// state, updated at each and at each approval asked or decided, let go
// when it ends.
func (el *elsewhere) subscribe() {
	subscribe(&el.subs, wire.AgentState, func(p wire.StatePayload) {
		if p.State == wire.StateIdle || p.State == wire.StateError {
			el.markDone(p.SessionID)
			return
		}
		el.markRunning(p.SessionID, p.State)
	})
	subscribe(&el.subs, wire.AgentApproval, func(p wire.ApprovalPayload) { el.markWaiting(p.SessionID, p.Approval, "") })
	subscribe(&el.subs, wire.AgentApprovalDone, func(p wire.ApprovalDonePayload) {
		el.markWaiting(p.SessionID, wire.Approval{}, p.ApprovalID)
	})
	subscribe(&el.subs, wire.AgentTurnDone, func(p wire.TurnDonePayload) { el.markDone(p.SessionID) })
}

// runs reads the markers other processes hold: the runs of sessions
// this process does not run. A marker nobody holds (its process ended) is
// not a run.
func (el *elsewhere) runs() map[int64]wire.ElsewhereRun {
	ents, err := os.ReadDir(filepath.Join(el.home, runningDir))
	if err != nil {
		return nil
	}
	el.markers.mu.Lock()
	own := make(map[int64]bool, len(el.markers.held))
	for id := range el.markers.held {
		own[id] = true
	}
	el.markers.mu.Unlock()
	out := map[int64]wire.ElsewhereRun{}
	for _, e := range ents {
		id, err := strconv.ParseInt(strings.TrimSuffix(e.Name(), ".lock"), 10, 64)
		if err != nil || own[id] || !strings.HasSuffix(e.Name(), ".lock") {
			continue
		}
		if run, ok := readMarker(filepath.Join(el.home, runningDir, e.Name())); ok {
			out[id] = run
		}
	}
	return out
}

// ErrRunsElsewhere: another Pilot process runs a turn of the session.
var ErrRunsElsewhere = errors.New("the session runs in another Pilot process")

// refuse refuses to start a turn of a session another process
// runs (two turns of one session would write one transcript at once).
func (el *elsewhere) refuse(id int64) error {
	if el.agent.Running(id) {
		return nil
	}
	run, ok := readMarker(el.markerPath(id))
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
