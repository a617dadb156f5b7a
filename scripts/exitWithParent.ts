// Preloaded (--import) into the processes `npm run cluster` starts in their own process group: Ctrl-C reaches
// only the cluster, which stops each child once. Should the cluster itself die, the IPC channel closes and the
// child stops the way SIGTERM stops it (requests finished, the indexer's batch committed), never orphaned.
if (process.channel) {
  process.channel.unref();
  process.once("disconnect", () => process.kill(process.pid, "SIGTERM"));
}
