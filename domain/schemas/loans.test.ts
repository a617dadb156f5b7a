import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { z } from "zod";
import { collateralClaimSchema, COLLATERAL_MESSAGES, LOAN_LIMITS, LOAN_MESSAGES, loanApprovalSchema, loanRequestSchema, pledgedNftSchema, usdAmount } from "./loans";

const request = { amount: "5000", purpose: "business", interestRate: 8.5, termMonths: 12 };
const MAX_UINT256 = (1n << 256n) - 1n;
const ADDRESS = "0xAbCdEf0123456789aBcDeF0123456789ABCDEF01";

/** Every issue as "path: message", so a test states exactly what was refused and why. */
const issues = (result: z.ZodSafeParseResult<unknown>) => (result.success ? [] : result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
const refusal = (field: string, value: unknown) => issues(loanRequestSchema.safeParse({ ...request, [field]: value }));
const parsed = (field: string, value: unknown) => loanRequestSchema.parse({ ...request, [field]: value });
/** Micro-dollars as a wire string with all 6 decimals. */
const usd = (micro: bigint) => `${micro / 1_000_000n}.${(micro % 1_000_000n).toString().padStart(6, "0")}`;

describe("a loan request's amount", () => {
  it("is read as micro-dollars from a decimal string, a padded string or a number", () => {
    assert.equal(parsed("amount", "1250.5").amount, 1_250_500_000n);
    assert.equal(parsed("amount", " 2500.000001 ").amount, 2_500_000_001n);
    assert.equal(parsed("amount", 1500).amount, 1_500_000_000n);
    assert.equal(parsed("amount", 1234.56).amount, 1_234_560_000n);
  });

  it("accepts exactly the minimum and the maximum and refuses one micro-dollar beyond either", () => {
    assert.equal(parsed("amount", usd(LOAN_LIMITS.minAmountMicro)).amount, LOAN_LIMITS.minAmountMicro);
    assert.equal(parsed("amount", 1000).amount, LOAN_LIMITS.minAmountMicro);
    assert.deepEqual(refusal("amount", usd(LOAN_LIMITS.minAmountMicro - 1n)), [`amount: ${LOAN_MESSAGES.amountMin}`]);
    assert.deepEqual(refusal("amount", 999.999999), [`amount: ${LOAN_MESSAGES.amountMin}`]);
    assert.equal(parsed("amount", usd(LOAN_LIMITS.maxAmountMicro)).amount, LOAN_LIMITS.maxAmountMicro);
    assert.equal(parsed("amount", 1_000_000).amount, LOAN_LIMITS.maxAmountMicro);
    assert.deepEqual(refusal("amount", usd(LOAN_LIMITS.maxAmountMicro + 1n)), [`amount: ${LOAN_MESSAGES.amountMax}`]);
    assert.deepEqual(refusal("amount", 1_000_000.000001), [`amount: ${LOAN_MESSAGES.amountMax}`]);
  });

  it("says the minimum for a small positive amount, not that it must be positive", () => {
    assert.deepEqual(refusal("amount", "0.000001"), [`amount: ${LOAN_MESSAGES.amountMin}`]);
    assert.deepEqual(refusal("amount", 1), [`amount: ${LOAN_MESSAGES.amountMin}`]);
  });

  it("refuses zero, negatives and minus zero, as strings or numbers, as not greater than 0", () => {
    for (const value of ["0", "0.000000", "-5000", " -5000", "-0", "-0.0", 0, -0, -5000, Number.NEGATIVE_INFINITY]) {
      assert.deepEqual(refusal("amount", value), [`amount: ${LOAN_MESSAGES.amountPositive}`], `for ${String(value)}`);
    }
  });

  it("calls a minus sign not greater than 0 even when the rest is no number, after leading spaces too", () => {
    for (const value of ["-abc", "-1,000", " -abc", "\t-1,000 "]) {
      assert.deepEqual(refusal("amount", value), [`amount: ${LOAN_MESSAGES.amountPositive}`], `for ${JSON.stringify(value)}`);
    }
  });

  it("calls a zero written in any form not greater than 0, before judging its format", () => {
    for (const value of ["0.0000000", "0e5", "0x0"]) {
      assert.deepEqual(refusal("amount", value), [`amount: ${LOAN_MESSAGES.amountPositive}`], `for ${value}`);
    }
  });

  it("refuses NaN as not greater than 0 and Infinity as no amount of at most 6 decimals", () => {
    assert.deepEqual(refusal("amount", Number.NaN), [`amount: ${LOAN_MESSAGES.amountPositive}`]);
    assert.deepEqual(refusal("amount", Number.POSITIVE_INFINITY), [`amount: ${LOAN_MESSAGES.amountFormat}`]);
  });

  it("refuses a seventh decimal, separators, exponents and words with the format message", () => {
    for (const value of ["5000.0000001", 5000.0000001, "5,000", "5e3", "abc", "$5000", "Infinity"]) {
      assert.deepEqual(refusal("amount", value), [`amount: ${LOAN_MESSAGES.amountFormat}`], `for ${String(value)}`);
    }
  });

  it("refuses a blank, missing or non-numeric amount as not greater than 0, without throwing", () => {
    for (const value of [undefined, null, "", "   ", true, {}, [5000], 5000n]) {
      assert.deepEqual(refusal("amount", value), [`amount: ${LOAN_MESSAGES.amountPositive}`], `for ${String(value)}`);
    }
    const { amount: _, ...withoutAmount } = request;
    assert.deepEqual(issues(loanRequestSchema.safeParse(withoutAmount)), [`amount: ${LOAN_MESSAGES.amountPositive}`]);
  });
});

describe("a USD amount on its own (usdAmount)", () => {
  const amount = usdAmount("not positive", "bad format");
  const check = (value: unknown) => issues(amount.safeParse(value));

  it("returns micro-dollars for any positive amount, with no loan limits", () => {
    assert.equal(amount.parse("0.000001"), 1n);
    assert.equal(amount.parse(0.5), 500_000n);
    assert.equal(amount.parse("  12.5 "), 12_500_000n);
  });

  it("carries amounts up to uint256 and refuses one micro-dollar more as not positive", () => {
    assert.equal(amount.parse(usd(MAX_UINT256)), MAX_UINT256);
    assert.deepEqual(check(usd(MAX_UINT256 + 1n)), [": not positive"]);
  });

  it("refuses a positive number that rounds to no micro-dollar as not positive", () => {
    assert.deepEqual(check(1e-10), [": not positive"]);
  });

  it("uses the one message for both refusals when no format message is given", () => {
    const single = usdAmount("one message");
    assert.deepEqual(issues(single.safeParse("abc")), [": one message"]);
    assert.deepEqual(issues(single.safeParse("-1")), [": one message"]);
    assert.deepEqual(check("abc"), [": bad format"]);
    assert.deepEqual(check("-1"), [": not positive"]);
  });

  it("refuses blanks and values of other types with the first message, without throwing", () => {
    for (const value of [undefined, null, "", " \t", false, {}, [], Symbol("x")]) {
      assert.deepEqual(check(value), [": not positive"], `for ${String(value)}`);
    }
  });
});

describe("a loan request's interest rate", () => {
  it("is a percent on the wire, as a number or a numeric string, and basis points inside", () => {
    assert.equal(parsed("interestRate", 8.5).interestRate, 850);
    assert.equal(parsed("interestRate", "8.5").interestRate, 850);
    assert.equal(parsed("interestRate", " 12.25 ").interestRate, 1225);
    assert.equal(parsed("interestRate", 0.57).interestRate, 57);
  });

  it("accepts exactly the minimum of 0.1% and refuses anything lower", () => {
    assert.equal(parsed("interestRate", LOAN_LIMITS.minRatePercent).interestRate, 10);
    for (const value of [0.09, 0, -5, "0.09"]) {
      assert.deepEqual(refusal("interestRate", value), [`interestRate: ${LOAN_MESSAGES.rateMin}`], `for ${value}`);
    }
  });

  it("accepts exactly the maximum of 50% and refuses anything higher", () => {
    assert.equal(parsed("interestRate", LOAN_LIMITS.maxRatePercent).interestRate, 5000);
    for (const value of [50.01, 51, "50.01"]) {
      assert.deepEqual(refusal("interestRate", value), [`interestRate: ${LOAN_MESSAGES.rateMax}`], `for ${value}`);
    }
  });

  it("refuses a rate finer than a basis point and accepts one whose float error is below it", () => {
    for (const value of [8.505, "8.505", 0.125, 49.999]) {
      assert.deepEqual(refusal("interestRate", value), [`interestRate: ${LOAN_MESSAGES.rateDecimals}`], `for ${value}`);
    }
    assert.equal(parsed("interestRate", 0.1 + 0.2).interestRate, 30);
    assert.equal(parsed("interestRate", 1.15).interestRate, 115);
  });

  it("refuses a blank, missing or non-numeric rate with the minimum's message, without throwing", () => {
    for (const value of [undefined, null, "", "  ", "abc", "8.5%", Number.NaN, Number.POSITIVE_INFINITY, true, {}, [8.5]]) {
      assert.deepEqual(refusal("interestRate", value), [`interestRate: ${LOAN_MESSAGES.rateMin}`], `for ${String(value)}`);
    }
  });
});

describe("a loan request's term", () => {
  it("is a whole number of months, as a number or a numeric string", () => {
    assert.equal(parsed("termMonths", 12).termMonths, 12);
    assert.equal(parsed("termMonths", "24").termMonths, 24);
    assert.equal(parsed("termMonths", " 36 ").termMonths, 36);
  });

  it("accepts exactly 1 and 360 months and refuses 0 and 361", () => {
    assert.equal(parsed("termMonths", LOAN_LIMITS.minTermMonths).termMonths, 1);
    assert.equal(parsed("termMonths", LOAN_LIMITS.maxTermMonths).termMonths, 360);
    assert.deepEqual(refusal("termMonths", 0), [`termMonths: ${LOAN_MESSAGES.termMin}`]);
    assert.deepEqual(refusal("termMonths", -12), [`termMonths: ${LOAN_MESSAGES.termMin}`]);
    assert.deepEqual(refusal("termMonths", 361), [`termMonths: ${LOAN_MESSAGES.termMax}`]);
    assert.deepEqual(refusal("termMonths", "361"), [`termMonths: ${LOAN_MESSAGES.termMax}`]);
  });

  it("refuses a fraction of a month inside the bounds as not whole, and outside them by the bound", () => {
    assert.deepEqual(refusal("termMonths", 12.5), [`termMonths: ${LOAN_MESSAGES.termWhole}`]);
    assert.deepEqual(refusal("termMonths", "1.5"), [`termMonths: ${LOAN_MESSAGES.termWhole}`]);
    assert.deepEqual(refusal("termMonths", 0.5), [`termMonths: ${LOAN_MESSAGES.termMin}`]);
    assert.deepEqual(refusal("termMonths", 360.5), [`termMonths: ${LOAN_MESSAGES.termMax}`]);
  });

  it("refuses a blank, missing or non-numeric term with the minimum's message, without throwing", () => {
    for (const value of [undefined, null, "", "  ", "twelve", Number.NaN, true, {}, [12], ["12"]]) {
      assert.deepEqual(refusal("termMonths", value), [`termMonths: ${LOAN_MESSAGES.termMin}`], `for ${String(value)}`);
    }
  });
});

describe("a whole loan request", () => {
  it("returns micro-dollars, basis points, months and the trimmed purpose, without collateral when none is sent", () => {
    assert.deepEqual(loanRequestSchema.parse({ amount: "10000.25", purpose: "  education ", interestRate: "7.25", termMonths: "36" }), {
      amount: 10_000_250_000n,
      purpose: "education",
      interestRate: 725,
      termMonths: 36,
    });
  });

  it("reports every refused field at once, each on its own path", () => {
    assert.deepEqual(issues(loanRequestSchema.safeParse({ amount: "500", purpose: " ", interestRate: 60, termMonths: 400 })), [
      `amount: ${LOAN_MESSAGES.amountMin}`,
      `purpose: ${LOAN_MESSAGES.purpose}`,
      `interestRate: ${LOAN_MESSAGES.rateMax}`,
      `termMonths: ${LOAN_MESSAGES.termMax}`,
    ]);
  });

  it("takes absent, null, false or {} collateral as none", () => {
    for (const collateral of [undefined, null, false, {}]) {
      assert.equal(parsed("collateral", collateral).collateral, undefined, `for ${JSON.stringify(collateral)}`);
    }
  });

  it("refuses collateral that is no object, an empty text or 0 included, by the collateral type message instead of reading it as none", () => {
    for (const collateral of ["", "car", 0, true]) {
      assert.deepEqual(issues(loanRequestSchema.safeParse({ ...request, collateral })), [`collateral: ${LOAN_MESSAGES.collateralType}`], `for ${JSON.stringify(collateral)}`);
    }
  });

  it("judges any other collateral whole, each refusal on its own field", () => {
    assert.deepEqual(refusal("collateral", { type: "car" }), [`collateral.value: ${LOAN_MESSAGES.collateralValue}`, `collateral.description: ${LOAN_MESSAGES.collateralDescription}`]);
    assert.deepEqual(refusal("collateral", { type: " ", value: "abc", description: "x" }), [`collateral.type: ${LOAN_MESSAGES.collateralType}`, `collateral.value: ${LOAN_MESSAGES.collateralValue}`]);
  });

  it("keeps a non-NFT collateral's value in micro-dollars and ignores any nft sent with it", () => {
    assert.deepEqual(parsed("collateral", { type: " car ", value: 12000, description: "2019 sedan", nft: { collection: "nope" } }).collateral, {
      type: "car",
      value: 12_000_000_000n,
      description: "2019 sedan",
      nft: undefined,
    });
  });

  it("needs a valid pledged piece with NFT collateral, said on the nft field", () => {
    const nftCollateral = { type: "nft", value: "20000", description: "A punk" };
    for (const nft of [undefined, null, {}, { collection: ADDRESS }, { collection: "0x1234", tokenId: "1" }]) {
      assert.deepEqual(refusal("collateral", { ...nftCollateral, nft }), [`collateral.nft: ${COLLATERAL_MESSAGES.chooseNft}`], `for ${JSON.stringify(nft)}`);
    }
    assert.deepEqual(parsed("collateral", { ...nftCollateral, nft: { collection: ADDRESS, tokenId: "42" } }).collateral, {
      type: "nft",
      value: 20_000_000_000n,
      description: "A punk",
      nft: { collection: ADDRESS.toLowerCase(), tokenId: 42n },
    });
  });
});

describe("a pledged NFT", () => {
  const pledge = (nft: Record<string, unknown>) => pledgedNftSchema.safeParse({ collection: ADDRESS, tokenId: "7", ...nft });
  const refused = (nft: Record<string, unknown>) => issues(pledge(nft)).map((i) => i.split(": ")[1]);

  it("lowercases a trimmed collection address of 40 hex digits", () => {
    assert.equal(pledgedNftSchema.parse({ collection: `  ${ADDRESS} `, tokenId: "7" }).collection, ADDRESS.toLowerCase());
    for (const collection of [ADDRESS.slice(0, -1), `${ADDRESS}0`, ADDRESS.replace("0x", "0X"), ADDRESS.replace("A", "G"), "", 42, undefined]) {
      assert.deepEqual(refused({ collection }), [COLLATERAL_MESSAGES.chooseNft], `for ${String(collection)}`);
    }
  });

  it("reads the token id as a bigint from a decimal string or a whole, safe, non-negative number", () => {
    assert.equal(pledgedNftSchema.parse({ collection: ADDRESS, tokenId: " 0042 " }).tokenId, 42n);
    assert.equal(pledgedNftSchema.parse({ collection: ADDRESS, tokenId: 0 }).tokenId, 0n);
    assert.equal(pledgedNftSchema.parse({ collection: ADDRESS, tokenId: Number.MAX_SAFE_INTEGER }).tokenId, BigInt(Number.MAX_SAFE_INTEGER));
    for (const tokenId of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN, "-1", "1.5", "0x10", "1e3", "", " ", 7n, null, undefined]) {
      assert.deepEqual(refused({ tokenId }), [COLLATERAL_MESSAGES.chooseNft], `for ${String(tokenId)}`);
    }
  });

  it("takes token ids up to uint256 and no further", () => {
    assert.equal(pledgedNftSchema.parse({ collection: ADDRESS, tokenId: MAX_UINT256.toString() }).tokenId, MAX_UINT256);
    assert.deepEqual(refused({ tokenId: (MAX_UINT256 + 1n).toString() }), [COLLATERAL_MESSAGES.chooseNft]);
    assert.equal(pledgedNftSchema.parse({ collection: ADDRESS, tokenId: "0".repeat(77) + "9" }).tokenId, 9n);
    assert.deepEqual(refused({ tokenId: "0".repeat(78) + "9" }), [COLLATERAL_MESSAGES.chooseNft]);
  });
});

describe("blank values around a loan", () => {
  it("lets a claim's recipient be absent, null or blank, and lowercases one that is given", () => {
    for (const to of [undefined, null, "", "   "]) assert.deepEqual(collateralClaimSchema.parse({ to }), { to: undefined }, `for ${String(to)}`);
    assert.deepEqual(collateralClaimSchema.parse({ to: ` ${ADDRESS} ` }), { to: ADDRESS.toLowerCase() });
    assert.equal(collateralClaimSchema.safeParse({ to: "0x12" }).success, false);
  });

  it("reads an approval's blank wallet and funding as not given, and a given funding as micro-dollars", () => {
    assert.deepEqual(loanApprovalSchema.parse({ walletAddress: null, fundingAmount: "  ", notes: "ok" }), {
      walletAddress: undefined,
      fundingAmount: undefined,
      adminNotes: "ok",
    });
    assert.equal(loanApprovalSchema.parse({ fundingAmount: null }).fundingAmount, undefined);
    assert.equal(loanApprovalSchema.parse({ fundingAmount: "2500.5" }).fundingAmount, 2_500_500_000n);
    assert.deepEqual(issues(loanApprovalSchema.safeParse({ fundingAmount: "0" })), [`fundingAmount: ${LOAN_MESSAGES.fundingPositive}`]);
  });
});
