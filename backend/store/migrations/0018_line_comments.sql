-- 0018_line_comments: comments the user leaves on lines of a diff (a
-- pending change, the Changes view, the Branch view, a plan), kept with
-- the session until sent to the model as one review (wire.LineComment).
-- line and end_line are the lines' numbers in the file after the change
-- (end_line 0: one line); line_text is the first line's text when the
-- comment was made. origin_ref names the pending change (its approval id).

CREATE TABLE line_comments (
    id         INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    path       TEXT    NOT NULL CHECK (path <> ''),
    line       INTEGER NOT NULL CHECK (line >= 1),
    end_line   INTEGER NOT NULL DEFAULT 0 CHECK (end_line = 0 OR end_line >= line),
    line_text  TEXT    NOT NULL DEFAULT '',
    text       TEXT    NOT NULL DEFAULT '',
    origin     TEXT    NOT NULL CHECK (origin IN ('change', 'changes', 'branch', 'plan')),
    origin_ref TEXT    NOT NULL DEFAULT '',
    state      TEXT    NOT NULL DEFAULT 'draft' CHECK (state IN ('draft', 'sent', 'outdated'))
);
CREATE INDEX line_comments_session ON line_comments (session_id);
