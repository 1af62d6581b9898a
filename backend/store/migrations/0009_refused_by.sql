-- 0009_refused_by: who refused a rejected tool call, so the window can
-- tell the user's own rejection from a refusal nobody was asked about:
-- 'user' (the user said no), 'plan' (plan mode runs no change or command),
-- 'mode' (the session's approval mode refused it: none, or present_plan
-- outside plan mode), 'rule' or 'rule ' followed by the deny rule that
-- matched. '' for calls that were not refused, and for those stored before
-- this version (nothing told them apart). The view tool_call_rows gains
-- the column.

ALTER TABLE tool_calls ADD COLUMN refused_by TEXT NOT NULL DEFAULT ''
    CHECK (refused_by IN ('', 'user', 'plan', 'mode', 'rule') OR refused_by LIKE 'rule %');

DROP VIEW tool_call_rows;
CREATE VIEW tool_call_rows AS
SELECT t.id, t.session_id, t.message_id, t.tool_use_id, t.name, t.input,
       CASE WHEN t.result_message_id IS NULL THEN t.output
            ELSE coalesce((SELECT b.value ->> 'content' FROM messages AS r, json_each(r.content) AS b
                            WHERE r.id = t.result_message_id AND b.value ->> 'type' = 'tool_result'
                              AND b.value ->> 'tool_use_id' = t.tool_use_id), '') END AS output,
       t.status, t.approval, t.feedback, t.started_at, t.finished_at, t.result_message_id,
       t.parent_tool_use_id, t.imported, t.refused_by
  FROM tool_calls AS t;
