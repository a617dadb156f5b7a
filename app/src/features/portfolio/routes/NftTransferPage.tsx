// The route table loads the vault page from here (spec 02 "/nft-transfer").
export { NftTransferPage } from "../../vault/routes/NftTransferPage";
