/** A day as the borrower's pages show it ("11/26/2026"). */
export const dateText = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString() : "—");
