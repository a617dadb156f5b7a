import { useQuery } from "@tanstack/react-query";
import type { Hash } from "viem";
import { useRuntimeConfig } from "../../../lib/config";
import { chainClient, decodeCall, knownContracts } from "../../../lib/explorer/chain";

/** The reason kept with a vault move: the data of the deposit's safeTransferFrom, or the note after the withdrawal's arguments. */
export function MoveReason({ hash }: { hash: string }) {
  const config = useRuntimeConfig().data;
  const reason = useQuery({
    queryKey: ["vault", "reason", hash],
    enabled: Boolean(config),
    staleTime: Infinity,
    queryFn: async () => {
      const tx = await chainClient(config!).getTransaction({ hash: hash as Hash });
      const call = decodeCall(tx.to, tx.input, knownContracts(config!));
      if (!call) return null;
      if (call.note) return call.note;
      const data = call.args.find((a) => a.name === "data");
      return data && typeof data.value === "object" && data.value.kind === "text" ? data.value.value : null;
    },
  });
  return <>{reason.data ?? <span className="muted">—</span>}</>;
}
