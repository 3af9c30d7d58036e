-- The team's own documents, ingested with `deep-research kb ingest`, searched by `internal_search`.

CREATE TABLE kb_documents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Absolute path of the ingested file: re-ingesting the same file replaces it.
  path text NOT NULL UNIQUE,
  title text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('markdown', 'text', 'html', 'pdf')),
  -- sha256 of the file's bytes: an unchanged file is skipped.
  content_hash text NOT NULL,
  bytes bigint NOT NULL,
  passages integer NOT NULL,
  modified_at timestamptz NOT NULL,
  ingested_at timestamptz NOT NULL DEFAULT now()
);

-- Documents split into passages of a few paragraphs; the heading they sit under is
-- weighted above their body so a query naming a section finds it first.
CREATE TABLE kb_passages (
  id bigserial PRIMARY KEY,
  document_id uuid NOT NULL REFERENCES kb_documents (id) ON DELETE CASCADE,
  ordinal integer NOT NULL,
  heading text NOT NULL,
  body text NOT NULL,
  tsv tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', heading), 'A') || setweight(to_tsvector('english', body), 'B')
  ) STORED
);
CREATE INDEX kb_passages_tsv_idx ON kb_passages USING GIN (tsv);
CREATE INDEX kb_passages_document_idx ON kb_passages (document_id, ordinal);
