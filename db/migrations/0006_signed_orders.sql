CREATE TABLE "chain_order_cancellations" (
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone,
	"signer" text NOT NULL,
	"order_hash" text NOT NULL,
	CONSTRAINT "chain_order_cancellations_chain_id_tx_hash_log_index_pk" PRIMARY KEY("chain_id","tx_hash","log_index")
);
--> statement-breakpoint
CREATE TABLE "chain_order_counters" (
	"chain_id" integer NOT NULL,
	"signer" text NOT NULL,
	"counter" numeric(78, 0) NOT NULL,
	"updated_block" bigint NOT NULL,
	CONSTRAINT "chain_order_counters_chain_id_signer_pk" PRIMARY KEY("chain_id","signer")
);
--> statement-breakpoint
CREATE TABLE "chain_order_fills" (
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone,
	"order_hash" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"seller" text NOT NULL,
	"buyer" text NOT NULL,
	"price" numeric(78, 0) NOT NULL,
	"fee" numeric(78, 0) NOT NULL,
	CONSTRAINT "chain_order_fills_chain_id_tx_hash_log_index_pk" PRIMARY KEY("chain_id","tx_hash","log_index")
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"hash" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"kind" text NOT NULL,
	"signer" text NOT NULL,
	"token_id" numeric(78, 0),
	"price" numeric(78, 0) DEFAULT 0 NOT NULL,
	"par_bps" integer DEFAULT 0 NOT NULL,
	"cap" numeric(78, 0),
	"changes" numeric(78, 0),
	"min_rate_bps" integer,
	"max_rate_bps" integer,
	"min_term_left" numeric(78, 0),
	"max_term_left" numeric(78, 0),
	"min_outstanding" numeric(78, 0),
	"max_outstanding" numeric(78, 0),
	"budget" numeric(78, 0),
	"expiry" numeric(78, 0) NOT NULL,
	"salt" numeric(78, 0) NOT NULL,
	"counter" numeric(78, 0) NOT NULL,
	"signature" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"status_reason" text,
	"filled" numeric(78, 0) DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "chain_order_cancellations_order_idx" ON "chain_order_cancellations" USING btree ("chain_id","signer","order_hash");--> statement-breakpoint
CREATE INDEX "chain_order_fills_order_idx" ON "chain_order_fills" USING btree ("chain_id","order_hash");--> statement-breakpoint
CREATE INDEX "chain_order_fills_token_idx" ON "chain_order_fills" USING btree ("chain_id","token_id");--> statement-breakpoint
CREATE INDEX "orders_token_status_idx" ON "orders" USING btree ("token_id","status");--> statement-breakpoint
CREATE INDEX "orders_signer_status_idx" ON "orders" USING btree ("signer","status");--> statement-breakpoint
CREATE INDEX "orders_kind_status_idx" ON "orders" USING btree ("kind","status");