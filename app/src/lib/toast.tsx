import { useSyncExternalStore } from "react";
import toast, { Toaster } from "react-hot-toast";

/** At most 20 at once (react-hot-toast's limit), removal delay 1 s, max width 350 px. */
export const TOAST_DURATIONS = { blank: 4000, error: 4000, success: 2000, custom: 4000 } as const;

/** Profile screen's own durations. */
export const PROFILE_TOAST = { success: { duration: 3000 }, error: { duration: 5000 } } as const;

/** Where a page's title would be under a top toast: a phone, whose toast spans the width of the screen. */
const PHONE = "(max-width: 760px)";

function useOnPhone(): boolean {
  return useSyncExternalStore(
    (changed) => {
      const query = window.matchMedia(PHONE);
      query.addEventListener("change", changed);
      return () => query.removeEventListener("change", changed);
    },
    () => window.matchMedia(PHONE).matches,
  );
}

/** Toasts clear of the page's title: beside it at the top right on a wide screen, at the bottom on a phone. */
export function AppToaster() {
  const onPhone = useOnPhone();
  return (
    <Toaster
      position={onPhone ? "bottom-center" : "top-right"}
      gutter={10}
      containerStyle={onPhone ? { bottom: 16 } : { top: 72 }}
      toastOptions={{
        duration: TOAST_DURATIONS.blank,
        className: "toast",
        style: { maxWidth: 350 },
        success: { duration: TOAST_DURATIONS.success },
        error: { duration: TOAST_DURATIONS.error },
        custom: { duration: TOAST_DURATIONS.custom },
        loading: { duration: Infinity },
      }}
    />
  );
}

/**
 * One toast per error text: an error raised again while its toast is up (four submits of a bad form, a 403 seen
 * by the client and by the page) replaces it rather than stacking another copy. A caller's own id still wins.
 */
export function dedupeErrorToasts(): void {
  const error = toast.error;
  toast.error = (message, options) => error(message, { id: typeof message === "string" ? `error:${message}` : undefined, ...options });
}
