-- Web searches a hosted deep-research model made for a session (billed per call by its provider), kept
-- with its token usage so `sessions show` can say what the research did.
ALTER TABLE sessions ADD COLUMN hosted_searches integer NOT NULL DEFAULT 0;
