-- A schedule that paused itself (three failed runs in a row, its channel or its owner gone) tells its owner
-- once, by DM: 'due' until the message is sent, 'sending' while it may have landed (looked for before
-- posting again), 'sent' after. A pause its owner chose has no notice.
ALTER TABLE schedules ADD COLUMN pause_notice text CHECK (pause_notice IN ('due', 'sending', 'sent'));
ALTER TABLE schedules ADD COLUMN paused_at timestamptz;
CREATE INDEX schedules_pause_notice ON schedules (paused_at) WHERE pause_notice IN ('due', 'sending');

-- How a schedule's runs go out, as its owner chose: their plans reviewed first (a Slack schedule's runs start
-- without review otherwise), and each run in a new thread or all in one digest thread (the latest run's).
ALTER TABLE schedules ADD COLUMN review boolean NOT NULL DEFAULT false;
ALTER TABLE schedules ADD COLUMN delivery text NOT NULL DEFAULT 'thread' CHECK (delivery IN ('thread', 'digest'));
