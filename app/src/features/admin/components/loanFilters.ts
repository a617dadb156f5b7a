export const STATUS_OPTIONS = ["all", "pending", "approved", "active", "completed", "rejected", "defaulted"] as const;
