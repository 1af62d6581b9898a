package service

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"

	"pilot/backend/paths"
	"pilot/backend/wire"
)

// elsewhereSettle is how long the window lets a burst of file events elsewhereSettle before
// it reads the markers and tells the face: one refresh per burst.
const elsewhereSettle = 150 * time.Millisecond

// watchElsewhere is the window's view of the sessions other Pilot
// processes run, with no polling: the kernel tells (inotify through
// fsnotify) when a marker under running/ is created, written, closed
// (its process ended, however: the kernel closes its files) or removed,
// and, only while another process runs a session, when the database's
// write-ahead log is written (that process committed a message). Each
// burst ends in a session:updated of every session whose run appeared,
// changed, ended or wrote, so the list and the open transcript follow.
func (w *Service) watchElsewhere(stop <-chan struct{}) {
	dir := filepath.Join(w.home, runningDir)
	fw, err := fsnotify.NewWatcher()
	if err == nil {
		if err = os.MkdirAll(dir, 0o700); err == nil {
			err = fw.Add(dir)
		}
	}
	if err != nil {
		w.log.Warn("watching the sessions other Pilot processes run; the list shows them as the store saved them", "err", err)
		if fw != nil {
			fw.Close()
		}
		return
	}
	defer fw.Close()
	wal := paths.DB(w.home) + "-wal"
	var (
		shown    = w.elsewhere()
		walOn    bool
		wrote    bool
		settled  <-chan time.Time
		ctx      = context.Background()
		watchWAL = func(on bool) {
			if on == walOn {
				return
			}
			if on {
				if err := fw.Add(wal); err != nil {
					w.log.Warn("watching the database for another process's messages", "err", err)
					return
				}
			} else {
				_ = fw.Remove(wal)
			}
			walOn = on
		}
	)
	watchWAL(len(shown) > 0)
	for {
		select {
		case <-stop:
			return
		case err := <-fw.Errors:
			w.log.Warn("watching the sessions other Pilot processes run", "err", err)
		case ev := <-fw.Events:
			if ev.Name == wal {
				wrote = true
			}
			if settled == nil {
				settled = time.After(elsewhereSettle)
			}
		case <-settled:
			settled = nil
			now := w.elsewhere()
			for id, run := range now {
				if old, ok := shown[id]; !ok || old != run || wrote {
					w.tellSession(ctx, id)
				}
			}
			for id := range shown {
				if _, ok := now[id]; !ok {
					w.tellSession(ctx, id) // ended: done, failed or killed
				}
			}
			shown, wrote = now, false
			watchWAL(len(now) > 0)
		}
	}
}

// tellSession sends the face a session's summary as the list shows it.
func (w *Service) tellSession(ctx context.Context, id int64) {
	s, err := w.sessionSummary(ctx, id)
	if err != nil {
		return // deleted meanwhile
	}
	w.Emit(wire.SessionUpdated, wire.SessionPayload{Session: s})
}
