-- Admission under spending caps. A session that may still spend reserves what it may spend (the high end
-- of its estimate, or what the caps left it) while it is unfinished; once it finishes its real cost counts
-- instead. cost_usd is that cost for every finished session, a failed one included (reports written
-- before this migration carry theirs in report.costUsd only).
ALTER TABLE sessions ADD COLUMN reserved_usd float8;
ALTER TABLE sessions ADD COLUMN cost_usd float8;
