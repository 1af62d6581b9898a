package service

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// startUp does the start-up work the first paint does not need, in order,
// then closes w.started: sessions a crash left running are repaired (the
// store's RepairAll, once), then the checkpoints it left pending are
// settled (the ledger's Repair, which needs the sessions repaired), then
// empty sessions left over are deleted. Nothing reads a session's state or
// runs a turn before (waitStarted). All of it is skipped while another
// Pilot process uses the same data folder (claimInstance).
func (c *core) startUp(ctx context.Context) {
	defer close(c.started)
	t := time.Now()
	if !c.claimInstance() {
		c.log.Info("another Pilot process uses this data folder: its sessions marked running may be its turns under way, so the start-up repair is left to a start with no other Pilot running")
		return
	}
	defer c.shareInstance()
	if err := c.store.Sessions.RepairAll(ctx); err != nil {
		c.log.Error("repairing the sessions a crash left unfinished", "err", err)
		c.repairErr = fmt.Errorf("the sessions a crash left unfinished could not be repaired (%w): check the log, and that the disk holding the data folder is writable", err)
	}
	t = logStep(c.log, "repair interrupted sessions", t)
	if err := c.ledger.Repair(ctx); err != nil {
		c.log.Error("settling checkpoints left pending by a crash", "err", err)
	}
	t = logStep(c.log, "settle pending checkpoints", t)
	c.svc.Sessions.dropLeftovers(ctx)
	logStep(c.log, "delete empty sessions left over", t)
}

// waitStarted waits for startUp (or for ctx to end); a failed repair is
// its error, as it was Open's before the repair left the start-up path.
func (c *core) waitStarted(ctx context.Context) error {
	select {
	case <-c.started:
		return c.repairErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

// background runs f off the caller's path; Close waits for it.
func (c *core) background(f func()) {
	c.bg.Add(1)
	go func() {
		defer c.bg.Done()
		f()
	}()
}

// logStep logs one start-up step with how long it took since t, and
// returns the time it ended.
func logStep(log *slog.Logger, step string, t time.Time) time.Time {
	now := time.Now()
	log.Info("start-up step", "step", step, "ms", float64(now.Sub(t).Microseconds())/1000)
	return now
}
