-- 0001_init: projects, sessions, messages, tool calls, proposed changes,
-- permission rules and the full-text index over them.
--
-- Times are Unix milliseconds. JSON columns hold what the Go types marshal to:
-- messages.content is a JSON array of llm.ContentBlock, changes.hunks a JSON
-- array of store.Hunk.

CREATE TABLE projects (
    id          INTEGER PRIMARY KEY,
    path        TEXT    NOT NULL UNIQUE CHECK (path <> ''),
    name        TEXT    NOT NULL,
    created_at  INTEGER NOT NULL,
    last_opened INTEGER NOT NULL
);
CREATE INDEX projects_last_opened ON projects (last_opened DESC);

CREATE TABLE sessions (
    id                 INTEGER PRIMARY KEY,
    project_id         INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    title              TEXT    NOT NULL DEFAULT '',
    provider           TEXT    NOT NULL DEFAULT '',
    model              TEXT    NOT NULL DEFAULT '',
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    input_tokens       INTEGER NOT NULL DEFAULT 0 CHECK (input_tokens >= 0),
    output_tokens      INTEGER NOT NULL DEFAULT 0 CHECK (output_tokens >= 0),
    cache_read_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (cache_read_tokens >= 0),
    cache_write_tokens INTEGER NOT NULL DEFAULT 0 CHECK (cache_write_tokens >= 0),
    cost_usd           REAL    NOT NULL DEFAULT 0 CHECK (cost_usd >= 0),
    state              TEXT    NOT NULL DEFAULT 'idle'
                       CHECK (state IN ('idle', 'running', 'interrupted', 'error')),
    parent_session_id  INTEGER REFERENCES sessions (id) ON DELETE SET NULL,
    parent_message_id  INTEGER REFERENCES messages (id) ON DELETE SET NULL,
    approval_mode      TEXT    NOT NULL DEFAULT 'ask'
                       CHECK (approval_mode IN ('ask', 'edits', 'all', 'none')),
    budget_usd         REAL    CHECK (budget_usd IS NULL OR budget_usd >= 0)
);
CREATE INDEX sessions_project_updated ON sessions (project_id, updated_at DESC, id DESC);
CREATE INDEX sessions_parent_session ON sessions (parent_session_id);
CREATE INDEX sessions_parent_message ON sessions (parent_message_id);
CREATE INDEX sessions_running ON sessions (state) WHERE state = 'running';

CREATE TABLE messages (
    id                 INTEGER PRIMARY KEY,
    session_id         INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    seq                INTEGER NOT NULL CHECK (seq >= 0),
    role               TEXT    NOT NULL CHECK (role IN ('user', 'assistant')),
    content            TEXT    NOT NULL DEFAULT '[]'
                       CHECK (json_valid(content) AND json_type(content) = 'array'),
    input_tokens       INTEGER NOT NULL DEFAULT 0 CHECK (input_tokens >= 0),
    output_tokens      INTEGER NOT NULL DEFAULT 0 CHECK (output_tokens >= 0),
    cache_read_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (cache_read_tokens >= 0),
    cache_write_tokens INTEGER NOT NULL DEFAULT 0 CHECK (cache_write_tokens >= 0),
    state              TEXT    NOT NULL DEFAULT 'complete'
                       CHECK (state IN ('complete', 'streaming', 'interrupted')),
    created_at         INTEGER NOT NULL,
    UNIQUE (session_id, seq)
);
CREATE INDEX messages_streaming ON messages (state) WHERE state = 'streaming';

CREATE TABLE tool_calls (
    id          INTEGER PRIMARY KEY,
    session_id  INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    message_id  INTEGER NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
    tool_use_id TEXT    NOT NULL CHECK (tool_use_id <> ''),
    name        TEXT    NOT NULL CHECK (name <> ''),
    input       TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(input)),
    output      TEXT    NOT NULL DEFAULT '',
    status      TEXT    NOT NULL DEFAULT 'running'
                CHECK (status IN ('running', 'awaiting_approval', 'done', 'error', 'rejected', 'cancelled')),
    approval    TEXT    NOT NULL DEFAULT 'none'
                CHECK (approval IN ('none', 'auto', 'approved', 'partial', 'rejected')),
    feedback    TEXT    NOT NULL DEFAULT '',
    started_at  INTEGER NOT NULL,
    finished_at INTEGER CHECK (finished_at IS NULL OR finished_at >= started_at),
    UNIQUE (session_id, tool_use_id)
);
CREATE INDEX tool_calls_message ON tool_calls (message_id);

CREATE TABLE changes (
    id           INTEGER PRIMARY KEY,
    tool_call_id INTEGER NOT NULL REFERENCES tool_calls (id) ON DELETE CASCADE,
    path         TEXT    NOT NULL CHECK (path <> ''),
    old_hash     TEXT    NOT NULL DEFAULT '',
    new_hash     TEXT    NOT NULL DEFAULT '',
    hunks        TEXT    NOT NULL DEFAULT '[]'
                 CHECK (json_valid(hunks) AND json_type(hunks) = 'array'),
    user_edited  TEXT,
    applied      INTEGER NOT NULL DEFAULT 0 CHECK (applied IN (0, 1)),
    created_at   INTEGER NOT NULL
);
CREATE INDEX changes_tool_call ON changes (tool_call_id);

CREATE TABLE permission_rules (
    id         INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    tool       TEXT    NOT NULL CHECK (tool <> ''),
    pattern    TEXT    NOT NULL DEFAULT '*',
    effect     TEXT    NOT NULL CHECK (effect IN ('allow', 'deny')),
    created_at INTEGER NOT NULL,
    UNIQUE (project_id, tool, pattern, effect)
);

-- Full-text search. The index keeps no copy of the text (external content):
-- message_docs extracts a message's searchable text from its JSON blocks, and
-- snippet() reads it back from there. Messages still streaming are not
-- indexed; they are once they complete or are marked interrupted.
-- The project column holds one token, p<project id>, so a search within a
-- project is an intersection inside the index rather than a join per hit.
-- The blocks are walked with a recursive CTE, not json_each: FTS5 reads its
-- content for 'rebuild' and 'integrity-check' with statements that may not
-- use virtual tables.
CREATE VIEW message_docs (id, text, tool_input, tool_output, project) AS
SELECT m.id,
       (WITH RECURSIVE i (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n + 1 < json_array_length(m.content))
        SELECT group_concat(m.content ->> ('$[' || n || '].text'), char(10)) FROM i
         WHERE m.content ->> ('$[' || n || '].type') = 'text'),
       (WITH RECURSIVE i (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n + 1 < json_array_length(m.content))
        SELECT group_concat(m.content ->> ('$[' || n || '].input'), char(10)) FROM i
         WHERE m.content ->> ('$[' || n || '].type') = 'tool_use'),
       (WITH RECURSIVE i (n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n + 1 < json_array_length(m.content))
        SELECT group_concat(m.content ->> ('$[' || n || '].content'), char(10)) FROM i
         WHERE m.content ->> ('$[' || n || '].type') = 'tool_result'),
       (SELECT 'p' || s.project_id FROM sessions AS s WHERE s.id = m.session_id)
  FROM messages AS m
 WHERE m.state <> 'streaming';

CREATE VIRTUAL TABLE messages_fts USING fts5 (
    text, tool_input, tool_output, project,
    content = 'message_docs', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages
WHEN new.state <> 'streaming' BEGIN
    INSERT INTO messages_fts (rowid, text, tool_input, tool_output, project)
    SELECT id, text, tool_input, tool_output, project FROM message_docs WHERE id = new.id;
END;

-- BEFORE triggers: the row must still be readable through message_docs to
-- remove exactly what was indexed.
CREATE TRIGGER messages_fts_delete BEFORE DELETE ON messages
WHEN old.state <> 'streaming' BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, text, tool_input, tool_output, project)
    SELECT 'delete', id, text, tool_input, tool_output, project FROM message_docs WHERE id = old.id;
END;

CREATE TRIGGER messages_fts_unindex BEFORE UPDATE OF content, state ON messages
WHEN old.state <> 'streaming' BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, text, tool_input, tool_output, project)
    SELECT 'delete', id, text, tool_input, tool_output, project FROM message_docs WHERE id = old.id;
END;

CREATE TRIGGER messages_fts_reindex AFTER UPDATE OF content, state ON messages
WHEN new.state <> 'streaming' BEGIN
    INSERT INTO messages_fts (rowid, text, tool_input, tool_output, project)
    SELECT id, text, tool_input, tool_output, project FROM message_docs WHERE id = new.id;
END;

-- The index entry of a message names its session's project, which a
-- cascade would delete first; so a session takes its messages with it
-- while it still exists (and a project its sessions). ON DELETE CASCADE
-- then finds nothing left to do.
CREATE TRIGGER sessions_delete_messages BEFORE DELETE ON sessions BEGIN
    DELETE FROM messages WHERE session_id = old.id;
END;

CREATE TRIGGER projects_delete_sessions BEFORE DELETE ON projects BEGIN
    DELETE FROM sessions WHERE project_id = old.id;
END;

CREATE VIRTUAL TABLE changes_fts USING fts5 (
    path,
    content = 'changes', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER changes_fts_insert AFTER INSERT ON changes BEGIN
    INSERT INTO changes_fts (rowid, path) VALUES (new.id, new.path);
END;

CREATE TRIGGER changes_fts_delete AFTER DELETE ON changes BEGIN
    INSERT INTO changes_fts (changes_fts, rowid, path) VALUES ('delete', old.id, old.path);
END;

CREATE TRIGGER changes_fts_update AFTER UPDATE OF path ON changes BEGIN
    INSERT INTO changes_fts (changes_fts, rowid, path) VALUES ('delete', old.id, old.path);
    INSERT INTO changes_fts (rowid, path) VALUES (new.id, new.path);
END;
