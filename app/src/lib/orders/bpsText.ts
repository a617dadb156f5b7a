/** Basis points as a percentage: 9900 → "99%", 9850 → "98.5%", 9725 → "97.25%". */
export function bpsText(bps: bigint | number): string {
  const value = BigInt(bps);
  const whole = value / 100n;
  const rest = (value % 100n).toString().padStart(2, "0").replace(/0+$/, "");
  return `${whole}${rest ? `.${rest}` : ""}%`;
}
