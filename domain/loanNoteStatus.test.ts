import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { LOAN_NOTE_STATUS } from "./loanNoteStatus";

test("the note statuses are ILoanNote.sol's Status enum, in its order", () => {
  const source = readFileSync(new URL("../contracts/interfaces/ILoanNote.sol", import.meta.url), "utf8");
  const members = /enum Status \{([^}]*)\}/
    .exec(source)?.[1]
    .split(",")
    .map((name) => name.trim().toLowerCase());
  assert.deepEqual(members, ["none", "active", "repaid", "defaulted"]);
  assert.deepEqual(
    members.map((name) => LOAN_NOTE_STATUS[name as keyof typeof LOAN_NOTE_STATUS]),
    [0, 1, 2, 3],
  );
});
