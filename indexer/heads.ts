/**
 * New heads pushed by the node (eth_subscribe "newHeads" over its WebSocket), so the live follower wakes when a
 * block is mined instead of at its next poll. Polling stays: it is the fallback whenever the socket is down,
 * and the only way for a node without WebSockets.
 */

const RECONNECT_MS = [250, 1_000, 5_000, 30_000];

/** anvil and Hardhat serve WebSocket JSON-RPC on their HTTP port; a remote provider's URL is its own to give. */
export function localHeadsUrl(rpcUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(rpcUrl);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" || !["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) return null;
  url.protocol = "ws:";
  return url.toString();
}

export interface HeadsWatch {
  close(): void;
}

/** A head as announced: its number and hash, so the follower need not ask for them again. */
export interface Head {
  number: number;
  hash: string;
}

/** Calls onHead for every head the node announces, reconnecting (with growing pauses) while it is away. */
export function watchHeads(url: string, onHead: (head: Head) => void, onDown: (reason: string) => void): HeadsWatch {
  let socket: WebSocket | null = null;
  let closed = false;
  let failures = 0;
  let timer: NodeJS.Timeout | null = null;

  const connect = () => {
    timer = null;
    if (closed) return;
    const current = new WebSocket(url);
    socket = current;
    current.onopen = () => current.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_subscribe", params: ["newHeads"] }));
    current.onmessage = (message) => {
      const data = typeof message.data === "string" ? message.data : "";
      // The subscription's notifications; the answer to eth_subscribe itself (id 1) only confirms it.
      if (data.includes('"eth_subscription"')) {
        failures = 0;
        let header: { number?: string; hash?: string } | undefined;
        try {
          header = (JSON.parse(data) as { params?: { result?: { number?: string; hash?: string } } }).params?.result;
        } catch {
          return; // not JSON: nothing to act on; the next poll still finds the block
        }
        if (header?.number && header.hash) onHead({ number: Number(header.number), hash: header.hash });
      } else if (data.includes('"error"')) {
        onDown(`the node refused eth_subscribe: ${data.slice(0, 200)}`);
        current.close();
      }
    };
    current.onclose = () => {
      if (closed || socket !== current) return;
      socket = null;
      const delay = RECONNECT_MS[Math.min(failures++, RECONNECT_MS.length - 1)];
      if (failures === 1) onDown(`the node's WebSocket at ${url} closed; polling until it is back`);
      timer = setTimeout(connect, delay);
      timer.unref();
    };
    // An error is always followed by a close, which handles it.
    current.onerror = () => {};
  };
  connect();

  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      socket?.close();
      socket = null;
    },
  };
}
