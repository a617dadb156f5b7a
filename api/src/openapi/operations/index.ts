import type { Operation, OperationGroup } from "../types";
import { activityOperations } from "./activity";
import { adminOperations } from "./admin";
import { authOperations } from "./auth";
import { chatbotOperations } from "./chatbot";
import { collateralOperations } from "./collateral";
import { contactOperations } from "./contact";
import { kycOperations } from "./kyc";
import { loansOperations } from "./loans";
import { nftsOperations } from "./nfts";
import { ordersOperations } from "./orders";
import { statementsOperations } from "./statements";
import { notificationsOperations } from "./notifications";
import { systemOperations } from "./system";
import { usersOperations } from "./users";

export const OPERATION_GROUPS: OperationGroup[] = [
  authOperations,
  usersOperations,
  kycOperations,
  loansOperations,
  nftsOperations,
  collateralOperations,
  ordersOperations,
  activityOperations,
  statementsOperations,
  notificationsOperations,
  chatbotOperations,
  contactOperations,
  adminOperations,
  systemOperations,
];

/** Every documented operation with its group's tag; a key in two groups is a mistake worth stopping for. */
export function allOperations(groups: OperationGroup[] = OPERATION_GROUPS): Map<string, Operation & { tag: string }> {
  const out = new Map<string, Operation & { tag: string }>();
  for (const group of groups) {
    for (const [key, operation] of Object.entries(group.operations)) {
      if (out.has(key)) throw new Error(`${key} is documented twice`);
      out.set(key, { ...operation, tag: group.tag });
    }
  }
  return out;
}
