export const percentText = (rate: number | null | undefined) => (rate === null || rate === undefined ? "—" : `${rate}%`);

export const dateText = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" }) : "—");

export const dateTimeText = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : "—");
