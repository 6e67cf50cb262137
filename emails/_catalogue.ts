import { z } from "zod";
import type { ComponentType } from "react";

import MagicLink from "./magic-link";
import Newsletter from "./newsletter";
import OrderShipped from "./order-shipped";
import PasswordReset from "./password-reset";
import PaymentFailed from "./payment-failed";
import Receipt from "./receipt";
import TeamInvite from "./team-invite";
import TrialEnding from "./trial-ending";
import UsageAlert from "./usage-alert";
import VerifyEmail from "./verify-email";
import Welcome from "./welcome";

export type CatalogueEntry = {
  slug: string;
  name: string;
  description: string;
  price: string; // decimal string, "0.00" for free
  category: string;
  author: string;
  previewImageUrl: string | null;
  file: string; // path relative to the repository root
  component: ComponentType<any>;
  variables: z.ZodObject<any>; // props schema: required vars have no default
};

/**
 * Ties a component to its variables schema so TypeScript checks that the
 * schema's parsed output is a valid props object for the component.
 */
function entry<S extends z.ZodObject<any>>(
  value: Omit<CatalogueEntry, "component" | "variables"> & {
    variables: S;
    component: ComponentType<z.output<S>>;
  },
): CatalogueEntry {
  return value;
}

const AUTHOR = "Letterpress";
// Links and images in an email must be web URLs: a `javascript:` or `data:` URL from a variable is refused.
const httpUrl = () => z.url({ protocol: /^https?$/, error: "must be an http(s) URL" });
/** An http(s) URL, or "" for none (the template then leaves out the logo or link). */
const optionalHttpUrl = () => z.union([z.literal(""), httpUrl()]).default("");
const COMPANY_ADDRESS = "Acme Inc., 123 Market Street, San Francisco, CA 94103";

export const catalogue: CatalogueEntry[] = [
  entry({
    slug: "welcome",
    name: "Welcome",
    description:
      "A warm onboarding email with three getting-started steps, a dashboard button and links to your docs and support.",
    price: "0.00",
    category: "Onboarding",
    author: AUTHOR,
    previewImageUrl: null,
    file: "emails/welcome.tsx",
    component: Welcome,
    variables: z.object({
      userName: z.string().default("there"),
      productName: z.string().default("Acme"),
      logoUrl: optionalHttpUrl(),
      dashboardUrl: httpUrl().default("https://example.com/dashboard"),
      docsUrl: httpUrl().default("https://example.com/docs"),
      supportEmail: z.string().default("support@example.com"),
      companyAddress: z.string().default(COMPANY_ADDRESS),
    }),
  }),
  entry({
    slug: "verify-email",
    name: "Verify email address",
    description:
      "Confirm a new user's email address with a one-click button and an optional typed verification code.",
    price: "0.00",
    category: "Authentication",
    author: AUTHOR,
    previewImageUrl: null,
    file: "emails/verify-email.tsx",
    component: VerifyEmail,
    variables: z.object({
      verifyUrl: httpUrl(),
      userName: z.string().default("there"),
      productName: z.string().default("Acme"),
      logoUrl: optionalHttpUrl(),
      verificationCode: z.string().default(""),
      expiresInHours: z.number().default(24),
      companyAddress: z.string().default(COMPANY_ADDRESS),
    }),
  }),
  entry({
    slug: "magic-link",
    name: "Magic link sign-in",
    description:
      "Passwordless sign-in email with a single-use link, an optional one-time code and a clear expiry notice.",
    price: "0.00",
    category: "Authentication",
    author: AUTHOR,
    previewImageUrl: null,
    file: "emails/magic-link.tsx",
    component: MagicLink,
    variables: z.object({
      loginUrl: httpUrl(),
      productName: z.string().default("Acme"),
      logoUrl: optionalHttpUrl(),
      userEmail: z.string().default(""),
      loginCode: z.string().default(""),
      expiresInMinutes: z.number().default(15),
      companyAddress: z.string().default(COMPANY_ADDRESS),
    }),
  }),
  entry({
    slug: "password-reset",
    name: "Password reset",
    description:
      "Secure password reset email with expiry, optional request location and guidance for requests the user didn't make.",
    price: "0.00",
    category: "Authentication",
    author: AUTHOR,
    previewImageUrl: null,
    file: "emails/password-reset.tsx",
    component: PasswordReset,
    variables: z.object({
      resetUrl: httpUrl(),
      userName: z.string().default("there"),
      productName: z.string().default("Acme"),
      logoUrl: optionalHttpUrl(),
      expiresInMinutes: z.number().default(60),
      requestedFrom: z.string().default(""),
      supportEmail: z.string().default("support@example.com"),
      companyAddress: z.string().default(COMPANY_ADDRESS),
    }),
  }),
  entry({
    slug: "team-invite",
    name: "Team invitation",
    description:
      "Invite someone to a team or workspace, showing who invited them, their role and when the invitation expires.",
    price: "0.00",
    category: "Team",
    author: AUTHOR,
    previewImageUrl: null,
    file: "emails/team-invite.tsx",
    component: TeamInvite,
    variables: z.object({
      inviteUrl: httpUrl(),
      inviterName: z.string().default("A teammate"),
      inviterEmail: z.string().default(""),
      teamName: z.string().default("their team"),
      productName: z.string().default("Acme"),
      logoUrl: optionalHttpUrl(),
      role: z.string().default("Member"),
      expiresInDays: z.number().default(7),
      companyAddress: z.string().default(COMPANY_ADDRESS),
    }),
  }),
  entry({
    slug: "receipt",
    name: "Order receipt",
    description:
      "Itemised purchase receipt with quantities, subtotal, discount, shipping, tax and total, plus order and payment details.",
    price: "19.00",
    category: "Commerce",
    author: AUTHOR,
    previewImageUrl: null,
    file: "emails/receipt.tsx",
    component: Receipt,
    variables: z.object({
      orderId: z.string(),
      items: z.array(
        z.object({
          name: z.string(),
          quantity: z.number(),
          unitPrice: z.number(),
        }),
      ),
      customerName: z.string().default("there"),
      storeName: z.string().default("Acme Store"),
      logoUrl: optionalHttpUrl(),
      orderDate: z.string().default(""),
      currencySymbol: z.string().default("$"),
      shippingAmount: z.number().default(0),
      taxAmount: z.number().default(0),
      discountAmount: z.number().default(0),
      paymentMethod: z.string().default(""),
      orderUrl: optionalHttpUrl(),
      supportEmail: z.string().default("support@example.com"),
      companyAddress: z.string().default(COMPANY_ADDRESS),
    }),
  }),
  entry({
    slug: "order-shipped",
    name: "Order shipped",
    description:
      "Shipping confirmation with a tracking button, carrier and tracking number, delivery estimate and address.",
    price: "9.00",
    category: "Commerce",
    author: AUTHOR,
    previewImageUrl: null,
    file: "emails/order-shipped.tsx",
    component: OrderShipped,
    variables: z.object({
      trackingUrl: httpUrl(),
      orderId: z.string().default("0000"),
      customerName: z.string().default("there"),
      storeName: z.string().default("Acme Store"),
      logoUrl: optionalHttpUrl(),
      carrier: z.string().default("UPS"),
      trackingNumber: z.string().default(""),
      estimatedDelivery: z.string().default(""),
      shippingAddress: z.string().default(""),
      itemCount: z.number().default(1),
      supportEmail: z.string().default("support@example.com"),
      companyAddress: z.string().default(COMPANY_ADDRESS),
    }),
  }),
  entry({
    slug: "newsletter",
    name: "Newsletter",
    description:
      "Editorial newsletter with an intro, a list of articles with optional cover images, a closing CTA and an unsubscribe footer.",
    price: "29.00",
    category: "Marketing",
    author: AUTHOR,
    previewImageUrl: null,
    file: "emails/newsletter.tsx",
    component: Newsletter,
    variables: z.object({
      articles: z.array(
        z.object({
          title: z.string(),
          summary: z.string(),
          url: httpUrl(),
          imageUrl: httpUrl().optional(),
          imageAlt: z.string().optional(),
        }),
      ),
      unsubscribeUrl: httpUrl(),
      brandName: z.string().default("Acme"),
      logoUrl: optionalHttpUrl(),
      issueTitle: z.string().default("What's new this month"),
      issueNumber: z.number().default(0),
      issueDate: z.string().default(""),
      intro: z
        .string()
        .default(
          "Here's a round-up of what we've been working on, and a few things we think you'll enjoy.",
        ),
      ctaLabel: z.string().default("Read more on our blog"),
      ctaUrl: httpUrl().default("https://example.com/blog"),
      webVersionUrl: optionalHttpUrl(),
      companyAddress: z.string().default(COMPANY_ADDRESS),
    }),
  }),
  entry({
    slug: "usage-alert",
    name: "Usage alert",
    description:
      "Warns customers as they approach or hit a plan limit, with a progress bar and an upgrade button.",
    price: "9.00",
    category: "Billing",
    author: AUTHOR,
    previewImageUrl: null,
    file: "emails/usage-alert.tsx",
    component: UsageAlert,
    variables: z.object({
      upgradeUrl: httpUrl(),
      userName: z.string().default("there"),
      productName: z.string().default("Acme"),
      logoUrl: optionalHttpUrl(),
      metricName: z.string().default("API requests"),
      used: z.number().default(8000),
      limit: z.number().default(10000),
      planName: z.string().default("Free"),
      periodEnd: z.string().default(""),
      usageUrl: optionalHttpUrl(),
      companyAddress: z.string().default(COMPANY_ADDRESS),
    }),
  }),
  entry({
    slug: "trial-ending",
    name: "Trial ending",
    description:
      "Reminds users that their free trial is about to end and asks them to add a payment method.",
    price: "9.00",
    category: "Billing",
    author: AUTHOR,
    previewImageUrl: null,
    file: "emails/trial-ending.tsx",
    component: TrialEnding,
    variables: z.object({
      billingUrl: httpUrl(),
      userName: z.string().default("there"),
      productName: z.string().default("Acme"),
      logoUrl: optionalHttpUrl(),
      daysLeft: z.number().default(3),
      trialEndDate: z.string().default(""),
      planName: z.string().default("Pro"),
      planPrice: z.string().default(""),
      supportEmail: z.string().default("support@example.com"),
      companyAddress: z.string().default(COMPANY_ADDRESS),
    }),
  }),
  entry({
    slug: "payment-failed",
    name: "Payment failed",
    description:
      "Dunning email for a declined charge, with the amount, invoice, card and retry date, and a button to update the payment method.",
    price: "12.00",
    category: "Billing",
    author: AUTHOR,
    previewImageUrl: null,
    file: "emails/payment-failed.tsx",
    component: PaymentFailed,
    variables: z.object({
      updatePaymentUrl: httpUrl(),
      customerName: z.string().default("there"),
      productName: z.string().default("Acme"),
      logoUrl: optionalHttpUrl(),
      amount: z.number().default(0),
      currencySymbol: z.string().default("$"),
      invoiceNumber: z.string().default(""),
      cardLast4: z.string().default(""),
      nextRetryDate: z.string().default(""),
      supportEmail: z.string().default("billing@example.com"),
      companyAddress: z.string().default(COMPANY_ADDRESS),
    }),
  }),
];
