-- 0016_tool_instructions: the nested instruction files (a subfolder's
-- AGENTS.md or CLAUDE.md, and their imports) a call brought in: their
-- text was added to the call's result for the model, the first time the
-- agent read or changed a file below them. A JSON array of their names
-- relative to the project ("sub/AGENTS.md"), so the card says so after a
-- reload and a resumed session does not bring them in again. '' for calls
-- that brought none and calls stored before this version.
-- The view tool_call_rows gains the column.

ALTER TABLE tool_calls ADD COLUMN instructions TEXT NOT NULL DEFAULT '';

DROP VIEW tool_call_rows;
CREATE VIEW tool_call_rows AS
SELECT t.id, t.session_id, t.message_id, t.tool_use_id, t.name, t.input,
       CASE WHEN t.result_message_id IS NULL THEN t.output
            ELSE coalesce((SELECT b.value ->> 'content' FROM messages AS r, json_each(r.content) AS b
                            WHERE r.id = t.result_message_id AND b.value ->> 'type' = 'tool_result'
                              AND b.value ->> 'tool_use_id' = t.tool_use_id), '') END AS output,
       t.status, t.approval, t.feedback, t.started_at, t.finished_at, t.result_message_id,
       t.parent_tool_use_id, t.imported, t.refused_by, t.sandbox, t.hooks, t.diagnostics, t.instructions
  FROM tool_calls AS t;
