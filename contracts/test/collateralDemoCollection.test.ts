import assert from "node:assert/strict";
import { before, beforeEach, describe, it } from "node:test";
import { network } from "hardhat";
import { getAddress } from "viem";

type Connection = Awaited<ReturnType<typeof network.create>>;
const COOLDOWN = 86_400n;
const deployArt = (connection: Connection, admin: `0x${string}`) => connection.viem.deployContract("DemoCollection", [admin, COOLDOWN]);

const decode = (uri: string, prefix: string) => {
  assert.ok(uri.startsWith(prefix), `${uri.slice(0, 40)} starts with ${prefix}`);
  return Buffer.from(uri.slice(prefix.length), "base64").toString("utf8");
};

describe("DemoCollection (the local chain's on-chain art to pledge)", () => {
  let connection: Connection;
  let art: Awaited<ReturnType<typeof deployArt>>;
  let restore: () => Promise<void>;

  before(async () => {
    connection = await network.create();
    const [admin] = await connection.viem.getWalletClients();
    art = await deployArt(connection, admin.account.address);
    const snapshot = await connection.networkHelpers.takeSnapshot();
    restore = () => snapshot.restore();
  });
  beforeEach(async () => restore());

  const wallet = async (i: number) => (await connection.viem.getWalletClients())[i];

  it("mints consecutive ids by role only", async () => {
    const user = await wallet(5);
    await art.write.mint([user.account.address]);
    await art.write.mint([user.account.address]);
    assert.equal(await art.read.ownerOf([2n]), getAddress(user.account.address));
    assert.equal(await art.read.totalMinted(), 2n);
    await connection.viem.assertions.revertWithCustomError(art.write.mint([user.account.address], { account: user.account }), art, "AccessControlUnauthorizedAccount");
  });

  it("gives a dev wallet one piece per cooldown from the faucet", async () => {
    const user = await wallet(6);
    const hash = await art.write.faucet({ account: user.account });
    await connection.viem.assertions.emitWithArgs(hash, art, "FaucetUsed", [getAddress(user.account.address), 1n]);
    assert.equal(await art.read.ownerOf([1n]), getAddress(user.account.address));
    const last = (await connection.viem.getPublicClient().then((c) => c.getBlock())).timestamp;
    await connection.viem.assertions.revertWithCustomErrorWithArgs(art.write.faucet({ account: user.account }), art, "FaucetCooldown", [getAddress(user.account.address), last + COOLDOWN]);
    await connection.networkHelpers.time.increase(Number(COOLDOWN));
    await art.write.faucet({ account: user.account });
    assert.equal(await art.read.balanceOf([user.account.address]), 2n);
    await art.write.setFaucetCooldown([0n]);
    await art.write.faucet({ account: user.account });
    await connection.viem.assertions.revertWithCustomError(art.write.setFaucetCooldown([1n], { account: user.account }), art, "AccessControlUnauthorizedAccount");
  });

  it("serves metadata JSON whose image is an SVG drawn on-chain from the token id, different for each piece", async () => {
    const user = await wallet(5);
    for (let i = 0; i < 3; i++) await art.write.mint([user.account.address]);
    const images = new Set<string>();
    for (const id of [1n, 2n, 3n]) {
      const meta = JSON.parse(decode(await art.read.tokenURI([id]), "data:application/json;base64,"));
      assert.equal(meta.name, `LoanMint Demo Art #${id}`);
      assert.ok(Array.isArray(meta.attributes) && meta.attributes.length === 2);
      const svg = decode(meta.image, "data:image/svg+xml;base64,");
      assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]*>.*<\/svg>$/s);
      assert.doesNotMatch(svg, /<script|on\w+=|href/i);
      images.add(svg);
    }
    assert.equal(images.size, 3);
    await connection.viem.assertions.revertWithCustomError(art.read.tokenURI([9n]), art, "ERC721NonexistentToken");
  });

  it("answers the ERC-721 and access-control interfaces", async () => {
    assert.equal(await art.read.supportsInterface(["0x80ac58cd"]), true);
    assert.equal(await art.read.supportsInterface(["0x7965db0b"]), true);
  });
});
