ALTER TABLE "loans" ALTER COLUMN "loan_number" SET DATA TYPE numeric(78, 0);--> statement-breakpoint
ALTER TABLE "loans" ALTER COLUMN "loan_number" SET DEFAULT nextval('loan_number_seq');--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "refinanced_to" uuid;--> statement-breakpoint
ALTER TABLE "loans" ADD COLUMN "refinanced_from" uuid;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_refinanced_to_loans_id_fk" FOREIGN KEY ("refinanced_to") REFERENCES "public"."loans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "loans" ADD CONSTRAINT "loans_refinanced_from_loans_id_fk" FOREIGN KEY ("refinanced_from") REFERENCES "public"."loans"("id") ON DELETE set null ON UPDATE no action;