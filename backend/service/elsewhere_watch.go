package service

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"time"

	"github.com/fsnotify/fsnotify"

	"pilot/backend/paths"
	"pilot/backend/wire"
)

// elsewhereSettle is how long the window lets a burst of file events elsewhereSettle before
// it reads the markers and tells the face: one refresh per burst.
const elsewhereSettle = 150 * time.Millisecond

// elsewhereCheck is how often the window checks, while another process
// runs a session and only then, that its marker is still held: a process
// killed with SIGKILL removes nothing, and the kernel's release of its
// lock makes no file event (fsnotify offers no IN_CLOSE_WRITE).
const elsewhereCheck = time.Second

// watch is the window's view of the sessions other Pilot
// processes run, with no polling while it runs alone: the kernel tells (inotify through
// fsnotify) when a marker under running/ is created, written, closed
// or removed, and, only while another process runs a session, when the
// database's write-ahead log is written (that process committed a
// message); only then too, a check every elsewhereCheck finds a run whose
// process was killed (its lock gone, its marker left). Each
// burst ends in a session:updated of every session whose run appeared,
// changed, ended or wrote, so the list and the open transcript follow.
func (el *elsewhere) watch(stop <-chan struct{}) {
	dir := filepath.Join(el.home, runningDir)
	fw, err := fsnotify.NewWatcher()
	if err == nil {
		if err = os.MkdirAll(dir, 0o700); err == nil {
			err = fw.Add(dir)
		}
	}
	if err != nil {
		el.log.Warn("watching the sessions other Pilot processes run; the list shows them as the store saved them", "err", err)
		if fw != nil {
			fw.Close()
		}
		return
	}
	defer fw.Close()
	wal := paths.DB(el.home) + "-wal"
	var (
		shown   = el.runs()
		walOn   bool
		walErr  error // logged once
		wrote   bool
		settled <-chan time.Time
		check   *time.Ticker
		checks  <-chan time.Time
		ctx     = context.Background()
	)
	// follow watches the log and checks the markers while others run.
	follow := func(on bool) {
		if on && !walOn {
			if err := fw.Add(wal); err != nil {
				if walErr == nil {
					el.log.Warn("watching the database for another process's messages; they show when its run ends", "err", err)
				}
				walErr = err
			} else {
				walOn = true
			}
		} else if !on && walOn {
			_ = fw.Remove(wal)
			walOn = false
		}
		if on && check == nil {
			check = time.NewTicker(elsewhereCheck)
			checks = check.C
		} else if !on && check != nil {
			check.Stop()
			check, checks = nil, nil
		}
	}
	defer follow(false)
	follow(len(shown) > 0)
	for {
		select {
		case <-stop:
			return
		case err := <-fw.Errors:
			el.log.Warn("watching the sessions other Pilot processes run", "err", err)
		case <-checks:
			if settled == nil {
				settled = time.After(0)
			}
		case ev := <-fw.Events:
			if ev.Name == wal {
				wrote = true
			}
			if settled == nil {
				settled = time.After(elsewhereSettle)
			}
		case <-settled:
			settled = nil
			now := el.runs()
			for id, run := range now {
				if old, ok := shown[id]; !ok || !reflect.DeepEqual(old, run) || wrote {
					el.tell(ctx, id)
				}
			}
			for id := range shown {
				if _, ok := now[id]; !ok {
					el.tell(ctx, id) // ended: done, failed or killed
				}
			}
			shown, wrote = now, false
			follow(len(now) > 0)
		}
	}
}

// tell sends the face a session's summary as the list shows it.
func (el *elsewhere) tell(ctx context.Context, id int64) {
	s, err := el.svc.Sessions.summary(ctx, id)
	if err != nil {
		return // deleted meanwhile
	}
	el.publish(wire.SessionUpdated, wire.SessionPayload{Session: s})
}
