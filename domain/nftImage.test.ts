import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkedImageDataUri, MAX_NFT_IMAGE_BYTES } from "./nftImage";

const svg = `data:image/svg+xml;base64,${Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>").toString("base64")}`;

describe("checkedImageDataUri", () => {
  it("keeps a base64 image data URI of every accepted type", () => {
    assert.equal(checkedImageDataUri(svg), svg);
    for (const type of ["png", "jpeg", "gif", "webp"]) {
      const uri = `data:image/${type};base64,${Buffer.from([1, 2, 3]).toString("base64")}`;
      assert.equal(checkedImageDataUri(uri), uri);
    }
  });

  it("refuses remote addresses, HTML, JSON and text data URIs", () => {
    for (const uri of [
      "https://evil.example/x.png",
      "ipfs://Qm",
      "javascript:alert(1)",
      `data:text/html;base64,${Buffer.from("<script>1</script>").toString("base64")}`,
      `data:application/json;base64,${Buffer.from("{}").toString("base64")}`,
      "data:image/svg+xml;utf8,<svg onload=alert(1)>",
    ]) {
      assert.equal(checkedImageDataUri(uri), null, uri);
    }
  });

  it("refuses a malformed payload, trailing text and anything that is not a string", () => {
    assert.equal(checkedImageDataUri("data:image/png;base64,abc"), null);
    assert.equal(checkedImageDataUri(`${svg}"><script>`), null);
    assert.equal(checkedImageDataUri(`${svg}\n`), null);
    assert.equal(checkedImageDataUri(undefined), null);
    assert.equal(checkedImageDataUri({ toString: () => svg }), null);
  });

  it("refuses an image over the size limit and keeps one at it", () => {
    const at = `data:image/png;base64,${Buffer.alloc(MAX_NFT_IMAGE_BYTES).toString("base64")}`;
    const over = `data:image/png;base64,${Buffer.alloc(MAX_NFT_IMAGE_BYTES + 3).toString("base64")}`;
    assert.equal(checkedImageDataUri(at), at);
    assert.equal(checkedImageDataUri(over), null);
  });
});
