/** The checkpoint `$2` of session `$1`, written when the move `s` (a CTE before it) happened; events up to now count as before it. */
export const upsertCheckpointSql = `, c AS (
         INSERT INTO checkpoints (session_id, state, event_seq)
         SELECT id, $2, (SELECT COALESCE(max(seq), 0) FROM session_events WHERE session_id = $1)
         FROM s
         ON CONFLICT (session_id) DO UPDATE SET
           state = EXCLUDED.state, event_seq = EXCLUDED.event_seq, updated_at = now())`;
