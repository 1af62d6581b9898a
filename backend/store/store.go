// Package store keeps Pilot's projects, sessions, messages, tool calls,
// proposed changes and permission rules in one SQLite database, with
// full-text search over them.
//
// All writes go through a single connection, one transaction at a time, so
// concurrent callers queue in Go instead of meeting "database is locked";
// reads use a separate pool and see every committed write (WAL mode).
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"
)

var (
	// ErrNotFound: no row with that id (or path).
	ErrNotFound = errors.New("not found")
	// ErrInvalid: an argument the store refuses (empty, out of range, a
	// value outside a CHECK list).
	ErrInvalid = errors.New("invalid argument")
	// ErrStreamClosed: Update, Finish or Interrupt after Finish or Interrupt.
	ErrStreamClosed = errors.New("stream already finished")
)

// busyTimeout is how long a write waits for another process holding the
// database (a second Pilot, the headless CLI) before it fails.
const busyTimeout = 10 * time.Second

// Store is the database. It is safe for concurrent use. Its parts, one
// per table or group of tables, are its fields (st.Sessions.Create,
// st.ToolCalls.Finish, ...); what reads across all of them (search,
// export, import) is Store's own.
type Store struct {
	*database
	Sessions    *Sessions    // sessions, their forks, repair and transcripts
	Messages    *Messages    // messages, streams and summaries
	ToolCalls   *ToolCalls   // tool calls and what became of them
	Changes     *Changes     // proposed changes
	Checkpoints *Checkpoints // checkpoints and their file events
	Projects    *Projects    // projects
	Rules       *Rules       // permission rules
	WebPages    *WebPages    // fetched web pages
	Comments    *Comments    // line comments
	Findings    *Findings    // findings of /review
}

// database is what every part of the store shares.
type database struct {
	w   *sql.DB // one connection: the only writer
	r   *sql.DB // readers
	now func() time.Time
	img ImageStore // where messages' images live (SetImages); nil: exports note them

	durable sync.Mutex // writeDurable: one synchronous FULL transaction at a time
}

// Sessions is the store's sessions.
type Sessions struct{ *database }

// Messages is the store's messages, streams and summaries.
type Messages struct{ *database }

// ToolCalls is the store's tool calls.
type ToolCalls struct{ *database }

// Changes is the store's proposed changes.
type Changes struct{ *database }

// Checkpoints is the store's checkpoints and file events.
type Checkpoints struct{ *database }

// Projects is the store's projects.
type Projects struct{ *database }

// Rules is the store's permission rules.
type Rules struct{ *database }

// WebPages is the store's fetched web pages.
type WebPages struct{ *database }

func assemble(d *database) *Store {
	return &Store{database: d,
		Sessions: &Sessions{d}, Messages: &Messages{d}, ToolCalls: &ToolCalls{d}, Changes: &Changes{d},
		Checkpoints: &Checkpoints{d}, Projects: &Projects{d}, Rules: &Rules{d}, WebPages: &WebPages{d},
		Comments: &Comments{d}, Findings: &Findings{d}}
}

// Open opens (creating if needed) the database at path and applies pending
// migrations. It does not repair what a crash left behind: the caller runs
// RepairAll before any turn runs and before it shows a session's state (the
// service does it off the window's first paint).
func Open(ctx context.Context, path string) (*Store, error) {
	if errNoSQLite != nil {
		return nil, errNoSQLite
	}
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_foreign_keys", "on")
	q.Set("_busy_timeout", fmt.Sprint(busyTimeout.Milliseconds()))
	q.Set("_synchronous", "NORMAL")
	q.Set("_txlock", "immediate")
	q.Set("_cache_size", "-32000") // KiB: big transactions (import, fork) stay in memory
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?"
	if err := create(dsn + "_busy_timeout=" + fmt.Sprint(busyTimeout.Milliseconds())); err != nil {
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	w, err := sql.Open("sqlite3", dsn+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	q.Set("_txlock", "deferred")
	q.Set("_query_only", "on")
	q.Set("_cache_size", "-8000")
	r, err := sql.Open("sqlite3", dsn+q.Encode())
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	r.SetMaxIdleConns(4)
	s := assemble(&database{w: w, r: r, now: time.Now})
	if err := migrate(ctx, w, 0); err != nil {
		s.Close()
		return nil, fmt.Errorf("migrate %s: %w", path, err)
	}
	return s, nil
}

// pageSize is the page size of a new database. Rows of long messages fill
// 16 KiB pages far better than the default 4 KiB (about 12% of the file).
// It is fixed when the file is created: WAL mode cannot change it.
const pageSize = 16384

// create sets the page size of a database that has no tables yet, before
// WAL mode is set, which would fix the default. An existing database is
// left alone.
func create(dsn string) error {
	db, err := sql.Open("sqlite3", dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_schema`).Scan(&n); err != nil || n > 0 {
		return err
	}
	_, err = db.Exec(fmt.Sprintf(`PRAGMA page_size = %d; PRAGMA journal_mode = WAL`, pageSize))
	return err
}

// Close optimises the query planner statistics and closes the database.
func (s *Store) Close() error {
	_, _ = s.w.Exec("PRAGMA optimize")
	return errors.Join(s.r.Close(), s.w.Close())
}

// write runs fn in one immediate transaction on the writer connection.
func (s *database) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// writeOne runs fn in a write (see write) and returns what it made.
func writeOne[T any](ctx context.Context, d *database, fn func(tx *sql.Tx) (T, error)) (T, error) {
	var out T
	err := d.write(ctx, func(tx *sql.Tx) error {
		var err error
		out, err = fn(tx)
		return err
	})
	return out, err
}

// insert writes the row v with add in a write of its own and returns it
// as stored; a broken constraint is ErrInvalid (see constraint).
func insert[T any](ctx context.Context, d *database, v T, add func(context.Context, *sql.Tx, T) (T, error)) (T, error) {
	out, err := writeOne(ctx, d, func(tx *sql.Tx) (T, error) { return add(ctx, tx, v) })
	return out, constraint(err)
}

// read runs fn in one read-only transaction: what it reads is as of one
// moment, whatever writes run meanwhile.
func read[T any](ctx context.Context, d *database, fn func(tx *sql.Tx) (T, error)) (T, error) {
	tx, err := d.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		var zero T
		return zero, err
	}
	defer tx.Rollback()
	return fn(tx)
}

// readSession is read with the session id read first, in the same
// transaction, and given to fn.
func readSession[T any](ctx context.Context, d *database, id int64, fn func(tx *sql.Tx, sess Session) (T, error)) (T, error) {
	return read(ctx, d, func(tx *sql.Tx) (T, error) {
		sess, err := getSession(ctx, tx, id)
		if err != nil {
			var zero T
			return zero, err
		}
		return fn(tx, sess)
	})
}

// writeDurable is write with the commit synced to disk before it returns
// (synchronous FULL for this transaction; the store otherwise runs WAL at
// NORMAL, whose commits a power loss may take back).
func (s *database) writeDurable(ctx context.Context, fn func(tx *sql.Tx) error) error {
	s.durable.Lock()
	defer s.durable.Unlock()
	if _, err := s.w.ExecContext(ctx, "PRAGMA synchronous = FULL"); err != nil {
		return err
	}
	defer s.w.ExecContext(context.WithoutCancel(ctx), "PRAGMA synchronous = NORMAL")
	return s.write(ctx, fn)
}

// execRow runs query, which changes the one row id (it ends "WHERE id =
// ?", which id fills), in a write; what names the row in a not-found error.
func (s *database) execRow(ctx context.Context, what string, id int64, query string, args ...any) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		return affected(tx.ExecContext(ctx, query, append(args, id)...))
	})
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("%s %d: %w", what, id, ErrNotFound)
	}
	return err
}

// querier is a *sql.DB or *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// millis converts to the stored form of a time.
func millis(t time.Time) int64 { return t.UnixMilli() }

// fromMillis converts back; 0 stays the zero time.
func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// nullMillis reads a nullable time column.
func nullMillis(ms sql.NullInt64) time.Time {
	if !ms.Valid {
		return time.Time{}
	}
	return fromMillis(ms.Int64)
}

// nullIfZero stores 0 as NULL for optional references.
func nullIfZero(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// affected returns ErrNotFound when an UPDATE or DELETE touched no row.
func affected(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrNotFound
	}
	return nil
}

// prefixCols qualifies a column list with a table alias: "a, b" -> "c.a, c.b".
func prefixCols(alias, cols string) string {
	parts := strings.Split(cols, ",")
	for i, p := range parts {
		parts[i] = alias + "." + strings.TrimSpace(p)
	}
	return strings.Join(parts, ", ")
}
