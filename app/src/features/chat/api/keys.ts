/** react-query keys of the chat feature. */
export const chatHistoryKey = ["chatbot", "history"] as const;
