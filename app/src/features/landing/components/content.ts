/** The landing page's marketing claims: static text, not live data. */
export const STATS = [
  { value: "$2.5M+", label: "Funded to borrowers" },
  { value: "1,200+", label: "Users on the platform" },
  { value: "350+", label: "Loan NFTs minted" },
  { value: "98%", label: "Approval rate" },
];

export const FEATURES = [
  { icon: "🛡️", title: "Secure and transparent", text: "Every approved loan, payment and transfer is recorded on-chain, so borrowers and investors can audit each step." },
  { icon: "🪙", title: "NFT tokenization", text: "Each funded loan becomes a unique ERC-721 loan note that carries its terms and can be traded on the marketplace." },
  { icon: "🌍", title: "Global access", text: "Borrow or invest from anywhere with an account or a crypto wallet; settlement happens in a stable dollar." },
  { icon: "📉", title: "Competitive rates", text: "Rates from 3.5% APR, no prepayment penalty, and zero fees for early adopters." },
];

export const STEPS = [
  { title: "Apply in about 5 minutes", text: "Create an account, verify your identity and tell us how much you need, for what, and for how long." },
  { title: "Get approved", text: "Our team reviews your request and decides within 24 hours. Approval funds your verified wallet." },
  { title: "Receive your NFT", text: "Your loan is minted as an NFT note. Repay monthly or early; paying it off burns the NFT." },
];

export const FAQ = [
  {
    q: "How does NFT-backed lending work?",
    a: "When your loan is approved, the principal is sent to your verified wallet and the loan is minted as an NFT note that records its amount, rate and term. Investors can buy that note on the marketplace; your repayments go to whoever holds it.",
  },
  {
    q: "What documents do I need for KYC?",
    a: "A government ID (passport or driver's license), proof of address (a utility bill or bank statement) and income verification (pay stubs or tax returns).",
  },
  { q: "How long does approval take?", a: "Most decisions are made within 24 hours of a complete application. KYC reviews take 24-48 hours." },
  {
    q: "What interest rates do you offer?",
    a: "Rates start from 3.5% APR. You propose a rate between 0.1% and 50% with your request, for 1 to 360 months, and see the monthly payment before you submit; an admin approves the terms.",
  },
  { q: "Can I repay my loan early?", a: "Yes. There is no prepayment penalty: an early payoff covers the outstanding principal plus interest of the current period, and the loan's NFT is burned." },
  {
    q: "Do I need a crypto wallet?",
    a: "You can register with an email and password. To receive a loan or buy notes you link a wallet by signing a message with it; you can also sign in with the wallet alone.",
  },
  { q: "How do investors earn?", a: "Investors buy loan NFTs on the marketplace and receive the borrower's repayments while they hold the note, and can resell it at any time." },
  {
    q: "Are there any fees?",
    a: "Zero fees for borrowers who are early adopters: network gas for your own wallet transactions is the only cost. When a note is sold on the marketplace, a 1% fee is taken from the seller's proceeds.",
  },
];
