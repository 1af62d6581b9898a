//go:build !cgo

package store

import (
	"errors"

	_ "github.com/mattn/go-sqlite3" // registers its stub driver, which only fails
)

// errNoSQLite: go-sqlite3 is C, so a build without cgo has no SQLite at
// all. Such a build exists only to type-check the other platforms (make
// vet-platforms); Open refuses at once, saying what to build instead,
// rather than letting the driver's stub fail on the first query.
var errNoSQLite = errors.New("this build of Pilot has no SQLite: it was compiled without cgo (CGO_ENABLED=0); build it with CGO_ENABLED=1 and a C compiler (make build, or make mac on a Mac)")

// constraint is err: without SQLite no statement ever ran.
func constraint(err error) error { return err }
