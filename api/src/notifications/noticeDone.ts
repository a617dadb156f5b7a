import { sql } from "drizzle-orm";
import { chainOrderCancellations, chainOrderCounters, chainOrderFills, loans, notifications, orders, users } from "#db/schema";

/**
 * Whether a notice's subject has resolved, so it asks nothing of its reader any more (docs/decisions.md "Stale
 * notices are done"). Computed when notices are read, from the rows that already say so, so no writer (the
 * indexer, an order's judgement, a review) has to remember to touch notifications:
 * - "Offer received": its offer was filled (for an offer on any matching note: filled by the reader's own wallet,
 *   i.e. accepted for their note), cancelled on-chain one by one or by a counter bump, judged filled, cancelled or
 *   expired by the API, or is past its signed expiry.
 * - An admin's "new loan request": the loan is no longer pending (approved or rejected).
 * Every other notice, and any stored before it named its subject, is never done.
 */
export const noticeDone = sql<boolean>`(case
  when ${notifications.type} = 'offer_received' and ${notifications.aboutOrder} is not null then exists (
    select 1 from ${orders} o
    where o.hash = ${notifications.aboutOrder}
      and (
        o.status in ('filled', 'cancelled', 'expired')
        or o.expiry <= extract(epoch from now())
        or exists (
          select 1 from ${chainOrderFills} f
          where f.chain_id = o.chain_id and f.order_hash = o.hash
            and (o.kind <> 'matchingOffer' or lower(f.seller) = (select lower(u.wallet_address) from ${users} u where u.id = ${notifications.userId}))
        )
        or exists (select 1 from ${chainOrderCancellations} c where c.chain_id = o.chain_id and c.order_hash = o.hash)
        or exists (select 1 from ${chainOrderCounters} k where k.chain_id = o.chain_id and lower(k.signer) = o.signer and k.counter > o.counter)
      )
  )
  when ${notifications.type} = 'loan_request' and ${notifications.aboutLoan} is not null then exists (
    select 1 from ${loans} l where l.id = ${notifications.aboutLoan} and l.status <> 'pending'
  )
  else false
end)`;
