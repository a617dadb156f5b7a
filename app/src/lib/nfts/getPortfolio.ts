import { http } from "../http";
import type { PortfolioResult } from "./types";
import { unwrap } from "./unwrap";

export const getPortfolio = () => unwrap<PortfolioResult>(http.get("/nfts/my-portfolio", { params: { page: 1, limit: 50 } }));
