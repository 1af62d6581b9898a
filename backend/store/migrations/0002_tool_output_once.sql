-- 0002_tool_output_once: a tool call's output is stored once.
--
-- The agent records a tool's output on its tool call (FinishToolCall) and
-- then sends the same text to the model as the tool_result block of the
-- next user message. Once that message commits, the tool call points at it
-- (result_message_id) and its own output column is emptied: the output is
-- the content of the message's tool_result block with the call's
-- tool_use_id. tool_call_rows reads tool calls with the output resolved.
--
-- Invariant: result_message_id IS NOT NULL implies output = ''. Only an
-- output equal to the block's content is linked, so nothing is lost; and
-- whatever would remove or change the block first copies the output back.

ALTER TABLE tool_calls ADD COLUMN result_message_id INTEGER REFERENCES messages (id) ON DELETE SET NULL;
CREATE INDEX tool_calls_result_message ON tool_calls (result_message_id) WHERE result_message_id IS NOT NULL;

CREATE VIEW tool_call_rows AS
SELECT t.id, t.session_id, t.message_id, t.tool_use_id, t.name, t.input,
       CASE WHEN t.result_message_id IS NULL THEN t.output
            ELSE coalesce((SELECT b.value ->> 'content' FROM messages AS r, json_each(r.content) AS b
                            WHERE r.id = t.result_message_id AND b.value ->> 'type' = 'tool_result'
                              AND b.value ->> 'tool_use_id' = t.tool_use_id), '') END AS output,
       t.status, t.approval, t.feedback, t.started_at, t.finished_at, t.result_message_id
  FROM tool_calls AS t;

-- A committed user message answering tool calls takes over their outputs.
CREATE TRIGGER tool_calls_link_result AFTER INSERT ON messages
WHEN new.role = 'user' AND new.state <> 'streaming' AND instr(new.content, '"tool_result"') > 0 BEGIN
    UPDATE tool_calls SET result_message_id = new.id, output = ''
     WHERE session_id = new.session_id AND result_message_id IS NULL AND output <> ''
       AND output IS (SELECT b.value ->> 'content' FROM json_each(new.content) AS b
                       WHERE b.value ->> 'type' = 'tool_result' AND b.value ->> 'tool_use_id' = tool_calls.tool_use_id);
END;

-- Before the message goes or its content changes, the outputs go back.
CREATE TRIGGER tool_calls_unlink_delete BEFORE DELETE ON messages BEGIN
    UPDATE tool_calls SET output = (SELECT output FROM tool_call_rows AS v WHERE v.id = tool_calls.id),
           result_message_id = NULL
     WHERE result_message_id = old.id;
END;

CREATE TRIGGER tool_calls_unlink_update BEFORE UPDATE OF content ON messages BEGIN
    UPDATE tool_calls SET output = (SELECT output FROM tool_call_rows AS v WHERE v.id = tool_calls.id),
           result_message_id = NULL
     WHERE result_message_id = old.id;
END;

-- A deleted session takes its tool calls first, so no output is copied
-- back only to be deleted.
DROP TRIGGER IF EXISTS sessions_delete_messages;
CREATE TRIGGER sessions_delete_messages BEFORE DELETE ON sessions BEGIN
    DELETE FROM tool_calls WHERE session_id = old.id;
    DELETE FROM messages WHERE session_id = old.id;
END;

-- Link what version 1 stored twice: each tool_result block once.
UPDATE tool_calls SET result_message_id = r.message_id, output = ''
  FROM (SELECT m.id AS message_id, m.session_id, b.value ->> 'tool_use_id' AS tool_use_id,
               b.value ->> 'content' AS content
          FROM messages AS m, json_each(m.content) AS b
         WHERE m.role = 'user' AND m.state <> 'streaming' AND instr(m.content, '"tool_result"') > 0
           AND b.value ->> 'type' = 'tool_result') AS r
 WHERE tool_calls.session_id = r.session_id AND tool_calls.tool_use_id = r.tool_use_id
   AND tool_calls.output <> '' AND tool_calls.output = r.content;
