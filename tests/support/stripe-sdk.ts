import type { Stripe as StripeSdk } from "stripe";
import { vi } from "vitest";

// The `stripe` package as the test files that use the Stripe stand-in see it (`vi.mock("stripe", () =>
// import("./support/stripe-sdk"))`): the real SDK, except that every client it constructs talks to the stand-in's
// address instead of api.stripe.com. The app's code constructs its client exactly as in production.

const { default: Stripe } = await vi.importActual<typeof import("stripe")>("stripe");

/** Where the stand-in listens; set by useStripeStandIn() once it has started. */
export const standInAddress = { port: 0 };

export default class StandInStripe extends Stripe {
  constructor(key: string, config?: StripeSdk.StripeConfig) {
    if (!standInAddress.port)
      throw new Error("The Stripe stand-in is not listening: call useStripeStandIn() in the test file");
    super(key, { ...config, host: "127.0.0.1", port: standInAddress.port, protocol: "http" });
  }
}
