CREATE TABLE "chain_log_cache" (
	"chain_id" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"address" text NOT NULL,
	"block_hash" text NOT NULL,
	"block_time" bigint,
	"log_count" integer NOT NULL,
	"logs" text NOT NULL,
	CONSTRAINT "chain_log_cache_chain_id_block_number_address_pk" PRIMARY KEY("chain_id","block_number","address")
);
--> statement-breakpoint
CREATE TABLE "chain_log_ranges" (
	"chain_id" integer NOT NULL,
	"source" text NOT NULL,
	"from_block" bigint NOT NULL,
	"to_block" bigint NOT NULL,
	"to_hash" text NOT NULL,
	"parent_hash" text NOT NULL,
	CONSTRAINT "chain_log_ranges_chain_id_source_from_block_pk" PRIMARY KEY("chain_id","source","from_block")
);
--> statement-breakpoint
-- Logs are hex: compressing them as they are written cost the backfill more CPU than the disk they save.
ALTER TABLE "chain_log_cache" ALTER COLUMN "logs" SET STORAGE EXTERNAL;
