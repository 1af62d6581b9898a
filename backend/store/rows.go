package store

import "context"

// rowScanner is a *sql.Row or *sql.Rows: what a row's scanner reads.
type rowScanner interface{ Scan(...any) error }

// queryAll runs query on q and returns what scan makes of each row, in
// order (nil when there is none).
func queryAll[T any](ctx context.Context, q querier, scan func(rowScanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		x, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, rows.Err()
}

// scanValue scans a row of one column (an id, a hash).
func scanValue[T any](row rowScanner) (T, error) {
	var v T
	err := row.Scan(&v)
	return v, err
}
