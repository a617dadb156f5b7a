// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// @notice A holder's signed offer to sell one note. `parBps == 0`: at the fixed `price`, only while the note's change
///         count (LoanNote.ownershipOf) is `changes`. Otherwise at `parBps` of the outstanding principal at the fill
///         (rounded down) plus the interest accrued and unpaid, while the note is active and still held by `seller`;
///         `price` and `changes` are then unread. Every order fills only while the note's oldest unpaid installment is
///         at most `maxDaysPastDue` days past due (zero: current notes only).
struct Listing {
    address seller;
    uint256 tokenId;
    uint256 price;
    uint256 parBps;
    uint256 changes;
    uint256 maxDaysPastDue;
    uint256 expiry;
    uint256 salt;
    uint256 counter;
}

/// @notice An investor's signed offer to buy one note. `parBps == 0`: the fixed `price`, only while the note's change
///         count is `changes`. Otherwise `parBps` of the outstanding principal at the acceptance plus the interest
///         accrued and unpaid, at most `cap`.
struct Offer {
    address buyer;
    uint256 tokenId;
    uint256 price;
    uint256 parBps;
    uint256 cap;
    uint256 changes;
    uint256 maxDaysPastDue;
    uint256 expiry;
    uint256 salt;
    uint256 counter;
}

/// @notice An investor's signed offer to buy any active note whose yearly rate, time left to maturity (seconds) and
///         outstanding principal fall in the signed ranges (bounds included) and that is at most `maxDaysPastDue` days
///         past due, at `parBps` of the outstanding principal plus the interest accrued and unpaid, for at most
///         `budget` in total over every note it fills.
struct MatchingOffer {
    address buyer;
    uint256 parBps;
    uint256 minRateBps;
    uint256 maxRateBps;
    uint256 minTermLeft;
    uint256 maxTermLeft;
    uint256 minOutstanding;
    uint256 maxOutstanding;
    uint256 maxDaysPastDue;
    uint256 budget;
    uint256 expiry;
    uint256 salt;
    uint256 counter;
}

/// @notice A lender's signed offer to refinance one loan: the borrower of loan `tokenId` may move it to a new loan of
///         `principal` (chosen at the acceptance, at most `maxPrincipal`) at `rateBps` over `termMonths` months, funded
///         by `lender`, while the loan is active and at most `maxDaysPastDue` days past due. Single use: the refinance
///         burns the loan's note.
struct RefinanceOffer {
    address lender;
    uint256 tokenId;
    uint256 rateBps;
    uint256 termMonths;
    uint256 maxPrincipal;
    uint256 maxDaysPastDue;
    uint256 expiry;
    uint256 salt;
    uint256 counter;
}

/// @notice A lender's signed offer to refinance any active loan whose yearly rate, time left to maturity (seconds) and
///         outstanding principal fall in the signed ranges (bounds included) and that is at most `maxDaysPastDue` days
///         past due, on the terms of a RefinanceOffer, lending at most `budget` in total over every loan it refinances.
struct MatchingRefinanceOffer {
    address lender;
    uint256 rateBps;
    uint256 termMonths;
    uint256 maxPrincipal;
    uint256 minRateBps;
    uint256 maxRateBps;
    uint256 minTermLeft;
    uint256 maxTermLeft;
    uint256 minOutstanding;
    uint256 maxOutstanding;
    uint256 maxDaysPastDue;
    uint256 budget;
    uint256 expiry;
    uint256 salt;
    uint256 counter;
}

/// @title OrderTypes
/// @notice EIP-712 struct hashes of the marketplace's signed orders (domain "LoanMint Marketplace", version "1").
///         domain/orders.ts declares the same types for wallets; a test signs with it and fills here.
library OrderTypes {
    bytes32 internal constant LISTING_TYPEHASH = keccak256(
        "Listing(address seller,uint256 tokenId,uint256 price,uint256 parBps,uint256 changes,uint256 maxDaysPastDue,uint256 expiry,uint256 salt,uint256 counter)"
    );
    bytes32 internal constant OFFER_TYPEHASH = keccak256(
        "Offer(address buyer,uint256 tokenId,uint256 price,uint256 parBps,uint256 cap,uint256 changes,uint256 maxDaysPastDue,uint256 expiry,uint256 salt,uint256 counter)"
    );
    bytes32 internal constant MATCHING_OFFER_TYPEHASH = keccak256(
        "MatchingOffer(address buyer,uint256 parBps,uint256 minRateBps,uint256 maxRateBps,uint256 minTermLeft,uint256 maxTermLeft,uint256 minOutstanding,uint256 maxOutstanding,uint256 maxDaysPastDue,uint256 budget,uint256 expiry,uint256 salt,uint256 counter)"
    );

    bytes32 internal constant REFINANCE_OFFER_TYPEHASH = keccak256(
        "RefinanceOffer(address lender,uint256 tokenId,uint256 rateBps,uint256 termMonths,uint256 maxPrincipal,uint256 maxDaysPastDue,uint256 expiry,uint256 salt,uint256 counter)"
    );
    bytes32 internal constant MATCHING_REFINANCE_OFFER_TYPEHASH = keccak256(
        "MatchingRefinanceOffer(address lender,uint256 rateBps,uint256 termMonths,uint256 maxPrincipal,uint256 minRateBps,uint256 maxRateBps,uint256 minTermLeft,uint256 maxTermLeft,uint256 minOutstanding,uint256 maxOutstanding,uint256 maxDaysPastDue,uint256 budget,uint256 expiry,uint256 salt,uint256 counter)"
    );

    // Every field is a static 32-byte word, so a struct's ABI encoding is exactly its EIP-712 `encodeData`.
    function hash(Listing calldata o) internal pure returns (bytes32) {
        return keccak256(abi.encode(LISTING_TYPEHASH, o));
    }

    function hash(Offer calldata o) internal pure returns (bytes32) {
        return keccak256(abi.encode(OFFER_TYPEHASH, o));
    }

    function hash(MatchingOffer calldata o) internal pure returns (bytes32) {
        return keccak256(abi.encode(MATCHING_OFFER_TYPEHASH, o));
    }

    function hash(RefinanceOffer calldata o) internal pure returns (bytes32) {
        return keccak256(abi.encode(REFINANCE_OFFER_TYPEHASH, o));
    }

    function hash(MatchingRefinanceOffer calldata o) internal pure returns (bytes32) {
        return keccak256(abi.encode(MATCHING_REFINANCE_OFFER_TYPEHASH, o));
    }
}
