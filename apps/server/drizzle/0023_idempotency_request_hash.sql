-- Issue 28: an Idempotency-Key remembers the request that claimed it (sha256 of its route and normalized body),
-- so the same key with another lead is refused (422 idempotency_key_reused) instead of replaying the first answer.
-- Keys kept from before carry '': they match no request, so a source reusing one is told at once.
ALTER TABLE "idempotency_keys" ADD COLUMN "request_hash" text DEFAULT '' NOT NULL;