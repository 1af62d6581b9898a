-- 0013_tool_hooks: the settings.json hooks that ran for a tool call, as
-- JSON (a list of wire.HookRun: event, hook, file, decision, time, exit
-- code, what it printed), so the card shows them after a reload as it did
-- live. '' for calls no hook ran for and calls stored before this version.
-- A call a PreToolUse hook refused keeps refused_by '' (its CHECK predates
-- hooks); the card reads the refusal from the hook run that denied it.
-- The view tool_call_rows gains the column.

ALTER TABLE tool_calls ADD COLUMN hooks TEXT NOT NULL DEFAULT '';

DROP VIEW tool_call_rows;
CREATE VIEW tool_call_rows AS
SELECT t.id, t.session_id, t.message_id, t.tool_use_id, t.name, t.input,
       CASE WHEN t.result_message_id IS NULL THEN t.output
            ELSE coalesce((SELECT b.value ->> 'content' FROM messages AS r, json_each(r.content) AS b
                            WHERE r.id = t.result_message_id AND b.value ->> 'type' = 'tool_result'
                              AND b.value ->> 'tool_use_id' = t.tool_use_id), '') END AS output,
       t.status, t.approval, t.feedback, t.started_at, t.finished_at, t.result_message_id,
       t.parent_tool_use_id, t.imported, t.refused_by, t.sandbox, t.hooks
  FROM tool_calls AS t;
