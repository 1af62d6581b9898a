//go:build !unix

package ledger

import (
	"context"
	"os"
)

// lockFile: without flock(2), folders are locked within one process
// only (Hold's channel); two Pilot processes on one folder are not kept
// apart on this system.
func lockFile(context.Context, string, func()) (*os.File, error) { return nil, nil }

func unlockFile(*os.File) {}
