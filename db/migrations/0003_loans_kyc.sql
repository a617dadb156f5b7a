CREATE TABLE "loan_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"action" text NOT NULL,
	"actor_id" uuid,
	"notes" text,
	"tx_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "loans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_number" bigint DEFAULT nextval('loan_number_seq') NOT NULL,
	"user_id" uuid NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"principal" numeric(78, 0),
	"purpose" text NOT NULL,
	"rate_bps" integer NOT NULL,
	"term_months" integer NOT NULL,
	"collateral" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"mint_status" text DEFAULT 'none' NOT NULL,
	"listing_status" text DEFAULT 'none' NOT NULL,
	"borrower_wallet" text,
	"rejection_reason" text,
	"admin_notes" text,
	"mint_tx_hash" text,
	"nft_token_id" text,
	"nft_transaction_hash" text,
	"note_start" bigint,
	"mint_error" text,
	"listing_tx_hash" text,
	"listing_error" text,
	"approved_by" uuid,
	"approval_date" timestamp with time zone,
	"rejection_date" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"defaulted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "loans_status_check" CHECK ("loans"."status" in ('pending', 'approved', 'active', 'completed', 'rejected', 'defaulted')),
	CONSTRAINT "loans_mint_status_check" CHECK ("loans"."mint_status" in ('none', 'minting', 'minted', 'failed')),
	CONSTRAINT "loans_listing_status_check" CHECK ("loans"."listing_status" in ('none', 'listing', 'listed', 'failed')),
	CONSTRAINT "loans_principal_check" CHECK ("loans"."principal" is null or ("loans"."principal" > 0 and "loans"."principal" <= "loans"."amount"))
);
--> statement-breakpoint
CREATE TABLE "kyc_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"submission_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"original_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kyc_documents_kind_check" CHECK ("kyc_documents"."kind" in ('idDocument', 'proofOfAddress', 'proofOfIncome'))
);
--> statement-breakpoint
CREATE TABLE "kyc_submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"id_document_type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone,
	"notes" text,
	"rejection_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "kyc_submissions_status_check" CHECK ("kyc_submissions"."status" in ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "loan_events" ADD CONSTRAINT "loan_events_loan_id_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loan_events" ADD CONSTRAINT "loan_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_documents" ADD CONSTRAINT "kyc_documents_submission_id_kyc_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."kyc_submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_documents" ADD CONSTRAINT "kyc_documents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_submissions" ADD CONSTRAINT "kyc_submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kyc_submissions" ADD CONSTRAINT "kyc_submissions_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "loan_events_loan_idx" ON "loan_events" USING btree ("loan_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "loans_loan_number_unique" ON "loans" USING btree ("loan_number");--> statement-breakpoint
CREATE INDEX "loans_user_created_idx" ON "loans" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "loans_status_idx" ON "loans" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "loans_mint_status_idx" ON "loans" USING btree ("mint_status");--> statement-breakpoint
CREATE INDEX "kyc_documents_user_idx" ON "kyc_documents" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "kyc_submissions_user_idx" ON "kyc_submissions" USING btree ("user_id","created_at");