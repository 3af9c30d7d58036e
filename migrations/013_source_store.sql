-- The readable text of every source research was shown, kept with its session (and deleted with it):
-- pages as extracted, knowledge-base passages, hosted deep-research answers. Capped per source; split into
-- passages indexed for full-text search, so a claim can be checked against what its source says.
CREATE TABLE session_sources (
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  -- Canonical URL for pages, kb:<documentId> for knowledge-base documents.
  key text NOT NULL,
  n integer NOT NULL,
  url text,
  title text NOT NULL,
  fetched_at timestamptz NOT NULL DEFAULT now(),
  -- sha256 of the text as kept.
  content_hash text NOT NULL,
  text text NOT NULL,
  -- The source's text was longer than the cap and was cut.
  truncated boolean NOT NULL DEFAULT false,
  PRIMARY KEY (session_id, key)
);

CREATE TABLE session_source_passages (
  session_id uuid NOT NULL,
  key text NOT NULL,
  ordinal integer NOT NULL,
  body text NOT NULL,
  tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', body)) STORED,
  PRIMARY KEY (session_id, key, ordinal),
  FOREIGN KEY (session_id, key) REFERENCES session_sources (session_id, key) ON DELETE CASCADE
);
CREATE INDEX session_source_passages_tsv_idx ON session_source_passages USING GIN (tsv);
