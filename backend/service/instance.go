package service

import (
	"os"
	"path/filepath"
)

// instanceLock is the file every Pilot process using a PILOT_HOME holds
// locked, shared, for its life. The start-up repair (sessions a crash left
// running, checkpoints it left pending, empty sessions left over) runs
// only in a process that finds no other one holding it: with another
// Pilot alive on the same data (the window and a `pilot -p`, or two `pilot
// -p`), a session marked running may be its turn under way, not a crash's
// leftover. The kernel releases the lock of a process however it ends, so
// a crash never makes the next start skip the repair.
const instanceLock = "instances.lock"

// claimInstance takes this process's lock on home: exclusive when no
// other process holds it (alone: the caller repairs, then calls share),
// else shared. A lock that cannot be taken at all is treated as not alone
// (nothing is repaired) and logged.
func (c *core) claimInstance() (alone bool) {
	f, err := os.OpenFile(filepath.Join(c.home, instanceLock), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		c.log.Warn("opening the lock of the data folder; the start-up repair is skipped", "err", err)
		return false
	}
	alone, err = lockInstance(f)
	if err != nil {
		f.Close()
		c.log.Warn("locking the data folder; the start-up repair is skipped", "err", err)
		return false
	}
	c.instance = f
	return alone
}

// shareInstance lets other processes start once the repair is done.
func (c *core) shareInstance() {
	if c.instance != nil {
		if err := shareLock(c.instance); err != nil {
			c.log.Warn("sharing the lock of the data folder", "err", err)
		}
	}
}
