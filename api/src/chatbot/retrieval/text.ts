import { stem } from "./stem";

/**
 * Turning text into index terms: lowercase, multi-word phrases joined into one word ("pay off" -> "payoff"),
 * stop words dropped, Porter stems, then synonyms folded onto one canonical term so "verification" finds KYC.
 */

/** Phrases that mean one thing; matched on word boundaries before tokenising. */
const PHRASES: [RegExp, string][] = [
  // A sum of money in the question is about loan amounts ("can I borrow 500 dollars?").
  [/\$\s?\d[\d,.]*\s*(?:k|m|million|thousand)?\b|\b\d[\d,.]*\s*(?:k|m|million|thousand)?\s*(?:dollars?|usd|bucks)\b/g, " amount "],
  [/\b(?:can|could|may|how\s+much\s+can)\s+i\s+borrow\b/g, "borrow amount limit"],
  [/\b(?:max(?:imum)?|min(?:imum)?|smallest|largest|biggest|highest|lowest)\s+(?:loan|amount|borrow\w*)\b/g, "amount limit loan"],
  // A bare "ID" is an identity document; a token's or loan's id is not.
  [/(?<!(?:token|nft|note|loan)\s)\bid\b(?!\s+(?:of|number))/g, "document"],
  [/\b(?:do\s*n[o']?t|did\s*n[o']?t|ca\s*n[o']?t|can\s+not|cannot|won'?t|unable\s+to|fail(?:ed|s)?\s+to|forg[eo]t\s+to|stop(?:ped)?|never)\s+(?:re)?pa(?:y|id)\b/g, "miss payment"],
  // Hardship is about missed installments, not a lost wallet ("I lost my job, can I skip a payment?").
  [/\b(?:los[te]|losing)\s+(?:my\s+|our\s+|a\s+)?(?:job|income|work)\b|\b(?:unemployed|laid\s+off|hardship|can\s*(?:no|')t\s+afford)\b/g, "miss payment"],
  [/\b(?:skip(?:ping)?|postpone|defer|delay)\s+(?:a\s+|my\s+|one\s+|this\s+|next\s+)?(?:month'?s?\s+)?(?:payment|installment|instalment|month)s?\b|\bpayment\s+holiday\b/g, "miss payment"],
  [/\bpay(?:ing|s)?\s+(?:it\s+|the\s+loan\s+|my\s+loan\s+)?off\b/g, "payoff"],
  [/\bpaid\s+off\b/g, "payoff"],
  [/\bwho\s+(?:can|could|will|may)\s+(?:see|view|read|access|open)\b/g, "privacy"],
  [/\bwhy\s+(?:can\s*not|ca\s*n't|cannot)\s+i\b/g, "requirement"],
  // "default" is also a preset value ("the default rate"), not only a missed loan.
  [/\bdefault\s+((?:interest\s+)?rate|term|amount|value|setting)s?\b/g, "suggested $1"],
  [/\b(?:finish|finished|complete|completed|done)\s+(?:re)?pay(?:ing|ments?)?\b/g, "payoff repaid"],
  [/\bhow\s+much\s+(?:money\s+)?(?:can|could|may|will)\s+(?:i|we)\s+(?:borrow|get|request|ask\s+for)\b/g, "amount limit"],
  [/^\s*(?:help|help me|menu|options|what can i ask)\W*$/g, "assistant"],
  [/\b(?:who\s+are\s+you|what\s+(?:can|do)\s+you\s+do|what\s+are\s+you|are\s+you\s+(?:a\s+)?(?:bot|robot|ai|human|real|person))\b/g, "assistant"],
  [/\bpay(?:ing)?\s+back\b/g, "repay"],
  [/\bearly\s+repayment\b/g, "payoff early"],
  [/\bsign(?:ing|ed)?[\s-]+in\b/g, "signin"],
  [/\blog(?:ging|ged)?[\s-]+in\b/g, "signin"],
  [/\bsign(?:ing|ed)?[\s-]+up\b/g, "register"],
  [/\bcash(?:ing)?\s+out\b/g, "withdraw"],
  [/\bdriver'?s'?\s+licen[cs]e\b/g, "license"],
  [/\bknow\s+your\s+customer\b/g, "kyc"],
  [/\bnon[\s-]?fungible\s+tokens?\b/g, "nft"],
  [/\bloan\s+notes?\b/g, "note"],
  [/\bgrace\s+period\b/g, "grace"],
  [/\bproof\s+of\s+address\b/g, "proofaddress"],
  [/\bproof\s+of\s+income\b/g, "proofincome"],
  [/\butility\s+bills?\b/g, "proofaddress bill"],
  [/\bbank\s+statements?\b/g, "proofaddress statement"],
  [/\bpay\s+stubs?\b/g, "proofincome stub"],
  [/\btax\s+returns?\b/g, "proofincome"],
  [/\bsign[\s-]+in\s+with\s+ethereum\b/g, "siwe"],
  [/\bmeta\s*mask\b/g, "metamask"],
  [/\btest\s+dollars?\b/g, "stablecoin faucet"],
  [/\bhow\s+long\b/g, "duration"],
  [/\b(?:government|national)\s+id\b/g, "document"],
  [/\bid\s+(?:card|document)s?\b/g, "document"],
  [/\bcredit\s+score\b/g, "creditscore"],
];

export const STOP_WORDS = new Set(
  (
    "a about above after again all also am an and any are as at be because been before being below between both but by can " +
    "could did do does doing down during each few for from further get got had has have having he her here hers him his how " +
    "i if in into is it its itself just let me more most much my myself no nor not now of on once only or other our ours out " +
    "over own please same she should so some such than that the their theirs them then there these they this those through " +
    "to too under until up very was we were what when where which while who whom why will with would you your yours " +
    "tell know want like take taking ask asking explain describe become becoming happen happens happened see find look get going make someone anyone else really actually way thanks thank hi hello hey ok okay im ive dont doesnt cant lot things thing"
  ).split(" "),
);

/**
 * Words that mean the same here, each group folded onto its first member (after stemming). Kept small and
 * specific to the platform: a broad thesaurus would make every question match every document.
 */
const SYNONYM_GROUPS: string[][] = [
  ["kyc", "verification", "verify", "verified", "identity", "kyb"],
  ["nft", "note", "token", "erc721", "collectible"],
  ["rate", "apr", "interest", "percent", "percentage"],
  ["fee", "commission", "charge", "surcharge", "cost"],
  ["repay", "repaid", "repayment", "payment", "instalment", "installment", "emi"],
  ["pay", "paid"],
  ["requirement", "require", "required", "need", "necessary", "mandatory", "prerequisite", "eligible", "eligibility", "qualify"],
  ["payoff", "prepay", "prepayment", "settle", "foreclose"],
  ["wallet", "metamask", "rainbowkit", "walletconnect", "coinbase"],
  ["buy", "purchase", "acquire", "invest"],
  ["sell", "listing", "list", "resell", "sold", "sale"],
  ["withdraw", "withdrawal", "claim", "collect"],
  ["deposit", "stake", "lock"],
  ["default", "defaulted", "miss", "missed", "late", "overdue", "delinquent"],
  ["duration", "time", "long", "hour", "day", "quick", "fast", "wait"],
  ["term", "month", "tenure", "period", "year"],
  ["amount", "big", "maximum", "minimum", "limit", "million", "thousand"],
  ["document", "paper", "upload", "file", "passport", "license"],
  ["reject", "rejected", "decline", "denied", "deny", "refuse", "fail"],
  ["approve", "approval", "accept", "decision"],
  ["signin", "login", "logon", "authenticate", "authentication"],
  ["register", "signup", "account", "create", "join"],
  ["stablecoin", "usdc", "dollar", "usd", "currency"],
  ["holder", "owner", "investor", "lender"],
  ["vault", "custody", "safekeeping"],
  ["marketplace", "market", "exchange", "secondary"],
  ["gas", "eth", "ether"],
  ["schedule", "amortisation", "amortization", "amortise", "amortize"],
  ["risk", "lose", "loss", "losing", "risky"],
  ["safe", "secure", "security", "trust", "audit", "transparent"],
  ["contact", "help", "email", "human", "agent", "person"],
  ["collateral", "security_deposit", "pledge"],
  ["burn", "burned", "burnt", "destroy"],
  ["chain", "blockchain", "onchain", "ethereum", "evm"],
  ["purpose", "reason_for"],
  ["password", "passphrase"],
  ["explorer", "etherscan", "transaction_link"],
];

const CANONICAL = new Map<string, string>();
for (const group of SYNONYM_GROUPS) {
  const head = stem(group[0]);
  for (const word of group) CANONICAL.set(stem(word), head);
}

/** Every stem the synonym groups know, before folding: candidates for typo correction. */
export const SYNONYM_STEMS: readonly string[] = [...CANONICAL.keys()];

export function canonical(term: string): string {
  return CANONICAL.get(term) ?? term;
}

export function normalize(text: string): string {
  let out = text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "");
  out = out.replace(/[’‘]/g, "'");
  // Contractions first, so "what's" is "what is" and "isn't" keeps its "not".
  out = out
    .replace(/\bcan't\b/g, "can not")
    .replace(/\bwon't\b/g, "will not")
    .replace(/n't\b/g, " not");
  out = out.replace(/'(?:s|re|ll|ve|d|m)\b/g, "");
  for (const [pattern, replacement] of PHRASES) out = out.replace(pattern, replacement);
  return out;
}

/** Raw words: letters and digits, apostrophes dropped ("driver's" -> "drivers"), "e-mail" -> "email". */
export function words(text: string): string[] {
  return normalize(text)
    .replace(/'/g, "")
    .replace(/(\w)-(\w)/g, "$1$2")
    .split(/[^a-z0-9%]+/)
    .filter(Boolean);
}

/** Index terms of a text: no stop words, stemmed, synonyms folded. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of words(text)) {
    if (STOP_WORDS.has(word)) continue;
    // Bare numbers rarely say what a question is about; "30" or "1%" would otherwise match every constant.
    if (/^\d+%?$/.test(word)) continue;
    const stemmed = stem(word);
    // "gets", "happening": inflections of stop words are stop words too.
    if (STOP_WORDS.has(stemmed)) continue;
    out.push(canonical(stemmed));
  }
  return out;
}
