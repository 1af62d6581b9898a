-- 0004_checkpoints: the change ledger.
--
-- A checkpoint is one step that changed project files: an approved file
-- change (edit), an approved command (command), or the user undoing some
-- of it (revert, rewind). Its file_events say, per file, what the path held
-- before and after: the content's sha256 (the address of its blob under
-- PILOT_HOME/checkpoints, '' when the file did not exist), the mode and
-- size, and whether the content is kept (over the size limit, or dropped
-- by the retention setting: listed but not revertable; why says which).
--
-- A checkpoint is written 'pending' before any file is touched and
-- 'done' once the files are written; a checkpoint a crash left pending is
-- settled at start-up by comparing each file with its before and after.
-- message_id is the session's latest message when it was taken: rewinding
-- to a user message undoes every checkpoint from that message on.
-- A revert or rewind event lists in undoes the events it reversed; those
-- get undone_by once it is done.

CREATE TABLE checkpoints (
    id           INTEGER PRIMARY KEY,
    session_id   INTEGER NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    tool_call_id INTEGER REFERENCES tool_calls (id) ON DELETE SET NULL,
    message_id   INTEGER NOT NULL DEFAULT 0 CHECK (message_id >= 0),
    kind         TEXT    NOT NULL CHECK (kind IN ('edit', 'command', 'revert', 'rewind')),
    state        TEXT    NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done')),
    label        TEXT    NOT NULL DEFAULT '',
    note         TEXT    NOT NULL DEFAULT '',
    omitted      INTEGER NOT NULL DEFAULT 0 CHECK (omitted >= 0),
    created_at   INTEGER NOT NULL
);
CREATE INDEX checkpoints_session ON checkpoints (session_id, id);
CREATE INDEX checkpoints_tool_call ON checkpoints (tool_call_id);
CREATE INDEX checkpoints_pending ON checkpoints (state) WHERE state = 'pending';

CREATE TABLE file_events (
    id            INTEGER PRIMARY KEY,
    checkpoint_id INTEGER NOT NULL REFERENCES checkpoints (id) ON DELETE CASCADE,
    path          TEXT    NOT NULL CHECK (path <> ''),
    before_hash   TEXT    NOT NULL DEFAULT '',
    before_mode   INTEGER NOT NULL DEFAULT 0,
    before_size   INTEGER NOT NULL DEFAULT 0 CHECK (before_size >= 0),
    before_kept   INTEGER NOT NULL DEFAULT 1 CHECK (before_kept IN (0, 1)),
    after_hash    TEXT    NOT NULL DEFAULT '',
    after_mode    INTEGER NOT NULL DEFAULT 0,
    after_size    INTEGER NOT NULL DEFAULT 0 CHECK (after_size >= 0),
    after_kept    INTEGER NOT NULL DEFAULT 1 CHECK (after_kept IN (0, 1)),
    why           TEXT    NOT NULL DEFAULT '',
    undoes        TEXT    NOT NULL DEFAULT '[]' CHECK (json_valid(undoes) AND json_type(undoes) = 'array'),
    undone_by     INTEGER REFERENCES checkpoints (id) ON DELETE SET NULL,
    CHECK (before_hash <> '' OR after_hash <> ''),
    UNIQUE (checkpoint_id, path)
);
CREATE INDEX file_events_undone_by ON file_events (undone_by);

-- What the model is told on its next turn (files the user reverted since).
ALTER TABLE sessions ADD COLUMN pending_note TEXT NOT NULL DEFAULT '';
