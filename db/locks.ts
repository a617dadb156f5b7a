/**
 * Namespace (first key) of the indexer's writer lock, a Postgres advisory lock whose second key is the chain id.
 * The indexer takes it and the API's health check looks for it in pg_locks, so both read it from here.
 */
export const INDEXER_LOCK_NAMESPACE = 724_113;
