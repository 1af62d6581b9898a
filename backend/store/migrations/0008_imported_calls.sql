-- 0008_imported_calls: a tool call that came with an imported session was
-- decided on another machine (or written by hand in the export). It stays
-- in the history as it happened, but its approval is never a grant here:
-- nothing it approved (a web_fetch host) is approved again without asking.
-- Calls stored before this version are taken as decided here: nothing
-- told them apart. The view tool_call_rows gains the column.

ALTER TABLE tool_calls ADD COLUMN imported INTEGER NOT NULL DEFAULT 0;

DROP VIEW tool_call_rows;
CREATE VIEW tool_call_rows AS
SELECT t.id, t.session_id, t.message_id, t.tool_use_id, t.name, t.input,
       CASE WHEN t.result_message_id IS NULL THEN t.output
            ELSE coalesce((SELECT b.value ->> 'content' FROM messages AS r, json_each(r.content) AS b
                            WHERE r.id = t.result_message_id AND b.value ->> 'type' = 'tool_result'
                              AND b.value ->> 'tool_use_id' = t.tool_use_id), '') END AS output,
       t.status, t.approval, t.feedback, t.started_at, t.finished_at, t.result_message_id,
       t.parent_tool_use_id, t.imported
  FROM tool_calls AS t;
