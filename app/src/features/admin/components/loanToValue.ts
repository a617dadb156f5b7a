import { parseUsd, typedUsd } from "#domain/money";

/** Micro-dollars of what the admin typed ("1,500.00"), or null while it is not an amount. */
export function typedMicro(text: string): bigint | null {
  try {
    return parseUsd(typedUsd(text));
  } catch {
    return null;
  }
}
