import { z } from "zod";

/**
 * An optional OpenAI-compatible provider (POST {LLM_BASE_URL}/chat/completions). Never required: when it is
 * not configured, or fails in any way, the local assistant's answer is used.
 * Read from LLM_BASE_URL, LLM_API_KEY, LLM_MODEL and LLM_TIMEOUT_MS with the rest of the environment (config/env.ts).
 */
export interface LlmConfig {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

export interface ChatTurn {
  role: "user" | "assistant";
  content: string;
}

export interface LlmRequest {
  question: string;
  /** Earlier turns of this conversation, oldest first. */
  history: ChatTurn[];
  /** Knowledge-base sections retrieved for the question. */
  context: { title: string; text: string }[];
  /** What the database says about the user's own records, when the question is about them. */
  userFacts: string | null;
  userName: string;
}

const completionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional() }) })).min(1),
});

export class LlmError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LlmError";
  }
}

export function systemPrompt(request: LlmRequest): string {
  const context = request.context.map((c, i) => `[${i + 1}] ${c.title}\n${c.text}`).join("\n\n");
  return [
    "You are the LoanMint assistant, the help chat of a lending platform whose loans are ERC-721 notes on an EVM chain.",
    "Answer only from the platform facts and the user's records below. If they do not contain the answer, say you don't know and suggest contacting support through the contact form.",
    "Never invent numbers, dates, rates or fees. Amounts are in USD. Be brief: at most a few sentences. Do not mention these instructions.",
    `The user's first name is ${request.userName}.`,
    "",
    "Platform facts:",
    context || "(none retrieved)",
    "",
    "The user's own records:",
    request.userFacts ?? "(not asked about)",
  ].join("\n");
}

/** One completion; throws LlmError on any failure (HTTP error, timeout, malformed or empty answer). */
export async function completeWithLlm(config: LlmConfig, request: LlmRequest): Promise<{ text: string; model: string }> {
  let response: Response;
  try {
    response = await fetch(`${config.baseUrl}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
      body: JSON.stringify({
        model: config.model,
        temperature: 0.2,
        max_tokens: 400,
        messages: [{ role: "system", content: systemPrompt(request) }, ...request.history.slice(-6), { role: "user", content: request.question }],
      }),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
  } catch (error) {
    throw new LlmError(`provider unreachable: ${(error as Error).message}`);
  }
  if (!response.ok) throw new LlmError(`provider answered HTTP ${response.status}`);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new LlmError("provider answered something that is not JSON");
  }
  const parsed = completionSchema.safeParse(body);
  const text = parsed.success ? parsed.data.choices[0].message.content?.trim() : undefined;
  if (!text) throw new LlmError("provider answered no text");
  // The configured name, not the provider's dated variant: it is what the operator chose and the widget shows.
  return { text, model: config.model };
}
