/** "0x5fbd…0aa3": how the server's stored and answered texts (notices, the timeline, the assistant) shorten an address. */
export const shortAddress = (address: string): string => `${address.slice(0, 6)}…${address.slice(-4)}`;
