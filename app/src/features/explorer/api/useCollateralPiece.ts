import { useQuery } from "@tanstack/react-query";
import { erc721Abi, type Address } from "viem";
import { checkedImageDataUri } from "#domain/nftImage";
import type { WirePledgedNft } from "#domain/wire/collateral";
import { useRuntimeConfig } from "../../../lib/config";
import { chainClient } from "../../../lib/explorer/chain";
import { metadataOfDataUri, type TokenCollateral } from "../../../lib/explorer/tokenCollateral";

/**
 * The escrowed piece as its collection describes it on-chain: the collection's name and the piece's tokenURI
 * metadata (name, and the image only when it is a checked image data URI). The appraisal is the platform's, not
 * the chain's, so it is not here.
 */
export function useCollateralPiece(collateral: TokenCollateral | null) {
  const config = useRuntimeConfig().data;
  return useQuery({
    queryKey: ["explorer", "token", "collateral", collateral?.collection, collateral?.collateralId, collateral?.state],
    enabled: Boolean(config && collateral),
    staleTime: 60_000,
    queryFn: async (): Promise<WirePledgedNft> => {
      const client = chainClient(config!);
      const c = collateral!;
      const address = c.collection as Address;
      const [collectionName, uri] = await Promise.all([
        client.readContract({ address, abi: erc721Abi, functionName: "name" }).catch(() => null),
        client.readContract({ address, abi: erc721Abi, functionName: "tokenURI", args: [BigInt(c.collateralId)] }).catch(() => null),
      ]);
      const metadata = metadataOfDataUri(uri);
      return {
        collection: c.collection,
        collectionName: collectionName ? collectionName.slice(0, 100) : null,
        tokenId: c.collateralId,
        name: metadata?.name ?? null,
        image: checkedImageDataUri(metadata?.image),
        state: c.state,
        appraisal: null,
        loanToValueBps: null,
        txHash: c.txHash,
        receiver: c.receiver,
      };
    },
  });
}
