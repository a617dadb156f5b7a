import { sql } from "drizzle-orm";
import type { Db } from "#db/connect";

/**
 * `notes` listed notes (with their loans, owned by `userId`), as the indexer would have written them, and a cursor
 * past them: the marketplace's reads get a realistic table without minting ten thousand notes on a chain.
 */
export async function seedMirror(db: Db, userId: string, notes: number, chainId = 31337): Promise<void> {
  await db.execute(sql`
    insert into loans (id, loan_number, user_id, amount, principal, purpose, rate_bps, term_months, status, mint_status, listing_status, approval_date)
    select gen_random_uuid(), g, ${userId}::uuid, ((1000 + (g * 37) % 49000)::bigint * 1000000)::numeric, ((1000 + (g * 37) % 49000)::bigint * 1000000)::numeric,
      (array['personal','business','education','home_improvement','debt_consolidation','medical','investment','other'])[1 + g % 8],
      100 + (g * 13) % 2000, 1 + (g * 7) % 60, 'active', 'minted', 'listed', now()
    from generate_series(1, ${notes}) g`);
  // Loans asked for later (through the API or a bench) must not collide with these numbers.
  await db.execute(sql`select setval('loan_number_seq', (select max(loan_number) from loans))`);
  await db.execute(sql`
    insert into chain_notes (chain_id, token_id, borrower, owner, holder, principal, rate_bps, term_months, start_time, origin_tx_hash, origin_block, origin_time, updated_block)
    select ${chainId}, g, '0x' || lpad(to_hex(g), 40, '0'), '0x' || lpad(to_hex(1000000 + g % 300), 40, '0'), '0x' || lpad(to_hex(1000000 + g % 300), 40, '0'),
      ((1000 + (g * 37) % 49000)::bigint * 1000000)::numeric, 100 + (g * 13) % 2000, 1 + (g * 7) % 60, 1700000000 + g, '0x' || lpad(to_hex(g), 64, '0'), g, now(), g
    from generate_series(1, ${notes}) g`);
  await db.execute(sql`
    insert into chain_listings (chain_id, tx_hash, log_index, block_number, block_time, token_id, seller, price, status, updated_block)
    select ${chainId}, '0x' || lpad(to_hex(g + 5000000), 64, '0'), 0, g + 1, now(), g, '0x' || lpad(to_hex(1000000 + g % 300), 40, '0'),
      ((1000 + (g * 37) % 49000)::bigint * 1000000)::numeric, 'active', g + 1
    from generate_series(1, ${notes}) g`);
  await db.execute(sql`
    insert into chain_cursors (chain_id, genesis_hash, deployment_key, block_number, block_hash)
    values (${chainId}, ${"0x" + "1".repeat(64)}, 'bench', ${notes + 1}, ${"0x" + "2".repeat(64)})`);
  await db.execute(sql`analyze`);
}
