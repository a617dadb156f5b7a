CREATE TABLE "chain_blocks" (
	"chain_id" integer NOT NULL,
	"number" bigint NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "chain_blocks_chain_id_number_pk" PRIMARY KEY("chain_id","number")
);
--> statement-breakpoint
CREATE TABLE "chain_credit_withdrawals" (
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone,
	"account" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	CONSTRAINT "chain_credit_withdrawals_chain_id_tx_hash_log_index_pk" PRIMARY KEY("chain_id","tx_hash","log_index")
);
--> statement-breakpoint
CREATE TABLE "chain_credits" (
	"chain_id" integer NOT NULL,
	"account" text NOT NULL,
	"credited" numeric(78, 0) DEFAULT 0 NOT NULL,
	"withdrawn" numeric(78, 0) DEFAULT 0 NOT NULL,
	"updated_block" bigint NOT NULL,
	CONSTRAINT "chain_credits_chain_id_account_pk" PRIMARY KEY("chain_id","account")
);
--> statement-breakpoint
CREATE TABLE "chain_cursors" (
	"chain_id" integer PRIMARY KEY NOT NULL,
	"genesis_hash" text NOT NULL,
	"deployment_key" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"silent_until" bigint DEFAULT -1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_listings" (
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone,
	"token_id" numeric(78, 0) NOT NULL,
	"seller" text NOT NULL,
	"price" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"updated_block" bigint NOT NULL,
	"closed_tx_hash" text,
	CONSTRAINT "chain_listings_chain_id_tx_hash_log_index_pk" PRIMARY KEY("chain_id","tx_hash","log_index")
);
--> statement-breakpoint
CREATE TABLE "chain_notes" (
	"chain_id" integer NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"borrower" text NOT NULL,
	"owner" text NOT NULL,
	"holder" text NOT NULL,
	"principal" numeric(78, 0) NOT NULL,
	"rate_bps" integer NOT NULL,
	"term_months" integer NOT NULL,
	"start_time" bigint NOT NULL,
	"total_repaid" numeric(78, 0) DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"burned" boolean DEFAULT false NOT NULL,
	"origin_tx_hash" text NOT NULL,
	"origin_block" bigint NOT NULL,
	"origin_time" timestamp with time zone,
	"updated_block" bigint NOT NULL,
	CONSTRAINT "chain_notes_chain_id_token_id_pk" PRIMARY KEY("chain_id","token_id")
);
--> statement-breakpoint
CREATE TABLE "chain_outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"event" text NOT NULL,
	"rooms" text[] NOT NULL,
	"payload" jsonb NOT NULL,
	"kind" text DEFAULT 'event' NOT NULL,
	"corrects_id" bigint,
	"reverted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chain_repayments" (
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone,
	"token_id" numeric(78, 0) NOT NULL,
	"payer" text NOT NULL,
	"beneficiary" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"total_repaid" numeric(78, 0) NOT NULL,
	CONSTRAINT "chain_repayments_chain_id_tx_hash_log_index_pk" PRIMARY KEY("chain_id","tx_hash","log_index")
);
--> statement-breakpoint
CREATE TABLE "chain_sales" (
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone,
	"token_id" numeric(78, 0) NOT NULL,
	"seller" text NOT NULL,
	"buyer" text NOT NULL,
	"price" numeric(78, 0) NOT NULL,
	"fee" numeric(78, 0) NOT NULL,
	CONSTRAINT "chain_sales_chain_id_tx_hash_log_index_pk" PRIMARY KEY("chain_id","tx_hash","log_index")
);
--> statement-breakpoint
CREATE TABLE "chain_transfers" (
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone,
	"token_id" numeric(78, 0) NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	CONSTRAINT "chain_transfers_chain_id_tx_hash_log_index_pk" PRIMARY KEY("chain_id","tx_hash","log_index")
);
--> statement-breakpoint
CREATE TABLE "chain_undo" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"table_name" text NOT NULL,
	"row_key" jsonb NOT NULL,
	"previous" jsonb
);
--> statement-breakpoint
CREATE TABLE "chain_vault_moves" (
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone,
	"token_id" numeric(78, 0) NOT NULL,
	"account" text NOT NULL,
	"kind" text NOT NULL,
	CONSTRAINT "chain_vault_moves_chain_id_tx_hash_log_index_pk" PRIMARY KEY("chain_id","tx_hash","log_index")
);
--> statement-breakpoint
CREATE TABLE "chain_vault_positions" (
	"chain_id" integer NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"depositor" text NOT NULL,
	"active" boolean NOT NULL,
	"deposit_tx_hash" text NOT NULL,
	"deposit_block" bigint NOT NULL,
	"updated_block" bigint NOT NULL,
	CONSTRAINT "chain_vault_positions_chain_id_token_id_pk" PRIMARY KEY("chain_id","token_id")
);
--> statement-breakpoint
CREATE INDEX "chain_credit_withdrawals_account_idx" ON "chain_credit_withdrawals" USING btree ("chain_id","account");--> statement-breakpoint
CREATE INDEX "chain_listings_token_idx" ON "chain_listings" USING btree ("chain_id","token_id","status");--> statement-breakpoint
CREATE INDEX "chain_listings_status_idx" ON "chain_listings" USING btree ("chain_id","status");--> statement-breakpoint
CREATE INDEX "chain_notes_holder_idx" ON "chain_notes" USING btree ("chain_id","holder");--> statement-breakpoint
CREATE INDEX "chain_notes_borrower_idx" ON "chain_notes" USING btree ("chain_id","borrower");--> statement-breakpoint
CREATE INDEX "chain_outbox_block_idx" ON "chain_outbox" USING btree ("chain_id","block_number");--> statement-breakpoint
CREATE INDEX "chain_repayments_token_idx" ON "chain_repayments" USING btree ("chain_id","token_id");--> statement-breakpoint
CREATE INDEX "chain_sales_token_idx" ON "chain_sales" USING btree ("chain_id","token_id");--> statement-breakpoint
CREATE INDEX "chain_transfers_token_idx" ON "chain_transfers" USING btree ("chain_id","token_id");--> statement-breakpoint
CREATE INDEX "chain_transfers_from_idx" ON "chain_transfers" USING btree ("chain_id","from_address");--> statement-breakpoint
CREATE INDEX "chain_transfers_to_idx" ON "chain_transfers" USING btree ("chain_id","to_address");--> statement-breakpoint
CREATE INDEX "chain_undo_block_idx" ON "chain_undo" USING btree ("chain_id","block_number");--> statement-breakpoint
CREATE INDEX "chain_vault_moves_token_idx" ON "chain_vault_moves" USING btree ("chain_id","token_id");--> statement-breakpoint
CREATE INDEX "chain_vault_positions_depositor_idx" ON "chain_vault_positions" USING btree ("chain_id","depositor","active");