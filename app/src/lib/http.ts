import axios from "axios";
import toast from "react-hot-toast";
import { useSession } from "./session";
import { goTo } from "./navigation";
import { API_BASE } from "./apiBase";

export { API_BASE };

/** The one HTTP client: base /api, bearer token from the session, 30 s timeout. */
export const http = axios.create({ baseURL: API_BASE, timeout: 30_000 });

http.interceptors.request.use((config) => {
  const token = useSession.getState().token;
  // An explicit empty Authorization means "send this one without the session" (wallet sign-in).
  if (config.headers.Authorization === "") config.headers.delete("Authorization");
  else if (token && !config.headers.Authorization) config.headers.Authorization = `Bearer ${token}`;
  return config;
});

http.interceptors.response.use(
  (response) => response,
  (error) => {
    const status: number | undefined = error?.response?.status;
    const sentToken = Boolean(error?.config?.headers?.Authorization);
    // A 401 to a request without a session (a wrong password) is that screen's error, not an expiry.
    if (status === 401 && sentToken) {
      useSession.getState().logout();
      toast.error("Session expired. Please login again.", { id: "session-expired" });
      goTo("/login", { replace: true });
    } else if (status === 403 && !namesFields(error?.response?.data)) {
      // A 403 naming the fields to fix (a wrong invite code) is said on those fields by the form that sent it.
      toast.error("Access denied", { id: "access-denied" });
    } else if (status !== undefined && status >= 500) {
      toast.error("Server error. Please try again later.", { id: "server-error" });
    }
    return Promise.reject(error);
  },
);

function namesFields(body: unknown): boolean {
  const errors = (body as { data?: { errors?: unknown } } | undefined)?.data?.errors;
  return Array.isArray(errors) && errors.length > 0;
}

/** The API's envelope: { success, message, data }. */
export interface Envelope<T> {
  success: boolean;
  message?: string;
  data: T;
}
