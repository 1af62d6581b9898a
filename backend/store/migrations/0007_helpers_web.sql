-- 0007_helpers_web: the tool calls of helpers (the task tool), and the web
-- pages web_fetch read, searchable with their session.
--
-- A helper's own tool calls are stored beside the main agent's, under the
-- same assistant message, with parent_tool_use_id naming the task call
-- that made them ('' for the main agent's calls). Their tool_use ids are
-- the parent's id, '/', and a number, so they never meet a tool_result of
-- the main conversation and keep their output in their own row.

ALTER TABLE tool_calls ADD COLUMN parent_tool_use_id TEXT NOT NULL DEFAULT '';
CREATE INDEX tool_calls_parent ON tool_calls (session_id, parent_tool_use_id) WHERE parent_tool_use_id <> '';

DROP VIEW tool_call_rows;
CREATE VIEW tool_call_rows AS
SELECT t.id, t.session_id, t.message_id, t.tool_use_id, t.name, t.input,
       CASE WHEN t.result_message_id IS NULL THEN t.output
            ELSE coalesce((SELECT b.value ->> 'content' FROM messages AS r, json_each(r.content) AS b
                            WHERE r.id = t.result_message_id AND b.value ->> 'type' = 'tool_result'
                              AND b.value ->> 'tool_use_id' = t.tool_use_id), '') END AS output,
       t.status, t.approval, t.feedback, t.started_at, t.finished_at, t.result_message_id,
       t.parent_tool_use_id
  FROM tool_calls AS t;

-- A page web_fetch read: its final URL, title and Markdown, whatever the
-- model was sent (the whole page, or an answer drawn from it). Searched
-- with the session's messages.
CREATE TABLE web_pages (
    id           INTEGER PRIMARY KEY,
    session_id   INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    tool_call_id INTEGER REFERENCES tool_calls (id) ON DELETE SET NULL,
    message_id   INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    url          TEXT    NOT NULL CHECK (url <> ''),
    title        TEXT    NOT NULL DEFAULT '',
    markdown     TEXT    NOT NULL DEFAULT '',
    fetched_at   INTEGER NOT NULL
);
CREATE INDEX web_pages_session ON web_pages (session_id);
CREATE INDEX web_pages_message ON web_pages (message_id);

CREATE VIRTUAL TABLE web_pages_fts USING fts5 (
    title, url, markdown,
    content = 'web_pages', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER web_pages_fts_insert AFTER INSERT ON web_pages BEGIN
    INSERT INTO web_pages_fts (rowid, title, url, markdown) VALUES (new.id, new.title, new.url, new.markdown);
END;

CREATE TRIGGER web_pages_fts_delete AFTER DELETE ON web_pages BEGIN
    INSERT INTO web_pages_fts (web_pages_fts, rowid, title, url, markdown)
    VALUES ('delete', old.id, old.title, old.url, old.markdown);
END;
