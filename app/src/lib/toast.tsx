import toast, { Toaster } from "react-hot-toast";

/** At most 20 at once (react-hot-toast's limit), removal delay 1 s, max width 350 px. */
export const TOAST_DURATIONS = { blank: 4000, error: 4000, success: 2000, custom: 4000 } as const;

/** Profile screen's own durations. */
export const PROFILE_TOAST = { success: { duration: 3000 }, error: { duration: 5000 } } as const;

export function AppToaster() {
  return (
    <Toaster
      position="top-right"
      gutter={10}
      containerStyle={{ top: 72 }}
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
