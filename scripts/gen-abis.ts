import { writeFileSync } from "node:fs";
import { ABIS_MODULE_PATH, ensureCompiled, renderAbisModule } from "#contracts/artifacts";

// Regenerates domain/abis.ts from the compiled contracts (compiling first when sources changed).
ensureCompiled();
writeFileSync(ABIS_MODULE_PATH, renderAbisModule());
console.log(`wrote ${ABIS_MODULE_PATH}`);
