import { mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "..", "..", "test-results", "screenshots");

/** Debian's Chromium (Playwright's own download does not work here), headless. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
}

/** Collects uncaught page errors (hydration failures included) so a test can assert there were none. */
export function watchErrors(page: Page, into: string[]): void {
  page.on("pageerror", (error) => into.push(`${page.url()}: ${error.message}`));
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const file = path.join(SCREENSHOT_DIR, `${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** How far the page is wider than its viewport (0 when nothing overflows sideways). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

export async function cookieHeader(context: BrowserContext, baseUrl: string): Promise<string> {
  const cookies = await context.cookies(baseUrl);
  return cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
}
