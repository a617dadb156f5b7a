import { writeFileSync } from "node:fs";
import { ABIS_MODULE_PATH, ensureCompiled, OVERRIDE_MODULE_PATH, renderAbisModule, renderOverrideModule } from "#contracts/artifacts";

// Regenerates domain/abis.ts and domain/overrideCode.ts from the compiled contracts (compiling first when sources changed).
ensureCompiled();
writeFileSync(ABIS_MODULE_PATH, renderAbisModule());
writeFileSync(OVERRIDE_MODULE_PATH, renderOverrideModule());
console.log(`wrote ${ABIS_MODULE_PATH} and ${OVERRIDE_MODULE_PATH}`);
