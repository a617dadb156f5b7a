import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { MAX_NFT_IMAGE_BYTES } from "#domain/nftImage";
import { cleanName, MAX_TOKEN_URI_CHARS, parseTokenUri } from "./metadata";

const svg = `data:image/svg+xml;base64,${Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>").toString("base64")}`;
const base64Json = (value: unknown) => `data:application/json;base64,${Buffer.from(JSON.stringify(value)).toString("base64")}`;

describe("parseTokenUri", () => {
  it("reads the name and the checked image of a base64 JSON data URI, as the demo collection writes it", () => {
    assert.deepEqual(parseTokenUri(base64Json({ name: "LoanMint Demo Art #2", image: svg, attributes: [] })), { name: "LoanMint Demo Art #2", image: svg });
  });

  it("reads plain and utf8 JSON data URIs, percent-encoded or not", () => {
    const json = JSON.stringify({ name: "Plain #1", image: svg });
    assert.deepEqual(parseTokenUri(`data:application/json,${encodeURIComponent(json)}`), { name: "Plain #1", image: svg });
    assert.deepEqual(parseTokenUri(`data:application/json;utf8,${json}`), { name: "Plain #1", image: svg });
  });

  it("keeps the name but drops an image that is HTML, a script address, remote or a text data URI", () => {
    for (const image of [
      "javascript:alert(1)",
      "https://evil.example/x.png",
      "ipfs://Qm",
      `data:text/html;base64,${Buffer.from("<script>1</script>").toString("base64")}`,
      "data:image/svg+xml;utf8,<svg onload=alert(1)>",
      42,
    ]) {
      assert.deepEqual(parseTokenUri(base64Json({ name: "Piece", image })), { name: "Piece", image: null }, String(image));
    }
  });

  it("gives nothing for a remote, HTML or script tokenURI, malformed JSON, or something that is not an object", () => {
    for (const uri of [
      "https://evil.example/meta/1.json",
      "ipfs://QmSomething",
      "javascript:alert(1)",
      `data:text/html;base64,${Buffer.from("<h1>hi</h1>").toString("base64")}`,
      "data:application/json;base64,@@@",
      "data:application/json,{not json",
      "data:application/json,%E0%A4%A",
      base64Json(["a"]),
      base64Json("text"),
      undefined,
      null,
      7,
    ]) {
      assert.deepEqual(parseTokenUri(uri), { name: null, image: null }, String(uri).slice(0, 40));
    }
  });

  it("does not parse a tokenURI over the size bound, and drops an image over the image bound", () => {
    const huge = base64Json({ name: "Huge", image: svg, padding: "x".repeat(MAX_TOKEN_URI_CHARS) });
    assert.ok(huge.length > MAX_TOKEN_URI_CHARS);
    assert.deepEqual(parseTokenUri(huge), { name: null, image: null });
    const bigImage = `data:image/png;base64,${Buffer.alloc(MAX_NFT_IMAGE_BYTES + 3).toString("base64")}`;
    assert.deepEqual(parseTokenUri(base64Json({ name: "Big", image: bigImage })), { name: "Big", image: null });
  });
});

describe("cleanName", () => {
  it("strips control and direction characters, trims, shortens, and refuses what is not text", () => {
    assert.equal(cleanName("  Demo\u0000 Art\u202e #1 "), "Demo Art #1");
    assert.equal(cleanName("x".repeat(500))!.length, 120);
    assert.equal(cleanName("\u0001\u0002"), null);
    assert.equal(cleanName({ name: "x" }), null);
  });
});
