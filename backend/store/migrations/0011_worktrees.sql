-- 0011_worktrees: a session that works in its own git worktree (issue
-- 25). worktree is the worktree's absolute path ('' for a session in the
-- project folder itself), worktree_branch its branch (pilot/NAME) and
-- worktree_base the commit the branch was made from (its diff's base).
-- The session's tools, sandbox, ledger and MCP servers are rooted at
-- worktree when it is set.

ALTER TABLE sessions ADD COLUMN worktree TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN worktree_branch TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN worktree_base TEXT NOT NULL DEFAULT '';
