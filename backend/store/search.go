package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Snippet markers: a match in SearchHit.Snippet is wrapped in « and », and
// text cut off at either end is shown as …. The markers are plain text, so
// the UI escapes the snippet as usual and then styles what is between them.
const (
	MarkOpen  = "«"
	MarkClose = "»"
	Ellipsis  = "…"
)

// HitKind says where a search matched.
type HitKind string

const (
	HitMessage    HitKind = "message"     // a text block of a message
	HitToolInput  HitKind = "tool_input"  // the input of a tool_use block
	HitToolOutput HitKind = "tool_output" // the content of a tool_result block
	HitPath       HitKind = "path"        // the path of a proposed change
	HitWebPage    HitKind = "web_page"    // a page web_fetch read
)

// SearchHit is one search result. MessageID is the message that matched or,
// for a path, the assistant message whose tool call proposed the change.
type SearchHit struct {
	SessionID    int64   `json:"sessionId"`
	SessionTitle string  `json:"sessionTitle"`
	MessageID    int64   `json:"messageId"`
	Kind         HitKind `json:"kind"`
	Snippet      string  `json:"snippet"`
	Score        float64 `json:"score"` // bm25: lower is better
}

// snippetTokens is the snippet length in tokens.
const snippetTokens = 16

// Search finds messages, tool inputs and outputs, and changed paths of a
// project's sessions that hold every word of query (the last word may be
// the start of a word), best first. Any text is a valid query: quotes,
// operators and punctuation are not syntax, they separate words.
func (s *Store) Search(ctx context.Context, projectID int64, query string, limit int) ([]SearchHit, error) {
	words := searchWords(query)
	if len(words) == 0 {
		return nil, nil
	}
	if limit <= 0 {
		limit = 20
	}
	hits, err := s.searchMessages(ctx, projectID, words, limit)
	if err != nil {
		return nil, err
	}
	paths, err := s.searchPaths(ctx, projectID, ftsMatch(words, true, false), limit)
	if err != nil {
		return nil, err
	}
	pages, err := s.searchPages(ctx, projectID, ftsMatch(words, true, false), limit)
	if err != nil {
		return nil, err
	}
	hits = append(append(hits, paths...), dedupePages(hits, pages)...)
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].Score < hits[j].Score })
	return hits[:min(len(hits), limit)], nil
}

// dedupePages drops a page hit when a message hit already points at the
// same message: a page sent whole is also in its tool result.
func dedupePages(hits, pages []SearchHit) []SearchHit {
	seen := map[int64]bool{}
	for _, h := range hits {
		seen[h.MessageID] = true
	}
	out := pages[:0]
	for _, p := range pages {
		if !seen[p.MessageID] {
			out = append(out, p)
		}
	}
	return out
}

// rankCandidates bounds the work of ranking a word found almost
// everywhere: of more matching messages, the newest ones are ranked.
const rankCandidates = 1000

// searchMessages ranks the project's matching messages inside the index
// (the project column narrows the match, so no join runs per hit). The
// last word is first taken whole: when that finds enough messages, they
// are the results; otherwise words starting with it count too. Matching
// a prefix merges the lists of every word it starts, which for a common
// word costs more than the rest of the search together.
func (s *Store) searchMessages(ctx context.Context, projectID int64, words []string, limit int) ([]SearchHit, error) {
	return read(ctx, s.database, func(tx *sql.Tx) ([]SearchHit, error) {
		hits, n, err := rankMessages(ctx, tx, projectID, ftsMatch(words, false, true), limit)
		if err != nil || n >= limit {
			return hits, err
		}
		hits, _, err = rankMessages(ctx, tx, projectID, ftsMatch(words, true, true), limit)
		return hits, err
	})
}

// rankMessages returns the best hits and how many candidates it ranked:
// bm25 over the newest rankCandidates matches (ties: the newest first),
// sorted inside SQLite so only the best limit come back, then snippets
// and the message each hit belongs to for those only.
func rankMessages(ctx context.Context, tx *sql.Tx, projectID int64, match string, limit int) ([]SearchHit, int, error) {
	q := fmt.Sprintf(`(%s) AND project : "p%d"`, match, projectID)
	rows, err := tx.QueryContext(ctx, `SELECT id, score, count(*) OVER () FROM (
			SELECT rowid AS id, bm25(messages_fts, 1, 1, 1, 0) AS score FROM messages_fts
			WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT ?)
		ORDER BY score, id DESC LIMIT ?`, q, rankCandidates, limit)
	if err != nil {
		return nil, 0, err
	}
	type cand struct {
		id    int64
		score float64
	}
	var cands []cand
	var n int
	for rows.Next() {
		var c cand
		if err := rows.Scan(&c.id, &c.score, &n); err != nil {
			rows.Close()
			return nil, 0, err
		}
		cands = append(cands, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(cands) == 0 {
		return nil, 0, err
	}
	ids := make([]int64, len(cands))
	lo, hi := cands[0].id, cands[0].id
	for i, c := range cands {
		ids[i] = c.id
		lo, hi = min(lo, c.id), max(hi, c.id)
	}
	idList, _ := json.Marshal(ids)
	// The rowid range bounds the scan; +rowid keeps the IN list out of
	// the index, which would set the query up once per id.
	rows, err = tx.QueryContext(ctx, `
		SELECT h.id, m.session_id, s.title, h.text, h.output, h.input,
			coalesce(iif(h.output <> '' AND instr(h.output, ?2) > 0, coalesce(
				(SELECT t.message_id FROM json_each(m.content) AS b
				   JOIN tool_calls AS t ON t.session_id = m.session_id AND t.tool_use_id = b.value ->> 'tool_use_id'
				  WHERE b.value ->> 'type' = 'tool_result' LIMIT 1),
				(SELECT p.id FROM messages AS p WHERE p.session_id = m.session_id AND p.seq < m.seq
				    AND p.role = 'assistant' ORDER BY p.seq DESC LIMIT 1)), NULL), m.id)
		FROM (SELECT rowid AS id,
				coalesce(snippet(messages_fts, 0, ?2, ?3, ?4, ?5), '') AS text,
				coalesce(snippet(messages_fts, 2, ?2, ?3, ?4, ?5), '') AS output,
				coalesce(snippet(messages_fts, 1, ?2, ?3, ?4, ?5), '') AS input
			FROM messages_fts WHERE messages_fts MATCH ?1 AND rowid BETWEEN ?6 AND ?7
				AND +rowid IN (SELECT value FROM json_each(?8))) AS h
		JOIN messages m ON m.id = h.id
		JOIN sessions s ON s.id = m.session_id`,
		q, MarkOpen, MarkClose, Ellipsis, snippetTokens, lo, hi, string(idList))
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	byID := map[int64]SearchHit{}
	for rows.Next() {
		var id int64
		var h SearchHit
		var text, output, input string
		if err := rows.Scan(&id, &h.SessionID, &h.SessionTitle, &text, &output, &input, &h.MessageID); err != nil {
			return nil, 0, err
		}
		// A column without a match gives its first words unmarked. A
		// tool's input and output belong to the assistant message that
		// asked for it: the window shows tool calls under it.
		switch {
		case strings.Contains(text, MarkOpen):
			h.Kind, h.Snippet = HitMessage, text
		case strings.Contains(output, MarkOpen):
			h.Kind, h.Snippet = HitToolOutput, output
		default:
			h.Kind, h.Snippet = HitToolInput, input
		}
		if h.Kind != HitToolOutput {
			h.MessageID = id
		}
		byID[id] = h
	}
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	hits := make([]SearchHit, 0, len(cands))
	for _, c := range cands {
		if h, ok := byID[c.id]; ok {
			h.Score = c.score
			hits = append(hits, h)
		}
	}
	return hits, n, nil
}

func (s *Store) searchPaths(ctx context.Context, projectID int64, match string, limit int) ([]SearchHit, error) {
	return queryAll(ctx, s.r, scanHit(HitPath), `
		SELECT t.session_id, s.title, t.message_id, bm25(changes_fts),
			highlight(changes_fts, 0, ?2, ?3)
		FROM changes_fts
		JOIN changes c ON c.id = changes_fts.rowid
		JOIN tool_calls t ON t.id = c.tool_call_id
		JOIN sessions s ON s.id = t.session_id
		WHERE changes_fts MATCH ?1 AND s.project_id = ?4
		ORDER BY bm25(changes_fts) LIMIT ?5`,
		match, MarkOpen, MarkClose, projectID, limit)
}

// scanHit scans a hit of kind from the columns session_id, title,
// message_id, score and snippet.
func scanHit(kind HitKind) func(rowScanner) (SearchHit, error) {
	return func(row rowScanner) (SearchHit, error) {
		h := SearchHit{Kind: kind}
		err := row.Scan(&h.SessionID, &h.SessionTitle, &h.MessageID, &h.Score, &h.Snippet)
		return h, err
	}
}

// searchWords splits what a user typed at white space, dropping the words
// without a letter or digit, as the tokenizer would.
func searchWords(q string) []string {
	var words []string
	for _, w := range strings.Fields(q) {
		if strings.IndexFunc(w, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			words = append(words, w)
		}
	}
	return words
}

// ftsMatch turns words into an FTS5 query that cannot be a syntax error:
// every word becomes a quoted string (so AND, NEAR, -, *, : and column
// names mean nothing; "main.go" is the phrase main go), they are ANDed,
// and with prefix the last one is prefix matched so results come while
// typing. With inText, a word that could match the project column is kept
// out of it (see projectWord).
func ftsMatch(words []string, prefix, inText bool) string {
	terms := make([]string, len(words))
	for i, w := range words {
		last := prefix && i == len(words)-1
		terms[i] = `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
		if last {
			terms[i] += "*"
		}
		if inText && projectWord(w, last) {
			terms[i] = "{text tool_input tool_output} : " + terms[i]
		}
	}
	return strings.Join(terms, " ")
}

// projectWord reports whether word could match the one token of the
// project column, p<project id> (or start it, for a prefix). Only such a
// word needs a column filter: ranking computes how many messages hold
// each word, and under a filter FTS5 reads every position list of the
// word to do so, which doubles the cost of a word found in most messages.
// Without the filter the matches and scores are the same, since the word
// is never in the project column. The tokenizer keeps runs of letters
// and digits and folds case; a word with other than ASCII in it is
// filtered, as folding may turn it into ASCII.
func projectWord(word string, prefix bool) bool {
	if strings.IndexFunc(word, func(r rune) bool { return r >= utf8.RuneSelf }) >= 0 {
		return true
	}
	tokens := strings.FieldsFunc(strings.ToLower(word), func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < '0' || r > '9')
	})
	if len(tokens) != 1 || !strings.HasPrefix(tokens[0], "p") {
		return false
	}
	digits := tokens[0][1:]
	return strings.Trim(digits, "0123456789") == "" && (prefix || digits != "")
}
