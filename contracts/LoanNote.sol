// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {IERC4906} from "@openzeppelin/contracts/interfaces/IERC4906.sol";
import {IERC165} from "@openzeppelin/contracts/utils/introspection/IERC165.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {LoanMath} from "./libraries/LoanMath.sol";
import {NoteRenderer} from "./NoteRenderer.sol";
import {NoteVault} from "./NoteVault.sol";
import {CollateralEscrow} from "./CollateralEscrow.sol";
import {ICollateralEscrow} from "./interfaces/ICollateralEscrow.sol";
import {ILoanNote, REFINANCED_ID_OFFSET} from "./interfaces/ILoanNote.sol";

/**
 * @title LoanNote
 * @notice One ERC-721 note per approved loan; the token id is the loan number. Origination funds the
 *         borrower from the treasury and mints the note to the treasury in one transaction. Repayments
 *         (capped at what settles the loan) are credited to the note's holder, or to its depositor while
 *         the vault holds it, and withdrawn by them. The final payment burns the note.
 * @dev Schedule and rounding rule: see LoanMath (mirrored by domain/schedule.ts).
 *      Not upgradeable on purpose: holders must be able to rely on terms nobody can rewrite.
 *
 *      Invariants:
 *      - `changes` of a note grows with every change a buyer prices: each transfer, the burn, each repayment
 *        (partial or final) and a default. A marketplace listing records it and dies when it differs, so no
 *        listing is ever filled at a note state other than the one it was made at.
 *      - Every note the vault holds has a recorded depositor: every transfer into the vault tells the vault
 *        who sent it (`_update`, the one path), and the vault refuses a note from nobody (a mint).
 *      - No repayment is ever credited to the zero address.
 *      - Pledged ERC-721s (collateral) are held by `escrow` (CollateralEscrow, created here), which keeps the
 *        allow-list too: origination locks the piece there, the final payment releases it (the last call, which
 *        never reverts for the collection), and after a default the escrow's claim settles the loan here
 *        (`settleByClaim`, escrow only) and burns the note. A defaulted note burns only so, and then nothing more
 *        is owed on it.
 *      - A refinance (`refinance`, the immutable `refinancer` only, for the loan's recorded borrower) is the final
 *        payment's path and origination's in one: the old note's beneficiary is credited exactly the payoff, the note
 *        burns, and the new note (old id + REFINANCED_ID_OFFSET) is minted to the lender; a pledged piece is re-recorded
 *        for it inside the escrow and never moves. Originated ids stay below the offset, so the two never collide.
 */
contract LoanNote is ILoanNote, ERC721, IERC4906, AccessControl, Pausable, ReentrancyGuardTransient {
    using SafeERC20 for IERC20;

    bytes32 public constant ORIGINATOR_ROLE = keccak256("ORIGINATOR_ROLE");
    bytes32 public constant PAUSER_ROLE = keccak256("PAUSER_ROLE");

    /// @notice Principal bounds, in the stablecoin's smallest unit: at least one dollar keeps every interest
    ///         and principal part of the schedule non-negative; the upper bound (about 72 billion dollars) fits the
    ///         packed slot.
    uint256 public constant MIN_PRINCIPAL = 1e6;
    uint256 public constant MAX_PRINCIPAL = type(uint56).max;
    uint256 public constant MAX_RATE_BPS = 10_000;
    uint256 public constant MAX_TERM_MONTHS = 360;
    uint256 public constant MAX_GRACE_PERIOD = 365 days;
    uint256 public constant MAX_LATE_FEE_GRACE_PERIOD = 60 days;
    uint256 public constant MAX_LATE_FEE_BPS = 1_000;
    uint256 public constant MIN_DEFAULT_AFTER_DAYS = 30;
    uint256 public constant MAX_DEFAULT_AFTER_DAYS = 365;

    /// @dev One storage slot (256 bits), so a repayment's or default's write also counts the change.
    ///      `changes` counts every change a buyer prices (transfer, burn, repayment, default); it wraps after
    ///      2^32 changes, which no note can afford in gas. `pledged` says whether a piece was locked in the escrow at
    ///      origination: only then does the final payment call the escrow, and loans without one read nothing more.
    ///      `approvalSet` says whether the note may have a single-note approval (`approve`): a transfer clears the
    ///      approval only then, so the transfers and burns of notes nobody approved skip a cold read and a write.
    ///      `feesPaidThrough`: every installment up to it has had its late fee paid or never owed one, so the fees owed
    ///      follow from it, `repaid` and the clock alone.
    ///      Bounds that let it all fit: `repaid` counts installments only and never exceeds the total due, which is
    ///      below 31 * principal < 2^61 for any valid loan (at most 100% a year over 360 months: each installment at
    ///      most about principal / 12, so at most about 30 principals), well within 64 bits; `start` is a block
    ///      timestamp, within 32 bits until February 2106.
    struct Loan {
        uint56 principal;
        uint64 repaid;
        uint32 start;
        uint16 rateBps;
        uint16 termMonths;
        uint16 feesPaidThrough;
        Status status;
        uint32 changes;
        bool pledged;
        bool approvalSet;
    }

    /// @dev Where `Loan`'s members sit in its slot (declaration order from the lowest bits), for `_repay`'s one-word
    ///      read and write; `KEPT_BY_REPAYMENT` masks every member a repayment leaves as it is.
    uint256 private constant REPAID_AT = 56;
    uint256 private constant START_AT = 120;
    uint256 private constant RATE_AT = 152;
    uint256 private constant TERM_AT = 168;
    uint256 private constant FEES_AT = 184;
    uint256 private constant STATUS_AT = 200;
    uint256 private constant CHANGES_AT = 208;
    uint256 private constant PLEDGED_AT = 240;
    uint256 private constant KEPT_BY_REPAYMENT = ~((uint256(type(uint64).max) << REPAID_AT)
        | (uint256(type(uint16).max) << FEES_AT) | (uint256(type(uint8).max) << STATUS_AT)
        | (uint256(type(uint32).max) << CHANGES_AT));

    /// @notice The stablecoin loans are funded and repaid in.
    IERC20 public immutable stablecoin;
    /// @notice The vault whose depositors receive the repayments of the notes it holds.
    NoteVault public immutable vault;
    /// @notice Builds each note's metadata (`tokenURI`); deployed with this contract, it holds no state.
    NoteRenderer public immutable renderer;
    /// @notice Holds the pieces pledged as collateral and the allow-list of collections; created with this contract.
    CollateralEscrow public immutable escrow;
    /// @notice The one contract allowed to refinance a loan (the marketplace, which verifies the lender's signed offer
    ///         and moves the money); zero disables refinancing.
    address public immutable refinancer;

    /// @notice Seconds after an installment's due date from which, still unpaid, it owes its late fee.
    uint32 public immutable lateFeeGracePeriod;
    /// @notice The late fee, in basis points of the overdue installment; charged once per installment.
    uint16 public immutable lateFeeBps;
    /// @notice Days after the oldest unpaid installment's due date from which the loan may be marked defaulted.
    uint16 public immutable defaultAfterDays;

    /// @notice Funds every loan and receives every new note.
    address public treasury;
    /// @notice Time after maturity before an unpaid loan may be marked defaulted.
    uint64 public gracePeriod;

    mapping(uint256 tokenId => Loan) private _loans;
    mapping(address account => uint256) private _credits;
    /// @dev The borrower of each loan without a pledge; a secured loan's borrower is its escrow pledge's.
    mapping(uint256 tokenId => address) private _borrowers;

    error LoanAlreadyExists(uint256 tokenId);
    error LoanNotFound(uint256 tokenId);
    error LoanNotActive(uint256 tokenId);
    error InvalidTerms(uint256 principal, uint256 rateBps, uint256 termMonths);
    error ZeroAddress();
    error ZeroAmount();
    error NothingToWithdraw(address account);
    error DefaultTooEarly(uint256 tokenId, uint256 availableAt);
    error GracePeriodTooLong(uint256 gracePeriod);
    error InvalidTreasury(address treasury);
    /// @notice Only the collateral escrow settles a loan by the claim of its collateral.
    error NotEscrow(address caller);
    error LateFeeGracePeriodTooLong(uint256 lateFeeGracePeriod);
    error LateFeeTooHigh(uint256 lateFeeBps);
    error DefaultAfterDaysOutOfRange(uint256 defaultAfterDays);
    /// @notice A payment must cover at least the first late fee owed (`fee`), which it pays before any installment.
    error PaymentBelowLateFee(uint256 tokenId, uint256 fee);
    /// @notice Originated ids are loan numbers, below REFINANCED_ID_OFFSET.
    error InvalidLoanNumber(uint256 tokenId);
    /// @notice Only `refinancer` refinances.
    error NotRefinancer(address caller);
    /// @notice Only the loan's borrower refinances it.
    error NotBorrower(uint256 tokenId, address caller);

    event LoanOriginated(
        uint256 indexed tokenId,
        address indexed borrower,
        uint256 principal,
        uint256 rateBps,
        uint256 termMonths,
        uint256 start
    );
    event Repaid(
        uint256 indexed tokenId,
        address indexed payer,
        address indexed beneficiary,
        uint256 amount,
        uint256 totalRepaid
    );
    /// @notice Late fees of note `tokenId` paid to `beneficiary`; every installment up to `feesPaidThrough` now owes
    ///         none. Emitted before the payment's `Repaid`, whose amount includes these fees.
    event LateFeesPaid(
        uint256 indexed tokenId, address indexed beneficiary, uint256 amount, uint256 feesPaidThrough
    );
    event LoanRepaid(uint256 indexed tokenId);
    event LoanDefaulted(uint256 indexed tokenId);
    /// @notice Loan `tokenId` was paid off with `payoff` from `lender`, who now holds note `newTokenId` on new terms.
    event LoanRefinanced(uint256 indexed tokenId, uint256 indexed newTokenId, address indexed lender, uint256 payoff);
    event CreditsWithdrawn(address indexed account, uint256 amount);
    event TreasuryUpdated(address indexed treasury);
    event GracePeriodUpdated(uint256 gracePeriod);

    /// @param stablecoin_ The loans' ERC-20 (6 decimals); must support ERC-2612 for the permit paths.
    /// @param admin Receives the admin and pauser roles.
    /// @param treasury_ Funds loans and receives notes; it approves this contract for the stablecoin.
    /// @param gracePeriod_ Seconds after maturity before a default may be recorded.
    /// @param lateFeeGracePeriod_ Seconds after a due date before an unpaid installment owes its late fee (at most 60 days).
    /// @param lateFeeBps_ The late fee in basis points of the overdue installment (at most 1,000).
    /// @param defaultAfterDays_ Days past the oldest unpaid due date before a default may be recorded (30 to 365).
    /// @param refinancer_ The contract allowed to refinance loans (the marketplace, deployed next), or zero for none.
    constructor(
        address stablecoin_,
        address admin,
        address treasury_,
        uint64 gracePeriod_,
        uint32 lateFeeGracePeriod_,
        uint16 lateFeeBps_,
        uint16 defaultAfterDays_,
        address refinancer_
    ) ERC721("LoanMint Note", "LMN") {
        if (stablecoin_ == address(0) || admin == address(0)) revert ZeroAddress();
        if (gracePeriod_ > MAX_GRACE_PERIOD) revert GracePeriodTooLong(gracePeriod_);
        if (lateFeeGracePeriod_ > MAX_LATE_FEE_GRACE_PERIOD) revert LateFeeGracePeriodTooLong(lateFeeGracePeriod_);
        if (lateFeeBps_ > MAX_LATE_FEE_BPS) revert LateFeeTooHigh(lateFeeBps_);
        if (defaultAfterDays_ < MIN_DEFAULT_AFTER_DAYS || defaultAfterDays_ > MAX_DEFAULT_AFTER_DAYS) {
            revert DefaultAfterDaysOutOfRange(defaultAfterDays_);
        }
        lateFeeGracePeriod = lateFeeGracePeriod_;
        lateFeeBps = lateFeeBps_;
        defaultAfterDays = defaultAfterDays_;
        stablecoin = IERC20(stablecoin_);
        vault = new NoteVault(address(this));
        renderer = new NoteRenderer();
        escrow = new CollateralEscrow(address(this), address(vault), stablecoin_);
        _setTreasury(treasury_);
        gracePeriod = gracePeriod_;
        refinancer = refinancer_;
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(PAUSER_ROLE, admin);
    }

    // ---------------------------------------------------------------- origination

    /**
     * @notice Funds a loan and mints its note: `principal` moves from the treasury to `borrower`, and note
     *         `tokenId` (the loan number) is minted to the treasury. Originator only; a used id reverts.
     * @param tokenId The loan number; any id never used before.
     * @param borrower The borrower's verified wallet.
     * @param principal Funded amount in the stablecoin's smallest unit.
     * @param rateBps Yearly rate in basis points (at most 10,000).
     * @param termMonths Number of monthly installments (1 to 360).
     */
    function originate(uint256 tokenId, address borrower, uint128 principal, uint16 rateBps, uint16 termMonths)
        external
        onlyRole(ORIGINATOR_ROLE)
        whenNotPaused
        nonReentrant
    {
        address lender = _originateLoan(tokenId, borrower, principal, rateBps, termMonths, false);
        stablecoin.safeTransferFrom(lender, borrower, principal);
    }

    /**
     * @notice `originate` secured by an ERC-721: in the same transaction piece `collateralId` of `collection` moves
     *         from `borrower` into the escrow (`escrow`), the principal to the borrower and the note to the treasury.
     *         Originator only. The collection must be allowed on the escrow, the borrower must hold the piece and
     *         have approved the escrow for it (`approve` or `setApprovalForAll`); the escrow's errors say which not.
     * @param collection An allowed ERC-721 collection.
     * @param collateralId The pledged piece's token id in `collection`.
     */
    function originateWithCollateral(
        uint256 tokenId,
        address borrower,
        uint128 principal,
        uint16 rateBps,
        uint16 termMonths,
        address collection,
        uint256 collateralId
    ) external onlyRole(ORIGINATOR_ROLE) whenNotPaused nonReentrant {
        address lender = _originateLoan(tokenId, borrower, principal, rateBps, termMonths, true);
        _lockCollateral(tokenId, collection, collateralId, borrower);
        stablecoin.safeTransferFrom(lender, borrower, principal);
    }

    /**
     * @dev `escrow.lock(...)`, and below `escrow.release(tokenId)`, as plain calls: the escrow is created with this
     *      contract and always has code, so the code-size check a high-level call makes first (100 gas) and its ABI
     *      encoder are skipped, on the two paths whose gas the collateral's goals bound. A revert bubbles up as is.
     */
    function _lockCollateral(uint256 tokenId, address collection, uint256 collateralId, address borrower) private {
        address to = address(escrow);
        bytes4 selector = ICollateralEscrow.lock.selector;
        assembly ("memory-safe") {
            let data := mload(0x40)
            mstore(data, selector)
            mstore(add(data, 4), tokenId)
            mstore(add(data, 36), collection)
            mstore(add(data, 68), collateralId)
            mstore(add(data, 100), borrower)
            if iszero(call(gas(), to, 0, data, 132, 0, 0)) {
                returndatacopy(data, 0, returndatasize())
                revert(data, returndatasize())
            }
        }
    }

    function _releaseCollateral(uint256 tokenId) private {
        address to = address(escrow);
        bytes4 selector = ICollateralEscrow.release.selector;
        assembly ("memory-safe") {
            let data := mload(0x40)
            mstore(data, selector)
            mstore(add(data, 4), tokenId)
            if iszero(call(gas(), to, 0, data, 36, 0, 0)) {
                returndatacopy(data, 0, returndatasize())
                revert(data, returndatasize())
            }
        }
    }

    /// @dev A loan number's origination, funded by the treasury (returned, to fund it from).
    function _originateLoan(
        uint256 tokenId,
        address borrower,
        uint128 principal,
        uint16 rateBps,
        uint16 termMonths,
        bool pledged
    ) private returns (address lender) {
        if (tokenId >= REFINANCED_ID_OFFSET) revert InvalidLoanNumber(tokenId);
        lender = treasury;
        _originate(tokenId, borrower, principal, rateBps, termMonths, pledged, lender);
    }

    /// @dev Checks and records the loan (and, without a pledge, its borrower) and mints its note to `lender`.
    function _originate(
        uint256 tokenId,
        address borrower,
        uint128 principal,
        uint16 rateBps,
        uint16 termMonths,
        bool pledged,
        address lender
    ) private {
        if (_loans[tokenId].status != Status.None) revert LoanAlreadyExists(tokenId);
        if (borrower == address(0)) revert ZeroAddress();
        if (
            principal < MIN_PRINCIPAL || principal > MAX_PRINCIPAL || rateBps > MAX_RATE_BPS || termMonths == 0
                || termMonths > MAX_TERM_MONTHS
        ) revert InvalidTerms(principal, rateBps, termMonths);
        if (!LoanMath.amortises(LoanMath.terms(principal, rateBps, termMonths))) {
            revert InvalidTerms(principal, rateBps, termMonths);
        }
        _loans[tokenId] = Loan({
            principal: uint56(principal),
            repaid: 0,
            start: uint32(block.timestamp),
            rateBps: rateBps,
            termMonths: termMonths,
            feesPaidThrough: 0,
            status: Status.Active,
            changes: 0,
            pledged: pledged,
            approvalSet: false
        });
        if (!pledged) _borrowers[tokenId] = borrower;
        _mint(lender, tokenId);
        emit LoanOriginated(tokenId, borrower, principal, rateBps, termMonths, block.timestamp);
    }

    // ---------------------------------------------------------------- repayment

    /**
     * @notice Pays up to `amount` towards loan `tokenId` from the caller: the late fees owed first, whole fees in
     *         installment order (a payment below the first reverts `PaymentBelowLateFee`), then, once every fee owed is
     *         paid, the installments; anything beyond what settles the loan now is not taken. Everything taken is
     *         credited to the note's beneficiary at this moment, and it lapses every marketplace listing of the note
     *         (the note's `changes` grows).
     */
    function repay(uint256 tokenId, uint256 amount) external nonReentrant {
        _repay(tokenId, amount);
    }

    /**
     * @notice `repay` after an ERC-2612 permit of `amount` for this contract, in one transaction.
     * @dev A permit already used (for example front-run) is ignored; the allowance then decides.
     */
    function repayWithPermit(uint256 tokenId, uint256 amount, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external
        nonReentrant
    {
        try IERC20Permit(address(stablecoin)).permit(msg.sender, address(this), amount, deadline, v, r, s) {} catch {}
        _repay(tokenId, amount);
    }

    function _repay(uint256 tokenId, uint256 amount) private {
        (uint256 taken, bool settled, bool pledged) = _takePayment(tokenId, amount, msg.sender);
        stablecoin.safeTransferFrom(msg.sender, address(this), taken);
        // The escrow's return never reverts for the collection: a refusal leaves the piece for the borrower to pull.
        if (settled && pledged) _releaseCollateral(tokenId);
    }

    /**
     * @dev Takes up to `amount` from `payer` for the loan (owed late fees first, then installments, capped at the
     *      payoff) and credits it to the beneficiary; returns what it took, whether that settled the loan (then marked
     *      repaid, its note burned) and whether the loan had a pledge. The money must reach this contract in the same
     *      transaction. Reads and writes the loan's slot as one word: one SSTORE for the payment, its change, the status
     *      and the burn's change (burns count theirs where they are made: see `_update`), and no copy of the loan in
     *      memory.
     */
    function _takePayment(uint256 tokenId, uint256 amount, address payer)
        private
        returns (uint256 taken, bool settled, bool pledged)
    {
        if (amount == 0) revert ZeroAmount();
        Loan storage stored = _loans[tokenId];
        uint256 word;
        assembly ("memory-safe") {
            word := sload(stored.slot)
        }
        uint256 status = uint8(word >> STATUS_AT);
        if (status == uint256(Status.None)) revert LoanNotFound(tokenId);
        if (status == uint256(Status.Repaid)) revert LoanNotActive(tokenId);
        uint256 repaid = uint64(word >> REPAID_AT);
        uint256 start = uint32(word >> START_AT);
        LoanMath.Terms memory terms = LoanMath.terms(uint56(word), uint16(word >> RATE_AT), uint16(word >> TERM_AT));
        uint256 owed = LoanMath.settlementValue(terms, start, block.timestamp) - repaid;
        // A note burned by its collateral's claim is refused here, before any fee is looked at.
        address beneficiary = _beneficiary(tokenId);
        uint256 feesPaidThrough = uint16(word >> FEES_AT);
        (uint256 fees, uint256 paid, uint256 paidThrough) = _applyPayment(tokenId, terms, start, repaid, feesPaidThrough, amount);
        if (paid > owed) paid = owed;
        uint256 totalRepaid = repaid + paid;
        taken = fees + paid;
        _credits[beneficiary] += taken;
        settled = paid == owed;
        unchecked {
            // The total repaid never exceeds the total due (below 2^61, see Loan); installments number at most 360; the
            // change count wraps within its 32 bits.
            uint256 changes = uint32((word >> CHANGES_AT) + (settled ? 2 : 1));
            word = (word & KEPT_BY_REPAYMENT) | (totalRepaid << REPAID_AT) | (paidThrough << FEES_AT)
                | ((settled ? uint256(Status.Repaid) : status) << STATUS_AT) | (changes << CHANGES_AT);
        }
        assembly ("memory-safe") {
            sstore(stored.slot, word)
        }
        if (settled) _burn(tokenId);
        if (paidThrough != feesPaidThrough) emit LateFeesPaid(tokenId, beneficiary, fees, paidThrough);
        emit Repaid(tokenId, payer, beneficiary, taken, totalRepaid);
        // A burned note has no metadata left to refresh: its Transfer to zero says so.
        if (settled) emit LoanRepaid(tokenId);
        else emit MetadataUpdate(tokenId);
        pledged = uint8(word >> PLEDGED_AT) != 0;
    }

    /// @inheritdoc ILoanNote
    /// @dev One path with a payoff (`_takePayment` of everything owed: late fees, arrears, principal and the current
    ///      period's interest) and an origination (`_originate`, funded by the lender instead of the treasury); the
    ///      refinancer has checked the lender's signed offer and moves the money (`payoff` to this contract) in the same
    ///      transaction. A pledged piece is re-recorded for the new note inside the escrow: it never moves, so no
    ///      collection is called. Nothing here calls the old holder (credited, pull).
    function refinance(
        uint256 tokenId,
        address borrower,
        address lender,
        uint128 principal,
        uint16 rateBps,
        uint16 termMonths
    ) external whenNotPaused nonReentrant returns (uint256 newTokenId, uint256 payoff) {
        if (msg.sender != refinancer) revert NotRefinancer(msg.sender);
        if (_loans[tokenId].status != Status.Active) revert LoanNotActive(tokenId);
        newTokenId = tokenId + REFINANCED_ID_OFFSET;
        bool pledged;
        (payoff,, pledged) = _takePayment(tokenId, type(uint256).max, borrower);
        address recorded = pledged ? escrow.move(tokenId, newTokenId) : _borrowers[tokenId];
        if (borrower != recorded) revert NotBorrower(tokenId, borrower);
        _originate(newTokenId, borrower, principal, rateBps, termMonths, pledged, lender);
        emit LoanRefinanced(tokenId, newTokenId, lender, payoff);
    }

    /// @inheritdoc ILoanNote
    /// @dev A secured loan's is its escrow pledge's, there only while the piece is.
    function borrowerOf(uint256 tokenId) external view returns (address borrower) {
        if (!_loans[tokenId].pledged) return _borrowers[tokenId];
        (,, borrower) = escrow.collateralOf(tokenId);
    }

    /**
     * @dev Splits a payment of `amount`: the whole late fees owed it covers (in installment order) and where they are now
     *      paid through, then, only once none is left owing, the rest for the installments (the caller caps it at the
     *      payoff). On time, no fee can be owed: the count of installments whose fee time has come is no more than
     *      those paid or whose fee is paid, and nothing else is computed.
     */
    function _applyPayment(
        uint256 tokenId,
        LoanMath.Terms memory terms,
        uint256 start,
        uint256 repaid,
        uint256 feesPaidThrough,
        uint256 amount
    ) private view returns (uint256 fees, uint256 rest, uint256 paidThrough) {
        uint256 late = LoanMath.lateFeeInstallments(terms, start, lateFeeGracePeriod, block.timestamp);
        uint256 from = LoanMath.covered(terms, repaid);
        if (feesPaidThrough > from) from = feesPaidThrough;
        if (late <= from) return (0, amount, feesPaidThrough);
        uint256 left;
        (fees, paidThrough, left) = LoanMath.lateFeesWithin(terms, from, late, lateFeeBps, amount);
        if (paidThrough == from) revert PaymentBelowLateFee(tokenId, left);
        if (paidThrough == late) rest = amount - fees;
    }

    /// @inheritdoc ILoanNote
    /// @dev The escrow has deleted its record of the piece; this burn (its change counted here) ends the loan. Guarded:
    ///      the escrow's lock and release run inside this contract's guarded origination and final payment, so a
    ///      collection re-entering there cannot settle a loan through the escrow's claim.
    function settleByClaim(uint256 tokenId, address claimant) external nonReentrant {
        if (msg.sender != address(escrow)) revert NotEscrow(msg.sender);
        Loan storage loan = _loans[tokenId];
        if (loan.status != Status.Defaulted) revert ICollateralEscrow.CollateralNotClaimable(tokenId);
        if (claimant != _beneficiary(tokenId)) revert ICollateralEscrow.NotEntitled(tokenId, claimant);
        unchecked {
            ++loan.changes; // the burn's change
        }
        _burn(tokenId);
    }

    /**
     * @dev The holder, or the depositor while the vault holds the note; never the zero address. A loan not repaid
     *      has no holder only once the claim of its collateral settled its default and burned the note (a defaulted
     *      note burns no other way): nothing is owed on it any more, so a payment reverts `LoanNotActive`. The vault
     *      records every depositor; the same check keeps any later change from crediting address(0).
     */
    function _beneficiary(uint256 tokenId) private view returns (address holder) {
        holder = _ownerOf(tokenId);
        if (holder == address(vault)) holder = vault.depositorOf(tokenId);
        require(holder != address(0), LoanNotActive(tokenId));
    }

    /// @notice Sends the caller every repayment credited to them.
    function withdrawCredits() external nonReentrant {
        uint256 amount = _credits[msg.sender];
        if (amount == 0) revert NothingToWithdraw(msg.sender);
        _credits[msg.sender] = 0;
        emit CreditsWithdrawn(msg.sender, amount);
        stablecoin.safeTransfer(msg.sender, amount);
    }

    /// @notice Repayments credited to `account` and not yet withdrawn.
    function creditsOf(address account) external view returns (uint256) {
        return _credits[account];
    }

    // ---------------------------------------------------------------- default

    /// @notice Records that loan `tokenId` defaulted; originator only, from `defaultableAt(tokenId)` on (its oldest
    ///         unpaid installment `defaultAfterDays` past due, or maturity plus the grace period passed).
    ///         Every marketplace listing of the note lapses (its `changes` grows).
    /// @dev A defaulted loan can still be repaid; paying it off marks it repaid and burns the note.
    function markDefaulted(uint256 tokenId) external onlyRole(ORIGINATOR_ROLE) {
        Loan storage loan = _loans[tokenId];
        if (loan.status != Status.Active) revert LoanNotActive(tokenId);
        uint256 availableAt = _defaultableAt(loan);
        if (block.timestamp < availableAt) revert DefaultTooEarly(tokenId, availableAt);
        loan.status = Status.Defaulted;
        unchecked {
            ++loan.changes;
        }
        emit LoanDefaulted(tokenId);
        emit MetadataUpdate(tokenId);
    }

    // ---------------------------------------------------------------- administration

    /// @notice Changes the account that funds loans and receives new notes; admin only. Neither the zero
    ///         address nor the vault (a note minted there would have no depositor).
    function setTreasury(address treasury_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setTreasury(treasury_);
        emit TreasuryUpdated(treasury_);
    }

    function _setTreasury(address treasury_) private {
        if (treasury_ == address(0)) revert ZeroAddress();
        if (treasury_ == address(vault)) revert InvalidTreasury(treasury_);
        treasury = treasury_;
    }

    /// @notice Changes the time after maturity before a default may be recorded; admin only.
    function setGracePeriod(uint64 gracePeriod_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (gracePeriod_ > MAX_GRACE_PERIOD) revert GracePeriodTooLong(gracePeriod_);
        gracePeriod = gracePeriod_;
        emit GracePeriodUpdated(gracePeriod_);
    }

    /// @notice Stops origination; pauser only. Repayments, withdrawals and transfers continue.
    function pause() external onlyRole(PAUSER_ROLE) {
        _pause();
    }

    /// @notice Resumes origination; pauser only.
    function unpause() external onlyRole(PAUSER_ROLE) {
        _unpause();
    }

    // ---------------------------------------------------------------- views

    /// @notice The stored terms and state of loan `tokenId` (also after the note is burned).
    function loanOf(uint256 tokenId) external view returns (Loan memory) {
        return _existing(tokenId);
    }

    /**
     * @notice Current owner (zero once burned), the note's change count (transfers, burn, repayments, default) and the
     *         days its oldest unpaid installment is past due (zero while current or settled); a listing at a fixed price
     *         is live only while owner and count are what they were when it was made.
     */
    function ownershipOf(uint256 tokenId) external view returns (address owner, uint32 changes, uint256 daysPastDue) {
        Loan memory loan = _loans[tokenId];
        // Nothing falls due in the first period, so the schedule is read only from the first due date on.
        if (_unsettled(loan) && block.timestamp >= uint256(loan.start) + LoanMath.PERIOD) {
            (, daysPastDue) = LoanMath.pastDue(_terms(loan), loan.start, loan.repaid, block.timestamp);
        }
        return (_ownerOf(tokenId), loan.changes, daysPastDue);
    }

    /// @inheritdoc ILoanNote
    /// @dev Everything reads zero for an unknown id; `outstanding` and `interest` are zero unless the loan is active.
    function noteStateOf(uint256 tokenId) external view returns (NoteState memory state) {
        Loan memory loan = _loans[tokenId];
        state.owner = _ownerOf(tokenId);
        state.status = loan.status;
        state.changes = loan.changes;
        state.rateBps = loan.rateBps;
        state.maturity = uint256(loan.start) + uint256(loan.termMonths) * LoanMath.PERIOD;
        if (!_unsettled(loan)) return state;
        LoanMath.Terms memory terms = _terms(loan);
        (, state.daysPastDue) = LoanMath.pastDue(terms, loan.start, loan.repaid, block.timestamp);
        if (loan.status == Status.Active) {
            (state.outstanding, state.interest) = LoanMath.payoffSplit(terms, loan.start, loan.repaid, block.timestamp);
            (uint256 fees,) = _lateFees(loan, terms);
            state.interest += fees;
        }
    }

    /**
     * @notice Where loan `tokenId`'s servicing stands now: the due date of its oldest unpaid installment, the days that
     *         installment is past due (zero while current) and the installments fallen due and unpaid with the late fees
     *         owed. All zero once repaid.
     */
    function pastDueOf(uint256 tokenId)
        external
        view
        returns (uint256 dueDate, uint256 daysPastDue, uint256 amountPastDue)
    {
        Loan memory loan = _existing(tokenId);
        if (loan.status == Status.Repaid) return (0, 0, 0);
        LoanMath.Terms memory terms = _terms(loan);
        (dueDate, daysPastDue) = LoanMath.pastDue(terms, loan.start, loan.repaid, block.timestamp);
        (uint256 fees,) = _lateFees(loan, terms);
        amountPastDue = LoanMath.amountDue(terms, loan.start, loan.repaid, block.timestamp) + fees;
    }

    /// @notice The late fees loan `tokenId` owes now and how many installments owe one; zero once repaid.
    function lateFeesOf(uint256 tokenId) external view returns (uint256 amount, uint256 count) {
        Loan memory loan = _existing(tokenId);
        if (loan.status == Status.Repaid) return (0, 0);
        return _lateFees(loan, _terms(loan));
    }

    /// @notice From when active loan `tokenId` may be marked defaulted (zero unless active): its oldest unpaid
    ///         installment's due date plus `defaultAfterDays` days, or maturity plus the grace period if earlier.
    function defaultableAt(uint256 tokenId) external view returns (uint256) {
        Loan memory loan = _existing(tokenId);
        if (loan.status != Status.Active) return 0;
        return _defaultableAt(loan);
    }

    /// @notice The regular monthly installment.
    function monthlyPayment(uint256 tokenId) external view returns (uint256) {
        Loan memory loan = _existing(tokenId);
        return LoanMath.monthlyPayment(loan.principal, loan.rateBps, loan.termMonths);
    }

    /// @notice Sum of all scheduled installments.
    function totalDue(uint256 tokenId) external view returns (uint256) {
        Loan memory loan = _existing(tokenId);
        return LoanMath.totalDue(_terms(loan));
    }

    /// @notice Due date of the first installment not fully paid; zero once repaid.
    function nextDueDate(uint256 tokenId) external view returns (uint256) {
        Loan memory loan = _existing(tokenId);
        if (loan.status == Status.Repaid) return 0;
        return LoanMath.nextDueDate(_terms(loan), loan.start, loan.repaid);
    }

    /// @notice Installments fallen due and not yet paid, and the late fees owed.
    function amountDueNow(uint256 tokenId) external view returns (uint256) {
        Loan memory loan = _existing(tokenId);
        if (loan.status == Status.Repaid) return 0;
        LoanMath.Terms memory terms = _terms(loan);
        (uint256 fees,) = _lateFees(loan, terms);
        return LoanMath.amountDue(terms, loan.start, loan.repaid, block.timestamp) + fees;
    }

    /// @notice Scheduled principal not yet repaid.
    function outstandingBalance(uint256 tokenId) external view returns (uint256) {
        Loan memory loan = _existing(tokenId);
        if (loan.status == Status.Repaid) return 0;
        return LoanMath.outstandingPrincipal(_terms(loan), loan.repaid);
    }

    /// @notice What settles the loan now: outstanding principal, interest accrued in the current period and late fees owed.
    function payoffAmount(uint256 tokenId) external view returns (uint256) {
        Loan memory loan = _existing(tokenId);
        if (loan.status == Status.Repaid) return 0;
        LoanMath.Terms memory terms = _terms(loan);
        (uint256 fees,) = _lateFees(loan, terms);
        return LoanMath.settlementValue(terms, loan.start, block.timestamp) - loan.repaid + fees;
    }

    /// @notice On-chain JSON metadata (ERC-721 metadata schema) with an SVG image, naming the escrowed piece if any.
    function tokenURI(uint256 tokenId) public view override returns (string memory) {
        _requireOwned(tokenId);
        Loan memory loan = _loans[tokenId];
        (address collection, uint256 collateralId,) = escrow.collateralOf(tokenId);
        return renderer.tokenURI(
            tokenId,
            loan.principal,
            loan.repaid,
            loan.rateBps,
            loan.termMonths,
            loan.start,
            loan.status == Status.Defaulted,
            collection,
            collateralId
        );
    }

    /// @inheritdoc IERC165
    function supportsInterface(bytes4 interfaceId)
        public
        view
        override(ERC721, AccessControl, IERC165)
        returns (bool)
    {
        return interfaceId == bytes4(0x49064906) || super.supportsInterface(interfaceId);
    }

    function _terms(Loan memory loan) private pure returns (LoanMath.Terms memory) {
        return LoanMath.terms(loan.principal, loan.rateBps, loan.termMonths);
    }

    /// @dev The late fees a loan not yet settled owes now, and how many installments owe one.
    function _lateFees(Loan memory loan, LoanMath.Terms memory terms) private view returns (uint256 amount, uint256 count) {
        (uint256 fees, uint256 from, uint256 to) = LoanMath.lateFees(
            terms, loan.start, loan.repaid, loan.feesPaidThrough, lateFeeGracePeriod, lateFeeBps, block.timestamp
        );
        return (fees, to - from);
    }

    function _defaultableAt(Loan memory loan) private view returns (uint256) {
        return LoanMath.defaultableAt(_terms(loan), loan.start, loan.repaid, gracePeriod, defaultAfterDays);
    }

    /// @dev Active or defaulted: something is still owed on it.
    function _unsettled(Loan memory loan) private pure returns (bool) {
        return loan.status == Status.Active || loan.status == Status.Defaulted;
    }

    function _existing(uint256 tokenId) private view returns (Loan memory loan) {
        loan = _loans[tokenId];
        if (loan.status == Status.None) revert LoanNotFound(tokenId);
    }

    /**
     * @dev Counts every transfer as a change, so a listing made before one can never be filled, and tells the vault
     *      who sent every note that arrives there: `transferFrom`, `safeTransferFrom` and `NoteVault.deposit` all pass
     *      here, so no note reaches the vault without a depositor. The two burns (final payment, collateral claim)
     *      count their change with the loan's other writes.
     */
    function _update(address to, uint256 tokenId, address auth) internal override returns (address from) {
        from = super._update(to, tokenId, auth);
        if (from != address(0) && to != address(0)) {
            unchecked {
                ++_loans[tokenId].changes;
            }
        }
        if (to == address(vault)) vault.recordDeposit(tokenId, from);
    }

    /**
     * @dev Records in the loan's slot whether a single-note approval may be set, and skips ERC721's clearing of the
     *      approval at a transfer or burn (`to` zero, no event: the one call `ERC721._update` makes) when none is: the
     *      approval's slot then already holds zero. Approving records it; approving the zero address clears it.
     */
    function _approve(address to, uint256 tokenId, address auth, bool emitEvent) internal override {
        Loan storage loan = _loans[tokenId];
        if (to == address(0) && !emitEvent) {
            if (!loan.approvalSet) return;
        }
        loan.approvalSet = to != address(0);
        super._approve(to, tokenId, auth, emitEvent);
    }
}
