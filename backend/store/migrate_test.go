package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"pilot/backend/llm"
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
			ps := must[[]Project](t)(s.Projects.List(ctx))
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

// TestMigrationVacuums: a database whose migration leaves many pages free
// is rewritten without them; one that needs no migration is left alone,
// however many pages it has free.
func TestMigrationVacuums(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		version int  // schema version the database is made at (0: the latest)
		drop    bool // delete the first session, freeing its pages
		shrinks bool
	}{
		// Version 1 stored every tool output twice; 0002 empties one copy.
		{"v1 with tool outputs stored twice", 1, false, true},
		{"v2 with a deleted session", 2, true, true},
		{"latest with a deleted session", 0, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "pilot.db")
			db, err := sql.Open("sqlite3", "file:"+path+"?_foreign_keys=on&_journal_mode=WAL")
			if err != nil {
				t.Fatal(err)
			}
			db.SetMaxOpenConns(1)
			defer db.Close()
			if err := migrate(ctx, db, tc.version); err != nil {
				t.Fatal(err)
			}
			fillToolOutputs(t, db)
			if tc.drop {
				if _, err := db.Exec(`DELETE FROM sessions WHERE id = 1`); err != nil {
					t.Fatal(err)
				}
			}
			free := func(db *sql.DB) (free, pages int) {
				t.Helper()
				if err := db.QueryRow(`SELECT f.freelist_count, p.page_count FROM pragma_freelist_count AS f,
					pragma_page_count AS p`).Scan(&free, &pages); err != nil {
					t.Fatal(err)
				}
				return free, pages
			}
			before, pages := free(db)
			db.Close()
			size := fileSize(t, path)

			s, err := Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			checkIntegrity(t, s)
			after, _ := free(s.r)
			s.Close()
			shrunk := fileSize(t, path) < size
			if shrunk != tc.shrinks {
				t.Errorf("file %d -> %d bytes (free pages %d of %d -> %d), want shrinking %v",
					size, fileSize(t, path), before, pages, after, tc.shrinks)
			}
			if tc.shrinks && after != 0 {
				t.Errorf("%d pages still free after VACUUM", after)
			}
			if !tc.shrinks && after < pages/10 {
				t.Errorf("free pages %d -> %d: vacuumed without a migration", before, after)
			}
		})
	}
}

// fillToolOutputs writes two sessions of tool calls with long outputs, each
// output in its tool call and in the tool_result block of the next message,
// through SQL that every schema version takes.
func fillToolOutputs(t *testing.T, db *sql.DB) {
	t.Helper()
	if _, err := db.Exec(`INSERT INTO projects (id, path, name, created_at, last_opened) VALUES (1, '/p', 'p', 1, 1);
		INSERT INTO sessions (id, project_id, created_at, updated_at) VALUES (1, 1, 1, 1), (2, 1, 1, 1)`); err != nil {
		t.Fatal(err)
	}
	for sid := 1; sid <= 2; sid++ {
		for i := range 60 {
			id := fmt.Sprintf("toolu_%d", i)
			out := strings.Repeat(fmt.Sprintf("line %d of output %d of session %d\n", i, i, sid), 200)
			use, _ := json.Marshal([]llm.ContentBlock{toolUse(id, "read_file", `{"path":"a.go"}`)})
			res, _ := json.Marshal([]llm.ContentBlock{toolResult(id, out)})
			var mid int64
			if err := db.QueryRow(`INSERT INTO messages (session_id, seq, role, content, created_at)
				VALUES (?, ?, 'assistant', ?, 1) RETURNING id`, sid, 2*i, string(use)).Scan(&mid); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`INSERT INTO tool_calls (session_id, message_id, tool_use_id, name, output, status, started_at)
				VALUES (?, ?, ?, 'read_file', ?, 'done', 1)`, sid, mid, id, out); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`INSERT INTO messages (session_id, seq, role, content, created_at)
				VALUES (?, ?, 'user', ?, 1)`, sid, 2*i+1, string(res)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}
