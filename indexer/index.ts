export { startIndexer, OUTBOX_CHANNEL, type Indexer, type IndexerOptions, type IndexerStatus, type BatchInfo, type Logger } from "./sync";
export { rollback } from "./reorg";
export { clearMirror } from "./mirror";
export { reindex } from "./reindex";
