export * from "./users";
export * from "./contact";
export * from "./notifications";
export * from "./sequences";
export * from "./chain";
export * from "./realtime";
export * from "./loans";
export * from "./kyc";
