import { expect, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";

/**
 * The phone the journeys run at: an iPhone 12-14 sized screen with touch. Not `isMobile`: a mobile
 * browser zooms out to fit a page that is too wide, which would make innerWidth grow with the page and hide the bug.
 */
export const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true } as const;

/** The page may scroll down, never sideways: nothing on it is wider than the screen. */
export async function expectFitsScreen(page: Page) {
  await page.waitForLoadState("networkidle", { timeout: 5000 }).catch(() => undefined);
  const screen = page.viewportSize()!.width;
  const { scrollWidth, innerWidth, widest } = await page.evaluate(() => {
    const vw = window.innerWidth;
    // Name the widest element that sticks out, so a failure says where to look.
    let widest = "";
    let right = vw;
    for (const el of document.querySelectorAll<HTMLElement>("body *")) {
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.right > right + 0.5 && getComputedStyle(el).position !== "fixed") {
        right = box.right;
        widest = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}.${[...el.classList].join(".")} (${Math.round(box.right)} px) "${(el.textContent ?? "").trim().slice(0, 40)}"`;
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: vw, widest };
  });
  expect(scrollWidth, `${page.url()} is ${scrollWidth} px wide on a ${innerWidth} px screen; widest: ${widest}`).toBeLessThanOrEqual(Math.min(innerWidth, screen));
}

/** Is the centre of this element the thing a finger lands on (not covered, not off-screen)? */
async function isTappable(page: Page, selector: string, index: number) {
  return page.evaluate(
    ([sel, i]) => {
      const el = document.querySelectorAll(sel as string)[i as number] as HTMLElement | undefined;
      if (!el) return "missing";
      const box = el.getBoundingClientRect();
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      if (box.width === 0 || box.height === 0) return "has no size";
      if (x < 0 || y < 0 || x > window.innerWidth || y > window.innerHeight) return `is off-screen at (${Math.round(x)}, ${Math.round(y)})`;
      const hit = document.elementFromPoint(x, y);
      return hit && (el === hit || el.contains(hit)) ? "ok" : `is covered by ${hit?.tagName.toLowerCase()}.${hit?.className}`;
    },
    [selector, index] as const,
  );
}

/**
 * Opens the phone menu, checks that every link and button in it can be tapped (inside the screen, on top),
 * closes it again and returns the labels it found.
 */
export async function expectMenuTappable(page: Page): Promise<string[]> {
  await page.getByTestId("mobile-menu-button").click();
  const menu = page.getByTestId("mobile-menu");
  await expect(menu).toBeVisible();
  // A drawer below the header down to the bottom of the screen, not squeezed into the header.
  const panel = await menu.locator(".drawer__panel").boundingBox();
  const screen = page.viewportSize()!;
  expect(panel, "the menu panel is on screen").not.toBeNull();
  expect(panel!.y + panel!.height, `the menu on ${page.url()} reaches the bottom of the screen`).toBeGreaterThanOrEqual(screen.height - 1);
  expect(panel!.y, `the menu on ${page.url()} starts right below the header`).toBeLessThanOrEqual(80);
  const selector = '[data-testid="mobile-menu"] a, [data-testid="mobile-menu"] .drawer__panel button';
  const labels = await page.locator(selector).evaluateAll((els) => els.map((el) => (el.getAttribute("aria-label") ?? el.textContent ?? "").trim()));
  const problems: string[] = [];
  for (let i = 0; i < labels.length; i++) {
    await page.locator(selector).nth(i).scrollIntoViewIfNeeded();
    const verdict = await isTappable(page, selector, i);
    if (verdict !== "ok") problems.push(`"${labels[i]}" ${verdict}`);
  }
  expect(problems, `menu on ${page.url()}: ${problems.join("; ")}`).toEqual([]);
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  return labels;
}

/** Both checks for one page of a phone journey. */
export async function expectPhoneReady(page: Page) {
  await expectFitsScreen(page);
  await expectMenuTappable(page);
}

/** What the phone shows without scrolling, kept as a test artefact to look at. */
export async function phoneScreenshot(page: Page, name: string) {
  mkdirSync("test-results/screens", { recursive: true });
  await page.screenshot({ path: `test-results/screens/${name}.png` });
}

/**
 * Every button and link in the page's main content lies inside the screen from left to right: a control
 * parked in a sideways-scrolling table fits the page yet cannot be found. Hidden ones (in a closed fold,
 * screen-reader-only) are skipped.
 */
export async function expectActionsOnScreen(page: Page) {
  const screen = page.viewportSize()!.width;
  const outside = await page.locator("#main").evaluate((main, width) => {
    const found: string[] = [];
    for (const el of main.querySelectorAll<HTMLElement>("a, button")) {
      const box = el.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue;
      if (box.left < -0.5 || box.right > width + 0.5)
        found.push(`"${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 30)}" at ${Math.round(box.left)}–${Math.round(box.right)}`);
    }
    return found;
  }, screen);
  expect(outside, `${page.url()}: controls off the ${screen} px screen: ${outside.join("; ")}`).toEqual([]);
}
