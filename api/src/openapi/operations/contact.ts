import type { OperationGroup } from "../types";
import { pageQuery } from "./pageQuery";

export const contactOperations: OperationGroup = {
  tag: "Contact",
  description: "The contact form and the admin inbox it fills.",
  operations: {
    "POST /api/contact": {
      summary: "Send a message",
      description: "Anyone may write; a signed-in sender's message is linked to their account.",
      access: "optional",
      status: 201,
      example: { name: "Grace Hopper", email: "grace@example.com", subject: "General Inquiry", message: "How are rates set?" },
    },
    "GET /api/contact": { summary: "Contact messages, newest first (admin)", access: "admin", query: pageQuery(50, 200) },
  },
};
