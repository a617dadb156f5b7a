import { QueryClient } from "@tanstack/react-query";

/** One retry and five minutes stale, library defaults otherwise. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: 1, staleTime: 5 * 60 * 1000 },
  },
});
