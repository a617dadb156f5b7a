/** Query keys of the caller's notifications: the bell's newest rows and each page; `all` refetches every one of them. */
export const notificationKeys = {
  all: ["notifications"] as const,
  bell: ["notifications", "bell"] as const,
  page: (page: number) => ["notifications", "page", page] as const,
};
