CREATE TABLE "outbox_deliveries" (
	"outbox_id" bigint PRIMARY KEY NOT NULL,
	"delivered_at" timestamp with time zone,
	"emitted" boolean DEFAULT false NOT NULL,
	"notification_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL
);
--> statement-breakpoint
CREATE INDEX "outbox_deliveries_pending_idx" ON "outbox_deliveries" USING btree ("outbox_id") WHERE delivered_at is null;--> statement-breakpoint
-- Rows the outbox held before this migration count as delivered: nobody is waiting for them any more.
INSERT INTO "outbox_deliveries" ("outbox_id", "delivered_at") SELECT "id", now() FROM "chain_outbox";--> statement-breakpoint
-- Each outbox row gets its pending delivery row in the writer's own transaction (one statement per batch insert),
-- and the API's listeners are woken when that transaction commits (never for one rolled back).
CREATE FUNCTION "outbox_deliveries_enqueue"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "outbox_deliveries" ("outbox_id") SELECT "id" FROM inserted;
  PERFORM pg_notify('outbox_deliveries', '');
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "chain_outbox_enqueue" AFTER INSERT ON "chain_outbox" REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "outbox_deliveries_enqueue"();
