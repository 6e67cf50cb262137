import type { Page } from "@playwright/test";
import { PLAN_LABEL } from "@/app/_components/format";
import { formatPlanPrice, PLAN_NAMES, PLANS } from "@/lib/core/plans";

// The test app takes payments in test mode (PAYMENTS_TEST_MODE=1), and the pricing pages say so.
const TEST_MODE_NOTE = "Test mode: switching plans takes effect at once and nothing is charged.";

/** Each plan card's name and price, in order, and the test-mode note next to them. */
export async function shownPrices(page: Page): Promise<{ plans: [string | null, string | null][]; note: number }> {
  const cards = await page.getByTestId("plan-card").all();
  const plans: [string | null, string | null][] = [];
  for (const card of cards)
    plans.push([
      await card.getByRole("heading", { level: 3 }).textContent(),
      await card.locator(".plan-price").textContent(),
    ]);
  return { plans, note: await page.getByText(TEST_MODE_NOTE, { exact: true }).count() };
}

/** The plans' names and prices as lib/core/plans.ts has them. */
export const CONFIGURED_PRICES = PLAN_NAMES.map((name) => [PLAN_LABEL[name], formatPlanPrice(PLANS[name].price)]);
