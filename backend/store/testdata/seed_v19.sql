-- Data at schema version 19, for the migration test: every table, every
-- optional column set at least once.
INSERT INTO projects (id, path, name, created_at, last_opened) VALUES
    (1, '/home/ada/engine', 'engine', 1700000000000, 1700000500000),
    (2, '/home/ada/notes', 'notes', 1700000001000, 1700000001000);

INSERT INTO sessions (id, project_id, title, provider, model, created_at, updated_at,
    input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, cost_usd, state,
    parent_session_id, parent_message_id, approval_mode, plan_mode, budget_usd) VALUES
    (1, 1, 'Difference engine', 'anthropic', 'claude-x', 1700000000000, 1700000400000,
     1200, 300, 800, 100, 0.0421, 'idle', NULL, NULL, 'edits', 1, 2.5),
    (2, 1, 'Difference engine (fork)', 'openai', 'gpt-x', 1700000410000, 1700000420000,
     0, 0, 0, 0, 0, 'interrupted', NULL, NULL, 'ask', 0, NULL);

INSERT INTO messages (id, session_id, seq, role, content, input_tokens, output_tokens,
    cache_read_tokens, cache_write_tokens, state, created_at) VALUES
    (1, 1, 0, 'user', '[{"type":"text","text":"Compute the table of squares"}]', 0, 0, 0, 0, 'complete', 1700000000000),
    (2, 1, 1, 'assistant', '[{"type":"thinking","thinking":"columns","signature":"c2ln"},{"type":"text","text":"Reading the cards."},{"type":"tool_use","id":"toolu_01","name":"write_file","input":{"path":"cards/squares.txt","content":"1 4 9"}}]', 900, 200, 800, 100, 'complete', 1700000100000);

-- Tool calls are recorded before the message holding their results, which
-- then holds the output of the first one (the second has none).
INSERT INTO tool_calls (id, session_id, message_id, tool_use_id, name, input, output, status,
    approval, feedback, started_at, finished_at) VALUES
    (1, 1, 2, 'toolu_01', 'write_file', '{"path":"cards/squares.txt","content":"1 4 9"}',
     'wrote cards/squares.txt', 'done', 'partial', 'only the first column', 1700000150000, 1700000160000),
    (2, 1, 2, 'toolu_02', 'run_bash', '{"command":"make"}', '', 'rejected', 'rejected', '', 1700000170000, NULL);

INSERT INTO messages (id, session_id, seq, role, content, input_tokens, output_tokens,
    cache_read_tokens, cache_write_tokens, state, created_at) VALUES
    (3, 1, 2, 'user', '[{"type":"tool_result","tool_use_id":"toolu_01","content":"wrote cards/squares.txt"}]', 0, 0, 0, 0, 'complete', 1700000200000),
    (4, 1, 3, 'assistant', '[{"type":"text","text":"The mill turned twice"}]', 300, 100, 0, 0, 'interrupted', 1700000300000),
    (5, 2, 0, 'user', '[{"type":"text","text":"Compute the table of squares"}]', 0, 0, 0, 0, 'complete', 1700000410000);

-- The fork points at a message, so it is linked once the messages exist.
UPDATE sessions SET parent_session_id = 1, parent_message_id = 2 WHERE id = 2;

INSERT INTO changes (id, tool_call_id, path, old_hash, new_hash, hunks, user_edited, applied, created_at) VALUES
    (1, 1, 'cards/squares.txt', '', 'abc123',
     '[{"header":"@@ -0,0 +1 @@","text":"+1 4 9\n","decision":"approved"}]', '1 4 9 16', 1, 1700000155000);

INSERT INTO permission_rules (id, project_id, tool, pattern, effect, created_at) VALUES
    (1, 1, 'run_bash', 'make *', 'allow', 1700000000000),
    (2, 1, 'run_bash', 'rm -rf *', 'deny', 1700000000001);

-- The first message and the summary stand for messages 2 and 3.
INSERT INTO session_summaries (session_id, text, keep_message_id, created_at) VALUES
    (1, 'The user asked for the table of squares; cards/squares.txt was written.', 4, 1700000350000);

-- The change ledger: an edit and a command, and a revert of the edit.
UPDATE sessions SET pending_note = '[Pilot] the user reverted cards/squares.txt' WHERE id = 2;

INSERT INTO checkpoints (id, session_id, tool_call_id, message_id, kind, state, label, note, omitted, created_at) VALUES
    (1, 1, 1, 2, 'edit', 'done', '→ Writing cards/squares.txt', '', 0, 1700000156000),
    (2, 1, 2, 2, 'command', 'done', '$ make', '3 files changed; only the first 2 are recorded.', 1, 1700000171000),
    (3, 1, NULL, 4, 'revert', 'done', 'Reverted cards/squares.txt', '', 0, 1700000400000);

INSERT INTO file_events (id, checkpoint_id, path, before_hash, before_mode, before_size, before_kept,
    after_hash, after_mode, after_size, after_kept, why, undoes, undone_by, made_dirs) VALUES
    (1, 1, 'cards/squares.txt', '', 0, 0, 1, 'abc123', 420, 8, 1, '', '[]', 3, 'cards'),
    (2, 2, 'build/out.bin', '', 0, 0, 1, 'def456', 493, 9000000, 0, 'over 4 MiB, content not kept', '[]', NULL, NULL),
    (3, 2, 'Makefile', 'aaa111', 420, 20, 1, '', 0, 0, 1, '', '[]', NULL, NULL),
    (4, 3, 'cards/squares.txt', 'abc123', 420, 8, 1, '', 0, 0, 1, '', '[1]', NULL, NULL);

-- Version 7: a helper's tool call under a task call, and a fetched page.
INSERT INTO tool_calls (id, session_id, message_id, tool_use_id, name, input, output, status,
    approval, feedback, started_at, finished_at, parent_tool_use_id) VALUES
    (3, 1, 2, 'toolu_02/1', 'glob', '{"pattern":"**/*.txt"}', 'cards/squares.txt', 'done', 'none', '', 1700000172000, 1700000173000, 'toolu_02');

INSERT INTO web_pages (id, session_id, tool_call_id, message_id, url, title, markdown, fetched_at) VALUES
    (1, 1, 2, 2, 'https://example.org/squares', 'Squares', '# Squares\n\n1 4 9 16', 1700000174000);

-- v8: a tool call that came with an imported session.
UPDATE tool_calls SET imported = 1 WHERE id = (SELECT min(id) FROM tool_calls);

-- v9: a call refused by a deny rule, and one the user rejected.
UPDATE tool_calls SET refused_by = 'rule run_bash "rm *"' WHERE id = (SELECT min(id) FROM tool_calls);
UPDATE tool_calls SET refused_by = 'user' WHERE id = (SELECT max(id) FROM tool_calls);

-- v10: a command that ran in the sandbox, with what it blocked.
UPDATE tool_calls SET sandbox = '{"sandboxed":true,"blocked":["The sandbox blocked a write to ~/.bashrc: the file system is read-only outside the project."]}' WHERE id = (SELECT max(id) FROM tool_calls);

-- v11: a session in its own git worktree.
UPDATE sessions SET worktree = '/home/u/.local/share/pilot/worktrees/1/fix-greeting',
    worktree_branch = 'pilot/fix-greeting', worktree_base = '3f1c2a9e0b7d4c5e6f708192a3b4c5d6e7f80912'
 WHERE id = (SELECT max(id) FROM sessions);

-- v12: a worktree session whose worktree and branch were discarded.
UPDATE sessions SET worktree_discarded = 1 WHERE id = (SELECT max(id) FROM sessions);

-- v13: the hooks that ran for a call, one of which blocked it.
UPDATE tool_calls SET hooks = '[{"event":"PreToolUse","hook":"./guard.sh","file":"/home/u/.claude/settings.json","decision":"deny","ms":12,"exitCode":2,"message":"rm is not allowed"}]'
 WHERE id = (SELECT min(id) FROM tool_calls);

-- v14: what the language servers said after a call's change.
UPDATE tool_calls SET diagnostics = '{"errors":1,"warnings":0,"items":[{"path":"main.go","line":3,"col":2,"severity":"error","message":"undefined: frob","source":"compiler"}]}'
 WHERE id = (SELECT max(id) FROM tool_calls);

-- v15: which changed files can run code, and what a command changed that
-- the ledger lists without keeping it.
UPDATE file_events SET runs_code = 'executable' WHERE id = 2;
UPDATE checkpoints SET listed = '[{"path":"sub/.git/hooks/post-checkout","op":"created","why":"in a git folder: not kept","runsCode":"a git hook"}]'
 WHERE id = 2;

-- v16: the nested instruction files a call brought in.
UPDATE tool_calls SET instructions = '["sub/AGENTS.md"]' WHERE id = (SELECT min(id) FROM tool_calls);

-- v17: an MCP server's form and the answer.
UPDATE tool_calls SET elicitations = '[{"server":"t","message":"Who are you?","fields":[{"name":"name","type":"string","required":true}],"action":"accept","content":{"name":"Ada"}}]' WHERE id = (SELECT max(id) FROM tool_calls);

-- v18: the user's comments on lines, one sent with a review, one a draft
-- on a range.
INSERT INTO line_comments (id, session_id, path, line, end_line, line_text, text, origin, origin_ref, state) VALUES
    (1, 1, 'main.go', 3, 0, 'func squares() {', 'name it squaresOf', 'change', 'a7', 'sent'),
    (2, 1, 'util.go', 10, 12, 'return nil', 'these lines are never reached', 'branch', '', 'draft');

-- v19: a finding of /review on a line, and one dismissed.
INSERT INTO review_findings (session_id, path, line, line_text, text, state, created_at)
  SELECT min(id), 'main.go', 3, 'func squares() {', 'frob is undefined: squares is meant.', 'open', 1700000000000 FROM sessions;
INSERT INTO review_findings (session_id, path, line, text, state, created_at)
  SELECT min(id), 'main.go', 1, 'package comment missing', 'dismissed', 1700000000000 FROM sessions;
