import { z } from "zod";

/** Every JSON answer of the API (api/src/http/envelope.ts), described once and referenced by each operation. */
export const envelopeSchema = z.object({
  success: z.boolean(),
  message: z.string().describe("What happened, fit to show the user."),
  data: z.unknown().describe("The answer; its shape is given per operation where a schema for it exists."),
});

/** An error answer: a 400 from a schema carries each issue, with the first one's text as the message. */
export const errorEnvelopeSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  data: z
    .object({ errors: z.array(z.object({ path: z.string(), message: z.string() })) })
    .nullable()
    .describe("null, or for invalid input the issues found."),
});
