CREATE TABLE "chain_log_cache" (
	"chain_id" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"block_hash" text NOT NULL,
	"block_time" bigint,
	"tx_hash" text NOT NULL,
	"tx_index" integer NOT NULL,
	"address" text NOT NULL,
	"topics" text NOT NULL,
	"data" text NOT NULL,
	CONSTRAINT "chain_log_cache_chain_id_block_number_log_index_pk" PRIMARY KEY("chain_id","block_number","log_index")
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
