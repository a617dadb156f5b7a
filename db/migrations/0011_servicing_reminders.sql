CREATE TABLE "servicing_reminders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"loan_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"installment" integer NOT NULL,
	"recipient_id" uuid NOT NULL,
	"notification_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "servicing_states" (
	"loan_id" uuid NOT NULL,
	"days_past_due" integer DEFAULT 0 NOT NULL,
	"late_installment" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "servicing_states_loan_id_pk" PRIMARY KEY("loan_id")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "reminders_muted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "servicing_reminders" ADD CONSTRAINT "servicing_reminders_loan_id_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "servicing_reminders" ADD CONSTRAINT "servicing_reminders_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "servicing_reminders" ADD CONSTRAINT "servicing_reminders_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "servicing_states" ADD CONSTRAINT "servicing_states_loan_id_loans_id_fk" FOREIGN KEY ("loan_id") REFERENCES "public"."loans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "servicing_reminders_key" ON "servicing_reminders" USING btree ("loan_id","kind","installment","recipient_id");--> statement-breakpoint
CREATE INDEX "servicing_reminders_recipient_idx" ON "servicing_reminders" USING btree ("recipient_id");--> statement-breakpoint
-- Loans that defaulted before reminders existed count as reminded, so the first tick does not announce old defaults.
INSERT INTO "servicing_reminders" ("loan_id", "kind", "installment", "recipient_id") SELECT "id", 'defaulted', 0, "user_id" FROM "loans" WHERE "status" = 'defaulted';
