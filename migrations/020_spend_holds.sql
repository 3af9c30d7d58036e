-- What a paid call outside a research session (a question asked of a report) may spend, held against the
-- spending caps from the moment it is decided until its real cost is recorded; a hold older than 15 minutes
-- (its process died mid-call) no longer counts.
CREATE TABLE spend_holds (
  id uuid PRIMARY KEY,
  requester text NOT NULL,
  team_id text,
  reserved_usd float8 NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX spend_holds_created ON spend_holds (created_at);
