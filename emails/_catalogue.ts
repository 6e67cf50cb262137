import { z } from "zod";
import type { ComponentType } from "react";

export type CatalogueEntry = {
  slug: string;
  name: string;
  description: string;
  price: string; // decimal string, "0.00" for free
  category: string;
  author: string;
  previewImageUrl: string | null;
  file: string; // path relative to the repository root
  /**
   * The component, imported when first asked for: code that lists or describes templates (most routes) never loads
   * React Email, which is most of a cold start's imports. Each entry's props differ; `entry` below checks every
   * component against its own schema.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  loadComponent: () => Promise<ComponentType<any>>;
  variables: z.ZodObject; // props schema: required vars have no default
};

/**
 * Ties a component to its variables schema so TypeScript checks that the
 * schema's parsed output is a valid props object for the component.
 */
function entry<S extends z.ZodObject>({
  module,
  ...value
}: Omit<CatalogueEntry, "loadComponent" | "variables"> & {
  variables: S;
  module: () => Promise<{ default: ComponentType<z.output<S>> }>;
}): CatalogueEntry {
  return { ...value, loadComponent: () => module().then((loaded) => loaded.default) };
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

/** Variables several templates take, with the same meaning and description in each. */
const shared = {
  companyAddress: () =>
    text(ADDRESS_CHARS).default(COMPANY_ADDRESS).describe("Your postal address, shown in the footer."),
  unsubscribeUrl: (label: string) =>
    optionalHttpUrl().describe(
      `http(s) unsubscribe URL, linked as "${label}" in the footer; empty for no link (mail sent to many people should have one).`,
    ),
  customerName: () =>
    text(LINE_CHARS).default("there").describe("Customer's first name, used in the opening line, e.g. Ada."),
  productName: () =>
    text(LINE_CHARS)
      .default("Acme")
      .describe("Your product or company name, shown in the header when there is no logo and throughout the copy."),
  userName: () =>
    text(LINE_CHARS).default("there").describe('Account owner\'s first name, used in the greeting ("Hi Ada,").'),
  logoUrl: (shownInstead: "product" | "store") =>
    optionalHttpUrl().describe(
      `http(s) URL of your logo, shown 32 px tall in the header; empty to show the ${shownInstead} name as text instead.`,
    ),
};

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
    module: () => import("./welcome"),
    variables: z.looseObject({
      userName: text(LINE_CHARS)
        .default("there")
        .describe("Recipient's first name, shown in the heading and the preview text, e.g. Ada."),
      productName: text(LINE_CHARS)
        .default("Acme")
        .describe("Your product or company name, shown in the header when there is no logo, the heading and the copy."),
      logoUrl: shared.logoUrl("product"),
      dashboardUrl: httpUrl()
        .default("https://example.com/dashboard")
        .describe('http(s) URL the "Go to your dashboard" button opens.'),
      docsUrl: httpUrl()
        .default("https://example.com/docs")
        .describe('http(s) URL of your documentation, linked as "getting-started guide".'),
      supportEmail: text(EMAIL_CHARS)
        .default("support@example.com")
        .describe("Address users can write to for help, shown as a mailto link, e.g. help@acme.example."),
      companyAddress: shared.companyAddress(),
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
    module: () => import("./verify-email"),
    variables: z.looseObject({
      verifyUrl: httpUrl().describe(
        "http(s) URL with the one-time token that confirms the address, opened by the button and printed below it for copying.",
      ),
      userName: text(LINE_CHARS)
        .default("there")
        .describe('Recipient\'s first name, used in the greeting ("Hi Ada,").'),
      productName: shared.productName(),
      logoUrl: shared.logoUrl("product"),
      verificationCode: text(LINE_CHARS)
        .default("")
        .describe(
          "Code the user can type instead of clicking, shown large below the button, e.g. 730194; empty to leave it out.",
        ),
      expiresInHours: z
        .number()
        .default(24)
        .describe('Hours the link stays valid, stated in the copy ("The link expires in 24 hours").'),
      companyAddress: shared.companyAddress(),
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
    module: () => import("./magic-link"),
    variables: z.looseObject({
      loginUrl: httpUrl().describe(
        "http(s) single-use sign-in URL, opened by the button and printed below it for copying.",
      ),
      productName: shared.productName(),
      logoUrl: shared.logoUrl("product"),
      userEmail: text(EMAIL_CHARS)
        .default("")
        .describe(
          "Address the sign-in was requested for, named in the copy, e.g. ada@example.com; empty to leave it out.",
        ),
      loginCode: text(LINE_CHARS)
        .default("")
        .describe(
          "One-time code the user can type instead of clicking, shown large below the button, e.g. 482913; empty to leave it out.",
        ),
      expiresInMinutes: z
        .number()
        .default(15)
        .describe("Minutes the link stays valid, stated in the preview text and the copy."),
      companyAddress: shared.companyAddress(),
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
    module: () => import("./password-reset"),
    variables: z.looseObject({
      resetUrl: httpUrl().describe(
        "http(s) reset URL with the one-time token, opened by the button and printed below it for copying.",
      ),
      userName: shared.userName(),
      productName: shared.productName(),
      logoUrl: shared.logoUrl("product"),
      expiresInMinutes: z
        .number()
        .default(60)
        .describe('Minutes the link stays valid, stated in the copy; whole hours read as hours (120 is "2 hours").'),
      requestedFrom: text(LINE_CHARS)
        .default("")
        .describe(
          'Where the request came from, added to the copy as "from …", e.g. Firefox on Windows, London; empty to leave it out.',
        ),
      supportEmail: text(EMAIL_CHARS)
        .default("support@example.com")
        .describe("Address to contact if someone else asked for the reset, shown as a mailto link."),
      companyAddress: shared.companyAddress(),
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
    module: () => import("./team-invite"),
    variables: z.looseObject({
      inviteUrl: httpUrl().describe(
        "http(s) URL that accepts the invitation, opened by the button and printed below it for copying.",
      ),
      inviterName: text(LINE_CHARS)
        .default("A teammate")
        .describe(
          "Name of the person who sent the invitation, shown in the copy, the preview text and the footer, e.g. Grace Hopper.",
        ),
      inviterEmail: text(EMAIL_CHARS)
        .default("")
        .describe("Inviter's email address, shown as a mailto link after their name; empty to leave it out."),
      teamName: text(LINE_CHARS)
        .default("their team")
        .describe(
          "Name of the team or workspace the invitee joins, shown in the heading and the copy, e.g. Compiler Team.",
        ),
      productName: shared.productName(),
      logoUrl: shared.logoUrl("product"),
      role: text(LINE_CHARS).default("Member").describe("Role the invitee will have, shown in the copy, e.g. Admin."),
      expiresInDays: z.number().default(7).describe("Days until the invitation expires, stated below the button."),
      companyAddress: shared.companyAddress(),
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
    module: () => import("./receipt"),
    variables: z.looseObject({
      orderId: text(LINE_CHARS).describe(
        "Order number shown after # in the order details and the preview text, e.g. A-10482.",
      ),
      items: z
        .array(
          z.looseObject({
            name: text(LINE_CHARS).describe("Product or service name, e.g. Brass pen."),
            quantity: z.number().describe("Number of units; the line amount is quantity × unitPrice."),
            unitPrice: z
              .number()
              .describe("Price of one unit in the store's currency, a number without the symbol, e.g. 18.5."),
          }),
        )
        .max(MAX_ITEMS, `must list at most ${MAX_ITEMS} items`)
        .describe(
          "Purchased items, one row each with quantity, unit price and line amount; the subtotal is the sum of the lines.",
        ),
      customerName: shared.customerName(),
      storeName: text(LINE_CHARS)
        .default("Acme Store")
        .describe("Your store's name, shown in the header when there is no logo, the preview text and the footer."),
      logoUrl: shared.logoUrl("store"),
      orderDate: text(LINE_CHARS)
        .default("")
        .describe("Order date as it should read, e.g. March 4, 2025; empty to leave it out."),
      currencySymbol: text(LINE_CHARS)
        .default("$")
        .describe("Symbol placed before every amount, e.g. $ or €; amounts show two decimals."),
      currency: z
        .union([
          z.literal(""),
          z
            .string()
            .max(3)
            .regex(/^[A-Z]{3}$/, "must be an ISO 4217 currency code, e.g. EUR"),
        ])
        .default("")
        .describe(
          "ISO 4217 currency code, e.g. EUR or BRL: every amount is then written as the email's language writes it (€92.23, 92,23 €, R$ 92,23), and currencySymbol is not used; empty for currencySymbol and two decimals.",
        ),
      shippingAmount: z.number().default(0).describe("Shipping cost, added to the total; its row is left out when 0."),
      taxAmount: z.number().default(0).describe("Tax, added to the total; its row is left out when 0."),
      discountAmount: z
        .number()
        .default(0)
        .describe("Discount as a positive number, subtracted from the total; its row is left out when 0."),
      paymentMethod: text(LINE_CHARS)
        .default("")
        .describe("Payment method as it should read, e.g. Visa ending in 4242; empty to leave it out."),
      orderUrl: optionalHttpUrl().describe(
        'http(s) URL of the order in your app, opened by the "View your order" button; empty for no button.',
      ),
      supportEmail: text(EMAIL_CHARS)
        .default("support@example.com")
        .describe("Address for questions about the order, shown as a mailto link."),
      companyAddress: shared.companyAddress(),
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
    module: () => import("./order-shipped"),
    variables: z.looseObject({
      trackingUrl: httpUrl().describe(
        'http(s) URL of the carrier\'s tracking page, opened by the "Track your package" button and a link below it.',
      ),
      orderId: text(LINE_CHARS)
        .default("0000")
        .describe("Order number shown after # in the copy, the details and the preview text, e.g. A-10482."),
      customerName: shared.customerName(),
      storeName: text(LINE_CHARS)
        .default("Acme Store")
        .describe("Your store's name, shown in the header when there is no logo and in the footer."),
      logoUrl: shared.logoUrl("store"),
      carrier: text(LINE_CHARS)
        .default("UPS")
        .describe("Shipping carrier, named in the copy and the details, e.g. UPS."),
      trackingNumber: text(LINE_CHARS)
        .default("")
        .describe("Carrier's tracking number, listed in the details, e.g. 1Z999AA10123456784; empty to leave it out."),
      estimatedDelivery: text(LINE_CHARS)
        .default("")
        .describe(
          "Delivery estimate as it should read, e.g. Thursday, March 6, listed in the details and the preview text; empty to leave it out.",
        ),
      estimatedDeliveryDate: z
        .union([z.literal(""), z.iso.date({ error: "must be a date, YYYY-MM-DD" }).max(10)])
        .default("")
        .describe(
          "Delivery estimate as a date, YYYY-MM-DD, e.g. 2025-03-06: written out in the email's language (Thursday, March 6; jeudi 6 mars) and shown instead of estimatedDelivery; empty to leave it out.",
        ),
      shippingAddress: text(ADDRESS_CHARS)
        .default("")
        .describe('Delivery address on one line, listed in the details as "Shipping to"; empty to leave it out.'),
      itemCount: z.number().default(1).describe('Number of items in the package, listed in the details ("3 items").'),
      supportEmail: text(EMAIL_CHARS)
        .default("support@example.com")
        .describe("Address for delivery problems, shown as a mailto link."),
      companyAddress: shared.companyAddress(),
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
    module: () => import("./newsletter"),
    variables: z.looseObject({
      articles: z
        .array(
          z.looseObject({
            title: text(LINE_CHARS).describe(
              "Article headline, shown as a heading linked to the article, e.g. Introducing scheduled sends.",
            ),
            summary: text(PARAGRAPH_CHARS).describe("One or two sentences shown under the headline."),
            url: httpUrl().describe(
              'http(s) URL of the full article, linked from the headline, the cover image and "Continue reading".',
            ),
            imageUrl: httpUrl()
              .optional()
              .describe(
                "http(s) URL of a cover image shown above the headline, ideally 1072 px wide; leave out for none.",
              ),
            imageAlt: text(LINE_CHARS)
              .optional()
              .describe("Alt text of the cover image; the title is used when it is left out or empty."),
          }),
        )
        .max(MAX_ARTICLES, `must list at most ${MAX_ARTICLES} articles`)
        .describe('Articles of this issue in order, each with its headline, summary and a "Continue reading" link.'),
      unsubscribeUrl: shared.unsubscribeUrl("Unsubscribe"),
      brandName: text(LINE_CHARS)
        .default("Acme")
        .describe(
          "Publication or company name, shown in the header when there is no logo, the preview text and the footer.",
        ),
      logoUrl: optionalHttpUrl().describe(
        "http(s) URL of your logo, shown 32 px tall in the header; empty to show the brand name as text instead.",
      ),
      issueTitle: text(LINE_CHARS)
        .default("What's new this month")
        .describe("Headline of this issue, shown as the heading and in the preview text."),
      issueNumber: z
        .number()
        .default(0)
        .describe('Issue number, shown above the heading as "Issue #42"; hidden when 0.'),
      issueDate: text(LINE_CHARS)
        .default("")
        .describe(
          "Publication date as it should read, shown above the heading, e.g. March 2025; empty to leave it out.",
        ),
      intro: text(PARAGRAPH_CHARS)
        .default("Here's a round-up of what we've been working on, and a few things we think you'll enjoy.")
        .describe("Introductory paragraph shown above the articles."),
      ctaLabel: text(LINE_CHARS).default("Read more on our blog").describe("Text of the button after the articles."),
      ctaUrl: httpUrl()
        .default("https://example.com/blog")
        .describe("http(s) URL the button after the articles opens."),
      webVersionUrl: optionalHttpUrl().describe(
        'http(s) URL of this issue on the web, linked as "View in browser" in the header; empty for no link.',
      ),
      companyAddress: text(ADDRESS_CHARS)
        .default(COMPANY_ADDRESS)
        .describe(
          "Your postal address, shown in the footer (anti-spam laws such as CAN-SPAM require one in marketing email).",
        ),
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
    module: () => import("./usage-alert"),
    variables: z.looseObject({
      upgradeUrl: httpUrl().describe('http(s) URL the "Upgrade your plan" button opens.'),
      userName: shared.userName(),
      productName: shared.productName(),
      logoUrl: shared.logoUrl("product"),
      metricName: text(LINE_CHARS)
        .default("API requests")
        .describe("What is metered, named in the heading, the copy and the usage bar, e.g. API requests."),
      used: z
        .number()
        .default(8000)
        .describe('Amount used so far this period, shown against the limit ("8,000 / 10,000") and as a percentage.'),
      limit: z
        .number()
        .default(10000)
        .describe(
          "The plan's limit for the period; once used reaches it, or when it is 0, the email says the limit is reached.",
        ),
      planName: text(LINE_CHARS).default("Free").describe("Name of the current plan, named in the copy, e.g. Starter."),
      periodEnd: text(LINE_CHARS)
        .default("")
        .describe(
          "End of the billing period as it should read, shown as when usage resets, e.g. March 31; empty to leave it out.",
        ),
      usageUrl: optionalHttpUrl().describe(
        "http(s) URL of your usage dashboard, linked below the button; empty for no link.",
      ),
      companyAddress: shared.companyAddress(),
      unsubscribeUrl: shared.unsubscribeUrl("Stop usage alerts"),
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
    module: () => import("./trial-ending"),
    variables: z.looseObject({
      billingUrl: httpUrl().describe(
        'http(s) URL where the user adds a payment method, opened by the "Add a payment method" button.',
      ),
      userName: shared.userName(),
      productName: shared.productName(),
      logoUrl: shared.logoUrl("product"),
      daysLeft: z
        .number()
        .default(3)
        .describe(
          'Days left in the trial, shown in the heading and the preview text: 0 or less reads "today", 1 "tomorrow", more "in 3 days".',
        ),
      trialEndDate: text(LINE_CHARS)
        .default("")
        .describe(
          "Trial's end date as it should read, added in brackets after the days left, e.g. Friday, March 7; empty to leave it out.",
        ),
      planName: text(LINE_CHARS)
        .default("Pro")
        .describe("Name of the plan being trialled, named in the heading and the copy, e.g. Pro."),
      planPrice: text(LINE_CHARS)
        .default("")
        .describe(
          "The plan's price as it should read, in a sentence of its own, e.g. $29/month; empty to leave it out.",
        ),
      supportEmail: text(EMAIL_CHARS)
        .default("support@example.com")
        .describe("Address for questions about plans, shown as a mailto link."),
      companyAddress: shared.companyAddress(),
      unsubscribeUrl: shared.unsubscribeUrl("Unsubscribe"),
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
    module: () => import("./payment-failed"),
    variables: z.looseObject({
      updatePaymentUrl: httpUrl().describe(
        'http(s) URL where the customer updates their payment method, opened by the "Update payment method" button.',
      ),
      customerName: text(LINE_CHARS)
        .default("there")
        .describe('Customer\'s first name, used in the greeting ("Hi Ada,").'),
      productName: shared.productName(),
      logoUrl: shared.logoUrl("product"),
      amount: z
        .number()
        .default(0)
        .describe("Amount of the declined charge, shown with the currency symbol and two decimals (49 reads $49.00)."),
      currencySymbol: text(LINE_CHARS).default("$").describe("Symbol placed before the amount, e.g. $ or €."),
      invoiceNumber: text(LINE_CHARS)
        .default("")
        .describe("Invoice number, listed in the details, e.g. INV-2025-0314; empty to leave it out."),
      cardLast4: text(LINE_CHARS)
        .default("")
        .describe("Last four digits of the declined card, shown as •••• 4242; empty to leave it out."),
      nextRetryDate: text(LINE_CHARS)
        .default("")
        .describe("Date of the next automatic retry as it should read, e.g. March 10; empty to leave it out."),
      supportEmail: text(EMAIL_CHARS)
        .default("billing@example.com")
        .describe("Address for billing questions, shown as a mailto link."),
      companyAddress: shared.companyAddress(),
    }),
  }),
];
