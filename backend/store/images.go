package store

import "context"

// ImageHashes returns the hashes of every image a message refers to (a
// user's image, or one a tool returned), so that the blob store's sweep
// keeps them.
func (s *Store) ImageHashes(ctx context.Context) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `
		SELECT DISTINCT json_extract(t.value, '$.hash') FROM messages m, json_tree(m.content) t
		 WHERE m.content LIKE '%"type":"image"%' AND t.type = 'object'
		   AND json_extract(t.value, '$.type') = 'image' AND json_extract(t.value, '$.hash') IS NOT NULL`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}
