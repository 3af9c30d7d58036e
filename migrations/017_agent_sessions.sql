-- Slack's agent messaging: each research thread is an agent session whose status (processing, active,
-- closed) is set with the session's own state changes, so it is one more kind of write in the outbox.
ALTER TABLE slack_outbox DROP CONSTRAINT slack_outbox_op_check;
ALTER TABLE slack_outbox ADD CONSTRAINT slack_outbox_op_check
  CHECK (op IN ('post', 'update', 'delete', 'react', 'unreact', 'upload', 'canvas', 'agent_status'));
