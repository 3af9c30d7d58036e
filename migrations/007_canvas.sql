-- The report as a canvas (canvases.create + canvases.access.set) is one more kind of Slack write.
ALTER TABLE slack_outbox DROP CONSTRAINT slack_outbox_op_check;
ALTER TABLE slack_outbox ADD CONSTRAINT slack_outbox_op_check
  CHECK (op IN ('post', 'update', 'delete', 'react', 'unreact', 'upload', 'canvas'));
