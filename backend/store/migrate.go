package store

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migration is one file migrations/NNNN_name.sql; Version is NNNN.
type migration struct {
	Version int
	Name    string
	SQL     string
}

// migrations returns the embedded migrations in version order, checking
// that versions run 1, 2, 3... without gaps.
func migrations() ([]migration, error) {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, n := range names {
		base := path.Base(n)
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must be NNNN_name.sql", base)
		}
		body, err := migrationFS.ReadFile(n)
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{Version: v, Name: base, SQL: string(body)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Version < ms[j].Version })
	for i, m := range ms {
		if m.Version != i+1 {
			return nil, fmt.Errorf("migration %s: expected version %d", m.Name, i+1)
		}
	}
	return ms, nil
}

// vacuumFree is the share of free pages above which a migration is
// followed by VACUUM.
const vacuumFree = 0.10

// migrate brings db to version target (0: the latest). Each migration runs
// in its own transaction together with the PRAGMA user_version that records
// it, so a crash leaves the database at a whole version. When migrations
// ran and left many pages free (0002 empties the tool outputs version 1
// stored twice), the file is rewritten without them.
func migrate(ctx context.Context, db *sql.DB, target int) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	if target == 0 {
		target = len(ms)
	}
	var current int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return err
	}
	if current > len(ms) {
		return fmt.Errorf("database schema version %d is newer than this Pilot (%d)", current, len(ms))
	}
	for _, m := range ms[current:target] {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			_ = tx.Rollback()
			return fmt.Errorf("%s: %w", m.Name, err)
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", m.Version)); err != nil {
			_ = tx.Rollback()
			return fmt.Errorf("%s: %w", m.Name, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("%s: %w", m.Name, err)
		}
	}
	if current >= target {
		return nil
	}
	return vacuumIfFree(ctx, db)
}

// vacuumIfFree runs VACUUM when more than vacuumFree of the pages are
// free. It runs outside any transaction and takes about as long as
// writing the whole database once. A VACUUM that fails (no room for its
// temporary copy) leaves the database as it was, only bigger than it
// needs to be, so its error does not stop Pilot from opening it.
func vacuumIfFree(ctx context.Context, db *sql.DB) error {
	var free, pages int
	if err := db.QueryRowContext(ctx, `SELECT f.freelist_count, p.page_count
		FROM pragma_freelist_count AS f, pragma_page_count AS p`).Scan(&free, &pages); err != nil {
		return err
	}
	if float64(free) > vacuumFree*float64(pages) {
		_, _ = db.ExecContext(ctx, "VACUUM")
	}
	return nil
}
