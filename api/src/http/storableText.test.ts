import { test } from "node:test";
import assert from "node:assert/strict";
import { NUL_MESSAGE, UNICODE_MESSAGE, unstorableText } from "./storableText";

test("a NUL or a lone surrogate anywhere in a body, keys and deep nesting included, is named; emoji pairs are fine", () => {
  const deep = (leaf: unknown) => ({ a: [{ b: { c: leaf } }] });
  assert.equal(unstorableText(deep("x\u0000y")), NUL_MESSAGE);
  assert.equal(unstorableText(deep("\ud800")), UNICODE_MESSAGE, "a high surrogate alone");
  assert.equal(unstorableText(deep("a\udc00b")), UNICODE_MESSAGE, "a low surrogate alone");
  assert.equal(unstorableText({ ["key\ud800"]: 1 }), UNICODE_MESSAGE);
  assert.equal(unstorableText(deep("café 🚀 \u{10ffff}")), null);
  assert.equal(unstorableText([1, true, null, "plain"]), null);
});
