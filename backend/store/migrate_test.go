package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestMigrationsKeepData builds a database at every schema version, fills
// it from testdata/seed_vN.sql, migrates it to the newest version and
// checks that every row of every table that existed is still there with
// the same values, that Open accepts it, and that its text is searchable.
//
// When a migration is added, add testdata/seed_vN.sql for the version
// before it. A migration that rewrites data on purpose adjusts this test:
// a table whose stored form changes is compared through the view that
// reads it (logicalViews).
func TestMigrationsKeepData(t *testing.T) {
	t.Parallel()
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	for v := 1; v <= len(ms); v++ {
		t.Run(fmt.Sprintf("from v%d", v), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			seed, err := os.ReadFile(filepath.Join("testdata", fmt.Sprintf("seed_v%d.sql", v)))
			if err != nil {
				t.Fatalf("every schema version needs seed data: %v", err)
			}
			path := filepath.Join(t.TempDir(), "pilot.db")
			db, err := sql.Open("sqlite3", "file:"+path+"?_foreign_keys=on&_journal_mode=WAL")
			if err != nil {
				t.Fatal(err)
			}
			db.SetMaxOpenConns(1)
			defer db.Close()
			if err := migrate(ctx, db, v); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(string(seed)); err != nil {
				t.Fatalf("seed_v%d.sql: %v", v, err)
			}
			before := snapshot(t, db, nil)
			if err := migrate(ctx, db, 0); err != nil {
				t.Fatal(err)
			}
			after := snapshot(t, db, before)
			for table, rows := range before {
				if len(rows.rows) == 0 {
					t.Errorf("seed_v%d.sql leaves table %s empty", v, table)
				}
				if !reflect.DeepEqual(rows.rows, after[table].rows) {
					t.Errorf("table %s changed by migration:\nbefore %v\nafter  %v", table, rows.rows, after[table].rows)
				}
			}
			var version int
			if err := db.QueryRow("PRAGMA user_version").Scan(&version); err != nil || version != len(ms) {
				t.Errorf("user_version = %d (%v), want %d", version, err, len(ms))
			}
			db.Close()

			s, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			checkIntegrity(t, s)
			ps := must[[]Project](t)(s.Projects(ctx))
			hits := must[[]SearchHit](t)(s.Search(ctx, ps[0].ID, "squares", 10))
			if len(hits) == 0 {
				t.Error("seeded text not searchable after migration")
			}
		})
	}
}

// logicalViews: tables read through a view once it exists. Since 0002 a
// tool call's output may be held by its result message.
var logicalViews = map[string]string{"tool_calls": "tool_call_rows"}

type tableRows struct {
	cols []string
	rows [][]any
}

// snapshot reads every ordinary table (not SQLite's, not the FTS index's)
// with all its columns, or with the columns listed in like when given.
func snapshot(t *testing.T, db *sql.DB, like map[string]tableRows) map[string]tableRows {
	t.Helper()
	rows, err := db.Query(`SELECT name FROM sqlite_schema WHERE type = 'table'
		AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts%'`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	rows.Close()
	out := map[string]tableRows{}
	for _, table := range tables {
		var cols []string
		if prev, ok := like[table]; ok {
			cols = prev.cols
		} else {
			cs, err := db.Query(`SELECT name FROM pragma_table_info(?) ORDER BY cid`, table)
			if err != nil {
				t.Fatal(err)
			}
			for cs.Next() {
				var c string
				if err := cs.Scan(&c); err != nil {
					t.Fatal(err)
				}
				cols = append(cols, c)
			}
			cs.Close()
		}
		src, order := table, "rowid"
		if v, ok := logicalViews[table]; ok {
			var n int
			if err := db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE type = 'view' AND name = ?`, v).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n > 0 {
				src, order = v, "id"
			}
		}
		r, err := db.Query(`SELECT ` + strings.Join(cols, ", ") + ` FROM ` + src + ` ORDER BY ` + order)
		if err != nil {
			t.Fatalf("%s: %v", table, err)
		}
		tr := tableRows{cols: cols}
		for r.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := r.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			tr.rows = append(tr.rows, vals)
		}
		r.Close()
		out[table] = tr
	}
	return out
}
