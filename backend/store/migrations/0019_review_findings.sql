-- 0019_review_findings: the findings of /review (pilot review), each a
-- comment anchored on a line (path relative to the reviewed folder, line
-- from 1, and the line's text then) of the session it belongs to, and
-- what became of it: open,
-- dismissed, or fixing (the agent was asked to fix it in a turn).

CREATE TABLE review_findings (
    id          INTEGER PRIMARY KEY,
    session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    path        TEXT    NOT NULL CHECK (path <> ''),
    line        INTEGER NOT NULL CHECK (line >= 1),
    line_text   TEXT    NOT NULL DEFAULT '',
    text        TEXT    NOT NULL CHECK (text <> ''),
    state       TEXT    NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'dismissed', 'fixing')),
    created_at  INTEGER NOT NULL
);
CREATE INDEX review_findings_session ON review_findings (session_id, id);
