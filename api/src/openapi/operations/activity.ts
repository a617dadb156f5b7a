import { limitQuery } from "../../activity/router";
import type { OperationGroup } from "../types";

export const activityOperations: OperationGroup = {
  tag: "Activity",
  description: "The signed-in user's on-chain activity, read from the chain mirror.",
  operations: {
    "GET /api/activity": { summary: "My recent transactions", access: "user", query: limitQuery },
    "GET /api/activity/summary": { summary: "The dashboard's figures and performance, from my loans and the chain mirror", access: "user" },
    "GET /api/activity/loans/{id}": { summary: "One loan's on-chain history", access: "user" },
  },
};
