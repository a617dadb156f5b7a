ALTER TABLE "chain_listings" ADD COLUMN "lapse_reason" text;--> statement-breakpoint
ALTER TABLE "chain_listings" ADD COLUMN "lapse_amount" numeric(78, 0);--> statement-breakpoint
-- Before this migration a listing lapsed only when its note moved or burned: say which, from the transfer that closed it.
UPDATE "chain_listings" AS l SET "lapse_reason" = CASE WHEN EXISTS (
	SELECT 1 FROM "chain_transfers" t
	WHERE t."chain_id" = l."chain_id" AND t."tx_hash" = l."closed_tx_hash" AND t."token_id" = l."token_id"
		AND t."to_address" = '0x0000000000000000000000000000000000000000'
) THEN 'burned' ELSE 'moved' END
WHERE l."status" = 'lapsed';
