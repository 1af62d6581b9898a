-- 0014_tool_diagnostics: what the language servers said after a call's
-- applied change (a write, a patch, a command that touched source files),
-- as JSON (a wire.Diagnostics: counts, the items shown, a note), so the
-- card shows "2 errors after this change" after a reload as it did live.
-- '' for calls no server checked and calls stored before this version.
-- The view tool_call_rows gains the column.

ALTER TABLE tool_calls ADD COLUMN diagnostics TEXT NOT NULL DEFAULT '';

DROP VIEW tool_call_rows;
CREATE VIEW tool_call_rows AS
SELECT t.id, t.session_id, t.message_id, t.tool_use_id, t.name, t.input,
       CASE WHEN t.result_message_id IS NULL THEN t.output
            ELSE coalesce((SELECT b.value ->> 'content' FROM messages AS r, json_each(r.content) AS b
                            WHERE r.id = t.result_message_id AND b.value ->> 'type' = 'tool_result'
                              AND b.value ->> 'tool_use_id' = t.tool_use_id), '') END AS output,
       t.status, t.approval, t.feedback, t.started_at, t.finished_at, t.result_message_id,
       t.parent_tool_use_id, t.imported, t.refused_by, t.sandbox, t.hooks, t.diagnostics
  FROM tool_calls AS t;
