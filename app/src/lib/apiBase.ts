/** Where the API lives, on the app's own origin. Its own module so the shell can build URLs without loading axios. */
export const API_BASE = "/api";
