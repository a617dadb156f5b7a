export { startIndexer, rollback, clearMirror, OUTBOX_CHANNEL, type Indexer, type IndexerOptions, type IndexerStatus, type BatchInfo, type Logger } from "./sync";
export { reindex } from "./reindex";
