/** Every word the bell, the notifications page and the dashboard's link to it show, in one place. */
export const NOTIFICATION_UI = {
  title: "Notifications",
  bellLabel: (unread: number) => (unread ? `Notifications, ${unread} unread` : "Notifications"),
  markAllRead: "Mark all read",
  markRead: "Mark read",
  seeAll: "See all notifications",
  loading: "Loading notifications…",
  loadError: "Could not load notifications.",
  retry: "Retry",
  empty: "No notifications yet",
  unread: "Unread",
  done: "Done",
  doneHint: "Already settled: nothing to do.",
  open: "Open",
  intro: "Everything LoanMint told you, newest first.",
  unreadSummary: (unread: number) => (unread === 1 ? "1 unread" : `${unread} unread`),
  pagination: "Pages of notifications",
  previous: "Previous",
  next: "Next",
  pageOf: (page: number, pages: number) => `Page ${page} of ${pages}`,
  /** Relative age of a notice: the bell's and the page's. */
  when(iso: string) {
    const seconds = Math.max(0, Math.round((Date.now() - new Date(iso).getTime()) / 1000));
    if (seconds < 60) return "just now";
    if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
    if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
    return new Date(iso).toLocaleDateString();
  },
} as const;
