ALTER TABLE "notifications" ADD COLUMN "about_order" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "about_loan" uuid;--> statement-breakpoint
-- Review requests stored before the column name their loan only in the link; this lets them show as done too.
UPDATE "notifications" SET "about_loan" = substring("link" from 'loan=([0-9a-f-]{36})')::uuid WHERE "type" = 'loan_request' AND "link" ~ 'loan=[0-9a-f-]{36}';
