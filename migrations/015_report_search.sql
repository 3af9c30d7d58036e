-- Finished reports are searchable: question (weighted most), plan, then the report's text (its summary
-- opens it). Generated, so every write of a session keeps it current.
ALTER TABLE sessions ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english', question), 'A') ||
  setweight(to_tsvector('english', coalesce(plan, '')), 'B') ||
  setweight(to_tsvector('english', coalesce(report ->> 'markdown', '')), 'C')
) STORED;
CREATE INDEX sessions_search_idx ON sessions USING GIN (search_tsv);
