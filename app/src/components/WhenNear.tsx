import { useEffect, useRef, useState, type ReactNode } from "react";

/**
 * Holds a section's place (same id and class, so links to it and the layout work) and renders `children`
 * only when that place comes within `margin` of the viewport: a long page's lower sections then cost a
 * visitor who never scrolls there nothing, and their code never competes with the first paint.
 */
export function WhenNear({ id, className, margin = "100% 0px", children }: { id?: string; className?: string; margin?: string; children: ReactNode }) {
  const place = useRef<HTMLElement>(null);
  const [near, setNear] = useState(typeof IntersectionObserver === "undefined");

  useEffect(() => {
    const element = place.current;
    if (near || !element) return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && setNear(true), { rootMargin: margin });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, margin]);

  if (near) return <>{children}</>;
  return <section ref={place} id={id} className={className} aria-busy="true" />;
}
