import { describe, expect, it } from "vitest";
import { formatPlanPrice, PLAN_NAMES, PLANS, type Plan } from "@/lib/core/plans";

describe("plan prices", () => {
  it("are shown per month or per year, in whole dollars unless the price has cents", () => {
    const prices: Plan["price"][] = [
      { usdCents: 0, per: "month" },
      { usdCents: 19_00, per: "month" },
      { usdCents: 190_00, per: "year" },
      { usdCents: 12_50, per: "month" },
      { usdCents: 1234_05, per: "year" },
    ];
    expect(prices.map(formatPlanPrice)).toEqual([
      "$0 a month",
      "$19 a month",
      "$190 a year",
      "$12.50 a month",
      "$1,234.05 a year",
    ]);
  });

  it("come from the plan table: free costs nothing, Monthly is billed monthly, Annual yearly", () => {
    expect(Object.fromEntries(PLAN_NAMES.map((name) => [name, formatPlanPrice(PLANS[name].price)]))).toEqual({
      free: "$0 a month",
      monthly: "$19 a month",
      annual: "$190 a year",
    });
  });
});
