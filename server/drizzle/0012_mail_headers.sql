-- Issue 22 §6 (decision 060). Header fields a message carries beyond the ones every message gets: the notice
-- digests' List-Unsubscribe, a link to the notice choices.
ALTER TABLE "emails" ADD COLUMN "headers" jsonb DEFAULT '{}'::jsonb NOT NULL;
