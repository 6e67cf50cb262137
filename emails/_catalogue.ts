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
  // Each entry's props differ; `entry` below checks every component against its own schema.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  component: ComponentType<any>;
  variables: z.ZodObject; // props schema: required vars have no default
};

/**
 * Ties a component to its variables schema so TypeScript checks that the
 * schema's parsed output is a valid props object for the component.
 */
function entry<S extends z.ZodObject>(
  value: Omit<CatalogueEntry, "component" | "variables"> & {
    variables: S;
    component: ComponentType<z.output<S>>;
  },
): CatalogueEntry {
  return value;
}

const AUTHOR = "Letterpress";
// Every variable has a bound, so an oversized one is a 400 before any render: long enough for any real value, short
// enough that a render stays small (50 articles of the longest fields make well under 1 MB of HTML).
const LINE_CHARS = 200; // names, labels, codes, dates
const EMAIL_CHARS = 320; // an address's maximum
const ADDRESS_CHARS = 1_000; // a postal address
const PARAGRAPH_CHARS = 5_000; // an intro, an article's summary
const URL_CHARS = 2_048;
const MAX_ARTICLES = 50;
const MAX_ITEMS = 100;
const tooLong = (max: number) => `must be at most ${max.toLocaleString("en-US")} characters`;
const text = (max: number) => z.string().max(max, tooLong(max));
// Links and images in an email must be web URLs: a `javascript:` or `data:` URL from a variable is refused.
const httpUrl = () =>
  z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).max(URL_CHARS, tooLong(URL_CHARS));
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
    variables: z.looseObject({
      userName: text(LINE_CHARS).default("there"),
      productName: text(LINE_CHARS).default("Acme"),
      logoUrl: optionalHttpUrl(),
      dashboardUrl: httpUrl().default("https://example.com/dashboard"),
      docsUrl: httpUrl().default("https://example.com/docs"),
      supportEmail: text(EMAIL_CHARS).default("support@example.com"),
      companyAddress: text(ADDRESS_CHARS).default(COMPANY_ADDRESS),
    }),
  }),
  entry({
    slug: "verify-email",
    name: "Verify email address",
    description: "Confirm a new user's email address with a one-click button and an optional typed verification code.",
    price: "0.00",
    category: "Authentication",
    author: AUTHOR,
    previewImageUrl: null,
    file: "emails/verify-email.tsx",
    component: VerifyEmail,
    variables: z.looseObject({
      verifyUrl: httpUrl(),
      userName: text(LINE_CHARS).default("there"),
      productName: text(LINE_CHARS).default("Acme"),
      logoUrl: optionalHttpUrl(),
      verificationCode: text(LINE_CHARS).default(""),
      expiresInHours: z.number().default(24),
      companyAddress: text(ADDRESS_CHARS).default(COMPANY_ADDRESS),
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
    variables: z.looseObject({
      loginUrl: httpUrl(),
      productName: text(LINE_CHARS).default("Acme"),
      logoUrl: optionalHttpUrl(),
      userEmail: text(EMAIL_CHARS).default(""),
      loginCode: text(LINE_CHARS).default(""),
      expiresInMinutes: z.number().default(15),
      companyAddress: text(ADDRESS_CHARS).default(COMPANY_ADDRESS),
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
    variables: z.looseObject({
      resetUrl: httpUrl(),
      userName: text(LINE_CHARS).default("there"),
      productName: text(LINE_CHARS).default("Acme"),
      logoUrl: optionalHttpUrl(),
      expiresInMinutes: z.number().default(60),
      requestedFrom: text(LINE_CHARS).default(""),
      supportEmail: text(EMAIL_CHARS).default("support@example.com"),
      companyAddress: text(ADDRESS_CHARS).default(COMPANY_ADDRESS),
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
    variables: z.looseObject({
      inviteUrl: httpUrl(),
      inviterName: text(LINE_CHARS).default("A teammate"),
      inviterEmail: text(EMAIL_CHARS).default(""),
      teamName: text(LINE_CHARS).default("their team"),
      productName: text(LINE_CHARS).default("Acme"),
      logoUrl: optionalHttpUrl(),
      role: text(LINE_CHARS).default("Member"),
      expiresInDays: z.number().default(7),
      companyAddress: text(ADDRESS_CHARS).default(COMPANY_ADDRESS),
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
    variables: z.looseObject({
      orderId: text(LINE_CHARS),
      items: z
        .array(
          z.looseObject({
            name: text(LINE_CHARS),
            quantity: z.number(),
            unitPrice: z.number(),
          }),
        )
        .max(MAX_ITEMS, `must list at most ${MAX_ITEMS} items`),
      customerName: text(LINE_CHARS).default("there"),
      storeName: text(LINE_CHARS).default("Acme Store"),
      logoUrl: optionalHttpUrl(),
      orderDate: text(LINE_CHARS).default(""),
      currencySymbol: text(LINE_CHARS).default("$"),
      shippingAmount: z.number().default(0),
      taxAmount: z.number().default(0),
      discountAmount: z.number().default(0),
      paymentMethod: text(LINE_CHARS).default(""),
      orderUrl: optionalHttpUrl(),
      supportEmail: text(EMAIL_CHARS).default("support@example.com"),
      companyAddress: text(ADDRESS_CHARS).default(COMPANY_ADDRESS),
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
    variables: z.looseObject({
      trackingUrl: httpUrl(),
      orderId: text(LINE_CHARS).default("0000"),
      customerName: text(LINE_CHARS).default("there"),
      storeName: text(LINE_CHARS).default("Acme Store"),
      logoUrl: optionalHttpUrl(),
      carrier: text(LINE_CHARS).default("UPS"),
      trackingNumber: text(LINE_CHARS).default(""),
      estimatedDelivery: text(LINE_CHARS).default(""),
      shippingAddress: text(ADDRESS_CHARS).default(""),
      itemCount: z.number().default(1),
      supportEmail: text(EMAIL_CHARS).default("support@example.com"),
      companyAddress: text(ADDRESS_CHARS).default(COMPANY_ADDRESS),
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
    variables: z.looseObject({
      articles: z
        .array(
          z.looseObject({
            title: text(LINE_CHARS),
            summary: text(PARAGRAPH_CHARS),
            url: httpUrl(),
            imageUrl: httpUrl().optional(),
            imageAlt: text(LINE_CHARS).optional(),
          }),
        )
        .max(MAX_ARTICLES, `must list at most ${MAX_ARTICLES} articles`),
      unsubscribeUrl: httpUrl(),
      brandName: text(LINE_CHARS).default("Acme"),
      logoUrl: optionalHttpUrl(),
      issueTitle: text(LINE_CHARS).default("What's new this month"),
      issueNumber: z.number().default(0),
      issueDate: text(LINE_CHARS).default(""),
      intro: text(PARAGRAPH_CHARS).default(
        "Here's a round-up of what we've been working on, and a few things we think you'll enjoy.",
      ),
      ctaLabel: text(LINE_CHARS).default("Read more on our blog"),
      ctaUrl: httpUrl().default("https://example.com/blog"),
      webVersionUrl: optionalHttpUrl(),
      companyAddress: text(ADDRESS_CHARS).default(COMPANY_ADDRESS),
    }),
  }),
  entry({
    slug: "usage-alert",
    name: "Usage alert",
    description: "Warns customers as they approach or hit a plan limit, with a progress bar and an upgrade button.",
    price: "9.00",
    category: "Billing",
    author: AUTHOR,
    previewImageUrl: null,
    file: "emails/usage-alert.tsx",
    component: UsageAlert,
    variables: z.looseObject({
      upgradeUrl: httpUrl(),
      userName: text(LINE_CHARS).default("there"),
      productName: text(LINE_CHARS).default("Acme"),
      logoUrl: optionalHttpUrl(),
      metricName: text(LINE_CHARS).default("API requests"),
      used: z.number().default(8000),
      limit: z.number().default(10000),
      planName: text(LINE_CHARS).default("Free"),
      periodEnd: text(LINE_CHARS).default(""),
      usageUrl: optionalHttpUrl(),
      companyAddress: text(ADDRESS_CHARS).default(COMPANY_ADDRESS),
    }),
  }),
  entry({
    slug: "trial-ending",
    name: "Trial ending",
    description: "Reminds users that their free trial is about to end and asks them to add a payment method.",
    price: "9.00",
    category: "Billing",
    author: AUTHOR,
    previewImageUrl: null,
    file: "emails/trial-ending.tsx",
    component: TrialEnding,
    variables: z.looseObject({
      billingUrl: httpUrl(),
      userName: text(LINE_CHARS).default("there"),
      productName: text(LINE_CHARS).default("Acme"),
      logoUrl: optionalHttpUrl(),
      daysLeft: z.number().default(3),
      trialEndDate: text(LINE_CHARS).default(""),
      planName: text(LINE_CHARS).default("Pro"),
      planPrice: text(LINE_CHARS).default(""),
      supportEmail: text(EMAIL_CHARS).default("support@example.com"),
      companyAddress: text(ADDRESS_CHARS).default(COMPANY_ADDRESS),
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
    variables: z.looseObject({
      updatePaymentUrl: httpUrl(),
      customerName: text(LINE_CHARS).default("there"),
      productName: text(LINE_CHARS).default("Acme"),
      logoUrl: optionalHttpUrl(),
      amount: z.number().default(0),
      currencySymbol: text(LINE_CHARS).default("$"),
      invoiceNumber: text(LINE_CHARS).default(""),
      cardLast4: text(LINE_CHARS).default(""),
      nextRetryDate: text(LINE_CHARS).default(""),
      supportEmail: text(EMAIL_CHARS).default("billing@example.com"),
      companyAddress: text(ADDRESS_CHARS).default(COMPANY_ADDRESS),
    }),
  }),
];
