import { normalize } from "./retrieval/text";

/**
 * Questions about the user's own records, told apart from questions about how the platform works:
 * "when is my next payment" reads the database, "how do I repay" reads the knowledge base.
 */
export type Intent =
  | { kind: "next_payment"; loanNumber?: bigint }
  | { kind: "loan_status"; loanNumber?: bigint }
  | { kind: "kyc_status" }
  | { kind: "holdings" }
  /** "Why was I rejected?": the KYC decision or a loan's, whichever the user has. */
  | { kind: "rejection" }
  /** "Can I apply yet?", "why can't I buy?": what the user still lacks to borrow or invest. */
  | { kind: "eligibility" }
  | { kind: "greeting" }
  | { kind: "thanks" };

const PERSONAL = /\b(my|mine|me|i|i am|am i|do i|have i|did i)\b/;
/** "How do I ..." asks for instructions, not for the user's records. */
const HOW_TO = /\b(how (do|can|should|would|to)|how does|what should|where (do|can) i|is it possible|can i)\b/;
/** General questions that merely mention "my": "why do I need to verify my identity?", "what happens after my loan is approved?" */
const GENERAL = /\b(what happens|do i (need|have) to|why do i need|what do i need|need to|have to|must i|should i|is there|are there|what is an?|what are|what does|if|after|before|once)\b|^who\b/;
const LOAN_NUMBER = /(?:\bloan|\bnote|\bnft|#)\s*(?:number\s*|no\.?\s*|#\s*)?(\d{1,18})\b/;

const GREETING = /^(hi|hello|hey|good (morning|afternoon|evening)|greetings|yo|howdy)\b[\s!.,]*(there|assistant|bot|loanmint)?[\s!.]*$/;
const THANKS = /^(thanks?( you)?( so much| a lot)?|thx|ty|great|perfect|awesome|cool|ok(ay)?|got it)\b[\s!.,]*(thanks?( you)?)?[\s!.]*$/;

const NEXT_PAYMENT = [
  /\b(next|upcoming|coming)\b.*\b(payment|installment|instalment|due|repayment|bill)\b/,
  /\bwhen\b.*\b(pay|payment|due|installment|instalment|repay)\b/,
  /\bhow much\b.*\b(owe|left|remaining|outstanding|to pay|do i pay|must i pay|is due|due)\b/,
  /\b(what|how much)\b.*\b(do|does|will)\b.*\bi\b.*\bowe\b/,
  /\b(my|the)\b.*\b(balance|payoff|outstanding|remaining|amount due|due date|installments?|instalments?|schedule)\b/,
  /\bpayoff\b.*\b(my|today|now)\b/,
  /\b(am i|are my payments?|is my (loan|payment))\b.*\b(late|behind|overdue|on time)\b/,
];
const LOAN_STATUS = [
  /\b(status|state|progress)\b.*\b(my|mine)\b.*\b(loans?|requests?|applications?)\b/,
  /\b(my|mine)\b.*\b(loans?|requests?|applications?)\b.*\b(status|approved|rejected|declined|pending|funded|active|accepted|minted|completed|defaulted|going|stand|standing|doing|look|happen(ed|ing)?|yet|decided|reviewed)\b/,
  /\b(where|what)('s| is| are)?\b.*\b(my)\b.*\b(loans?|requests?|applications?)\b/,
  /\bwhy\b.*\b(my|was my|is my)\b.*\bloan\b.*\b(rejected|declined|denied|not approved|refused)\b/,
  /\b(show|list|see|check|view)\b.*\b(my)\b.*\b(loans?|requests?|applications?)\b/,
  /\b(has|have|did|was|is)\b.*\bmy\b.*\b(loans?|requests?|applications?)\b.*\b(been|got|get)?\b.*\b(approved|rejected|funded|reviewed|decided|accepted|minted)\b/,
  /^(my )?loans? status\??$/,
  /\bhow many loans\b.*\b(i|my)\b/,
];
const KYC = /\b(kyc|verification|verified|identity|id check|documents?)\b/;
const KYC_STATUS = [
  /\b(my|mine)\b.*\b(kyc|verification|identity|documents?)\b/,
  /\b(am i|is my account|i am|i'm)\b.*\b(verified|approved|kyc)\b/,
  /\bwhy\b.*\b(kyc|verification)\b.*\b(rejected|declined|denied|failed|refused|not approved)\b/,
  /\b(kyc|verification)\b.*\b(status|approved yet|done yet|still pending)\b/,
];
const HOLDINGS = [
  /\b(my|mine|i (hold|own|have|bought))\b.*\b(notes?|nfts?|tokens?|portfolio|investments?|holdings?)\b/,
  /\b(notes?|nfts?|tokens?) (that |which )?(do )?i (currently |still )?(hold|own|have|bought)\b/,
  /\b(my|i)\b.*\b(credits?|earnings?|repayments? (to|waiting|pending)|withdrawable|can withdraw|to withdraw)\b/,
  /\bhow much\b.*\b(can i withdraw|have i earned|did i earn|do i have to withdraw)\b/,
];

/** Asking when or how much to pay next is about the user's own loans even without "my" ("how much is due?"). */
const STRONG_PAYMENT =
  /\b(next|upcoming)\b.*\b(payment|installment|instalment|due|repayment)\b|^(when|how much)\b.*\b(due|owe|next)\b|\bwhen\b.*\b(i|my)\b.*\b(pay|payment|due|repay)\b|\bhow much\b.*\b(i|my)\b.*\bnext\b/;
const NOT_A_PAYMENT_QUESTION = /\b(miss|what happens|fees?|how do|how can|how to)\b/;
/** Hardship ("I lost my job", "can't afford the installments") asks what happens, not what is due: the knowledge answers. */
const HARDSHIP = /\b(los[te]|losing) (my |our |a )?(job|income|work)\b|\b(unemployed|laid off|hardship|afford|skip|postpone|payment holiday)\b/;
const MORE_LOAN_STATUS = [
  /\b(help|problem|issue|question)s?\b.*\b(with|about) my (loans?|requests?|applications?)\b/,
  /\b(what|which|how many) loans?\b.*\b(do|did) i\b/,
  /\b(updates?|news)\b.*\bmy\b.*\b(loans?|requests?|applications?)\b/,
  /\bwhy\b.*\b(reject(ed)?|decline(d)?|den(y|ied)|refuse(d)?)\b.*\bmy\b.*\b(loan|request|application)/,
];
const REJECTION = /^why (was|were|am|did|have) (i|me|my account)\b.*\b(rejected|declined|denied|refused|turned down)\b|^why (was|were) i (rejected|declined|denied|refused)/;

const ELIGIBILITY = [
  /\b(am i|are we)\b.*\b(eligible|allowed|able|ready|qualified|qualify)\b/,
  /\bdo i qualify\b/,
  /\bcan i\b.*\b(apply|borrow|request|get a loan|buy|invest)\b.*\b(now|yet|already|today)\b/,
  /\bwhy (can\s*not|ca\s*n't|cannot|am i not able to|is it not possible to)\s*i?\s*(apply|borrow|request|buy|invest|get a loan)\b/,
  /\bwhy can not i\b/,
  /\bwhat (is|are) (missing|left|still needed)\b/,
  /\bwhat (else )?do i (still )?need to do\b/,
];

const some = (patterns: RegExp[], text: string) => patterns.some((p) => p.test(text));

export function detectIntent(question: string): Intent | null {
  const text = normalize(question).replace(/\s+/g, " ").trim();
  if (GREETING.test(text)) return { kind: "greeting" };
  if (THANKS.test(text)) return { kind: "thanks" };

  const numberMatch = LOAN_NUMBER.exec(text);
  const loanNumber = numberMatch ? BigInt(numberMatch[1]) : undefined;
  const personal = PERSONAL.test(text) || loanNumber !== undefined;
  if (HARDSHIP.test(question.toLowerCase().replace(/[’‘]/g, "'"))) return null;
  if (STRONG_PAYMENT.test(text) && !NOT_A_PAYMENT_QUESTION.test(text)) return { kind: "next_payment", loanNumber };
  // Phrases of the retrieval vocabulary ("why can't I" -> requirement) would hide these: read the raw words.
  if (some(ELIGIBILITY, text) || some(ELIGIBILITY, question.toLowerCase().replace(/[’‘]/g, "'"))) return { kind: "eligibility" };
  if (!personal) return null;
  if (REJECTION.test(text)) return { kind: "rejection" };
  // Instructions ("how do I repay my loan?") come from the knowledge base, unless the question names its loan.
  const howTo = (HOW_TO.test(text) && !/\bwhen\b|\bhow much\b|\bwhy\b/.test(text)) || GENERAL.test(text) || GENERAL.test(question.toLowerCase().trim());

  if (!howTo && some(KYC_STATUS, text) && KYC.test(text) && !/\bloans?\b.*\b(status|approved)\b/.test(text)) return { kind: "kyc_status" };
  if (!howTo && some(NEXT_PAYMENT, text) && !/\bfees?\b/.test(text)) return { kind: "next_payment", loanNumber };
  if (!howTo && some(HOLDINGS, text)) return { kind: "holdings" };
  if (
    (!howTo || loanNumber !== undefined) &&
    (some(LOAN_STATUS, text) || some(MORE_LOAN_STATUS, text) || (loanNumber !== undefined && /\bstatus|approved|rejected|funded|pending|active\b/.test(text)))
  ) {
    return { kind: "loan_status", loanNumber };
  }
  return null;
}
