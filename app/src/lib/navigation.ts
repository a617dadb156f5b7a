type Options = { replace?: boolean; state?: unknown };
type Navigate = (to: string, options?: Options) => void;

let navigate: Navigate = (to) => window.location.assign(to);

/** The router registers itself here so code outside React (the HTTP client) can move the user. */
export function setNavigator(fn: Navigate) {
  navigate = fn;
}

export function goTo(to: string, options?: Options) {
  navigate(to, options);
}
