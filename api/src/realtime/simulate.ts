import { SERVER_EVENTS, type ServerEventName, type ServerEventPayloads } from "#domain/events";
import { formatUsdAmount, parseUsd } from "#domain/money";

/** Test-page events: sent only to the caller, never stored, marked simulated. */
export const SIMULATE_EVENTS = ["simulate:loan:request", "simulate:loan:approval", "simulate:kyc:approval", "simulate:loan:funded"] as const;
export type SimulateEvent = (typeof SIMULATE_EVENTS)[number];

type Simulated = { [N in ServerEventName]: { name: N; payload: ServerEventPayloads[N] & { simulated: true } } }[ServerEventName];

const DEFAULT_AMOUNT = "5000";

/** The caller may pick the amount; anything that is not a USD amount falls back to the demo one. */
function amountFrom(data: unknown): string {
  const raw = (data as { amount?: unknown } | null)?.amount;
  try {
    if (typeof raw === "string" || typeof raw === "number") {
      const micro = parseUsd(raw);
      if (micro > 0n && micro <= parseUsd("1000000")) return formatUsdAmount(micro);
    }
  } catch {
    // not an amount: use the default
  }
  return DEFAULT_AMOUNT;
}

export function simulatedEvents(kind: SimulateEvent, data: unknown): Simulated[] {
  const amount = amountFrom(data);
  const simulated = true as const;
  switch (kind) {
    case "simulate:loan:request":
      return [
        { name: SERVER_EVENTS.loanNew, payload: { status: "pending", amount, simulated } },
        {
          name: SERVER_EVENTS.adminNotification,
          payload: { type: "loan_request", message: `New loan request for $${amount} (simulated)`, simulated },
        },
      ];
    case "simulate:loan:approval":
      return [{ name: SERVER_EVENTS.loanStatus, payload: { status: "approved", amount, rejectionReason: null, simulated } }];
    case "simulate:kyc:approval":
      return [{ name: SERVER_EVENTS.kycStatus, payload: { status: "approved", rejectionReason: null, simulated } }];
    case "simulate:loan:funded":
      return [{ name: SERVER_EVENTS.loanFunded, payload: { amount, nftId: "0", simulated } }];
  }
}
