import { mkdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Locator, Page } from "@playwright/test";

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "..", "..", "test-results", "screenshots");

/** Collects uncaught page errors (hydration failures included) so a test can assert there were none. */
export function watchErrors(page: Page, into: string[]): void {
  page.on("pageerror", (error) => into.push(`${page.url()}: ${error.message}`));
}

/** How much of a page a screenshot shows: JPEG stops at 65,535 px, and /docs on a phone is taller. */
const SCREENSHOT_MAX_HEIGHT = 12_000;

/**
 * A full-page screenshot to look at, as JPEG (PNG's encoding made the tour a tenth slower), of the page's
 * first SCREENSHOT_MAX_HEIGHT pixels.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const file = path.join(SCREENSHOT_DIR, `${name}-${width}.jpeg`);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  const clip = { x: 0, y: 0, width, height: Math.min(height, SCREENSHOT_MAX_HEIGHT) };
  await page.screenshot({ path: file, fullPage: true, clip, type: "jpeg", quality: 80 });
  return file;
}

/**
 * Waits until the page shows all it will: its scripts have run, hydration included (the browser has nothing left to
 * do), and every frame it shows (a preview, a thumbnail) has its document. The app's prefetches do not count.
 */
export async function settled(page: Page): Promise<void> {
  // At most 5 s for an idle moment: a browser kept busy by another test's work (two files run at once) may have none,
  // and the checks after this wait read the page as it is then.
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve, { timeout: 5000 })));
  for (const frame of await page.locator("iframe").filter({ visible: true }).all())
    await frame.contentFrame().locator("body > *").first().waitFor({ state: "attached" });
}

/** How far the page is wider than its viewport (0 when nothing overflows sideways). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

export async function cookieHeader(context: BrowserContext, baseUrl: string): Promise<string> {
  const cookies = await context.cookies(baseUrl);
  return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
}

/** A serious or critical accessibility violation of a page, compactly: its rule, impact and the elements it found. */
export type Violation = { page: string; id: string; impact: string; targets: string[] };

/** The serious and critical violations axe-core finds on the page shown (WCAG 2.0 and 2.1, levels A and AA). */
export async function seriousViolations(page: Page, name: string): Promise<Violation[]> {
  await settled(page);
  // Legacy mode runs axe in the page itself: the default one finishes in a blank page of its own, which never opened
  // beside a template's preview here. It leaves out the sandboxed previews and thumbnails (of an opaque origin): the
  // emails shown, not the app's pages.
  const { violations } = await new AxeBuilder({ page })
    .setLegacyMode()
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  return violations
    .filter(({ impact }) => impact === "serious" || impact === "critical")
    .map(({ id, impact, nodes }) => ({
      page: name,
      id,
      impact: impact ?? "",
      targets: nodes.map(({ target }) => target.join(" ")),
    }));
}

/**
 * Clicks a Copy button, once the page has hydrated, and answers what it put on the clipboard once its status region
 * has announced "Copied" (clipboard permissions are granted for the click only; the clipboard is emptied first, so
 * what an earlier copy left there cannot pass for this one).
 */
export async function copiedBy(page: Page, button: Locator): Promise<string> {
  const context = page.context();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(page.url()).origin });
  // A click before hydration would find no handler on the button.
  await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
  await page.evaluate(() => navigator.clipboard.writeText(""));
  // The status region is found before the click: a button named by its own text ("Copy id" on an email's page) is
  // named "Copied" once it has copied, and a locator by the old name finds it no more (the copy then looked as if it
  // never settled). What the region says is recorded as it changes, so its two seconds of "Copied" cannot be missed.
  const announced = await button.locator("xpath=following-sibling::*[@role='status'][1]").evaluateHandle((region) => {
    const said: string[] = [];
    new MutationObserver(() => said.push(region.textContent ?? "")).observe(region, {
      childList: true,
      characterData: true,
      subtree: true,
    });
    return said;
  });
  await button.click();
  await page.waitForFunction((said) => said.includes("Copied"), announced);
  const text = await page.evaluate(() => navigator.clipboard.readText());
  await announced.dispose();
  await context.clearPermissions();
  return text;
}
