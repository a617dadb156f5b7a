import { Spinner } from "../../components/Spinner";
import { useToken } from "./useToken";
import { EventsTable } from "./EventsTable";
import "./explorer.css";

/**
 * Every transaction of a loan's life on-chain (origination, listings, sales, vault moves, repayments, payoff),
 * read from the chain by the note's token id, each linking to its explorer page. For the loan and note pages.
 */
export function TokenHistory({ tokenId }: { tokenId: string }) {
  const info = useToken(BigInt(tokenId));
  if (info.isPending) return <Spinner label="Loading the note's transactions" />;
  if (info.isError || !info.data)
    return (
      <p className="field__error" role="alert">
        The chain could not be reached.
      </p>
    );
  return <EventsTable events={info.data.events} withTx />;
}
