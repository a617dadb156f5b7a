// Hand-made mutants of the contracts: the bugs that would move money to the wrong party, let anyone take a
// role's power, or break a rule the off-chain code trusts. Each is one exact text replaced once, run
// against the contract test files that should catch it. A mutant whose text is no longer in the source
// is reported as stale rather than skipped, so this list follows the contracts.

export interface ContractMutant {
  id: string;
  /** What the bug does, in the words of a bug report. */
  bug: string;
  file: string;
  /** Must occur exactly once in the file. */
  find: string;
  replace: string;
  tests: string[];
  /** Part of `--quick`: one money mutant and one role mutant, on the fastest test file. */
  quick?: boolean;
}

const LOAN_NOTE = "contracts/LoanNote.sol";
const ESCROW = "contracts/CollateralEscrow.sol";
const MARKETPLACE = "contracts/NoteMarketplace.sol";
const VAULT = "contracts/NoteVault.sol";
const DOLLAR = "contracts/TestDollar.sol";
const MATH = "contracts/libraries/LoanMath.sol";
const ORDERS = "contracts/NoteOrders.sol";

const loanNoteTests = ["contracts/test/loanNote.test.ts"];
const marketplaceTests = ["contracts/test/marketplace.test.ts", "contracts/test/marketplaceBranches.test.ts"];
const vaultTests = ["contracts/test/vaultAndDollar.test.ts"];
const approvalTests = ["contracts/test/noteApprovals.test.ts"];
const collateralTests = ["contracts/test/collateral.test.ts", "contracts/test/collateralHostile.test.ts"];
const orderTests = ["contracts/test/signedOrders.test.ts", "contracts/test/signedOrderRules.test.ts", "contracts/test/orderProperties.test.ts"];

export const CONTRACT_MUTANTS: ContractMutant[] = [
  {
    id: "repay-credits-payer",
    bug: "a repayment is credited to whoever pays instead of the note's holder",
    file: LOAN_NOTE,
    find: "_credits[beneficiary] += paid;",
    replace: "_credits[msg.sender] += paid;",
    tests: loanNoteTests,
    quick: true,
  },
  {
    id: "repay-credits-vault",
    bug: "a repayment of a note in the vault is credited to the vault, not its depositor",
    file: LOAN_NOTE,
    find: "if (holder == address(vault)) holder = vault.depositorOf(tokenId);",
    replace: "",
    tests: [...loanNoteTests, ...vaultTests],
  },
  {
    id: "repay-takes-overpayment",
    bug: "a repayment larger than what is owed is taken whole",
    file: LOAN_NOTE,
    find: "uint256 paid = amount < owed ? amount : owed;",
    replace: "uint256 paid = amount;",
    tests: loanNoteTests,
  },
  {
    id: "repay-never-settles",
    bug: "paying exactly what is owed leaves the loan active and the note alive",
    file: LOAN_NOTE,
    find: "bool settled = paid == owed;",
    replace: "bool settled = paid > owed;",
    tests: loanNoteTests,
  },
  {
    id: "credits-withdrawn-twice",
    bug: "withdrawn credits are not zeroed, so they can be withdrawn again",
    file: LOAN_NOTE,
    find: "_credits[msg.sender] = 0;",
    replace: "",
    tests: [...loanNoteTests, "contracts/test/reentrancy.test.ts"],
  },
  {
    id: "originate-without-role",
    bug: "anyone can originate a loan, paid out of the treasury",
    file: LOAN_NOTE,
    find: "uint16 termMonths)\n        external\n        onlyRole(ORIGINATOR_ROLE)\n",
    replace: "uint16 termMonths)\n        external\n",
    tests: loanNoteTests,
    quick: true,
  },
  {
    id: "default-without-role",
    bug: "anyone can mark a loan defaulted",
    file: LOAN_NOTE,
    find: "function markDefaulted(uint256 tokenId) external onlyRole(ORIGINATOR_ROLE) {",
    replace: "function markDefaulted(uint256 tokenId) external {",
    tests: loanNoteTests,
  },
  {
    id: "default-one-second-early",
    bug: "a loan can be marked defaulted one second before maturity plus grace",
    file: LOAN_NOTE,
    find: "if (block.timestamp < availableAt) revert DefaultTooEarly(tokenId, availableAt);",
    replace: "if (block.timestamp + 1 < availableAt) revert DefaultTooEarly(tokenId, availableAt);",
    tests: loanNoteTests,
  },
  {
    id: "treasury-without-admin",
    bug: "anyone can redirect new notes and loan funding to their own treasury",
    file: LOAN_NOTE,
    find: "function setTreasury(address treasury_) external onlyRole(DEFAULT_ADMIN_ROLE) {",
    replace: "function setTreasury(address treasury_) external {",
    tests: loanNoteTests,
  },
  {
    id: "transfer-not-counted",
    bug: "a transfer does not count as a change, so a listing made before it can still be filled",
    file: LOAN_NOTE,
    find: "if (from != address(0) && to != address(0)) {\n            unchecked {\n                ++_loans[tokenId].changes;",
    replace: "if (from != address(0) && to != address(0)) {\n            unchecked {\n",
    tests: [...loanNoteTests, ...marketplaceTests],
  },
  {
    id: "settlement-ignores-payments",
    bug: "a repayment is measured against the whole settlement value, ignoring what was already repaid",
    file: LOAN_NOTE,
    find: "            block.timestamp\n        ) - repaid;",
    replace: "            block.timestamp\n        );",
    tests: [...loanNoteTests, "contracts/test/scheduleAgreement.test.ts"],
  },
  {
    id: "schedule-last-installment",
    bug: "the schedule treats the last installment as a regular one",
    file: MATH,
    find: "if (k < t.termMonths) return balanceAfter(t, k) + t.payment - balanceBefore;",
    replace: "if (k <= t.termMonths) return balanceAfter(t, k) + t.payment - balanceBefore;",
    tests: ["contracts/test/scheduleAgreement.test.ts"],
  },
  {
    id: "list-someone-elses-note",
    bug: "anyone can list a note they do not hold",
    file: MARKETPLACE,
    find: "if (owner != msg.sender) revert NotTokenOwner(tokenId, msg.sender);",
    replace: "",
    tests: marketplaceTests,
  },
  {
    id: "reprice-someone-elses-listing",
    bug: "anyone can change the price of another seller's listing",
    file: MARKETPLACE,
    find: "if (listing.seller != msg.sender) revert NotSeller(tokenId, msg.sender);\n        _checkPrice(price);",
    replace: "_checkPrice(price);",
    tests: marketplaceTests,
  },
  {
    id: "cancel-someone-elses-listing",
    bug: "anyone can cancel another seller's listing",
    file: MARKETPLACE,
    find: "if (seller != msg.sender) revert NotSeller(tokenId, msg.sender);",
    replace: "",
    tests: marketplaceTests,
  },
  {
    id: "buy-at-another-price",
    bug: "a buyer pays the price they name, not the listed one",
    file: MARKETPLACE,
    find: "if (listing.price != expectedPrice) revert PriceMismatch(tokenId, listing.price, expectedPrice);",
    replace: "",
    tests: marketplaceTests,
  },
  {
    id: "buy-stale-listing",
    bug: "a listing whose note changed (moved, was repaid) can still be filled when its holder is unchanged",
    file: MARKETPLACE,
    find: "if (owner != listing.seller || changes != listing.changes) revert ListingStale(tokenId);\n        delete _listings[tokenId];",
    replace: "if (owner != listing.seller && changes != listing.changes) revert ListingStale(tokenId);\n        delete _listings[tokenId];",
    tests: marketplaceTests,
  },
  {
    id: "sale-paid-to-fee-recipient",
    bug: "the price of a sale goes to the fee recipient instead of the seller",
    file: MARKETPLACE,
    find: "stablecoin.safeTransferFrom(buyer, seller, price - fee);",
    replace: "stablecoin.safeTransferFrom(buyer, feeRecipient, price - fee);",
    tests: marketplaceTests,
  },
  {
    id: "order-fills-after-expiry",
    bug: "a signed order still fills after its expiry",
    file: ORDERS,
    find: "if (block.timestamp > expiry) revert OrderExpired(orderHash);",
    replace: "",
    tests: orderTests,
  },
  {
    id: "order-ignores-counter",
    bug: "incrementing the counter does not cancel the orders signed before",
    file: ORDERS,
    find: "if (spent == USED || counter != counterOf[signer]) revert OrderUnavailable(orderHash);",
    replace: "if (spent == USED) revert OrderUnavailable(orderHash);",
    tests: orderTests,
  },
  {
    id: "par-listing-fills-twice",
    bug: "a par listing is not marked used, so it fills again when the note comes back to its seller",
    file: ORDERS,
    find: "_used[listing.seller][orderHash] = USED;",
    replace: "",
    tests: orderTests,
  },
  {
    id: "par-listing-after-default",
    bug: "a par listing still fills after its note defaulted",
    file: ORDERS,
    find: "if (owner != listing.seller || status != ACTIVE) revert OrderStale(orderHash);",
    replace: "if (owner != listing.seller) revert OrderStale(orderHash);",
    tests: orderTests,
  },
  {
    id: "par-offer-ignores-cap",
    bug: "a par offer pays its percentage of par above the dollar cap its buyer signed",
    file: ORDERS,
    find: "price = Math.min((outstanding * offer.parBps) / BPS, offer.cap);",
    replace: "price = (outstanding * offer.parBps) / BPS;",
    tests: orderTests,
  },
  {
    id: "matching-offer-over-budget",
    bug: "a matching offer's fills are not added up, so it spends past its budget",
    file: ORDERS,
    find: "_used[offer.buyer][orderHash] = spent + price;",
    replace: "",
    tests: orderTests,
  },
  {
    id: "fixed-listing-ignores-changes",
    bug: "a fixed-price listing still fills after a repayment, a default or a move changed the note",
    file: ORDERS,
    find: "if (owner != listing.seller || changes != listing.changes) revert OrderStale(orderHash);",
    replace: "if (owner != listing.seller) revert OrderStale(orderHash);",
    tests: orderTests,
  },
  {
    id: "offer-accepted-by-non-holder",
    bug: "anyone can accept a fixed-price offer on a note they do not hold",
    file: ORDERS,
    find: "if (owner != msg.sender) revert NotNoteHolder(offer.tokenId, msg.sender);\n            if (changes != offer.changes)",
    replace: "if (changes != offer.changes)",
    tests: orderTests,
  },
  {
    id: "order-signature-unchecked",
    bug: "an order fills with a signature its signer never gave",
    file: ORDERS,
    find: "revert InvalidSignature(orderHash);",
    replace: "",
    tests: orderTests,
  },
  {
    id: "matching-offer-ignores-outstanding",
    bug: "a matching offer buys a note whose outstanding principal is outside the range its buyer signed",
    file: ORDERS,
    find: "|| _outside(outstanding, offer.minOutstanding, offer.maxOutstanding)",
    replace: "",
    tests: orderTests,
  },
  {
    id: "cancel-ignored",
    bug: "a cancelled order still fills",
    file: ORDERS,
    find: "_used[msg.sender][orderHashes[i]] = USED;",
    replace: "",
    tests: orderTests,
  },
  {
    id: "par-offer-after-default",
    bug: "a par offer is accepted for a defaulted note",
    file: ORDERS,
    find: "if (status != ACTIVE) revert OrderStale(orderHash);\n            price = Math.min(",
    replace: "price = Math.min(",
    tests: orderTests,
  },
  {
    id: "vault-withdraw-by-anyone",
    bug: "anyone can withdraw a note someone else deposited",
    file: VAULT,
    find: "if (_depositors[tokenId] != msg.sender) revert NotDepositor(tokenId, msg.sender);",
    replace: "",
    tests: vaultTests,
  },
  {
    id: "mint-without-role",
    bug: "anyone can mint test dollars",
    file: DOLLAR,
    find: "function mint(address to, uint256 amount) external onlyRole(MINTER_ROLE) {",
    replace: "function mint(address to, uint256 amount) external {",
    tests: vaultTests,
  },
  {
    id: "approval-survives-transfer",
    bug: "a note's single-note approval survives its transfer, so a spender the seller approved takes it back from the buyer",
    file: LOAN_NOTE,
    find: "            if (!loan.approvalSet) return;",
    replace: "            return;",
    tests: approvalTests,
  },
  {
    id: "approval-not-recorded",
    bug: "an approval is not recorded in the loan's slot, so the next transfer leaves it standing",
    file: LOAN_NOTE,
    find: "loan.approvalSet = to != address(0);",
    replace: "loan.approvalSet = false;",
    tests: approvalTests,
  },
  {
    id: "final-payment-leaves-active",
    bug: "the final payment burns the note but leaves the loan active, so it can be defaulted or paid again",
    file: LOAN_NOTE,
    find: "((settled ? uint256(Status.Repaid) : status) << STATUS_AT)",
    replace: "(status << STATUS_AT)",
    tests: loanNoteTests,
  },
  {
    id: "collateral-pledged-from-any-collection",
    bug: "a piece of a collection the admin never allowed can secure a loan",
    file: ESCROW,
    find: "if (!entry.allowed) revert CollectionNotAllowed(collection);",
    replace: "",
    tests: collateralTests,
  },
  {
    id: "collateral-arrival-unchecked",
    bug: "a collection that reports a transfer it did not make secures a loan with nothing in escrow",
    file: ESCROW,
    find: "if (_ownerIn(collection, collateralId) != address(this)) {",
    replace: "if (false) {",
    tests: collateralTests,
  },
  {
    id: "collateral-kept-at-payoff",
    bug: "the final payment keeps the borrower's NFT in escrow",
    file: LOAN_NOTE,
    find: "if (settled && uint8(word >> PLEDGED_AT) != 0) _releaseCollateral(",
    replace: "if (false) _releaseCollateral(",
    tests: collateralTests,
  },
  {
    id: "collateral-lost-on-refused-return",
    bug: "a return the collection refuses forgets the pledge, so the borrower can never pull the NFT back",
    file: ESCROW,
    find: "            _pledges[tokenId] = pledge;",
    replace: "",
    tests: collateralTests,
  },
  {
    id: "collateral-claimed-by-anyone",
    bug: "anyone, not only the defaulted note's holder, takes the escrowed NFT",
    file: LOAN_NOTE,
    find: "if (claimant != _beneficiary(tokenId)) revert ICollateralEscrow.NotEntitled(tokenId, claimant);",
    replace: "",
    tests: collateralTests,
  },
  {
    id: "collateral-pulled-by-anyone",
    bug: "anyone, not only the borrower, pulls a repaid loan's NFT whose return failed",
    file: ESCROW,
    find: "if (msg.sender != pledge.borrower) revert NotEntitled(tokenId, msg.sender);",
    replace: "",
    tests: collateralTests,
  },
  {
    id: "collateral-claimed-while-active",
    bug: "an active loan's escrowed NFT can be claimed before any default",
    file: LOAN_NOTE,
    find: "if (loan.status != Status.Defaulted) revert ICollateralEscrow.CollateralNotClaimable(tokenId);",
    replace: "",
    tests: collateralTests,
  },
  {
    id: "collateral-locked-by-anyone",
    bug: "anyone, not only LoanNote, locks or releases a piece in escrow",
    file: ESCROW,
    find: "if (msg.sender != address(loanNote)) revert NotLoanNote(msg.sender);",
    replace: "",
    tests: collateralTests,
  },
  {
    id: "collateral-settled-by-anyone",
    bug: "anyone, not only the escrow, settles a defaulted loan and burns its note",
    file: LOAN_NOTE,
    find: "if (msg.sender != address(escrow)) revert NotEscrow(msg.sender);",
    replace: "",
    tests: collateralTests,
  },
  {
    id: "collateral-allow-list-open",
    bug: "anyone, not only an admin, allows a collection as collateral",
    file: ESCROW,
    find: "if (!IAccessControl(address(loanNote)).hasRole(0x00, msg.sender)) {",
    replace: "if (false) {",
    tests: collateralTests,
  },
];
