-- 0010_tool_sandbox: how a run_bash command ran with respect to the OS
-- sandbox, as JSON (events.SandboxInfo: sandboxed, outside with the
-- model's reason, why the sandbox was unavailable, and the sentences on
-- what it blocked), so the card shows it after a reload. '' for other
-- tools, commands not run, and calls stored before this version. The
-- view tool_call_rows gains the column.

ALTER TABLE tool_calls ADD COLUMN sandbox TEXT NOT NULL DEFAULT '';

DROP VIEW tool_call_rows;
CREATE VIEW tool_call_rows AS
SELECT t.id, t.session_id, t.message_id, t.tool_use_id, t.name, t.input,
       CASE WHEN t.result_message_id IS NULL THEN t.output
            ELSE coalesce((SELECT b.value ->> 'content' FROM messages AS r, json_each(r.content) AS b
                            WHERE r.id = t.result_message_id AND b.value ->> 'type' = 'tool_result'
                              AND b.value ->> 'tool_use_id' = t.tool_use_id), '') END AS output,
       t.status, t.approval, t.feedback, t.started_at, t.finished_at, t.result_message_id,
       t.parent_tool_use_id, t.imported, t.refused_by, t.sandbox
  FROM tool_calls AS t;
