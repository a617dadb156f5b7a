import { and, desc, eq, ne, sql } from "drizzle-orm";
import type { Db } from "#db/connect";
import { chainListings, chainNotes, loans, users } from "#db/schema";
import { formatUsdAmount } from "#domain/money";
import { percent } from "../loans/wire";

/**
 * GET /nfts/admin/all: every loan that has (or tried to have) a note, as the spec's marketplace NFT record, with
 * the owner and listing from the chain mirror, so admins see minted, listed and failed notes in one list.
 */
export async function allNfts(db: Db, options: { chainId: number; loanNote: string | null; page: number; limit: number; mintStatus?: string }) {
  const where = and(ne(loans.mintStatus, "none"), options.mintStatus ? eq(loans.mintStatus, options.mintStatus as never) : undefined);
  const listing = db
    .select({ tokenId: chainListings.tokenId, price: chainListings.price, seller: chainListings.seller, blockTime: chainListings.blockTime })
    .from(chainListings)
    .where(and(eq(chainListings.chainId, options.chainId), eq(chainListings.status, "active")))
    .as("listing");
  const rows = await db
    .select({
      loan: loans,
      email: users.email,
      owner: chainNotes.owner,
      holder: chainNotes.holder,
      burned: chainNotes.burned,
      listingPrice: listing.price,
      listingTime: listing.blockTime,
    })
    .from(loans)
    .innerJoin(users, eq(users.id, loans.userId))
    .leftJoin(chainNotes, and(eq(chainNotes.chainId, options.chainId), sql`${chainNotes.tokenId} = ${loans.loanNumber}::numeric`))
    .leftJoin(listing, sql`${listing.tokenId} = ${loans.loanNumber}::numeric`)
    .where(where)
    .orderBy(desc(loans.loanNumber))
    .limit(options.limit)
    .offset((options.page - 1) * options.limit);
  const [{ count }] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(loans)
    .where(where);
  const nfts = rows.map((r) => {
    const tokenId = r.loan.loanNumber.toString();
    const principal = r.loan.principal ?? r.loan.amount;
    const listed = r.listingPrice !== null;
    return {
      _id: r.loan.id,
      loanId: r.loan.id,
      tokenId,
      contractAddress: options.loanNote,
      transactionHash: r.loan.nftTransactionHash,
      ownerAddress: r.holder ?? r.owner ?? null,
      previousOwners: [],
      borrowerEmail: r.email,
      mintStatus: r.loan.mintStatus,
      mintError: r.loan.mintError,
      listingStatus: r.loan.listingStatus,
      metadata: {
        name: `LoanMint Note #${tokenId}`,
        description: `Loan #${tokenId}: ${formatUsdAmount(principal)} USD at ${percent(r.loan.rateBps)}% for ${r.loan.termMonths} months`,
        image: null,
        attributes: [
          { trait_type: "Principal", value: formatUsdAmount(principal) },
          { trait_type: "Interest Rate", value: percent(r.loan.rateBps) },
          { trait_type: "Term Months", value: r.loan.termMonths },
        ],
        loanDetails: {
          amount: formatUsdAmount(principal),
          interestRate: percent(r.loan.rateBps),
          termMonths: r.loan.termMonths,
          purpose: r.loan.purpose,
          status: r.loan.status,
          approvalDate: r.loan.approvalDate?.toISOString() ?? null,
        },
      },
      marketplaceStatus: listed ? "listed" : r.burned ? "burned" : r.loan.mintStatus === "minted" ? "unlisted" : r.loan.mintStatus,
      listingPrice: listed ? formatUsdAmount(r.listingPrice!) : null,
      listingDate: r.listingTime?.toISOString() ?? null,
      isActive: r.loan.mintStatus === "minted" && !r.burned && (r.loan.status === "active" || r.loan.status === "defaulted"),
      createdAt: r.loan.createdAt.toISOString(),
      updatedAt: r.loan.updatedAt.toISOString(),
    };
  });
  return { nfts, pagination: { page: options.page, limit: options.limit, total: count, totalPages: Math.max(1, Math.ceil(count / options.limit)) } };
}
