-- Slack-native delivery: the report as a canvas (canvases.create + canvases.access.set) is one more kind of write.
ALTER TABLE slack_outbox DROP CONSTRAINT slack_outbox_op_check;
ALTER TABLE slack_outbox ADD CONSTRAINT slack_outbox_op_check
  CHECK (op IN ('post', 'update', 'delete', 'react', 'unreact', 'upload', 'canvas'));

-- The progress message may be a streamed message (chat.startStream): appended to and stopped, not edited.
ALTER TABLE slack_messages ADD COLUMN streaming boolean NOT NULL DEFAULT false;
