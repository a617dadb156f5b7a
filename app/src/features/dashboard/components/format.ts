import { displayUsd, parseUsd } from "#domain/money";

export const usd = (value: string | null | undefined) => (value == null ? "—" : displayUsd(parseUsd(value)));
