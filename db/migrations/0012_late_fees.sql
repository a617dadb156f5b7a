CREATE TABLE "chain_late_fee_payments" (
	"chain_id" integer NOT NULL,
	"tx_hash" text NOT NULL,
	"log_index" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"block_time" timestamp with time zone,
	"token_id" numeric(78, 0) NOT NULL,
	"beneficiary" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"fees_paid_through" integer NOT NULL,
	CONSTRAINT "chain_late_fee_payments_chain_id_tx_hash_log_index_pk" PRIMARY KEY("chain_id","tx_hash","log_index")
);
--> statement-breakpoint
ALTER TABLE "chain_notes" ADD COLUMN "fees_paid_through" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "chain_notes" ADD COLUMN "late_fees_paid" numeric(78, 0) DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "chain_late_fee_payments_token_idx" ON "chain_late_fee_payments" USING btree ("chain_id","token_id");--> statement-breakpoint
CREATE INDEX "chain_late_fee_payments_beneficiary_idx" ON "chain_late_fee_payments" USING btree ("chain_id","beneficiary");