import { test, expect, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { loginByForm, newAccount, registerByApi, skipSplash } from "./helpers";

// Every access, shell and account screen, in both themes, checked by axe-core: no serious or critical violation.
const BLOCKING = new Set(["serious", "critical"]);

async function violations(page: Page, screen: string): Promise<string[]> {
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  // Entrance animations settle first, so contrast is judged on the final colours (spinners never end).
  // A toast can mount just after a first check, so the page must stay still for two checks in a row.
  await page.evaluate(async () => {
    const running = () => document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity);
    for (let still = 0, round = 0; still < 2 && round < 40; round++) {
      const animations = running();
      still = animations.length === 0 ? still + 1 : 0;
      await Promise.all(animations.map((animation) => animation.finished.catch(() => undefined)));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze();
  return results.violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ""))
    .map(
      (violation) =>
        `${screen}: [${violation.impact}] ${violation.id} — ${violation.help}\n    ${violation.nodes
          .slice(0, 5)
          .map((node) => node.target.join(" "))
          .join("\n    ")}`,
    );
}

for (const theme of ["light", "dark"] as const) {
  test(`every spec 01 screen passes axe-core in the ${theme} theme`, async ({ page }) => {
    await skipSplash(page);
    await page.addInitScript((value) => localStorage.setItem("theme", value), theme);
    const found: string[] = [];

    for (const [screen, path, landsOn] of [
      // At #contact, so the contact form (rendered when scrolled near) is checked with the rest of the page.
      ["landing", "/#contact", /\/#contact$/],
      ["login", "/login", /\/login$/],
      ["register", "/register", /\/register$/],
      ["unknown path", "/no/such/page", /\/$/],
    ] as const) {
      await page.goto(path);
      await expect(page).toHaveURL(landsOn);
      if (screen === "landing") await expect(page.getByRole("form", { name: "Contact form" })).toBeVisible();
      found.push(...(await violations(page, screen)));
    }

    const account = newAccount(`axe-${theme}`);
    await registerByApi(page, account);
    await loginByForm(page, account);
    await expect(page).toHaveURL(/\/dashboard$/);
    found.push(...(await violations(page, "dashboard")));
    await page.goto("/profile");
    found.push(...(await violations(page, "profile")));

    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    expect(found, found.join("\n")).toEqual([]);
  });
}
