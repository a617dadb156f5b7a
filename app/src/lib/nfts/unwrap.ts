import type { Envelope } from "../http";

/** The envelope's data of an NFT endpoint's answer. */
export const unwrap = <T>(p: Promise<{ data: Envelope<T> }>) => p.then((r) => r.data.data);
