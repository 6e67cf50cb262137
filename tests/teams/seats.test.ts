import { describe, expect, it } from "vitest";
import { planFeatures } from "@/app/_components/plan-cards";
import { PLANS } from "@/lib/core/plans";

describe("seats per plan", () => {
  it("free 3, monthly 20, annual unlimited, as the plan cards say", () => {
    expect([PLANS.free.seats, PLANS.monthly.seats, PLANS.annual.seats]).toEqual([3, 20, null]);
    expect([planFeatures("free").at(-1), planFeatures("monthly").at(-1), planFeatures("annual").at(-1)]).toEqual([
      "Up to 3 people in your team",
      "Up to 20 people in your team",
      "Unlimited team members",
    ]);
  });
});
