//go:build !unix

package service

import "os"

// lockInstance: without flock(2), every process takes itself for the only
// one and repairs at start-up.
func lockInstance(*os.File) (bool, error) { return true, nil }

func shareLock(*os.File) error { return nil }
