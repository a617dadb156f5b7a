/** What the lazily loaded wallet sign-in reports to the login page, which draws it. */
export interface WalletSignInState {
  /** The connected account, once the wallet is connected. */
  address?: string;
  connecting: boolean;
  authenticating: boolean;
  error: string;
  connect: () => void;
  signIn: () => void;
}
