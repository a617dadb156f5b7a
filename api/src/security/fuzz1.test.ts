// The first quarter of the hostile requests (api/src/security/fuzzRequests.ts says why the fuzz is four files).
import { fuzzQuarter } from "./fuzzRequests";

fuzzQuarter(0);
