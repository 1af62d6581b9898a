-- 0006_plan_mode: a session can be in plan mode (read-only tools; the turn
-- ends with a plan for the user to approve).
--
-- A column beside approval_mode rather than a new value of it: SQLite
-- cannot widen approval_mode's CHECK without rebuilding the sessions table
-- that five tables refer to. Sessions read plan_mode = 1 as the mode
-- "plan"; approval_mode keeps the mode the session had before.
ALTER TABLE sessions ADD COLUMN plan_mode INTEGER NOT NULL DEFAULT 0 CHECK (plan_mode IN (0, 1));
