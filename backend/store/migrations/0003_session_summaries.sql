-- 0003_session_summaries: the latest compaction of a session.
--
-- The agent replaces a long session's older turns with a summary written by
-- the model: the request holds the first user message with the summary, then
-- the messages from keep_message_id on. Keeping it here lets a restarted
-- Pilot send the same request instead of the whole history, or paying for
-- another compaction. One row per session: a new compaction replaces it.
-- A summary whose kept message is deleted no longer has a place in the
-- history and goes with it.

CREATE TABLE session_summaries (
    session_id      INTEGER PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
    text            TEXT    NOT NULL CHECK (text <> ''),
    keep_message_id INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    created_at      INTEGER NOT NULL
);
CREATE INDEX session_summaries_keep ON session_summaries (keep_message_id);
