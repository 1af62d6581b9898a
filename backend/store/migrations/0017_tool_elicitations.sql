-- 0017_tool_elicitations: an MCP server's requests for input that came
-- while the call ran (elicitation, a form shown on the call's card), each
-- with the answer: a JSON array of wire.Elicitation (the server, its
-- message and fields, the action, and the content the user sent with
-- accept), so the card and an export say what was asked and answered
-- after a reload. '' for calls without one and calls stored before this
-- version. The view tool_call_rows gains the column.

ALTER TABLE tool_calls ADD COLUMN elicitations TEXT NOT NULL DEFAULT '';

DROP VIEW tool_call_rows;
CREATE VIEW tool_call_rows AS
SELECT t.id, t.session_id, t.message_id, t.tool_use_id, t.name, t.input,
       CASE WHEN t.result_message_id IS NULL THEN t.output
            ELSE coalesce((SELECT b.value ->> 'content' FROM messages AS r, json_each(r.content) AS b
                            WHERE r.id = t.result_message_id AND b.value ->> 'type' = 'tool_result'
                              AND b.value ->> 'tool_use_id' = t.tool_use_id), '') END AS output,
       t.status, t.approval, t.feedback, t.started_at, t.finished_at, t.result_message_id,
       t.parent_tool_use_id, t.imported, t.refused_by, t.sandbox, t.hooks, t.diagnostics, t.instructions,
       t.elicitations
  FROM tool_calls AS t;
