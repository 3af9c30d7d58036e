-- A checkpoint is a research backend's own state, kept as JSON: the store no longer reads its phase
-- or cycle out of it. The columns stay (nullable) so a process of the previous version still writes
-- during a rolling upgrade; nothing reads them.
ALTER TABLE checkpoints ALTER COLUMN phase DROP NOT NULL;
ALTER TABLE checkpoints ALTER COLUMN cycle DROP NOT NULL;
