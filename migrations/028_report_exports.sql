-- A report's PDF and Word files, built once per report version and kept (deleted with the report).
CREATE TABLE report_exports (
  session_id uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  version integer NOT NULL,
  format text NOT NULL CHECK (format IN ('pdf', 'docx')),
  bytes bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (session_id, version, format)
);
