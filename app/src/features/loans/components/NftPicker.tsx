import { lazy, Suspense } from "react";
import { Link } from "react-router";
import { checkedImageDataUri } from "#domain/nftImage";
import type { WireWalletNft } from "#domain/wire/collateral";
import { Spinner } from "../../../components/Spinner";
import { useRuntimeConfig } from "../../../lib/config";
import { shortAddress } from "../../../lib/format";
import { WithWallet } from "../../../lib/wallet/WithWallet";
import { useCollateralCollections } from "../api/getCollateralCollections";
import { useWalletNfts } from "../api/getWalletNfts";

const DemoArtFaucet = lazy(() => import("./DemoArtFaucet"));

export interface PickedNft {
  collection: string;
  tokenId: string;
}

const collectionShort = (nft: Pick<WireWalletNft, "collectionName" | "collection">) => nft.collectionName?.trim() || shortAddress(nft.collection);

/** "Demo Piece #2": the piece's own name, else its collection's with its id. */
export const walletNftTitle = (nft: WireWalletNft) => nft.name?.trim() || `${collectionShort(nft)} #${nft.tokenId}`;

export const samePiece = (a: PickedNft | null, b: PickedNft) => Boolean(a && a.collection.toLowerCase() === b.collection.toLowerCase() && a.tokenId === b.tokenId);

/**
 * The wizard's NFT collateral: the pieces of accepted collections that the verified wallet holds, one
 * card each; a piece already pledged to another request is shown but cannot be picked. Pictures are drawn only as
 * `<img>` of a data URI that passes checkedImageDataUri (docs/decisions.md "Images only as checked data URIs").
 */
export function NftPicker({ picked, onPick, error }: { picked: PickedNft | null; onPick: (nft: WireWalletNft) => void; error?: string }) {
  const nfts = useWalletNfts(true);
  const empty = nfts.data !== undefined && nfts.data.walletAddress !== null && nfts.data.nfts.length === 0;
  const collections = useCollateralCollections(empty);
  const config = useRuntimeConfig().data;
  // The faucet's collection, when this local chain has one and the admin accepts it.
  const demo = config?.isLocalChain ? config.contracts?.demoCollection?.toLowerCase() : undefined;
  const demoCollection = demo && collections.data?.some((c) => c.collection === demo) ? (demo as `0x${string}`) : null;

  if (nfts.isPending)
    return (
      <p className="row gap-sm muted small" role="status" data-testid="nft-picker-loading">
        <Spinner /> Loading the NFTs your wallet holds…
      </p>
    );
  if (nfts.isError) {
    return (
      <div className="alert alert--danger" role="alert" data-testid="nft-picker-error">
        Your NFTs could not be loaded.{" "}
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => void nfts.refetch()}>
          Retry
        </button>
      </div>
    );
  }
  const { walletAddress, nfts: pieces } = nfts.data;
  if (!walletAddress) {
    return (
      <p className="alert alert--warning" role="status" data-testid="nft-picker-no-wallet">
        An NFT is pledged from your verified wallet. <Link to="/profile">Verify a wallet in your profile</Link> to pick one.
      </p>
    );
  }
  if (pieces.length === 0) {
    const accepted = collections.data ?? [];
    return (
      <div className="alert alert--info stack" role="status" data-testid="nft-picker-empty">
        <p>
          Your wallet <code>{shortAddress(walletAddress)}</code> holds no NFT of a collection accepted as collateral.
        </p>
        {collections.isPending ? (
          <p className="small muted">
            <Spinner /> Loading the accepted collections…
          </p>
        ) : accepted.length ? (
          <p className="small">
            Accepted collections:{" "}
            {accepted.map((c, i) => (
              <span key={c.collection}>
                {i ? ", " : ""}
                {c.name ? (
                  <>
                    {c.name} (<code>{shortAddress(c.collection)}</code>)
                  </>
                ) : (
                  <code>{shortAddress(c.collection)}</code>
                )}
              </span>
            ))}
            .
          </p>
        ) : (
          <p className="small muted">No collection is accepted as collateral right now.</p>
        )}
        {demoCollection && (
          <WithWallet>
            <Suspense fallback={<Spinner />}>
              <DemoArtFaucet collection={demoCollection} />
            </Suspense>
          </WithWallet>
        )}
        <p className="small muted">Or choose “Other asset” as the collateral type.</p>
      </div>
    );
  }

  return (
    <fieldset className="nft-picker" data-testid="nft-picker" aria-describedby={error ? "nft-picker-error" : undefined}>
      <legend>Choose the NFT to pledge</legend>
      <p className="field__hint">
        From your verified wallet <code>{shortAddress(walletAddress)}</code>. It stays in your wallet until the loan is funded, then the loan note holds it in escrow until you repay.
      </p>
      <ul className="nft-picker__list">
        {pieces.map((nft) => {
          const title = walletNftTitle(nft);
          const src = checkedImageDataUri(nft.image);
          const taken = nft.pledgedLoanId !== null;
          const id = `nft-${nft.collection}-${nft.tokenId}`;
          const chosen = samePiece(picked, nft);
          return (
            <li key={id} className={`nft-pick${chosen ? " is-chosen" : ""}${taken ? " is-taken" : ""}`} data-testid="nft-pick" data-token-id={nft.tokenId} data-collection={nft.collection}>
              <input type="radio" id={id} name="pledged-nft" checked={chosen} disabled={taken} onChange={() => onPick(nft)} aria-describedby={taken ? `${id}-taken` : undefined} />
              <label htmlFor={id}>
                {src ? (
                  <img className="nft-pick__image" src={src} alt="" loading="lazy" decoding="async" />
                ) : (
                  <span className="nft-pick__image nft-pick__image--none" aria-hidden="true">
                    #{nft.tokenId}
                  </span>
                )}
                <strong className="nft-pick__title">{title}</strong>
                <span className="small muted">
                  {collectionShort(nft)} · #{nft.tokenId}
                </span>
              </label>
              {taken && (
                <p className="small nft-pick__taken" id={`${id}-taken`}>
                  Already pledged to another request. <Link to={`/loans/${nft.pledgedLoanId}`}>View it</Link>
                </p>
              )}
            </li>
          );
        })}
      </ul>
      {error && (
        <p className="field__error" id="nft-picker-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
