CREATE TABLE "chain_collateral" (
	"chain_id" integer NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"collection" text NOT NULL,
	"collateral_id" numeric(78, 0) NOT NULL,
	"borrower" text NOT NULL,
	"state" text NOT NULL,
	"locked_tx_hash" text NOT NULL,
	"locked_block" bigint NOT NULL,
	"locked_time" timestamp with time zone,
	"closed_tx_hash" text,
	"closed_to" text,
	"updated_block" bigint NOT NULL,
	CONSTRAINT "chain_collateral_chain_id_token_id_pk" PRIMARY KEY("chain_id","token_id")
);
--> statement-breakpoint
CREATE TABLE "chain_collections" (
	"chain_id" integer NOT NULL,
	"collection" text NOT NULL,
	"allowed" boolean NOT NULL,
	"slot" integer NOT NULL,
	"allowed_block" bigint NOT NULL,
	"updated_block" bigint NOT NULL,
	CONSTRAINT "chain_collections_chain_id_collection_pk" PRIMARY KEY("chain_id","collection")
);
--> statement-breakpoint
CREATE TABLE "chain_nft_owners" (
	"chain_id" integer NOT NULL,
	"collection" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"owner" text NOT NULL,
	"updated_block" bigint NOT NULL,
	CONSTRAINT "chain_nft_owners_chain_id_collection_token_id_pk" PRIMARY KEY("chain_id","collection","token_id")
);
--> statement-breakpoint
CREATE TABLE "nft_metadata" (
	"chain_id" integer NOT NULL,
	"collection" text NOT NULL,
	"token_id" numeric(78, 0) NOT NULL,
	"collection_name" text,
	"name" text,
	"image" text,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "nft_metadata_chain_id_collection_token_id_pk" PRIMARY KEY("chain_id","collection","token_id")
);
--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "collateral_collection" text;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "collateral_token_id" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "collateral_appraisal" numeric(78, 0);--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "collateral_appraised_by" uuid;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "collateral_appraised_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "chain_collateral_piece_idx" ON "chain_collateral" USING btree ("chain_id","collection","collateral_id");--> statement-breakpoint
CREATE INDEX "chain_collateral_borrower_idx" ON "chain_collateral" USING btree ("chain_id","borrower");--> statement-breakpoint
CREATE INDEX "chain_nft_owners_owner_idx" ON "chain_nft_owners" USING btree ("chain_id","owner");--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_collateral_appraised_by_users_id_fk" FOREIGN KEY ("collateral_appraised_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "loans_collateral_piece_idx" ON "loans" USING btree ("collateral_collection","collateral_token_id");--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_collateral_piece_check" CHECK (("loans"."collateral_collection" is null) = ("loans"."collateral_token_id" is null));--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_collateral_appraisal_check" CHECK ("loans"."collateral_appraisal" is null or "loans"."collateral_appraisal" > 0);