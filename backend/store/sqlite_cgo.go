//go:build cgo

package store

import (
	"errors"
	"fmt"

	"github.com/mattn/go-sqlite3"
)

// errNoSQLite is nil: this build has SQLite (go-sqlite3, compiled with cgo).
var errNoSQLite error

// constraint maps SQLite constraint failures (a CHECK list, a missing
// parent row) to ErrInvalid, keeping SQLite's message.
func constraint(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && se.Code == sqlite3.ErrConstraint {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	return err
}
