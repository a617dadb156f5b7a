import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { users } from "#db/schema";
import { createTestDatabase, type TestDatabase } from "#db/testing";
import { deployAll } from "#contracts/deploy";
import { DEV_ACCOUNTS } from "#domain/devAccounts";
import { PUBLISHED_DEV_ACCOUNTS } from "#domain/publishedDevKeys";
import { seedDemo } from "./seed";
import { API_ALONE, NPM_START, assertOneProblemLine, runToEnd, startPublicLikeChain, type PublicLikeChain } from "#testing/publicChain";

type Ended = Awaited<ReturnType<typeof runToEnd>>;

const PUBLISHED_KEYS = [
  ["ORIGINATOR_KEY", DEV_ACCOUNTS.originator, "anvil's #1"],
  ["TREASURY_KEY", PUBLISHED_DEV_ACCOUNTS[12].key, "#12, past the ten anvil funds"],
  ["DEPLOYER_KEY", DEV_ACCOUNTS.deployer.toUpperCase().replace("0X", "0x"), "anvil's #0 in capitals"],
] as const;
const OPERATOR_KEYS = PUBLISHED_KEYS.map(([setting]) => setting);

// Each start below should stop at once, so they run side by side and the file stays short; one that comes up
// instead (today's main) is stopped and reported with code null.
describe("a start off chain 31337 refuses what anyone could exploit", { timeout: 900_000 }, () => {
  let chain: PublicLikeChain;
  let database: TestDatabase;
  /** The database of a local `npm start`, as an operator might point a public-chain start at it. */
  let carriedOver: TestDatabase;
  const ended = new Map<string, Ended>();

  before(async () => {
    chain = await startPublicLikeChain();
    database = await createTestDatabase();
    carriedOver = await createTestDatabase();
    const starts: Array<Promise<[string, Ended]>> = PUBLISHED_KEYS.map(async ([setting, key]): Promise<[string, Ended]> => [
      setting,
      await runToEnd(NPM_START, await chain.operatorEnv(chain.deployedDataDir(), { [setting]: key })),
    ]);
    starts.push(
      (async (): Promise<[string, Ended]> => {
        const env = await chain.operatorEnv(chain.deployedDataDir());
        for (const name of ["CHAIN_ID", ...OPERATOR_KEYS]) delete env[name];
        return ["CHAIN_ID", await runToEnd(NPM_START, env)];
      })(),
    );
    if (database.url) {
      await database.db.insert(users).values({ firstName: "Wallet", lastName: "#7", isWalletUser: true, walletAddress: PUBLISHED_DEV_ACCOUNTS[7].address });
      starts.push((async (): Promise<[string, Ended]> => ["wallet", await runToEnd(API_ALONE, await chain.operatorEnv(chain.deployedDataDir(), { DATABASE_URL: database.url! }))])());
    }
    if (carriedOver.url) {
      await seedDemo(carriedOver.db);
      starts.push((async (): Promise<[string, Ended]> => ["seeded", await runToEnd(NPM_START, await chain.operatorEnv(chain.deployedDataDir(), { DATABASE_URL: carriedOver.url! }))])());
    }
    for (const [name, result] of await Promise.all(starts)) ended.set(name, result);
  });
  after(async () => {
    await chain?.stop();
    await database?.drop();
    await carriedOver?.drop();
  });

  for (const [setting, key, which] of PUBLISHED_KEYS) {
    it(`npm start refuses a published dev key as ${setting} (${which}): exit 1 and one line naming it`, () => {
      const { code, output } = ended.get(setting)!;
      assert.equal(code, 1, output);
      assertOneProblemLine(output, setting, /is one of anvil's published dev keys, which anyone can sign with/);
      for (const other of OPERATOR_KEYS.filter((name) => name !== setting)) assert.ok(!output.includes(other), `the fresh ${other} is not named`);
      assert.ok(!output.toLowerCase().includes(key.slice(2).toLowerCase()), "the key is never printed");
    });
  }

  it("npm start refuses a chain that is not the CHAIN_ID, so a forgotten CHAIN_ID never seeds the demo on a public RPC", () => {
    const { code, output } = ended.get("CHAIN_ID")!;
    assert.equal(code, 1, output);
    assertOneProblemLine(output, "CHAIN_ID", /must be the id of the chain at RPC_URL, which answers 84532/);
  });

  it("npm start refuses a database carried over from the local chain (the demo accounts), naming DATABASE_URL", (t) => {
    if (!carriedOver.url) return t.skip("needs PostgreSQL");
    const { code, output } = ended.get("seeded")!;
    assert.equal(code, 1, output);
    assertOneProblemLine(output, "DATABASE_URL", /holds 3 account\(s\) of the local chain \(demo logins or wallets whose keys are published\)/);
  });

  it("the API alone refuses a database holding a published dev-key wallet, naming DATABASE_URL", (t) => {
    if (!database.url) return t.skip("needs PostgreSQL");
    const { code, output } = ended.get("wallet")!;
    assert.equal(code, 1, output);
    assertOneProblemLine(output, "DATABASE_URL", /holds 1 account\(s\) of the local chain/);
    assert.ok(!output.includes(database.url), "the connection string is never printed");
  });

  it("npm run deploy refuses a published dev key off the local chain", async () => {
    const { operator } = chain;
    await assert.rejects(
      deployAll({ rpcUrl: chain.anvil.rpcUrl, dataDir: chain.emptyDir(), deployerKey: DEV_ACCOUNTS.deployer, treasuryKey: operator.treasury, originatorKey: operator.originator }),
      /the deployer key is one of anvil's published dev keys: on chain 84532 use a key of your own/,
    );
  });
});
