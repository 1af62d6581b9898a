-- 0012_worktree_discarded: a worktree session whose worktree and branch
-- were discarded (issue 25) stays as history; worktree_discarded = 1
-- marks it, and its worktree, worktree_branch and worktree_base keep
-- saying where it worked.

ALTER TABLE sessions ADD COLUMN worktree_discarded INTEGER NOT NULL DEFAULT 0;
