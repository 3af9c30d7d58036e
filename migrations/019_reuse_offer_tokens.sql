-- A reuse offer's buttons carry a random token instead of the row's sequence number, so one offer's id
-- tells nothing about the others (who asked what, how many) and cannot be guessed.
ALTER TABLE reuse_offers ADD COLUMN token text;
UPDATE reuse_offers SET token = md5(id::text || random()::text || clock_timestamp()::text);
ALTER TABLE reuse_offers ALTER COLUMN token SET NOT NULL;
CREATE UNIQUE INDEX reuse_offers_token ON reuse_offers (token);
