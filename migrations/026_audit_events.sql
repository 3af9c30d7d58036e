-- The audit trail: who did what, where, when, and what it cost. Append-only: rows are never changed (a
-- trigger refuses it) and go only when older than AUDIT_RETENTION_DAYS. No foreign keys: the trail outlives
-- the sessions and schedules it names. `detail` holds ids, counts, names and outcomes, never a secret or a
-- page's text.
CREATE TABLE audit_events (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now(),
  actor text NOT NULL,
  action text NOT NULL,
  team_id text,
  channel_id text,
  session_id uuid,
  schedule_id uuid,
  cost_usd numeric,
  detail jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_events_at ON audit_events (at);
CREATE INDEX audit_events_channel ON audit_events (channel_id, at);
CREATE INDEX audit_events_actor ON audit_events (actor, at);

CREATE FUNCTION audit_events_append_only() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'the audit trail is append-only';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();
