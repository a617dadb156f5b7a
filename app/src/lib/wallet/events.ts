/** Why a wallet connection failed; each screen words it its own way. */
export type ConnectFailure = "rejected" | "pending" | "no-accounts" | "failed";

type Listener = (failure: ConnectFailure) => void;
const listeners = new Set<Listener>();

export function onConnectFailure(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function reportConnectFailure(failure: ConnectFailure) {
  for (const l of listeners) l(failure);
}

/** EIP-1193 error codes: 4001 the user said no, -32002 a request is already open in the wallet. */
export function errorCode(error: unknown): number | undefined {
  let e: unknown = error;
  for (let i = 0; i < 5 && e && typeof e === "object"; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "number") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

export function classifyConnectError(error: unknown): ConnectFailure {
  const code = errorCode(error);
  if (code === 4001) return "rejected";
  if (code === -32002) return "pending";
  const name = (error as { name?: string } | null)?.name ?? "";
  if (name === "UserRejectedRequestError") return "rejected";
  if (name === "ResourceUnavailableRpcError") return "pending";
  return "failed";
}

export function isUserRejection(error: unknown): boolean {
  return classifyConnectError(error) === "rejected";
}
